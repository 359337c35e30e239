// The engine worker's answers. It keeps the replays: a replay keeps its run (copies of it along the
// way, and each step's figures), so inspecting a step afterwards steps on from the nearest copy,
// never a second replay. Every number the page shows about a replay is computed here.
import {
  type WindowBreakdown,
  type Model,
  type CompileResult,
  ScenarioSchema,
  type Scenario,
  type Diagnostic,
  type Timeline,
  countTokens,
  isEncodingLoaded,
  loadEncoding,
  tokenPage,
  fmt,
  blueprintBreakdown,
  compile,
  flatListBreakdown,
  Replay,
  recordsItsRun,
  replayAsRecorded,
  resolveModel,
  type AsRecordedTimeline,
} from '../engine/index.ts';
import type { RecordedComparison } from './recorded-view.ts';
import { BUILT_IN_TRAFFIC } from '../scenarios/generators.ts';
import { asRecordedView } from './as-recorded-view.ts';
import { scenarioIssueDiagnostics } from '../scenarios/issues.ts';
import { figureTable, timelineView, stepFigures, type FigureTable } from './timeline-view.ts';
import { validationResult } from './validation.ts';
import { dropToolOutput } from '../share/shrink.ts';
import { shapeOnly } from '../import/shape.ts';
import type { Context, Handlers } from './serve.ts';
import { ENGINE_TIME_LIMIT_MS } from './protocol.ts';
import type { ScriptLog } from './scripts.ts';
import { loadingEncodingOf } from './encoding.ts';
import type { RhaiHost } from '../engine/index.ts';
import { withRhai } from './rhai.ts';

export const PROGRESS_INTERVAL_MS = 50;
/** Replays kept for inspection: the one on screen and the newest (which may not be adopted yet). */
const REPLAYS_KEPT = 2;

export function parseScenario(raw: unknown): { scenario?: Scenario; diagnostics: Diagnostic[] } {
  const parsed = ScenarioSchema.safeParse(raw);
  if (parsed.success) return { scenario: parsed.data, diagnostics: [] };
  return { diagnostics: scenarioIssueDiagnostics(parsed.error, 'scenario.json') };
}

/** The run as it was sent, replayed once per traffic: its window at a step, and its comparison with a blueprint's replay (recorded-view.ts). */
interface AsSent {
  timeline: AsRecordedTimeline;
  breakdownAt: (step: number) => WindowBreakdown | null;
  compare: (
    model: Model,
    blueprint: Timeline,
    points: { window: Int32Array; requests: Int32Array },
  ) => { comparison: RecordedComparison; transfer: ArrayBuffer[] };
}

/**
 * A replay stops itself this long after it starts, between two events, so that it ends with the
 * timeline so far before the page's time limit has to stop the worker and lose it all.
 */
export const REPLAY_DEADLINE_MS = ENGINE_TIME_LIMIT_MS - 2_000;

/**
 * Replays with `rhai` (from `compiled` when given), keeping what inspect needs; undefined when
 * cancelled. Past `deadlineMs` it stops between two events: the timeline so far is kept, with a run
 * warning that says where it stopped and which scripts took the time.
 */
function replayKept(
  scenario: Scenario,
  { signal, scripts }: Context,
  deadlineMs: number,
  rhai: RhaiHost,
  { onProgress, compiled }: { onProgress?: (done: number, total: number) => void; compiled?: CompileResult } = {},
): { replay: Replay; timeline: Timeline } | undefined {
  const started = performance.now();
  let late = false;
  const stop = {
    get aborted() {
      return signal.aborted || (late ||= performance.now() - started > deadlineMs);
    },
  };
  let total: number | undefined;
  const progress = (done: number, of: number) => {
    total = of;
    onProgress?.(done, of);
  };
  const replay = new Replay(scenario, { ...BUILT_IN_TRAFFIC, ...rhai });
  const timeline = replay.timeline({ signal: stop, onProgress: progress, compiled });
  if (signal.aborted) return undefined;
  if (!late || !timeline.cancelled) return { replay, timeline };
  // A copy: the timeline's list is the run's own, which inspecting the kept replay reads.
  timeline.warnings = [...timeline.warnings, stoppedEarly(timeline.steps.length, total, deadlineMs, scripts)];
  timeline.summary.warnings++;
  return { replay, timeline };
}

type Compiled = { rhai: RhaiHost; compiled: CompileResult };

/** The scenario compiled, and the Rhai host its replay takes (the interpreter, loaded when the compile needed it). */
function compiledWithRhai(scenario: Scenario, onLoad?: (ms: number) => void): Compiled | Promise<Compiled> {
  return withRhai((rhai) => ({ rhai, compiled: compile(scenario, rhai) }), onLoad);
}

