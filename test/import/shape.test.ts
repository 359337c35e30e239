// A shape-only scenario replays to the same figures as the original, and carries none of its text.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ScenarioSchema, type Scenario, replay, replayAsRecorded } from '../../src/engine/index.ts';
import { BUILT_IN_TRAFFIC } from '../../src/scenarios/generators.ts';
import { RHAI } from '../../src/engine/custom-script.ts';
import { importTrace } from '../../src/import/index.ts';
import { hashPath, hashScenarioPaths, shapeOnly } from '../../src/import/shape.ts';
import { encodeScenario } from '../../src/share/index.ts';
import { EXAMPLES } from '../../src/scenarios/examples.ts';
import { HEADER_RS, PLAN, TASK, TEST_FAIL } from './run.ts';
import { API_THINKING } from './fixture-files.ts';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const FIXTURES = [
  'anthropic-request.json',
  'openai-chat.json',
  'claude-code-session.jsonl',
  'rollout-2026-11-30T10-01-00-0199a8f2.jsonl',
];
const coding = ScenarioSchema.parse(EXAMPLES.find((e) => e.id === 'coding-agent')!.scenario);

/** What the charts draw: per step, every region's tokens and entries, and the request figures. */
function figures(scenario: Scenario) {
  const timeline = replay(scenario, { ...BUILT_IN_TRAFFIC, ...RHAI });
  expect(timeline.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return timeline.steps.map((s) => ({
    regions: Object.fromEntries(Object.entries(s.regions).map(([k, r]) => [k, [r.tokens, r.entries]])),
    changes: s.changes.map((c) => [c.type, c.region, c.tokens]),
    request: s.request && [
      s.request.requestTokens,
      s.request.prefixTokens,
      s.request.baselineTokens,
      s.request.taskInWindow,
    ],
  }));
}

describe('shape only', () => {
  it.each(FIXTURES)(
    '%s: the same figures at every step, through the starting layout and the coding-agent blueprint',
    (file) => {
      for (const agent of [undefined, coding.agent]) {
        const { scenario } = importTrace(fixture(file), agent ? { agent } : {});
        const original = figures(scenario);
        expect(figures(shapeOnly(scenario))).toEqual(original);
        // A hashed path has its own token count, so only the token figures that hold paths may move.
        const counts = (f: ReturnType<typeof figures>) =>
          f.map((s) => [Object.values(s.regions).map((r) => r[1]), s.changes.map((c) => c.slice(0, 2))]);
        expect(counts(figures(hashScenarioPaths(shapeOnly(scenario))))).toEqual(counts(original));
      }
    },
  );

  it('keeps tool names, ids, errors and paths; no text of the run is left', () => {
    const { scenario } = importTrace(fixture('anthropic-request.json'));
    const shaped = shapeOnly(scenario);
    const json = JSON.stringify(shaped);
    for (const text of [
      TASK,
      PLAN,
      TEST_FAIL,
      HEADER_RS.slice(0, 40),
      'cargo test parser',
      'EmptyValue',
      'You are a coding agent',
      API_THINKING,
    ])
      expect(json).not.toContain(text);
    expect(shaped.traffic.slice(0, 5)).toEqual([
      {
        type: 'assistant',
        content: '',
        size_tokens: expect.any(Number),
        reasoning: { size_tokens: expect.any(Number) },
        tool_calls: [
          { id: 'toolu_01', name: 'read_file', arguments: { path: 'src/parser/header.rs' } },
          { id: 'toolu_02', name: 'grep', arguments: { path: 'src' } },
        ],
      },
      { type: 'tool_result', tool_call_id: 'toolu_01', tool_name: 'read_file', size_tokens: expect.any(Number) },
      { type: 'tool_result', tool_call_id: 'toolu_02', tool_name: 'grep', size_tokens: expect.any(Number) },
      {
        type: 'assistant',
        content: '',
        size_tokens: expect.any(Number),
        tool_calls: [{ id: 'toolu_03', name: 'shell', arguments: {} }],
      },
      {
        type: 'tool_result',
        tool_call_id: 'toolu_03',
        tool_name: 'shell',
        size_tokens: expect.any(Number),
        is_error: true,
      },
    ]);
    expect(shaped.inputs.harness_system_prompt).toBeUndefined();
    expect(ScenarioSchema.parse(shaped)).toEqual(shaped);
  });

  it('keeps the recorded usage and the sizes of reasoning and compaction summaries: the as-sent replay is unchanged, no text is left', () => {
    const { scenario } = importTrace(
      readFileSync(new URL('./fixtures/real/openhands-basic.json', import.meta.url), 'utf8'),
    );
    const secret = 'The summary of everything so far, which must not leave the browser.';
    const withMore: Scenario = {
      ...scenario,
      traffic: [
        ...scenario.traffic,
        { type: 'compaction', summary: secret, pre_tokens: 5000 },
        { type: 'user', content: 'Go on.' },
        {
          type: 'assistant',
          content: 'Done.',
          reasoning: { content: 'A private chain of thought.' },
          recorded: { promptTokens: 900 },
        },
      ],
    };
    const shaped = shapeOnly(withMore);
    const json = JSON.stringify(shaped);
    for (const text of [secret, 'private chain', 'Go on.', '2048 game']) expect(json).not.toContain(text);
    const requests = (s: Scenario) =>
      replayAsRecorded(s).steps.flatMap((step) =>
        step.request
          ? [[step.request.requestTokens, step.request.cache.cacheReadTokens, step.request.recorded?.promptTokens]]
          : [],
      );
    expect(requests(shaped)).toEqual(requests(withMore));
    expect(ScenarioSchema.parse(shaped)).toEqual(shaped);
  });

  it('keeps the gaps between calls but not the date: times count from the first call, and the as-sent replay (which expires the cache by them) is unchanged', () => {
    const { scenario } = importTrace(
      readFileSync(new URL('./fixtures/real/claude-code-2.0.72-cache-expiry.jsonl', import.meta.url), 'utf8'),
    );
    const times = (s: Scenario) => s.traffic.flatMap((e) => (e.type === 'assistant' && e.at ? [Date.parse(e.at)] : []));
    const shaped = shapeOnly(scenario);
    const original = times(scenario);
    expect(original.length).toBeGreaterThan(1);
    expect(times(shaped)).toEqual(original.map((t) => t - original[0]!));
    expect(JSON.stringify(shaped)).not.toContain(new Date(original[0]!).toISOString().slice(0, 10));
    const figures = (s: Scenario) =>
      replayAsRecorded(s).steps.flatMap((step) =>
        step.request ? [[step.request.requestTokens, step.request.cache.cacheReadTokens, step.request.cache.rule]] : [],
      );
    expect(figures(shaped)).toEqual(figures(scenario));
    expect(ScenarioSchema.parse(shaped)).toEqual(shaped);
  });

  it('hashes paths when asked: the same path, the same hash, the extension kept', () => {
    expect(hashPath('src/parser/header.rs')).toMatch(/^path-[0-9a-f]{8}\.rs$/);
    expect(hashPath('src/parser/header.rs')).toBe(hashPath('src/parser/header.rs'));
    expect(hashPath('src/parser/header.rs')).not.toBe(hashPath('src/parser/header2.rs'));
    const shaped = hashScenarioPaths(shapeOnly(importTrace(fixture('anthropic-request.json')).scenario));
    expect(JSON.stringify(shaped)).not.toContain('header.rs');
  });

  it('the link of an imported run fits under 2,000 characters once shaped', () => {
    const { scenario } = importTrace(fixture('claude-code-session.jsonl'));
    expect(encodeScenario(scenario).length).toBeGreaterThan(5_000);
    expect(encodeScenario(hashScenarioPaths(shapeOnly(scenario))).length).toBeLessThan(2_000);
  });
});
