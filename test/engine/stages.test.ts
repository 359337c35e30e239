import { describe, expect, it } from 'vitest';
import {
  COMPACT_EDGE,
  append,
  assistant,
  call,
  detail,
  figures,
  result,
  run,
  user,
  words,
  transition,
} from '../builders.ts';
import type { TrafficEvent } from '../../src/engine/scenario.ts';

const todo = (item: string): TrafficEvent => ({ type: 'todo_add', region: 'todos', item });

const twoStages = (regions: string) => `[context.regions]
${regions}

[stages.plan]
system_prompt = "Plan the work."
[stages.plan.transitions.build]

[stages.build]
system_prompt = "Build it."
`;

describe('stage instructions', () => {
  it('go into the first pinned region when stage_instructions is not declared', () => {
    const toml = twoStages('task = { kind = "pinned" }\nnotes = { kind = "temporary" }');
    const d = detail(toml, [assistant('ok')], 0, { inputs: { task: 'Fix the failing test' } });
    expect(d.request.system.map((b) => [b.region, b.text])).toEqual([
      ['task', '[task]:\nFix the failing test\nPlan the work.'],
    ]);
    const t = run(toml, [transition('build'), assistant('ok')], { inputs: { task: 'Fix the failing test' } });
    expect(t.summary.ledger).toEqual({ plan: { task: 8 }, build: { task: 3, conversation: 1 } });
    expect(figures(t.steps[0]!, 'task')).toEqual({ task: [7, 2] });
  });

  it('go into a declared stage_instructions region, assembled after every other pinned block', () => {
    const toml = twoStages(
      'notes = { kind = "temporary" }\nstage_instructions = { kind = "pinned" }\ntask = { kind = "pinned" }\nrules = { kind = "pinned", seed = { literal = "Never edit generated files." } }',
    );
    const traffic: TrafficEvent[] = [append('notes', 'n1'), assistant('one'), transition('build'), assistant('two')];
    const extra = { inputs: { task: 'Fix the failing test' } };
    const first = detail(toml, traffic, 1, extra).request;
    expect(first.system.map((b) => b.region)).toEqual(['task', 'rules', 'stage_instructions', 'notes']);
    expect(first.system.map((b) => b.cache)).toEqual(['always', 'always', 'always', 'until-changed']);
    const second = detail(toml, traffic, 3, extra).request;
    expect(second.system[2]!.text).toBe('[stage_instructions]:\nBuild it.');
    // Everything in front of stage_instructions is byte-identical across the stage change.
    expect(second.system.slice(0, 2)).toEqual(first.system.slice(0, 2));
    const t = run(toml, traffic, extra);
    const before = first.system[0]!.tokens + first.system[1]!.tokens;
    expect(t.steps[3]!.request!.prefixTokens).toBe(before);
    expect(t.summary.ledger.plan).toEqual({ task: 4, rules: 5, stage_instructions: 4, notes: 2, conversation: 1 });
    expect(t.summary.ledger.build).toEqual({ stage_instructions: 3, conversation: 1 });
  });
});

