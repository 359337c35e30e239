// Issue 32: budgets and the window-level cascade say and do what the spec says: max_tokens is a hard
// limit, the cascade sheds what loses least first, and a request still over the window says what
// is left in it and why.
import { describe, expect, it } from 'vitest';
import { countTokens } from '../../../src/engine/tokens.ts';
import { validateScenario } from '../../../src/engine/validate.ts';
import { append, assistant, detail, run, scenario, user, words } from '../../builders.ts';
import { RHAI } from '../../../src/engine/custom-script.ts';

describe('7. min_tokens above max_tokens', () => {
  // spec: "Use `max_tokens` and `threshold_tokens` when you need a limit that really is hard."
  const toml = '[context.regions]\nnotes = { kind = "temporary", budget = "5%", max_tokens = 100, min_tokens = 200 }\n';

  it('the region gets max_tokens, never the floor above it', () => {
    const t = run(toml, [append('notes', words(150), 'a'), assistant('ok')], { model: { window: 10_000 } });
    expect(t.regions.find((r) => r.name === 'notes')!.budget).toBe(100);
    // 150 tokens do not fit a 100-token region: dropped alone on arrival, as the cap says.
    expect(t.steps[0]!.regions.notes).toMatchObject({ tokens: 0, budget: 100 });
  });

  it('lev validate says max_tokens wins and the floor is never met', () => {
    const d = validateScenario(scenario(toml, []), RHAI).diagnostics.find(
      (x) => x.path === 'context.regions.notes.min_tokens',
    )!;
    expect([d.code, d.severity]).toEqual(['malformed-budget', 'warning']);
    expect(d.message).toBe(
      '`min_tokens` (200) is above `max_tokens` (100); max_tokens is a hard limit and wins, so the region never gets more than 100 ' +
        'and the floor is never met. Lower min_tokens or raise max_tokens.',
    );
  });

  it('a min_tokens over the model window says nothing when max_tokens keeps the region under it', () => {
    const capped =
      '[context.regions]\nnotes = { kind = "temporary", budget = "5%", max_tokens = 1000, min_tokens = 200000 }\n';
    expect(
      validateScenario(scenario(capped, []), RHAI)
        .diagnostics.map((d) => d.code)
        .filter((c) => c !== 'task-not-seeded'),
    ).toEqual(['malformed-budget']);
  });
});

describe('the window-level cascade sheds what loses least first', () => {
  // DESIGN.md (where the spec is silent): "The window-level cascade sheds what loses least first:
  // temporary and non-persistent custom, clearable, then compacting and compact_history (they
  // summarize), then sliding_window, then hashmap". spec: compacting "Summarizes instead of evicting".
  const toml = `[context.regions]
task = { kind = "pinned", seed = "task_input" }
conversation = { kind = "sliding_window", max_items = 50, max_tokens = 5000 }
codebase = { kind = "compacting", max_tokens = 5000 }
facts = { kind = "hashmap", max_tokens = 5000 }
`;
  const src = (name: string) => `fn ${name}() {\n${words(200)}\n}`;

  it('summarizes the compacting region before the conversation loses its only user message', () => {
    const traffic = [
      append('facts', words(100), 'k'),
      append('codebase', src('a'), 'src/a.rs'),
      append('codebase', src('b'), 'src/b.rs'),
      user(words(300, 'beta')),
      assistant('ok'),
    ];
    const t = run(toml, traffic, { model: { window: 800 }, inputs: { task: 'Fix it' } });
    const step = t.steps[4]!;
    const cascade = step.changes.filter((c) => c.type === 'cascade');
    // Only as much as the request needs: the oldest read folds, the newer one stays whole.
    expect(cascade).toEqual([
      {
        type: 'cascade',
        region: 'codebase',
        tokens: cascade[0]!.tokens,
        entries: ['src/a.rs'],
        reason: 'request exceeded the model window',
      },
    ]);
    expect(step.regions.codebase).toMatchObject({ entries: 2 });
    // The user message is still there (the reply joins after the request).
    expect(step.regions.conversation).toMatchObject({ entries: 2, tokens: 301 });
    expect(step.regions.facts).toMatchObject({ entries: 1, tokens: 100 });
    expect(step.request!.overWindow).toBe(false);
  });

  it('a non-persistent custom region sheds with temporary, a persistent one never', () => {
    const custom = `[context.regions]
task = { kind = "pinned", seed = "task_input" }
notes = { kind = "custom", script = "n.rhai" }
keep = { kind = "custom", script = "n.rhai", persistent = true }
codebase = { kind = "compacting", max_tokens = 5000 }
`;
    const agent = {
      'agent.leviath': custom,
      'n.rhai': 'fn render(ctx) { let out = []; for e in ctx.entries { out.push(e.content); } #{ system: out } }\n',
    };
    const traffic = [
      append('codebase', src('a'), 'src/a.rs'),
      append('notes', words(300), 'n'),
      append('keep', words(300), 'k'),
      assistant('ok'),
    ];
    const t = run(custom, traffic, { model: { window: 700 }, inputs: { task: 'Fix it' }, agent });
    expect(t.steps[3]!.changes.filter((c) => c.type === 'cascade').map((c) => c.region)).toEqual(['notes']);
    expect(t.steps[3]!.regions.keep).toMatchObject({ tokens: 300 });
  });
});

