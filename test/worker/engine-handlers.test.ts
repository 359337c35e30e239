// The engine worker's request handling: a replay is kept under the page's replay id, inspects name
// it and are answered from it, a lost replay is reported as missing and can be opened again.
import { describe, expect, it } from 'vitest';
import {
  type Scenario,
  countTokens,
  ScenarioSchema,
  replayAsRecorded,
  watchScripts,
  Replay,
  blueprintBreakdown,
  compile,
  findModel,
  flatListBreakdown,
  replay,
} from '../../src/engine/index.ts';
import { BUILT_IN_TRAFFIC } from '../../src/scenarios/generators.ts';
import { RHAI } from '../../src/engine/custom-script.ts';
import { append, assistant, scenario, user } from '../builders.ts';
import { engineHandlers } from '../../src/worker/engine-handlers.ts';
import { figureTable, timelineView, stepFigures } from '../../src/worker/timeline-view.ts';
import { validationResult } from '../../src/worker/validation.ts';
import { shapeOnly } from '../../src/import/shape.ts';
import { WorkerResponseSchema, type WorkerResponse } from '../../src/worker/protocol.ts';
import { asRecordedView } from '../../src/worker/as-recorded-view.ts';
import { importTrace } from '../../src/import/index.ts';
import { readFileSync } from 'node:fs';
import { scriptLog, type RunningScript, type ScriptLog } from '../../src/worker/scripts.ts';
import { loadRhai } from '../../src/worker/rhai.ts';

/** The builders' model, gpt-4o, and its window. */
const GPT_4O_WINDOW = findModel('gpt-4o')!.window;

const notes = (text: string): Scenario =>
  scenario('[context.regions]\nnotes = { max_tokens = 50 }', [
    append('notes', text, 'a'),
    user('hi'),
    assistant('first'),
    append('notes', 'two', 'b'),
    assistant('second'),
  ]);

function harness(options: Parameters<typeof engineHandlers>[0] = {}, scripts?: ScriptLog) {
  const handlers = engineHandlers(options);
  const posted: WorkerResponse[] = [];
  const transferred: Transferable[][] = [];
  let id = 0;
  const context = (signal = new AbortController().signal) => ({
    post: (m: WorkerResponse, transfer: Transferable[] = []) => {
      posted.push(m);
      transferred.push(transfer);
    },
    signal,
    scripts,
  });
  const last = () => posted.at(-1)!;
  return {
    posted,
    transferred,
    replay(replayId: number, s: unknown, signal?: AbortSignal) {
      handlers.replay!({ id: ++id, type: 'replay', replayId, scenario: s }, context(signal));
      return last();
    },
    open(replayId: number, s: unknown) {
      handlers.open!({ id: ++id, type: 'open', replayId, scenario: s }, context());
      return last();
    },
    async transform(transform: 'drop-tool-output' | 'shape-only', s: unknown) {
      await handlers.transform!({ id: ++id, type: 'transform', transform, scenario: s }, context());
      return last();
    },
    async asRecorded(s: unknown) {
      await handlers.asRecorded!({ id: ++id, type: 'asRecorded', scenario: s }, context());
      return last();
    },
    async tokens(text: string, encoding: 'o200k_base' | 'cl100k_base', from: number, limit: number) {
      await handlers.tokens!({ id: ++id, type: 'tokens', text, encoding, from, limit }, context());
      return last();
    },
    inspect(replayId: number, step: number) {
      handlers.inspect!({ id: ++id, type: 'inspect', replayId, step }, context());
      const answer = last();
      if (answer.type !== 'inspect') throw new Error(`expected an inspect answer, got ${answer.type}`);
      return answer.result;
    },
  };
}