describe('transitions and gates', () => {
  const gated = (extra = '') => `[context.regions]
todos = { kind = "checklist" }

[stages.implement]
system_prompt = "Implement."
${extra}
[stages.implement.transitions.review]
gate = { require_no_open_items = "todos", message = "Finish or explicitly drop the open items first." }

[stages.review]
system_prompt = "Review."
`;

  it('refuses with a nudge naming the open items, and passes once they are done', () => {
    const t = run(gated(), [
      todo('compute the fee table'),
      todo('write docs'),
      transition('review'),
      { type: 'todo_done', region: 'todos', id: 1 },
      { type: 'todo_done', region: 'todos', id: 2 },
      transition('review'),
    ]);
    expect(t.steps[2]!.result).toEqual({
      ok: false,
      message:
        'Finish or explicitly drop the open items first. Open in todos: #1 compute the fee table; #2 write docs. (attempt 1 of 3)',
    });
    expect(t.steps[2]!.stage).toBe('implement');
    expect(t.steps[5]!.result).toEqual({ ok: true, message: 'moved from implement to review' });
    expect(t.steps[5]!.stage).toBe('review');
    // The nudge reaches the model as a message.
    expect(figures(t.steps[2]!, 'conversation')).toEqual({
      conversation: [t.steps[2]!.regions.conversation!.tokens, 1],
    });
  });

  it('shares max_attempts, after which the run moves on instead of wedging', () => {
    const t = run(gated('max_attempts = 2'), [
      todo('never done'),
      transition('review'),
      transition('review'),
      assistant('in review'),
    ]);
    expect(t.steps[1]!.result!.ok).toBe(false);
    expect(t.steps[2]!.result).toEqual({
      ok: true,
      message: 'moved from implement to review (gate not satisfied; max_attempts reached)',
    });
    expect(t.steps[2]!.warnings[0]).toMatch(
      /^stage implement: gate still refused after 2 attempts; moving on to review anyway/,
    );
    expect(t.steps[3]!.stage).toBe('review');
  });

  it('re-runs a stage while a required region is empty, with required_message', () => {
    const toml = `[context.regions]
plan = { kind = "temporary", required = true, required_message = "Write the plan into {region} first." }
[stages.a.transitions.b]
[stages.b]
`;
    const t = run(toml, [transition('b'), append('plan', 'step 1'), transition('b')]);
    expect(t.steps[0]!.result!.message).toBe('Write the plan into plan first. (attempt 1 of 3)');
    expect(t.steps[2]!.result).toEqual({ ok: true, message: 'moved from a to b' });
  });

  it('refuses a transition the stage does not declare', () => {
    const t = run(gated(), [transition('nowhere')]);
    expect(t.steps[0]!.result).toEqual({
      ok: false,
      message: 'stage implement has no transition to "nowhere" (declared: review)',
    });
  });
});

describe('edge transform and compact_history', () => {
  const toml = COMPACT_EDGE;
  it('compact summarizes summarizable regions only; history carries the source forward', () => {
    const t = run(toml, [
      append('codebase', words(50), 'src/a.rs'),
      append('codebase', words(50), 'src/b.rs'),
      append('keep', words(20), 'k'),
      transition('build'),
    ]);
    const step = t.steps[3]!;
    const compacted = step.changes.filter((c) => c.type === 'compact').map((c) => [c.region, c.entries]);
    expect(compacted).toContainEqual(['codebase', ['src/a.rs', 'src/b.rs']]);
    expect(compacted.some(([region]) => region === 'keep')).toBe(false);
    expect(figures(step, 'keep')).toEqual({ keep: [20, 1] });
    expect(step.regions.codebase!.entries).toBe(1);
    expect(step.regions.history!.entries).toBe(1);
    const d = detail(
      toml,
      [append('codebase', words(50), 'src/a.rs'), append('codebase', words(50), 'src/b.rs'), transition('build')],
      2,
    );
    const history = d.regions.find((r) => r.name === 'history')!;
    expect(history.entries[0]!.content).toBe(
      '[summary of 2 entries from codebase in stage explore] src/a.rs; src/b.rs',
    );
    expect(history.entries[0]!.key).toBe('explore: codebase');
    expect(history.entries[0]!.folded).toEqual({ entries: 2, tokens: 100 });
  });
});

