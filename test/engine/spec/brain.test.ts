// The spec's complete example, context_hooks/brain.rhai, with the request asserted exactly.
import { describe, expect, it } from 'vitest';
import { Replay, replay } from '../../../src/engine/index.ts';
import { BUILT_IN_TRAFFIC } from '../../../src/scenarios/generators.ts';
import { RHAI } from '../../../src/engine/custom-script.ts';
import { findExample } from '../../../src/scenarios/examples.ts';
import { ScenarioSchema } from '../../../src/engine/scenario.ts';
import { countTokens } from '../../../src/engine/tokens.ts';
import { scenario, CUSTOM_TEST, hookScript } from '../../builders.ts';
import type { ToolCall } from '../../../src/engine/timeline.ts';

const count = (s: string) => countTokens(s, 'o200k_base');
const TASK = 'Fix the failing test.';
const SUCCESS = 'test result: ok. 3 passed\nrunning 3 tests\ntest parse_basic ... ok';
const SUCCESS_HEAD = 'test result: ok. 3 passed';
const ERROR_READ = 'ERROR: src/parser.rs not found\nsearched: src/';
const ERROR_TEST = 'ERROR: 1 failed\nparser::empty_line';

// Room for the two errors, not for the success as well: the third write overflows.
const BUDGET = count(ERROR_READ) + count(ERROR_TEST);

const BLUEPRINT = `[context.regions]
task = { kind = "pinned", seed = "task_input" }

[context.regions.brain]
kind = "custom"
script = "context_hooks/brain.rhai"
max_tokens = ${BUDGET}

[stages.work.tool_routing]
default_region = "brain"
`;

const calls = {
  c1: { id: 'c1', name: 'shell', arguments: { cmd: 'cargo test' } },
  c2: { id: 'c2', name: 'read_file', arguments: { path: 'src/parser.rs' } },
  c3: { id: 'c3', name: 'shell', arguments: { cmd: 'cargo test parser' } },
};

const sc = scenario(
  { 'agent.leviath': BLUEPRINT, 'context_hooks/brain.rhai': hookScript('brain') },
  [
    { type: 'user', content: TASK },
    { type: 'assistant', content: 'Running the tests.', tool_calls: [calls.c1] },
    { type: 'tool_result', tool_call_id: 'c1', tool_name: 'shell', content: SUCCESS },
    { type: 'assistant', content: 'Reading the parser.', tool_calls: [calls.c2] },
    { type: 'tool_result', tool_call_id: 'c2', tool_name: 'read_file', content: ERROR_READ, is_error: true },
    { type: 'assistant', content: 'Running the parser tests.', tool_calls: [calls.c3] },
    { type: 'tool_result', tool_call_id: 'c3', tool_name: 'shell', content: ERROR_TEST, is_error: true },
    { type: 'assistant', content: 'Done.' },
  ],
  { ...CUSTOM_TEST, inputs: { task: TASK } },
);

const callTokens = (c: { name: string; arguments: Record<string, unknown> }) =>
  count(JSON.stringify({ name: c.name, arguments: c.arguments }));
const user = (content: string) => ({ role: 'user', content, region: 'conversation', tokens: count(content) });
const assistant = (content: string, call: ToolCall) => ({
  role: 'assistant',
  content,
  region: 'conversation',
  tool_calls: [call],
  tokens: count(content) + callTokens(call),
});
// The stub reports what brain kept: the size after on_write, not the size that arrived.
const stub = (id: string, kept: string) => {
  const content = `[routed to brain: ${count(kept)} tokens]`;
  return { role: 'tool', content, tool_call_id: id, region: 'tool_results', tokens: count(content) };
};
const xml = (...events: string[]) =>
  `<context>${events.map((e) => `<event kind="tool_result">${e}</event>`).join('')}</context>`;
const brain = (content: string) => ({ role: 'user', content, region: 'brain', tokens: count(content) });
const system = [
  { region: 'task', text: `[task]:\n${TASK}`, tokens: count('[task]:\n') + count(TASK), cache: 'always' },
];

describe('brain.rhai', () => {
  const run = new Replay(sc, { ...BUILT_IN_TRAFFIC, ...RHAI });

  it('inference 0: the region is empty and still renders its scaffolding', () => {
    const detail = run.inspectInference(0);
    const messages = [user(TASK), brain('<context></context>')];
    expect(detail.request).toEqual({
      system,
      messages,
      tokens: system[0]!.tokens + messages.reduce((s, m) => s + m.tokens, 0),
      stripped: { toolCalls: [], toolResults: [] },
    });
    expect(detail.warnings).toEqual([]);
  });

  it('inference 2: on_write trimmed the success to its first line and kept the error verbatim', () => {
    const detail = run.inspectInference(2);
    const messages = [
      user(TASK),
      assistant('Running the tests.', calls.c1),
      stub('c1', SUCCESS_HEAD),
      assistant('Reading the parser.', calls.c2),
      stub('c2', ERROR_READ),
      brain(xml(SUCCESS_HEAD, ERROR_READ)),
    ];
    expect(detail.request).toEqual({
      system,
      messages,
      tokens: system[0]!.tokens + messages.reduce((s, m) => s + m.tokens, 0),
      stripped: { toolCalls: [], toolResults: [] },
    });
    const region = detail.regions.find((r) => r.name === 'brain')!;
    expect(region.entries.map((e) => [e.content, e.tokens, e.kind])).toEqual([
      [SUCCESS_HEAD, count(SUCCESS_HEAD), 'tool_result'],
      [ERROR_READ, count(ERROR_READ), 'tool_result'],
    ]);
  });

  it('inference 3: on_overflow dropped the success, the errors stay', () => {
    const detail = run.inspectInference(3);
    const messages = [
      user(TASK),
      assistant('Running the tests.', calls.c1),
      stub('c1', SUCCESS_HEAD),
      assistant('Reading the parser.', calls.c2),
      stub('c2', ERROR_READ),
      assistant('Running the parser tests.', calls.c3),
      stub('c3', ERROR_TEST),
      brain(xml(ERROR_READ, ERROR_TEST)),
    ];
    expect(detail.request).toEqual({
      system,
      messages,
      tokens: system[0]!.tokens + messages.reduce((s, m) => s + m.tokens, 0),
      stripped: { toolCalls: [], toolResults: [] },
    });
    const timeline = replay(sc, { ...BUILT_IN_TRAFFIC, ...RHAI });
    const overflow = timeline.steps[6]!;
    expect(overflow.changes).toEqual([
      {
        type: 'evict',
        region: 'brain',
        tokens: count(SUCCESS_HEAD),
        entries: [SUCCESS_HEAD],
        reason: `over budget ${BUDGET}: chosen by on_overflow`,
        // The success it dropped is the result of the first call (cargo test).
        toolResults: [calls.c1.id],
      },
    ]);
    expect(timeline.summary.warnings).toBe(0);
  });

  it('the built-in example scenario replays with the hooks active and no warnings', () => {
    const example = findExample('brain-custom')!;
    const timeline = replay(ScenarioSchema.parse(example.scenario), { ...BUILT_IN_TRAFFIC, ...RHAI });
    expect(timeline.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(timeline.warnings.filter((w) => w.includes('custom region'))).toEqual([]);
    expect(timeline.steps.flatMap((s) => s.warnings).filter((w) => w.includes('custom region'))).toEqual([]);
    expect(timeline.summary.inferences).toBeGreaterThan(10);
  });
});
