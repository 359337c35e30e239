// Issue 10, "also seen": budgets and routing that cannot work are warnings in validate and replay
// alike, and a custom region's on_write decides the size the result and the ledger report.
import { describe, expect, it } from 'vitest';
import { replay } from '../../../src/engine/index.ts';
import { BUILT_IN_TRAFFIC } from '../../../src/scenarios/generators.ts';
import { RHAI } from '../../../src/engine/custom-script.ts';
import type { Scenario, TrafficEvent } from '../../../src/engine/scenario.ts';
import { validateScenario } from '../../../src/engine/validate.ts';
import { append, assistant, run, scenario } from '../../builders.ts';

const inputs = { inputs: { task: 'Fix the test' } };

/** `code severity path line:column` from validate and from replay, for one scenario. */
function both(s: Scenario) {
  const line = (d: { code: string; severity: string; path: string; line: number; column: number }) =>
    `${d.code} ${d.severity} ${d.path} ${d.line}:${d.column}`;
  return {
    validate: validateScenario(s, RHAI).diagnostics.map(line),
    replay: replay(s, { ...BUILT_IN_TRAFFIC, ...RHAI }).diagnostics.map(line),
  };
}

describe('min_tokens above the model window', () => {
  const toml =
    '[context.regions]\ntask = { kind = "pinned", seed = "task_input" }\nnotes = { kind = "temporary", budget = "10%", min_tokens = 200000 }\n';

  it('is a warning naming the model and its window, in validate and replay alike', () => {
    const s = scenario(toml, [assistant('ok')], { ...inputs, model: { id: 'gpt-4o' } });
    const seen = both(s);
    expect(seen.validate).toEqual(['min-tokens-over-window warning context.regions.notes.min_tokens 3:60']);
    expect(seen.replay).toEqual(seen.validate);
    expect(validateScenario(s, RHAI).diagnostics[0]!.message).toBe(
      '`min_tokens` (200,000) is above the whole context window of gpt-4o (128,000 tokens), so region "notes" ' +
        'may grow past what any request can hold and the cascade sheds it to fit. Lower min_tokens below the window, or pick a model with a larger one.',
    );
  });

  it("is judged against the scenario's model: a window that holds it has nothing to say", () => {
    expect(both(scenario(toml, [assistant('ok')], { ...inputs, model: { id: 'gpt-4.1' } })).validate).toEqual([]);
    expect(both(scenario(toml, [assistant('ok')], { ...inputs, model: { window: 150_000 } })).validate).toEqual([
      'min-tokens-over-window warning context.regions.notes.min_tokens 3:60',
    ]);
  });
});

describe('tool results routed into a checklist', () => {
  const toml =
    '[context.regions]\ntask = { kind = "pinned", seed = "task_input" }\ntodos = { kind = "checklist" }\n' +
    '[stages.main.tool_routing]\ndefault_region = "todos"\n[stages.main.tool_routing.overrides]\ngrep = "todos"\nread_file = "tool_results"\n';
  const traffic: TrafficEvent[] = [
    { type: 'assistant', content: '', tool_calls: [{ id: 'c1', name: 'grep', arguments: {} }] },
    { type: 'tool_result', tool_call_id: 'c1', tool_name: 'grep', size_tokens: 9 },
  ];

  it('are a warning at each route into it, in validate and replay alike', () => {
    const seen = both(scenario(toml, traffic, inputs));
    expect(seen.validate).toEqual([
      'routing-into-checklist warning stages.main.tool_routing.default_region 5:18',
      'routing-into-checklist warning stages.main.tool_routing.overrides.grep 7:8',
    ]);
    expect(seen.replay).toEqual(seen.validate);
    expect(validateScenario(scenario(toml, [], inputs), RHAI).diagnostics[1]!.message).toBe(
      'The override for `grep` routes tool results into "todos", a checklist: ' +
        'a checklist holds only todo items (todo_add), so every result routed there is refused. Route them to tool_results or to a temporary, sliding_window or hashmap region.',
    );
  });

  it("because at run time the checklist refuses each one, and the call's result says so", () => {
    const t = run(toml, traffic, inputs);
    expect(t.steps[1]!.result).toEqual({
      ok: false,
      message: 'todos is a checklist: write to it with todo_add, todo_done and todo_note',
    });
    expect(t.steps[1]!.regions.todos).toMatchObject({ tokens: 0, entries: 0 });
  });
});

describe('on_write that rewrites or drops an entry', () => {
  const toml =
    '[context.regions]\ntask = { kind = "pinned", seed = "task_input" }\nbrain = { kind = "custom", script = "brain.rhai" }\n[stages.main.tool_routing]\ndefault_region = "brain"\n';
  // Keeps the first line of each entry; drops anything saying DROP.
  const brain =
    'fn render(ctx) { let out = []; for e in ctx.entries { out.push(e.content); } #{ system: out } }\n' +
    'fn on_write(ctx) { if ctx.entry.content.contains("DROP") { return false; } ctx.entry.content.split("\\n")[0] }\n';
  const extra = { ...inputs, agent: { 'agent.leviath': toml, 'brain.rhai': brain } };
  const traffic: TrafficEvent[] = [
    { type: 'assistant', content: '', tool_calls: [{ id: 'c1', name: 'grep', arguments: {} }] },
    {
      type: 'tool_result',
      tool_call_id: 'c1',
      tool_name: 'grep',
      content: 'first line\nsecond line is long and chatty\nthird line also long',
    },
    { type: 'assistant', content: '', tool_calls: [{ id: 'c2', name: 'grep', arguments: {} }] },
    { type: 'tool_result', tool_call_id: 'c2', tool_name: 'grep', content: 'DROP me please' },
    append('brain', 'note one\nnote two'),
  ];

  it('the tool result and context_append report the size after the hook, and the ledger charges it', () => {
    const t = run(toml, traffic, extra);
    expect(t.steps[1]!.result).toEqual({ ok: true, message: '[routed to brain: 2 tokens]' });
    expect(t.steps[1]!.regions.brain).toMatchObject({ tokens: 2, entries: 1 });
    expect(t.steps[3]!.result).toEqual({
      ok: true,
      message: '[routed to brain: 0 tokens (on_write dropped the 3-token entry)]',
    });
    expect(t.steps[3]!.changes).toEqual([
      {
        type: 'evict',
        region: 'brain',
        tokens: 3,
        entries: ['DROP me please'],
        reason: 'on_write returned false',
        toolResults: ['c2'],
      },
    ]);
    expect(t.steps[4]!.result).toEqual({
      ok: true,
      message: 'appended 2 tokens (on_write rewrote 5) to brain; brain now holds 4 of 5,000 tokens',
    });
    // 2 + 0 + 2: what brain holds, not the 15 + 3 + 5 that arrived.
    expect(t.summary.ledger.main!.brain).toBe(4);
    expect(t.steps[4]!.regions.brain).toMatchObject({ tokens: 4, entries: 2 });
  });
});