describe('engine worker handlers', () => {
  it('answers an inspect from the run its replay kept, exactly as a fresh inspection', () => {
    const worker = harness();
    const answer = worker.replay(7, notes('one'));
    expect(answer.type).toBe('replay');
    const detail = new Replay(notes('one'), { ...BUILT_IN_TRAFFIC, ...RHAI }).inspect(2);
    expect(worker.inspect(7, 2)).toEqual({
      detail,
      figures: stepFigures(figureTable(replay(notes('one'), { ...BUILT_IN_TRAFFIC, ...RHAI })), 2),
      // No recorded run: the flat list stands beside the blueprint's window.
      breakdown: {
        blueprint: blueprintBreakdown(detail, GPT_4O_WINDOW),
        beside: flatListBreakdown(detail, GPT_4O_WINDOW) ?? null,
        besideIs: 'flatList',
      },
    });
    expect(worker.inspect(7, 4).detail).toMatchObject({ index: 4, inference: true });
    // The readout's figures at step 3 (an append): notes holds both texts, the request in force is inference 0 at step 2.
    expect(worker.inspect(7, 3).figures).toMatchObject({
      index: 3,
      regions: { notes: { tokens: 2 } },
      request: { step: 2, inference: 0 },
    });
    expect(worker.inspect(7, 1).figures).toMatchObject({ index: 1, request: null });
  });

  it('keeps each replay apart by its id, and the two newest only', () => {
    const worker = harness();
    worker.replay(1, notes('one'));
    worker.replay(2, notes('uno'));
    const systemText = (replayId: number) =>
      (worker.inspect(replayId, 2).detail as { request: { system: { text: string }[] } }).request.system[0]!.text;
    expect(systemText(1)).toBe('[notes]:\none');
    expect(systemText(2)).toBe('[notes]:\nuno');
    worker.replay(3, notes('eins'));
    expect(worker.inspect(1, 2)).toEqual({ detail: null, missing: true });
    expect(systemText(3)).toBe('[notes]:\neins');
  });

  it('says a run it does not hold is missing; open brings it back', () => {
    const worker = harness();
    expect(worker.inspect(5, 0)).toEqual({ detail: null, missing: true });
    expect(worker.open(5, notes('one'))).toMatchObject({ type: 'open', result: { ok: true } });
    expect(worker.inspect(5, 2).detail).toEqual(new Replay(notes('one'), { ...BUILT_IN_TRAFFIC, ...RHAI }).inspect(2));
  });

  it('keeps no run from a cancelled replay or a scenario that fails its schema', () => {
    const worker = harness();
    const controller = new AbortController();
    controller.abort();
    expect(worker.replay(1, notes('one'), controller.signal)).toEqual({
      type: 'failed',
      id: 1,
      message: 'cancelled',
      cancelled: true,
    });
    expect(worker.inspect(1, 0)).toEqual({ detail: null, missing: true });
    const refused = worker.replay(2, { version: 1 });
    expect(refused).toMatchObject({ type: 'replay', result: { view: null } });
    expect(worker.inspect(2, 0)).toEqual({ detail: null, missing: true });
  });

  it('answers the validation from the compile its replay then runs on, before the replay', () => {
    const worker = harness();
    const s = notes('one');
    worker.replay(1, s);
    const [validated] = worker.posted;
    expect(validated).toEqual({ type: 'validated', id: 1, result: validationResult(s.model, compile(s)) });
    expect(validated!.type === 'validated' && validated.result.budgets.map((b) => [b.region, b.budget])).toEqual([
      ['notes', 50],
    ]);
    expect(worker.posted.slice(1).map((m) => m.type)).toEqual(['progress', 'replay']);
  });

  it('a replay given a compile runs on it rather than compiling again', () => {
    const other = scenario('[context.regions]\nscratch = { max_tokens = 70 }', [user('hi'), assistant('first')]);
    const timeline = new Replay(notes('one'), { ...BUILT_IN_TRAFFIC, ...RHAI }).timeline({ compiled: compile(other) });
    expect(timeline.regions.filter((r) => r.declared).map((r) => [r.name, r.budget])).toEqual([['scratch', 70]]);
  });

  it('does the share options that count tokens, so the page never loads the tokenizer', async () => {
    const worker = harness();
    const withOutput = scenario('[context.regions]\nnotes = { max_tokens = 50 }', [
      assistant('reading', ['c1', 'read_file', { path: 'a.ts' }]),
      { type: 'tool_result', tool_call_id: 'c1', tool_name: 'read_file', content: 'export const answer = 42;\n' },
    ]);
    const dropped = await worker.transform('drop-tool-output', withOutput);
    expect(dropped).toMatchObject({
      type: 'transform',
      result: {
        scenario: {
          traffic: [
            { type: 'assistant' },
            { type: 'tool_result', size_tokens: countTokens('export const answer = 42;\n') },
          ],
        },
      },
    });
    expect(dropped.type === 'transform' && 'content' in dropped.result.scenario.traffic[1]!).toBe(false);
    const shaped = await worker.transform('shape-only', withOutput);
    expect(shaped).toEqual({
      type: 'transform',
      id: 2,
      result: { scenario: shapeOnly(ScenarioSchema.parse(withOutput)) },
    });
  });

  it('posts the timeline view with its columns transferred, which the page-side schema accepts; a malformed view is refused', () => {
    const worker = harness();
    const answer = worker.replay(1, notes('one'));
    const parsed = WorkerResponseSchema.parse(structuredClone(answer));
    const expected = timelineView(replay(notes('one'), { ...BUILT_IN_TRAFFIC, ...RHAI })).view;
    expect(parsed).toMatchObject({ type: 'replay', result: { view: expected } });
    if (answer.type !== 'replay' || !answer.result.view) throw new Error('expected a run view');
    expect(answer.result.view.steps.count).toBe(5);
    expect(worker.transferred.at(-1)).toContain(answer.result.view.window.steps.buffer);
    expect(worker.transferred.at(-1)).toContain(answer.result.view.steps.stage.buffer);
    handlersInspectParses(worker);
    const short = { ...expected, steps: { ...expected.steps, stage: expected.steps.stage.slice(1) } };
    const refused = WorkerResponseSchema.safeParse({
      type: 'replay',
      id: 1,
      result: { diagnostics: [], view: short, ms: 1 },
    });
    expect(refused.success).toBe(false);
    expect(refused.error!.issues[0]!.message).toBe(
      'not a timeline view: expected the header, per-step typed columns, series and the change table',
    );
  });
});

