// Hostile volume: a 20 MB tool result, a filler result of a billion tokens, 100,000 events.
import { describe, expect, it } from 'vitest';
import { replay } from '../../src/engine/index.ts';
import { BUILT_IN_TRAFFIC } from '../../src/scenarios/generators.ts';
import { RHAI } from '../../src/engine/custom-script.ts';
import { MAX_RESULT_SIZE_TOKENS, ScenarioSchema, type TrafficEvent } from '../../src/engine/scenario.ts';
import { MAX_REGION_SNAPSHOTS, MAX_REGIONS } from '../../src/engine/limits.ts';
import { formatIssues } from '../../src/scenarios/issues.ts';

const ROUTED = `[context.regions]
task = { kind = "pinned", budget = "5%", seed = "task_input" }
codebase = { kind = "compacting", budget = "20%" }

[stages.main.tool_routing]
default_region = "codebase"
max_result_tokens = 4000
`;
const UNCAPPED = '[context.regions]\ntask = { kind = "pinned", budget = "5%", seed = "task_input" }\n';

// 20,000,000 characters of prose: about 3.7 million tokens.
const TWENTY_MB = 'lorem ipsum dolor sit amet '.repeat(Math.ceil(20_000_000 / 27)).slice(0, 20_000_000);

function scenario(toml: string, traffic: TrafficEvent[]) {
  return ScenarioSchema.parse({
    version: 1,
    model: { id: 'gpt-4o' },
    agent: { 'agent.leviath': toml },
    inputs: { task: 'Summarize the log.' },
    traffic,
  });
}

const callThen = (tool: string, result: Partial<TrafficEvent>, args: Record<string, unknown> = {}): TrafficEvent[] => [
  { type: 'assistant', content: '', tool_calls: [{ id: 'c1', name: tool, arguments: args }] },
  { type: 'tool_result', tool_call_id: 'c1', tool_name: tool, ...result } as TrafficEvent,
  { type: 'assistant', content: 'Read it.' },
];