function cancelled(id: number, { post }: Context): void {
  post({ type: 'failed', id, message: 'cancelled', cancelled: true });
}

/** The run warning of a replay that stopped at its deadline: where, and which scripts took the time. */
function stoppedEarly(
  done: number,
  total: number | undefined,
  deadlineMs: number,
  scripts: ScriptLog | undefined,
): string {
  const slowest = scripts?.slowest(3) ?? [];
  const spent =
    slowest.length > 0
      ? ` Its scripts took ${((scripts?.totalMs ?? 0) / 1000).toFixed(1)} s of it: ${slowest.join(', ')}.`
      : '';
  return (
    `The replay stopped at the page's time limit (${Math.round(deadlineMs / 1000)} s) after event ${fmt(done)}${total === undefined ? '' : ` of ${fmt(total)}`}: ` +
    `the timeline shows the events up to there.${spent} lev replay runs it to the end.`
  );
}

/**
 * The engine worker's answers. Each worker has its own set (and so its own kept replays); tests
 * call them directly with a recording `post`.
 */
export function engineHandlers({ deadlineMs = REPLAY_DEADLINE_MS }: { deadlineMs?: number } = {}): Handlers {
  // A kept replay, by the page's replay id: the Replay (a step's detail) and the figures of each
  // step (the readout); the timeline itself is let go once its view is sent.
  // `asSentAt`: the window of the run as it was sent at a step, for a scenario that records its run.
  const kept = new Map<
    number,
    { replay: Replay; figures: FigureTable; window: number; asSentAt?: (step: number) => WindowBreakdown | null }
  >();
  function keep(replayId: number, { replay, timeline }: { replay: Replay; timeline: Timeline }, asSent?: AsSent): void {
    kept.delete(replayId);
    kept.set(replayId, {
      replay,
      figures: figureTable(timeline),
      window: timeline.model.window,
      ...(asSent ? { asSentAt: asSent.breakdownAt } : {}),
    });
    for (const oldest of kept.keys()) {
      if (kept.size <= REPLAYS_KEPT) break;
      kept.delete(oldest);
    }
  }
  // The run as it was sent depends on the traffic, not the blueprint: replayed once per traffic, and
  // every edit of the blueprint is compared with the same one.
  let asSentKept: ({ key: string } & AsSent) | undefined;
  async function asSentOf(scenario: Scenario, signal: AbortSignal): Promise<AsSent | undefined> {
    // Only a scenario that records its run needs this module: a chunk of its own, off the page's first load.
    const view = await import('./recorded-view.ts');
    const key = view.asSentKey(scenario);
    if (asSentKept?.key !== key) {
      const timeline = replayAsRecorded(scenario, { signal });
      if (signal.aborted || timeline.error) return undefined;
      const requests = view.asSentRequests(timeline);
      asSentKept = {
        key,
        timeline,
        breakdownAt: (step) => view.asSentBreakdown(requests, step),
        compare: (model, blueprint, points) => view.recordedComparison(model, blueprint, timeline, points),
      };
    }
    return asSentKept;
  }
  return {
    replay: async (req, context) => {
      const { post } = context;
      const started = performance.now();
      const { scenario, diagnostics } = parseScenario(req.scenario);
      if (!scenario) {
        post({ type: 'replay', id: req.id, result: { diagnostics, view: null, ms: 0 } });
        return;
      }
      // One compile per edit: its diagnostics and budgets go to the page now, and the replay runs on it.
      // The first scenario that needs Rhai waits here for the interpreter to load (rhai.ts).
      let rhaiLoadMs = 0;
      const ready = compiledWithRhai(scenario, (ms) => (rhaiLoadMs = ms));
      const { rhai, compiled } = ready instanceof Promise ? await ready : ready;
      post({ type: 'validated', id: req.id, result: validationResult(scenario.model, compiled) });
      const loading = loadingEncodingOf(scenario);
      // The one-time loads of the encoding and the interpreter are not replay time (a slow replay
      // turns the page's auto-run off).
      const loadingMs = (loading ? await loading : 0) + rhaiLoadMs;
      let lastProgress = 0;
      const onProgress = (done: number, total: number) => {
        const now = performance.now();
        if (now - lastProgress < PROGRESS_INTERVAL_MS && done < total) return;
        lastProgress = now;
        post({ type: 'progress', id: req.id, done, total });
      };
      const replayed = replayKept(scenario, context, deadlineMs, rhai, { onProgress, compiled });
      if (!replayed) return cancelled(req.id, context);
      const { timeline } = replayed;
      // Awaited only for a scenario that records its run (or the interpreter's first load, above): any
      // other replay answers in the same task.
      const asSent =
        timeline.steps.length > 0 && recordsItsRun(scenario) ? await asSentOf(scenario, context.signal) : undefined;
      // A replay with errors has no steps to inspect, and must not push the one on screen out.
      if (timeline.steps.length > 0) keep(req.replayId, replayed, asSent);
      const { view, transfer } = timelineView(timeline, req.points);
      const model = resolveModel(scenario.model);
      if (asSent && model.ok) {
        const compared = asSent.compare(model.model, timeline, {
          window: view.window.steps,
          requests: view.requests.steps,
        });
        view.recorded = compared.comparison;
        transfer.push(...compared.transfer);
      }
      post(
        {
          type: 'replay',
          id: req.id,
          result: { diagnostics: timeline.diagnostics, view, ms: performance.now() - started - loadingMs },
        },
        transfer,
      );
    },
    open: async (req, context) => {
      const { scenario, diagnostics } = parseScenario(req.scenario);
      if (!scenario) {
        context.post({
          type: 'open',
          id: req.id,
          result: { ok: false, error: diagnostics.map((d) => d.message).join('; ') },
        });
        return;
      }
      const loading = loadingEncodingOf(scenario);
      if (loading) await loading;
      const ready = compiledWithRhai(scenario);
      const { rhai, compiled } = ready instanceof Promise ? await ready : ready;
      const replayed = replayKept(scenario, context, deadlineMs, rhai, { compiled });
      if (!replayed) return cancelled(req.id, context);
      keep(req.replayId, replayed, recordsItsRun(scenario) ? await asSentOf(scenario, context.signal) : undefined);
      context.post({ type: 'open', id: req.id, result: { ok: replayed.timeline.steps.length > 0 } });
    },
    transform: async (req, { post }) => {
      const { scenario, diagnostics } = parseScenario(req.scenario);
      if (!scenario) throw new Error(diagnostics.map((d) => d.message).join('; '));
      const loading = loadingEncodingOf(scenario);
      if (loading) await loading;
      const transformed = req.transform === 'shape-only' ? shapeOnly(scenario) : dropToolOutput(scenario, countTokens);
      post({ type: 'transform', id: req.id, result: { scenario: transformed } });
    },
    asRecorded: async (req, { post, signal }) => {
      const { scenario, diagnostics } = parseScenario(req.scenario);
      if (!scenario) {
        post({ type: 'asRecorded', id: req.id, result: { diagnostics, view: null } });
        return;
      }
      const loading = loadingEncodingOf(scenario);
      if (loading) await loading;
      const timeline = replayAsRecorded(scenario, { signal });
      if (signal.aborted) {
        post({ type: 'failed', id: req.id, message: 'cancelled', cancelled: true });
        return;
      }
      if (timeline.error) {
        post({
          type: 'asRecorded',
          id: req.id,
          result: {
            diagnostics: [
              {
                code: 'unknown-model',
                severity: 'error',
                message: timeline.error,
                file: 'scenario.json',
                line: 1,
                column: 1,
                path: 'model',
              },
            ],
            view: null,
          },
        });
        return;
      }
      const { view, transfer } = asRecordedView(timeline);
      post({ type: 'asRecorded', id: req.id, result: { diagnostics: [], view } }, transfer);
    },
    tokens: async (req, { post }) => {
      if (!isEncodingLoaded(req.encoding)) await loadEncoding(req.encoding);
      post({ type: 'tokens', id: req.id, result: tokenPage(req.text, req.encoding, req.from, req.limit) });
    },
    inspect: (req, { post }) => {
      const replay = kept.get(req.replayId);
      if (!replay) {
        post({ type: 'inspect', id: req.id, result: { detail: null, missing: true } });
        return;
      }
      const detail = replay.replay.inspect(req.step);
      // What fills the window: the blueprint's request beside the run as it was sent (or, with no
      // recorded run, the flat-list baseline that stands in for it).
      const beside = replay.asSentAt ? replay.asSentAt(req.step) : (flatListBreakdown(detail, replay.window) ?? null);
      const breakdown = {
        blueprint: blueprintBreakdown(detail, replay.window),
        beside,
        besideIs: replay.asSentAt ? ('asSent' as const) : ('flatList' as const),
      };
      post({
        type: 'inspect',
        id: req.id,
        result: { detail, figures: stepFigures(replay.figures, req.step), breakdown },
      });
    },
  };
}
