// The engine worker's answers about a run the scenario records (an imported trace): the recorded
// and as-sent figures beside the blueprint's replay, what fills the window at an inspected step, and
// the advisor run as a request with progress and cancel. Expected figures come from the trace's own
// usage records, the published prices (anthropic.com/pricing: Claude Sonnet input $3 per million
// tokens, cache reads 0.1x, 5-minute cache writes 1.25x) and the engine's own functions run here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ScenarioSchema,
  type Scenario,
  advise,
  replay,
  replayAsRecorded,
  Replay,
  blueprintBreakdown,
} from '../../src/engine/index.ts';
import { importTrace } from '../../src/import/index.ts';
import { BUILT_IN_TRAFFIC } from '../../src/scenarios/generators.ts';
import { RHAI } from '../../src/engine/custom-script.ts';
import { engineHandlers } from '../../src/worker/engine-handlers.ts';
import { adviseHandlers } from '../../src/worker/advise-handlers.ts';
import { WorkerResponseSchema, type WorkerResponse } from '../../src/worker/protocol.ts';
import type { TimelineView } from '../../src/worker/timeline-view.ts';

const fixture = (name: string) => readFileSync(new URL(`../import/fixtures/real/${name}`, import.meta.url), 'utf8');
/** A real OpenHands run on claude-3-5-sonnet with the provider's usage on each of its 4 calls. */
const imported = (): Scenario =>
  JSON.parse(JSON.stringify(importTrace(fixture('openhands-wrong-initial-state.json')).scenario)) as Scenario;

function harness() {
  const handlers = { ...engineHandlers(), ...adviseHandlers() };
  const posted: WorkerResponse[] = [];
  const transferred: Transferable[][] = [];
  let id = 0;
  const context = (signal = new AbortController().signal) => ({
    post: (m: WorkerResponse, transfer: Transferable[] = []) => {
      posted.push(m);
      transferred.push(transfer);
    },
    signal,
  });
  return {
    posted,
    transferred,
    async replay(replayId: number, scenario: Scenario): Promise<TimelineView> {
      await handlers.replay!({ id: ++id, type: 'replay', replayId, scenario }, context());
      const answer = posted.at(-1)!;
      if (answer.type !== 'replay' || !answer.result.view)
        throw new Error(`expected a replay with a view, got ${answer.type}`);
      return answer.result.view;
    },
    inspect(replayId: number, step: number) {
      handlers.inspect!({ id: ++id, type: 'inspect', replayId, step }, context());
      const answer = posted.at(-1)!;
      if (answer.type !== 'inspect') throw new Error(`expected an inspect answer, got ${answer.type}`);
      return answer.result;
    },
    async advise(scenario: Scenario, candidates: number, signal?: AbortSignal) {
      const from = posted.length;
      await handlers.advise!({ id: ++id, type: 'advise', scenario, candidates }, context(signal));
      return posted.slice(from);
    },
  };
}

type Assistant = Extract<Scenario['traffic'][number], { type: 'assistant' }>;
const SONNET_PER_TOKEN = 3 / 1_000_000;

/** The value in force at `step`: the latest assistant event at or before it (null: none yet). */
function inForce<T>(scenario: Scenario, step: number, pick: (e: Assistant) => T): T | null {
  for (let i = step; i >= 0; i--) {
    const e = scenario.traffic[i]!;
    if (e.type === 'assistant') return pick(e);
  }
  return null;
}