describe('a 20 MB tool result', () => {
  it('is capped by max_result_tokens, and the timeline says how much was cut', () => {
    const timeline = replay(scenario(ROUTED, callThen('grep', { content: TWENTY_MB })), {
      ...BUILT_IN_TRAFFIC,
      ...RHAI,
    });
    const step = timeline.steps[1]!;
    expect(step.result).toEqual({ ok: true, message: '[routed to codebase: 4,000 tokens]' });
    expect(step.changes).toHaveLength(1);
    const [cut] = step.changes;
    expect(cut).toMatchObject({
      type: 'truncate',
      region: 'codebase',
      entries: ['c1'],
      reason: 'max_result_tokens 4,000',
    });
    // The whole result was ~3.7 million tokens; all but the 4,000 kept were cut.
    expect(cut!.tokens).toBeGreaterThan(3_600_000);
    expect(step.regions.codebase!.tokens).toBe(4_000);
    expect(timeline.steps[2]!.request!.requestTokens).toBeLessThan(5_000);
  });

  it('as a read_file result is cut at the byte cap first, with the notice in the result', () => {
    const timeline = replay(scenario(ROUTED, callThen('read_file', { content: TWENTY_MB }, { path: 'huge.log' })), {
      ...BUILT_IN_TRAFFIC,
      ...RHAI,
    });
    const changes = timeline.steps[1]!.changes;
    expect(changes.map((c) => [c.type, c.region])).toEqual([
      ['truncate', '(read_file)'],
      ['truncate', 'codebase'],
    ]);
    expect(changes[0]!.reason).toBe(
      "[read_file: showing the first 100,000 of 20,000,000 bytes; the file is longer than read_file's 100,000-byte cap]",
    );
  });

  it('with no ceiling lands whole in tool_results, which drops it at once and says so in its place', () => {
    const timeline = replay(scenario(UNCAPPED, callThen('grep', { content: TWENTY_MB })), {
      ...BUILT_IN_TRAFFIC,
      ...RHAI,
    });
    const step = timeline.steps[1]!;
    expect(step.changes).toEqual([
      expect.objectContaining({
        type: 'evict',
        region: 'tool_results',
        reason: 'larger than the whole budget of 38,400: dropped alone',
      }),
    ]);
    expect(step.result!.message).toMatch(
      /^\[tool_results dropped this result: 3,\d{3},\d{3} tokens, larger than the region's whole budget of 38,400\]$/,
    );
    expect(step.changes[0]!.tokens).toBeGreaterThan(3_600_000);
    // What is left in its place is only that short answer, so the call stays paired and nothing is stripped.
    expect(step.regions.tool_results).toMatchObject({ entries: 1 });
    expect(step.regions.tool_results!.tokens).toBeLessThan(40);
    expect(timeline.steps[2]!.changes.filter((c) => c.type === 'strip')).toEqual([]);
  });
});

describe('size_tokens', () => {
  it(`over ${MAX_RESULT_SIZE_TOKENS.toLocaleString('en-US')} is refused by the schema (a billion used to exhaust memory building the filler)`, () => {
    const parsed = ScenarioSchema.safeParse({
      version: 1,
      model: { id: 'gpt-4o' },
      agent: { 'agent.leviath': UNCAPPED },
      traffic: [{ type: 'tool_result', tool_call_id: 'c1', tool_name: 'grep', size_tokens: 1_000_000_000 }],
    });
    expect(formatIssues(parsed.error!)).toEqual([
      "traffic[0].size_tokens: at most 2,000,000 tokens (more than any model's window); use a smaller size_tokens",
    ]);
  });

  it('generator sizes are bounded the same way', () => {
    const timeline = replay(
      ScenarioSchema.parse({
        version: 1,
        model: { id: 'gpt-4o' },
        agent: { 'agent.leviath': UNCAPPED },
        inputs: { task: 'Summarize the log.' },
        generator: { kind: 'research-agent', steps: 10, params: { fetchTokens: [1_000_000_000, 1_000_000_000] } },
      }),
      { ...BUILT_IN_TRAFFIC, ...RHAI },
    );
    expect(timeline.steps).toEqual([]);
    expect(timeline.diagnostics).toEqual([expect.objectContaining({ code: 'generator-invalid', path: 'generator' })]);
    expect(timeline.diagnostics[0]!.message).toContain('generator.params.fetchTokens[0]: at most 2,000,000 per event');
  });

  it('at the limit replays', () => {
    const timeline = replay(scenario(UNCAPPED, callThen('grep', { size_tokens: MAX_RESULT_SIZE_TOKENS })), {
      ...BUILT_IN_TRAFFIC,
      ...RHAI,
    });
    expect(timeline.steps[1]!.changes).toEqual([
      expect.objectContaining({ type: 'evict', tokens: MAX_RESULT_SIZE_TOKENS }),
    ]);
  });
});

describe('100,000 events', () => {
  it('explicit traffic of 100,000 events replays to the end', () => {
    const traffic: TrafficEvent[] = Array.from({ length: 100_000 }, (_, i) =>
      i % 2 ? { type: 'user', content: `question ${i}` } : { type: 'assistant', content: `answer ${i}` },
    );
    const timeline = replay(scenario(UNCAPPED, traffic), { ...BUILT_IN_TRAFFIC, ...RHAI });
    expect(timeline.summary.steps).toBe(100_000);
    expect(timeline.summary.inferences).toBe(50_000);
    expect(timeline.steps.at(-1)!.regions.conversation!.tokens).toBeLessThanOrEqual(
      timeline.steps.at(-1)!.regions.conversation!.budget,
    );
  }, 120_000);

  it('events × regions over 5,000,000 snapshots is refused before the run (a 1 MB blueprint of regions times many events exhausted the heap)', () => {
    // The task and 199 more: the most a blueprint declares; the run adds its 3 built-in regions.
    const regions = Array.from({ length: MAX_REGIONS - 1 }, (_, i) => `r${i} = { kind = "temporary" }`).join('\n');
    const traffic: TrafficEvent[] = Array.from({ length: 24_631 }, () => ({ type: 'user', content: 'hi' }));
    expect(24_631 * (MAX_REGIONS + 3)).toBeGreaterThan(MAX_REGION_SNAPSHOTS);
    expect(24_630 * (MAX_REGIONS + 3)).toBeLessThanOrEqual(MAX_REGION_SNAPSHOTS);
    const timeline = replay(scenario(`${UNCAPPED}${regions}\n`, traffic), { ...BUILT_IN_TRAFFIC, ...RHAI });
    expect(timeline.steps).toEqual([]);
    expect(timeline.diagnostics.filter((d) => d.severity === 'error')).toEqual([
      {
        code: 'run-too-large',
        severity: 'error',
        file: 'scenario.json',
        line: 1,
        column: 1,
        path: 'traffic',
        message:
          'this run would record 24,631 events × 203 regions = 5,000,093 region snapshots; the playground records at most 5,000,000 (about 0.5 GB). Use fewer events or fewer regions.',
      },
    ]);
  });

  it('a generator asked for more than 100,000 steps is refused with the field named', () => {
    const parsed = ScenarioSchema.safeParse({
      version: 1,
      model: { id: 'gpt-4o' },
      agent: { 'agent.leviath': UNCAPPED },
      generator: { kind: 'long-chat', steps: 100_001 },
    });
    expect(formatIssues(parsed.error!)).toEqual(['generator.steps: at most 100,000 steps']);
  });

  it('explicit traffic of more than 100,000 events is refused with the field named (a million exhausted the heap)', () => {
    const parsed = ScenarioSchema.safeParse({
      version: 1,
      model: { id: 'gpt-4o' },
      agent: { 'agent.leviath': UNCAPPED },
      traffic: Array.from({ length: 100_001 }, () => ({ type: 'user', content: 'hi' })),
    });
    expect(formatIssues(parsed.error!)).toEqual([
      'traffic: at most 100,000 events per scenario (the timeline keeps a snapshot of every one); split it into several scenarios',
    ]);
  });
});
