// The advisor's reference (issue 29.4 and 29.5): for a scenario that records its run, the run as it
// was sent (`lev replay --as-recorded`), never the starting layout's replay; for any other, the
// starting layout's. Expected figures come from the trace's own records and the published prices,
// or from the traffic itself (which file a compaction let go and where the run names it again).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { asSentFigures, advise, replay, replayAsRecorded, resolveModel } from '../../../src/engine/index.ts';
import { RunNames } from '../../../src/engine/read-again.ts';
import type { Scenario, TrafficEvent } from '../../../src/engine/scenario.ts';
import { importTrace, IMPORT_BLUEPRINT } from '../../../src/import/index.ts';
import { BUILT_IN_TRAFFIC, generateTraffic } from '../../../src/scenarios/generators.ts';
import { assistant, result, scenario, user } from '../../builders.ts';

/** A real OpenHands run on claude-3-5-sonnet with the provider's usage on each of its 4 calls (test/import/fixtures/real/SOURCES.md). */
const run: Scenario = importTrace(
  readFileSync(new URL('../../import/fixtures/real/openhands-wrong-initial-state.json', import.meta.url), 'utf8'),
  { name: 'openhands-run' },
).scenario;

/** anthropic.com/pricing: Claude Sonnet input $3 per million tokens, cache reads 0.1x, 5-minute cache writes 1.25x. */
const sonnetUsd = (read: number, write: number, uncached: number) =>
  (3 / 1_000_000) * (read * 0.1 + write * 1.25 + uncached);

describe("the advisor's reference for a recorded run is the run as it was sent", () => {
  const advice = advise(run, { ...BUILT_IN_TRAFFIC, candidates: 40 });
  const sent = replayAsRecorded(run);
  const requests = sent.steps.flatMap((s) => (s.request ? [s.request] : []));

  it('the fixture records every call, on a priced Claude model, without a compaction', () => {
    const calls = run.traffic.filter((e) => e.type === 'assistant');
    expect(calls.length).toBe(4);
    expect(calls.every((e) => e.type === 'assistant' && e.recorded !== undefined)).toBe(true);
    expect(run.model.id).toBe('claude-sonnet-4');
    expect(run.traffic.some((e) => e.type === 'compaction')).toBe(false);
  });

  it('asRecorded is the as-sent replay: its largest request, its cost at the published prices, nothing lost', () => {
    expect(requests.length).toBe(4);
    expect(advice.asRecorded.of).toBe('asSent');
    expect(advice.asRecorded.peakRequestTokens).toBe(Math.max(...requests.map((r) => r.requestTokens)));
    const cost = requests.reduce(
      (sum, r) => sum + sonnetUsd(r.cache.cacheReadTokens, r.cache.cacheWriteTokens, r.cache.uncachedTokens),
      0,
    );
    expect(advice.asRecorded.inputCostUsd).toBeCloseTo(cost, 12);
    // A flat list drops nothing without a compaction: the task is in every request and nothing is read again.
    expect(advice.asRecorded.readAgain).toBe(0);
    expect(advice.asRecorded.taskKept).toBe(true);
    // It is not the starting layout's replay, which keeps no harness overhead and prunes by its own rules.
    const start = replay(run, BUILT_IN_TRAFFIC);
    expect(advice.asRecorded.peakRequestTokens).not.toBe(start.summary.peakRequestTokens);
  });

  it('the same traffic without its records is judged against the starting layout', () => {
    const unrecorded: Scenario = {
      ...run,
      traffic: run.traffic.map((e) => {
        if (e.type !== 'assistant') return e;
        const { recorded: _dropped, ...rest } = e;
        return rest;
      }),
    };
    const a = advise(unrecorded, { ...BUILT_IN_TRAFFIC, candidates: 20 });
    const start = replay(unrecorded, BUILT_IN_TRAFFIC);
    let cost = 0;
    for (const s of start.steps) if (s.request) cost += s.request.cache.inputCostUsd;
    expect(a.asRecorded).toMatchObject({
      of: 'start',
      peakRequestTokens: start.summary.peakRequestTokens,
      inputCostUsd: cost,
      readAgain: start.summary.readAgain.count,
      taskKept: start.summary.taskLostAt === null,
    });
  });
});