describe('the recorded run beside the blueprint', () => {
  it("sends the recorded and as-sent figures with the replay, from the trace's own usage and the price table", async () => {
    const s = imported();
    const calls = s.traffic.filter((e): e is Assistant => e.type === 'assistant');
    expect(calls.length).toBe(4);
    const worker = harness();
    const view = await worker.replay(1, s);
    expect(WorkerResponseSchema.safeParse(worker.posted.at(-1)).success).toBe(true);
    const c = view.recorded!;
    expect(c.recorded.calls).toBe(calls.filter((e) => e.recorded).length);
    expect(c.recorded.peakPromptTokens).toBe(Math.max(...calls.map((e) => e.recorded!.promptTokens)));
    const recordedCost = calls.reduce((sum, e) => {
      const r = e.recorded!;
      const read = r.cacheReadTokens ?? 0;
      const write = r.cacheWriteTokens ?? 0;
      return sum + SONNET_PER_TOKEN * (read * 0.1 + write * 1.25 + (r.promptTokens - read - write));
    }, 0);
    expect(c.recorded.inputCostUsd).toBeCloseTo(recordedCost, 10);
    expect(c.prices).toMatchObject({ model: 'claude-sonnet-4', checked: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
    // Claude's counts here are o200k_base's: the blueprint's are approximate, and say so.
    expect(c.approximate).toBe(true);

    const timeline = replay(s, { ...BUILT_IN_TRAFFIC, ...RHAI });
    expect(c.blueprint).toMatchObject({
      peakRequestTokens: timeline.summary.peakRequestTokens,
      taskKept: timeline.summary.taskLostAt === null,
      readAgain: timeline.summary.readAgain.count,
    });
    expect(c.blueprint.inputCostUsd).toBeCloseTo(
      timeline.steps.reduce((sum, st) => sum + (st.request?.cache.inputCostUsd ?? 0), 0),
      12,
    );

    // The chart's points: the recorded prompt in force at each drawn step, and the as-sent request.
    const asSent = replayAsRecorded(s);
    expect(c.asSent.peakRequestTokens).toBe(asSent.summary.peakRequestTokens);
    expect([...c.window.recorded]).toEqual(
      [...view.window.steps].map((step) => inForce(s, step, (e) => e.recorded!.promptTokens) ?? -1),
    );
    const sentAt = new Map(asSent.steps.filter((st) => st.request).map((st) => [st.index, st.request!.requestTokens]));
    expect([...c.window.asSent]).toEqual(
      [...view.window.steps].map((step) => inForce(s, step, (e) => sentAt.get(s.traffic.indexOf(e))!) ?? -1),
    );
    expect([...c.cache.recorded]).toEqual(
      [...view.requests.steps].map((step) => (s.traffic[step] as Assistant).recorded!.cacheReadTokens ?? -1),
    );
    // Its four columns are transferred with the rest.
    expect(worker.transferred.at(-1)).toEqual(
      expect.arrayContaining([
        c.window.recorded.buffer,
        c.window.asSent.buffer,
        c.cache.recorded.buffer,
        c.cache.asSent.buffer,
      ]),
    );
  });

  it('follows the traffic: a changed record is a new as-sent comparison, a changed blueprint is the same one', async () => {
    const worker = harness();
    const s = imported();
    const first = (await worker.replay(1, s)).recorded!;
    const edited: Scenario = { ...s, agent: { 'agent.leviath': `${s.agent['agent.leviath']}\n# a comment\n` } };
    expect((await worker.replay(2, edited)).recorded!.recorded).toEqual(first.recorded);
    const traffic = s.traffic.map((e) =>
      e.type === 'assistant' && e.recorded
        ? { ...e, recorded: { ...e.recorded, promptTokens: e.recorded.promptTokens + 50_000 } }
        : e,
    );
    const raised = (await worker.replay(3, ScenarioSchema.parse({ ...s, traffic }))).recorded!;
    expect(raised.recorded.peakPromptTokens).toBe(first.recorded.peakPromptTokens + 50_000);
  });

  it('sends no comparison for a scenario without recorded usage', async () => {
    const s = imported();
    const bare = ScenarioSchema.parse({
      ...s,
      traffic: s.traffic.map((e) => (e.type === 'assistant' ? { ...e, recorded: undefined } : e)),
    });
    expect((await harness().replay(1, bare)).recorded).toBeUndefined();
  });
});

describe('what fills the window at an inspected step', () => {
  it("gives the blueprint's window beside the as-sent request in force, its harness overhead a row of its own", async () => {
    const s = imported();
    const worker = harness();
    const view = await worker.replay(1, s);
    const window = view.header.model.window;
    const asSent = replayAsRecorded(s);
    const last = s.traffic.length - 1;
    const { breakdown, detail } = worker.inspect(1, last);
    expect(breakdown!.blueprint).toEqual(
      blueprintBreakdown(new Replay(s, { ...BUILT_IN_TRAFFIC, ...RHAI }).inspect(last), window),
    );
    expect(detail!.index).toBe(last);
    expect(breakdown!.besideIs).toBe('asSent');
    const request = asSent.steps.findLast((st) => st.request && st.index <= last)!.request!;
    const rows = breakdown!.beside!.rows;
    const used = rows
      .filter((r) => r.kind === 'messages' || r.kind === 'overhead')
      .reduce((sum, r) => sum + r.tokens, 0);
    expect(used).toBe(request.requestTokens);
    // A run of 4 calls is too short to calibrate (the first 10% of its calls is none): no overhead is invented.
    expect(request.harnessTokens).toBe(0);
    expect(rows.some((r) => r.kind === 'overhead')).toBe(false);
    expect(rows.reduce((sum, r) => sum + r.tokens, 0)).toBe(window);
    // A flat list keeps no headroom: it fills the window before it drops anything.
    expect(rows.find((r) => r.kind === 'headroom')!.tokens).toBe(0);
    // Before the first call there is no request as sent.
    const firstCall = s.traffic.findIndex((e) => e.type === 'assistant');
    if (firstCall > 0) expect(worker.inspect(1, firstCall - 1).breakdown!.beside).toBeNull();
  });

  it('gives the harness overhead the calibration learned as its own row', async () => {
    // Twenty calls whose records carry 5,000 tokens more than their messages: the calibration learns it from the first two.
    const traffic: Scenario['traffic'] = [];
    for (let k = 0; k < 20; k++) {
      traffic.push({ type: 'user', content: `step ${k}: ${'look at the parser again '.repeat(k + 1)}` });
      traffic.push({
        type: 'assistant',
        content: `done ${k}`,
        recorded: { promptTokens: 5_000 + 40 * (k + 1) * (k + 2) },
      });
    }
    const s = ScenarioSchema.parse({
      version: 1,
      name: 'calibrated',
      model: { id: 'claude-sonnet-4' },
      agent: imported().agent,
      inputs: { task: 'fix the parser' },
      traffic,
    });
    const worker = harness();
    await worker.replay(1, s);
    const last = traffic.length - 1;
    const request = replayAsRecorded(s).steps.findLast((st) => st.request && st.index <= last)!.request!;
    expect(request.harnessTokens).toBeGreaterThan(0);
    const beside = worker.inspect(1, last).breakdown!.beside!;
    expect(beside.rows.filter((r) => r.kind === 'overhead').map((r) => r.tokens)).toEqual([request.harnessTokens]);
    expect(beside.overhead!.source).toBe(replayAsRecorded(s).summary.recorded!.calibration.description);
  });
});

describe('the advisor in its worker', () => {
  const example = (): Scenario =>
    ScenarioSchema.parse(
      JSON.parse(readFileSync(new URL('../../examples/imported-run.json', import.meta.url), 'utf8')),
    );

  it('answers with the same advice as advise() run directly, after progress through both phases', async () => {
    const s = example();
    const messages = await harness().advise(s, 30);
    const answer = messages.at(-1)!;
    expect(WorkerResponseSchema.safeParse(answer).success).toBe(true);
    if (answer.type !== 'advise') throw new Error(`expected advice, got ${answer.type}`);
    const direct = advise(s, { ...BUILT_IN_TRAFFIC, ...RHAI, candidates: 30 });
    const figures = (a: typeof direct) =>
      a.front.map((p) => [p.toml, p.peakRequestTokens, p.inputCostUsd, p.readAgain, p.changes]);
    expect(direct.front.length).toBeGreaterThan(0);
    expect(figures(answer.result)).toEqual(figures(direct));
    expect(answer.result.asRecorded).toEqual(direct.asRecorded);
    const progress = messages.filter((m) => m.type === 'progress');
    expect(new Set(progress.map((m) => m.phase))).toEqual(new Set(['search', 'front']));
    const search = progress.filter((m) => m.phase === 'search');
    expect(search.every((m) => m.total === 30 && m.done <= 30)).toBe(true);
  });

  it('a cancelled search answers cancelled, with no advice', async () => {
    const controller = new AbortController();
    controller.abort();
    const messages = await harness().advise(example(), 30, controller.signal);
    expect(messages.at(-1)).toMatchObject({ type: 'failed', cancelled: true });
    expect(messages.some((m) => m.type === 'advise')).toBe(false);
  });
});