describe('a replay past its deadline', () => {
  // A hook that costs tens of milliseconds a call: 40 inferences take far longer than the deadline.
  const SLOW = 'fn render(ctx) { let n = 0; for i in 0..400000 { n += i; } "slow" }\n';
  const slow = scenario(
    '[context.regions]\nslow = { kind = "custom", script = "context_hooks/slow.rhai" }\n',
    Array.from({ length: 40 }, (_, i) => [user(`q${i}`), assistant(`a${i}`)]).flat(),
    {
      agent: {
        'agent.leviath': '[context.regions]\nslow = { kind = "custom", script = "context_hooks/slow.rhai" }\n',
        'context_hooks/slow.rhai': SLOW,
      },
    },
  );

  it('stops between two events and keeps the timeline so far, with a warning that names the script that took the time', async () => {
    await loadRhai(); // this worker has the interpreter already, so the replay answers in the same task
    const announced: RunningScript[] = [];
    const scripts = scriptLog((call) => announced.push(call));
    watchScripts(scripts);
    try {
      const worker = harness({ deadlineMs: 300 }, scripts);
      const answer = worker.replay(1, slow);
      if (answer.type !== 'replay' || !answer.result.view)
        throw new Error(`expected a run view, got ${JSON.stringify(answer).slice(0, 200)}`);
      const steps = answer.result.view.steps.count;
      expect(steps).toBeGreaterThan(0);
      expect(steps).toBeLessThan(80);
      const warning = answer.result.view.warnings.map((w) => w.text).find((t) => t.startsWith('The replay stopped'));
      expect(warning).toMatch(
        new RegExp(
          `^The replay stopped at the page's time limit \\(0 s\\) after event ${steps}( of 80)?: the timeline shows the events up to there\\. ` +
            `Its scripts took \\d+\\.\\d s of it: context_hooks/slow\\.rhai render \\d+\\.\\d s \\(\\d+ calls?\\)\\. lev replay runs it to the end\\.$`,
        ),
      );
      // One hook of one script: announced once, however many calls.
      expect(announced).toEqual([{ file: 'context_hooks/slow.rhai', hooks: ['render'] }]);
      // The steps it reached are kept for the inspector, as a finished run's are.
      expect(worker.inspect(1, steps - 1).detail).toMatchObject({ index: steps - 1 });
    } finally {
      watchScripts(undefined);
    }
  });

  it('a replay inside its deadline is the whole timeline, with no such warning', () => {
    const worker = harness();
    const answer = worker.replay(1, notes('one'));
    if (answer.type !== 'replay' || !answer.result.view) throw new Error('expected a run view');
    expect(answer.result.view.steps.count).toBe(5);
    expect(answer.result.view.warnings.some((w) => w.text.startsWith('The replay stopped'))).toBe(false);
  });
});