describe('a request over the window even after the cascade', () => {
  // DESIGN.md: "pinned, checklist, persistent custom and `admission = \"reject\"` regions are exempt";
  // spec (custom-regions.md): persistent = true "behaves pinned-like". The warning names what is
  // left, not a list of kinds that may not be the ones there.
  it('names what is left and why it stayed, a persistent custom region among them', () => {
    const toml = `[context.regions]
task = { kind = "pinned", seed = "task_input" }
brain = { kind = "custom", script = "b.rhai", persistent = true }
codebase = { kind = "compacting", max_tokens = 5000 }
`;
    const agent = {
      'agent.leviath': toml,
      'b.rhai': 'fn render(ctx) { let out = []; for e in ctx.entries { out.push(e.content); } #{ system: out } }\n',
    };
    const traffic = [
      append('codebase', `fn a() {\n${words(300)}\n}`, 'src/a.rs'),
      append('brain', words(900), 'notes'),
      assistant('ok'),
    ];
    const t = run(toml, traffic, { model: { window: 700 }, inputs: { task: 'Fix it' }, agent });
    const step = t.steps[2]!;
    expect(step.request!.overWindow).toBe(true);
    const summary = step.regions.codebase!.tokens;
    expect(step.warnings).toEqual([
      `request is ${step.request!.requestTokens.toLocaleString('en-US')} tokens, over the 700-token window even after the cascade; ` +
        `still in it: task 2 tokens (pinned: never shed), brain 900 tokens (custom with persistent = true: never shed), ` +
        `codebase ${summary} tokens (compacting: shed one summary, nothing left to fold)`,
    ]);
  });
});

describe('8. admission = "reject" refusing a write no agent made: the model is told', () => {
  // spec: "Now a write that does not fit fails, and the agent is told the region is full and to
  // release something first."
  const toml =
    '[context.regions]\ntask = { kind = "pinned", seed = "task_input" }\nconversation = { kind = "sliding_window", max_tokens = 6, admission = "reject" }\n';
  const traffic = [user('one two three'), user('four five six seven eight'), assistant('ok'), assistant('done')];

  it('the next request ends with what was refused and what to do; the one after does not repeat it', () => {
    const t = run(toml, traffic, { inputs: { task: 'Fix it' } });
    expect(t.steps[1]!.warnings).toEqual([
      'conversation (admission = "reject") refused a user message of 5 tokens: it holds 3 of 6 tokens in 1 entries',
    ]);
    const told =
      '[conversation is full (admission = "reject"): a user message of 5 tokens was not added; it holds 3 of 6 tokens in 1 entries. Release something with context_delete first.]';
    const first = detail(toml, traffic, 2, { inputs: { task: 'Fix it' } }).request;
    expect(first.messages.map((m) => [m.region, m.role, m.content])).toEqual([
      ['conversation', 'user', 'one two three'],
      ['(runtime)', 'user', told],
    ]);
    expect(t.steps[2]!.request!.messageTokens).toBe(3 + countTokens(told));
    const second = detail(toml, traffic, 3, { inputs: { task: 'Fix it' } }).request;
    expect(second.messages.map((m) => m.content)).toEqual(['one two three', 'ok']);
  });

  it("the request a step would send (the inspector's preview) carries it too", () => {
    const preview = detail(toml, traffic, 1, { inputs: { task: 'Fix it' } }).request;
    expect(preview.messages.at(-1)!.region).toBe('(runtime)');
  });
});
