// A custom region inside whole runs: unpaired tool blocks a script emits, per-stage scripts, and
// what the timeline shows when a hook fails.
import { describe, expect, it } from 'vitest';
import { Replay, replay } from '../../../src/engine/index.ts';
import { BUILT_IN_TRAFFIC } from '../../../src/scenarios/generators.ts';
import { RHAI } from '../../../src/engine/custom-script.ts';
import { scenario, CUSTOM_TEST } from '../../builders.ts';

const TASK = 'task = { kind = "pinned", seed = "task_input" }';

describe('custom regions in a run', () => {
  it('unpaired tool calls and results a script emits are stripped before sending', () => {
    const script = `fn render(ctx) {
      #{ messages: [
        #{ role: "assistant", content: "", tool_calls: [#{ id: "ghost", name: "grep", arguments: #{ q: "x" } }] },
        #{ role: "tool", tool_call_id: "orphan", content: "a result nobody asked for" },
        #{ role: "user", content: "kept" },
      ] }
    }`;
    const sc = scenario(
      {
        'agent.leviath': `[context.regions]\n${TASK}\nbrain = { kind = "custom", script = "b.rhai" }\n`,
        'b.rhai': script,
      },
      [
        { type: 'user', content: 'go' },
        { type: 'assistant', content: 'ok' },
      ],
      { ...CUSTOM_TEST, inputs: { task: 'Do it.' } },
    );
    const detail = new Replay(sc, { ...BUILT_IN_TRAFFIC, ...RHAI }).inspectInference(0);
    expect(detail.request.stripped).toEqual({ toolCalls: ['ghost'], toolResults: ['orphan'] });
    expect(detail.request.messages.map((m) => [m.region, m.role, m.content])).toEqual([
      ['conversation', 'user', 'go'],
      ['brain', 'user', 'kept'],
    ]);
    const step = replay(sc, { ...BUILT_IN_TRAFFIC, ...RHAI }).steps[1]!;
    expect(step.changes.filter((c) => c.type === 'strip')).toEqual([
      {
        type: 'strip',
        region: 'brain',
        tokens: expect.any(Number),
        entries: ['ghost', 'orphan'],
        reason: 'tool call and result must be paired',
      },
    ]);
  });

  it('a stage layout may declare the region with another script', () => {
    const toml = `[context.regions]
${TASK}
notes = { kind = "custom", script = "a.rhai", seed = { literal = "n1" } }

[stages.first]
[stages.first.transitions.second]

[stages.second.context.regions]
${TASK}
notes = { kind = "custom", script = "b.rhai" }
`;
    const sc = scenario(
      {
        'agent.leviath': toml,
        'a.rhai': 'fn render(ctx) { "A: " + ctx.entries.len() }',
        'b.rhai': 'fn render(ctx) { `B in ${ctx.stage_name}: ${ctx.entries[0].content}` }',
      },
      [
        { type: 'assistant', content: 'one' },
        { type: 'transition', to: 'second' },
        { type: 'assistant', content: 'two' },
      ],
      { ...CUSTOM_TEST, inputs: { task: 'Do it.' } },
    );
    const run = new Replay(sc, { ...BUILT_IN_TRAFFIC, ...RHAI });
    const notes = (n: number) => run.inspectInference(n).request.system.find((b) => b.region === 'notes')!.text;
    expect(notes(0)).toBe('A: 1');
    expect(notes(1)).toBe('B in second: n1');
  });

  it('a failing render shows on the timeline with the script position, and the inference still happens', () => {
    const sc = scenario(
      {
        'agent.leviath': `[context.regions]\n${TASK}\nnotes = { kind = "custom", script = "n.rhai", seed = { literal = "kept" } }\n`,
        'n.rhai': 'fn render(ctx) {\n  ctx.entries[5].content\n}',
      },
      [{ type: 'assistant', content: 'one' }],
      { ...CUSTOM_TEST, inputs: { task: 'Do it.' } },
    );
    const timeline = replay(sc, { ...BUILT_IN_TRAFFIC, ...RHAI });
    expect(timeline.steps[0]!.request).toBeDefined();
    expect(timeline.steps[0]!.warnings).toHaveLength(1);
    expect(timeline.steps[0]!.warnings[0]).toMatch(
      /^custom region notes: render failed at n\.rhai line 2, column \d+: .+; rendered its entries plainly as \[notes\]: instead$/,
    );
    const detail = new Replay(sc, { ...BUILT_IN_TRAFFIC, ...RHAI }).inspectInference(0);
    expect(detail.request.system.find((b) => b.region === 'notes')!.text).toBe('[notes]:\nkept');
  });
});
