// What fills the window at a step: every region, the harness overhead where known, free space and
// the reply headroom. Budgets come from the blueprints' own text and the runtime's documented
// implicit regions (docs/decisions/runtime.md), the flat list's size from the timeline.
import { describe, expect, it } from 'vitest';
import { blueprintBreakdown, breakdown, flatListBreakdown, type WindowBreakdown } from '../../src/engine/breakdown.ts';
import { ScenarioSchema } from '../../src/engine/scenario.ts';
import { Replay, replay } from '../../src/engine/index.ts';
import { BUILT_IN_TRAFFIC } from '../../src/scenarios/generators.ts';
import { RHAI } from '../../src/engine/custom-script.ts';
import { EXAMPLES } from '../../src/scenarios/examples.ts';
import { detail } from '../builders.ts';

const rowsOf = (b: WindowBreakdown) => Object.fromEntries(b.rows.map((r) => [r.name, r.tokens]));
const sum = (b: WindowBreakdown) => b.rows.reduce((s, r) => s + r.tokens, 0);

describe('the window of the imported session, at inference 5', () => {
  const scenario = ScenarioSchema.parse(EXAMPLES.find((e) => e.id === 'imported-run')!.scenario);
  const timeline = replay(scenario, { ...BUILT_IN_TRAFFIC, ...RHAI });
  const step = timeline.steps.find((s) => s.request?.inference === 5)!;
  const inspected = new Replay(scenario, { ...BUILT_IN_TRAFFIC, ...RHAI }).inspectInference(5);
  const WINDOW = 200_000; // claude-sonnet-4

  it('lists every region the stage shows with what the request spends on it, and adds up to the request', () => {
    const b = blueprintBreakdown(inspected, WINDOW);
    expect(b.usedTokens).toBe(step.request!.requestTokens);
    expect(b.rows.filter((r) => r.kind === 'region').map((r) => [r.name, r.regionKind, r.budget])).toEqual([
      // task 10%, files 5%, codebase 4%, conversation 40% (agent.leviath); tool_results 30% and
      // final_output 5,000 are the runtime's own when undeclared.
      ['task', 'pinned', 20_000],
      ['files', 'hashmap', 10_000],
      ['codebase', 'compacting', 8_000],
      ['conversation', 'sliding_window', 80_000],
      ['tool_results', 'sliding_window', 60_000],
      ['final_output', 'temporary', 5_000],
    ]);
    // Messages as the request sends them, per region; each system block whole, its header included.
    const spent = (region: string) =>
      [...inspected.request.system, ...inspected.request.messages]
        .filter((m) => m.region === region)
        .reduce((s, m) => s + m.tokens, 0);
    for (const name of ['task', 'files', 'codebase', 'conversation', 'tool_results'])
      expect(rowsOf(b)[name]).toBe(spent(name));
    expect(rowsOf(b).final_output).toBe(0);
  });

  it('leaves for the reply what no budget covers, and calls the rest of the unused window free space', () => {
    const b = blueprintBreakdown(inspected, WINDOW);
    const budgets = 20_000 + 10_000 + 8_000 + 80_000 + 60_000 + 5_000;
    expect(rowsOf(b)['reply headroom']).toBe(WINDOW - budgets);
    expect(rowsOf(b)['free space']).toBe(budgets - step.request!.requestTokens);
    expect(sum(b)).toBe(WINDOW);
    expect(b.rows.find((r) => r.name === 'reply headroom')!.share).toBe((WINDOW - budgets) / WINDOW);
    expect(b.overhead).toBeNull();
  });

  it('shows the flat list beside it at the size the timeline gives it, with no headroom of its own', () => {
    const flat = flatListBreakdown(inspected, WINDOW)!;
    expect(flat.usedTokens).toBe(step.request!.baselineTokens);
    expect(rowsOf(flat)).toEqual({
      'flat message list': step.request!.baselineTokens,
      'free space': WINDOW - step.request!.baselineTokens,
      'reply headroom': 0,
    });
  });

  it('takes the harness overhead into the window when the scenario says what it is', () => {
    // Issue 28: about 26 K tokens of system prompt and tool definitions at a Claude Code session's first call.
    const overhead = {
      parts: [
        { name: 'harness system prompt', tokens: 3_000 },
        { name: 'harness tool definitions', tokens: 23_000 },
      ],
      source: 'known from the request bodies',
    };
    const b = blueprintBreakdown(inspected, WINDOW, overhead);
    expect(b.usedTokens).toBe(step.request!.requestTokens + 26_000);
    expect(rowsOf(b)['harness system prompt']).toBe(3_000);
    expect(rowsOf(b)['harness tool definitions']).toBe(23_000);
    // 183,000 tokens of budgets and 26,000 of overhead leave no headroom in 200,000.
    expect(rowsOf(b)['reply headroom']).toBe(0);
    expect(sum(b)).toBe(WINDOW);
    expect(b.overhead).toEqual(overhead);
    // The as-sent replay's calibration learns one figure for both (issue 28: 22,938-25,818 on Claude Code runs).
    const learned = blueprintBreakdown(inspected, WINDOW, {
      parts: [{ name: 'harness overhead (system prompt and tool definitions)', tokens: 25_551 }],
      source: 'calibrated from calls 0-3',
    });
    expect(learned.usedTokens).toBe(step.request!.requestTokens + 25_551);
    expect(sum(learned)).toBe(WINDOW);
  });
});

describe('breakdown', () => {
  it('counts a pinned region over its budget as reaching as far as it holds', () => {
    const b = breakdown(1_000, [
      { name: 'task', kind: 'region', tokens: 300, budget: 100 },
      { name: 'chat', kind: 'region', tokens: 100, budget: 400 },
    ]);
    expect(rowsOf(b)).toEqual({ task: 300, chat: 100, 'free space': 300, 'reply headroom': 300 });
  });

  it('says when the request is over the window, with nothing free', () => {
    const b = breakdown(1_000, [{ name: 'task', kind: 'region', tokens: 1_200, budget: 100 }]);
    expect(b.overWindow).toBe(true);
    expect(rowsOf(b)).toEqual({ task: 1_200, 'free space': 0, 'reply headroom': 0 });
  });

  it('lists a region the stage hides as absent, and one it shows but the request leaves empty as 0', () => {
    const toml = `[context.regions]
task = { kind = "pinned", seed = "task_input" }
notes = { kind = "temporary", max_tokens = 800 }
[stages.a.context.regions]
task = { kind = "pinned", seed = "task_input" }
[stages.a.transitions.b]
[stages.b]
`;
    const d = detail(
      toml,
      [
        { type: 'user', content: 'hi' },
        { type: 'assistant', content: 'ok' },
      ],
      1,
      { inputs: { task: 'Fix it.' } },
    );
    const names = blueprintBreakdown(d, 128_000)
      .rows.filter((r) => r.kind === 'region')
      .map((r) => [r.name, r.tokens]);
    expect(names.map(([n]) => n)).not.toContain('notes');
    expect(names).toContainEqual(['final_output', 0]);
  });
});