describe('per-stage layouts', () => {
  it('hides regions a stage leaves out, keeping their content', () => {
    const toml = `[context.regions]
scratch = { kind = "temporary" }
[stages.a]
[stages.a.transitions.b]
[stages.b.context.regions]
notes = { kind = "temporary" }
`;
    const t = run(toml, [
      append('scratch', 'x1'),
      transition('b'),
      append('scratch', 'x2'),
      append('notes', 'n'),
      assistant(''),
    ]);
    expect(t.steps[1]!.regions.scratch).toEqual({ tokens: 2, budget: 5000, entries: 1, visible: false });
    expect(t.steps[2]!.result!.message).toMatch(/^region scratch is not part of stage b's layout/);
    const d = detail(toml, [append('scratch', 'x1'), transition('b'), append('notes', 'n'), assistant('')], 3);
    expect(d.request.system.map((b) => b.region)).toEqual(['notes']);
  });
});

describe('tool routing', () => {
  const toml = `[context.regions]
codebase = { kind = "compacting", max_tokens = 50000 }
scratch = { kind = "temporary" }

[stages.work.tool_routing]
default_region = "scratch"
max_result_tokens = 100
[stages.work.tool_routing.overrides]
read_file = { region = "codebase", max_result_tokens = 2000 }
grep = "tool_results"
`;
  it('routes by override and default, leaving a paired stub behind', () => {
    const traffic = [
      ...call('c1', 'read_file', 1500, { path: 'src/lib.rs' }),
      ...call('c2', 'list_dir', 50),
      ...call('c3', 'grep', 80),
      assistant('done'),
    ];
    const t = run(toml, traffic);
    expect(t.steps[1]!.result).toEqual({ ok: true, message: '[routed to codebase: 1,500 tokens]' });
    expect(t.steps[3]!.result).toEqual({ ok: true, message: '[routed to scratch: 50 tokens]' });
    expect(t.steps[5]!.result).toEqual({ ok: true, message: '80 tokens to tool_results' });
    expect(figures(t.steps[6]!, 'codebase', 'scratch')).toEqual({ codebase: [1500, 1], scratch: [50, 1] });
    const d = detail(toml, traffic, 6);
    expect(
      d.request.messages.map((m) => [
        m.role,
        m.tool_call_id ?? m.tool_calls?.[0]?.id,
        m.role === 'tool' ? m.content.split('\n')[0] : '',
      ]),
    ).toEqual([
      ['assistant', 'c1', ''],
      ['tool', 'c1', '[routed to codebase: 1,500 tokens]'],
      ['assistant', 'c2', ''],
      ['tool', 'c2', '[routed to scratch: 50 tokens]'],
      ['assistant', 'c3', ''],
      ['tool', 'c3', 'grep output'],
    ]);
    expect(d.request.messages[5]!.tokens).toBe(80);
    expect(d.regions.find((r) => r.name === 'codebase')!.entries[0]!.key).toBe('src/lib.rs');
  });

  it('writes a result routed to a message-section region as the tool message itself, with no stub', () => {
    const t = run(
      '[context.regions]\nchat = { kind = "sliding_window", max_items = 10 }\n[stages.s.tool_routing]\ndefault_region = "chat"',
      [...call('c1', 'grep', 20), assistant('')],
    );
    expect(t.steps[1]!.result).toEqual({ ok: true, message: '20 tokens to chat' });
    expect(t.steps[1]!.regions.tool_results!.entries).toBe(0);
    expect(t.steps[2]!.request!.strippedBlocks).toBe(0);
  });

  it('sends a result routed to a runtime region the stage does not carry to tool_results, with a warning', () => {
    const t = run(
      '[context.regions]\ntask = { kind = "pinned" }\n[stages.s.tool_routing]\ndefault_region = "stage_instructions"',
      call('c1', 'grep', 20),
    );
    expect(t.steps[1]!.warnings).toEqual([
      'grep result routed to stage_instructions, which stage s does not carry; it went to tool_results',
    ]);
    expect(t.steps[1]!.regions.tool_results).toMatchObject({ tokens: 20, entries: 1 });
  });

  it('caps results at the per-tool and stage ceilings', () => {
    const t = run(toml, [...call('c1', 'read_file', 2500), ...call('c2', 'shell', 300)]);
    const cut1 = t.steps[1]!.changes.find((c) => c.type === 'truncate')!;
    expect(cut1.reason).toBe('max_result_tokens 2,000');
    expect(t.steps[1]!.regions.codebase!.tokens).toBeLessThanOrEqual(2000);
    expect(t.steps[3]!.regions.scratch!.tokens).toBeLessThanOrEqual(100);
    expect(t.steps[3]!.changes.find((c) => c.type === 'truncate')!.reason).toBe('max_result_tokens 100');
  });

  it("applies read_file's own byte cap with a notice in the result", () => {
    const big = 'line of a long file\n'.repeat(8000);
    const t = run(
      '[context.regions]\ncodebase = { kind = "compacting", max_tokens = 100000 }\n[stages.s.tool_routing]\ndefault_region = "codebase"',
      [
        assistant('', ['c1', 'read_file', { path: 'big.txt' }]),
        { type: 'tool_result', tool_call_id: 'c1', tool_name: 'read_file', content: big },
      ],
    );
    const cut = t.steps[1]!.changes.find((c) => c.type === 'truncate')!;
    expect(cut.reason).toBe(
      "[read_file: showing the first 100,000 of 160,000 bytes; the file is longer than read_file's 100,000-byte cap]",
    );
  });
});

describe('seeds', () => {
  it('seeds the task implicitly and refuses a task nothing takes', () => {
    const t = run('[context.regions]\ntask = { kind = "pinned" }', [assistant('')], { inputs: { task: 'Fix it' } });
    expect(t.spawn.regions.task).toEqual({ tokens: 2, budget: 5000, entries: 1, visible: true });
    const refused = (() => {
      try {
        run('[context.regions]\nnotes = { kind = "pinned" }', [assistant('')], { inputs: { task: 'Fix it' } });
        return '';
      } catch (e) {
        return String(e);
      }
    })();
    expect(refused).toMatch(/task-not-seeded/);
  });

  it('reads files and commands only as allowed', () => {
    const toml = `[context.regions]
readme = { kind = "pinned", seed = { files = ["README.md"] } }
env = { kind = "pinned", seed = { command = "git log --oneline -1" } }
[safe_commands]
allow = ["git log"]
`;
    const t = run(toml, [user('hi')], {
      workdir: { 'README.md': 'Read me.' },
      commands: { 'git log --oneline -1': 'abc123 first' },
    });
    expect(t.spawn.regions.readme!.entries).toBe(1);
    expect(t.spawn.regions.env!.entries).toBe(1);
  });
});

describe('messages', () => {
  it('user and assistant turns land in the conversation and in the baseline', () => {
    const t = run(
      '[context.regions]\ntask = { kind = "pinned" }',
      [user(words(10)), assistant(words(5)), result('x', 'y', 3)],
      { inputs: { task: 'Fix it' } },
    );
    expect(t.steps[1]!.request!.baselineTokens).toBe(2 + 10);
  });
});

describe('file tracking', () => {
  it('records each file touched in the tracking hashmap, keyed by path', () => {
    const toml = '[context.regions]\nfiles = { kind = "hashmap" }\n[context.file_tracking]\nenabled = true';
    const t = run(toml, [
      ...call('c1', 'read_file', 120, { path: 'src/a.rs' }),
      ...call('c2', 'cat', 80, { path: 'src/b.rs' }),
      ...call('c3', 'edit_file', 5, { path: 'src/a.rs' }),
      ...call('c4', 'grep', 5, { pattern: 'x' }),
    ]);
    const d = detail(
      toml,
      [
        ...call('c1', 'read_file', 120, { path: 'src/a.rs' }),
        ...call('c2', 'cat', 80, { path: 'src/b.rs' }),
        ...call('c3', 'edit_file', 5, { path: 'src/a.rs' }),
      ],
      5,
    );
    expect(d.regions.find((r) => r.name === 'files')!.entries.map((e) => [e.key, e.content])).toEqual([
      ['src/b.rs', 'src/b.rs: read (80 tokens)'],
      ['src/a.rs', 'src/a.rs: edited'],
    ]);
    expect(t.steps[7]!.regions.files!.entries).toBe(2);
    expect(t.steps[5]!.changes.map((c) => [c.type, c.entries])).toEqual([['replace', ['src/a.rs']]]);
  });
});