function handlersInspectParses(worker: ReturnType<typeof harness>): void {
  const result = worker.inspect(1, 4);
  expect(WorkerResponseSchema.parse({ type: 'inspect', id: 9, result: structuredClone(result) })).toEqual({
    type: 'inspect',
    id: 9,
    result,
  });
  expect(WorkerResponseSchema.safeParse({ type: 'inspect', id: 9, result: { detail: { index: 4 } } }).success).toBe(
    false,
  );
}

describe('the as-sent replay in the engine worker', () => {
  it('answers asRecorded with the view of an imported run: one typed row per inference, the recorded figures beside', async () => {
    const worker = harness();
    const { scenario: imported } = importTrace(
      readFileSync(new URL('../import/fixtures/real/openhands-basic.json', import.meta.url), 'utf8'),
    );
    const answer = await worker.asRecorded(JSON.parse(JSON.stringify(imported)));
    expect(WorkerResponseSchema.safeParse(answer).success).toBe(true);
    if (answer.type !== 'asRecorded') throw new Error(`expected an asRecorded answer, got ${answer.type}`);
    expect(answer.result.view).toEqual(asRecordedView(replayAsRecorded(imported)).view);
    const recorded = imported.traffic.flatMap((e) => (e.type === 'assistant' ? [e.recorded?.promptTokens ?? -1] : []));
    expect([...answer.result.view!.columns.recordedPromptTokens]).toEqual(recorded);
    expect(worker.transferred.at(-1)!.length).toBe(8);
  });

  it('answers a scenario that does not parse with its diagnostics and no view', async () => {
    const answer = await harness().asRecorded({ version: 1 });
    expect(answer).toMatchObject({ type: 'asRecorded', result: { view: null } });
    if (answer.type === 'asRecorded') expect(answer.result.diagnostics.length).toBeGreaterThan(0);
  });
});

describe('tokens (the token view)', () => {
  it("answers a page of the text's pieces in the encoding asked for, and the answer parses as the page parses it", async () => {
    const text = 'The usual way to give a model its history is one flat list of messages. 🧪 '.repeat(40);
    const h = harness();
    for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
      const first = await h.tokens(text, encoding, 0, 100);
      expect(WorkerResponseSchema.parse(first)).toEqual(first);
      if (first.type !== 'tokens') throw new Error(`expected a tokens answer, got ${first.type}`);
      expect(first.result.pieces).toHaveLength(100);
      expect(first.result.totalTokens).toBe(countTokens(text, encoding));
      const second = await h.tokens(text, encoding, 100, 100);
      if (second.type !== 'tokens') throw new Error(`expected a tokens answer, got ${second.type}`);
      expect(second.result.fromChar).toBe(first.result.pieces.map((p) => p.text).join('').length);
      expect(
        text.startsWith(
          first.result.pieces
            .concat(second.result.pieces)
            .map((p) => p.text)
            .join(''),
        ),
      ).toBe(true);
    }
  });
});