describe('no proposal is at least as bad as the run as it was sent on all three measures', () => {
  // Generated coding-agent traffic given records: each call's prompt is the flat list this
  // tokenizer counts plus a 2,000-token harness overhead, so the calibration learns exactly that
  // overhead and the run as it was sent peaks 2,000 tokens above the flat list's largest request.
  const OVERHEAD = 2_000;
  for (const seed of [4, 11]) {
    it(`coding-agent traffic, seed ${seed}`, () => {
      const events = generateTraffic({
        kind: 'coding-agent',
        seed,
        steps: 240,
        params: { todos: null, transitionTo: null },
      });
      const bare = scenario(IMPORT_BLUEPRINT, events, { inputs: { task: 'Fix the parser.' } });
      const flat = replayAsRecorded(bare).steps.flatMap((s) => (s.request ? [s.request.countedTokens] : []));
      let k = 0;
      const traffic = events.map((e) =>
        e.type === 'assistant' ? { ...e, recorded: { promptTokens: flat[k++]! + OVERHEAD } } : e,
      );
      const recordedRun = { ...bare, traffic };
      const advice = advise(recordedRun, { ...BUILT_IN_TRAFFIC, candidates: 60, seed });
      const r = advice.asRecorded;
      expect(r.of).toBe('asSent');
      expect(r.harnessTokens).toBe(OVERHEAD);
      expect(r.peakRequestTokens).toBe(Math.max(...flat) + OVERHEAD);
      expect(advice.front.length).toBeGreaterThan(0);
      for (const p of advice.front) {
        const noBetter =
          p.peakRequestTokens >= r.peakRequestTokens && p.inputCostUsd >= r.inputCostUsd && p.readAgain >= r.readAgain;
        expect(noBetter).toBe(false);
      }
    });
  }
});

describe('the as-sent figures across a compaction', () => {
  type Assistant = Extract<TrafficEvent, { type: 'assistant' }>;
  const recorded = (event: TrafficEvent, promptTokens: number): TrafficEvent => ({
    ...(event as Assistant),
    recorded: { promptTokens },
  });
  const events: TrafficEvent[] = [
    user('Look at the parser.'),
    recorded(assistant('', ['c1', 'read_file', { path: 'src/a.rs' }]), 900),
    result('c1', 'read_file', 300),
    recorded(assistant('', ['c2', 'read_file', { path: 'src/b.rs' }]), 1_300),
    result('c2', 'read_file', 300),
    { type: 'compaction', summary: 'Read two files of the parser.' },
    recorded(assistant('Back to src/a.rs now.'), 400),
    recorded(assistant(''), 450),
  ];
  const s = scenario('', events, { inputs: { task: 'Fix the parser.' } });
  const model = resolveModel(s.model);
  if (!model.ok) throw new Error(model.error);

  it('counts the file the compaction let go that the run names again, and the task as gone after it', () => {
    const figures = asSentFigures(replayAsRecorded(s), model.model, new RunNames(s.traffic), true);
    // src/a.rs and src/b.rs were in the list when it was compacted; only src/a.rs is named afterwards.
    expect(figures.readAgain).toBe(1);
    expect(figures.taskKept).toBe(false);
    expect(figures.inferences).toBe(4);
  });

  it('a run with no compaction loses nothing', () => {
    const flat = scenario(
      '',
      events.filter((e) => e.type !== 'compaction'),
      { inputs: { task: 'Fix the parser.' } },
    );
    const figures = asSentFigures(replayAsRecorded(flat), model.model, new RunNames(flat.traffic), true);
    expect(figures).toMatchObject({ readAgain: 0, taskKept: true });
  });
});
