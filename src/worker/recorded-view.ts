// The run as recorded beside the blueprint's replay, shaped in the engine worker for the page: the
// provider's own figures (what the trace recorded), the as-sent replay's (the engine's
// replayAsRecorded), and the blueprint's, as the verdict compares them; the recorded prompt size and
// the as-sent request at every point the window chart draws, and the cache reads beside the
// blueprint's at every point the cache chart draws; and the window breakdown of the as-sent request
// at an inspected step. Costs are the price table's (cache.ts), with its source and date.
import {
  priceSplit,
  breakdown,
  type WindowBreakdown,
  asSentCostUsd,
  type AsRecordedRequest,
  type AsRecordedTimeline,
  type Model,
  type Scenario,
  lowerBound,
  type LostFigures,
  type Timeline,
  itemAt,
} from '../engine/index.ts';

export interface RecordedComparison {
  /** The provider's own records: the calls that carry one, the largest prompt, and their input cost. */
  recorded: {
    calls: number;
    peakPromptTokens: number;
    inputCostUsd: number | null;
    promptTokens: number;
    cacheReadTokens: number;
  };
  /** The as-sent replay (the harness's flat list, calibrated on the first calls' records). */
  asSent: {
    inferences: number;
    peakRequestTokens: number;
    inputCostUsd: number | null;
    /** The calibration in words, and how far the replay is from the records (median, over the compared calls). */
    calibration: string | null;
    compared: number;
    medianError: number | null;
  };
  /** The blueprint's replay of the same traffic. */
  blueprint: {
    inferences: number;
    peakRequestTokens: number;
    inputCostUsd: number | null;
    taskKept: boolean;
    /** What its own rules let go: tool results (and how many of those were read again later), and other entries. */
    lost: LostFigures;
    readAgain: number;
  };
  /** The price table the costs come from (null: the model has no price on record). */
  prices: { model: string; source: string; checked: string } | null;
  /** True when this project's tokenizer stands in for the provider's (Claude, Gemini): the blueprint's counts are approximate. */
  approximate: boolean;
  /** At each point of the window series (`view.window.steps`): the request in force, as recorded (-1: none yet) and as sent. */
  window: { recorded: Int32Array; asSent: Int32Array };
  /** At each point of the request series (`view.requests.steps`): the cache reads as recorded (-1: not recorded) and as sent. */
  cache: { recorded: Int32Array; asSent: Int32Array };
}

/** What the as-sent replay depends on: the model, the task and the traffic (never the blueprint). */
export function asSentKey(scenario: Scenario): string {
  return JSON.stringify([scenario.model, scenario.inputs.task ?? null, scenario.traffic]);
}

/** The as-sent requests, by inference, with the step each answers. */
export interface AsSentRequests {
  steps: Int32Array;
  requests: AsRecordedRequest[];
  window: number;
  calibration: string | null;
}

export function asSentRequests(asSent: AsRecordedTimeline): AsSentRequests {
  const inferences = asSent.steps.filter((s) => s.request);
  return {
    steps: Int32Array.from(inferences, (s) => s.index),
    requests: inferences.map((s) => s.request!),
    window: asSent.model.window,
    calibration: asSent.summary.recorded?.calibration.description ?? null,
  };
}

/** The index of the latest inference at or before `step` (-1: none yet). */
const atOrBefore = (steps: Int32Array, step: number): number => lowerBound(steps, step + 1) - 1;

function addCost(
  total: number | null,
  model: Model,
  split: { read: number; write: number; uncached: number },
): number | null {
  const priced = priceSplit(model, split);
  return total === null || priced === null ? null : total + priced.usd;
}

export function recordedComparison(
  model: Model,
  timeline: Timeline,
  asSent: AsRecordedTimeline,
  points: { window: Int32Array; requests: Int32Array },
): { comparison: RecordedComparison; transfer: ArrayBuffer[] } {
  const sent = asSentRequests(asSent);
  const recorded = {
    calls: 0,
    peakPromptTokens: 0,
    inputCostUsd: 0 as number | null,
    promptTokens: 0,
    cacheReadTokens: 0,
  };
  for (const r of sent.requests) {
    const rec = r.recorded;
    if (!rec) continue;
    recorded.calls++;
    recorded.peakPromptTokens = Math.max(recorded.peakPromptTokens, rec.promptTokens);
    recorded.promptTokens += rec.promptTokens;
    const recRead = rec.cacheReadTokens ?? 0;
    const recWrite = rec.cacheWriteTokens ?? 0;
    recorded.cacheReadTokens += recRead;
    recorded.inputCostUsd = addCost(recorded.inputCostUsd, model, {
      read: recRead,
      write: recWrite,
      uncached: Math.max(0, rec.promptTokens - recRead - recWrite),
    });
  }
  const table = priceSplit(model, { read: 0, write: 0, uncached: 0 });
  let blueprintCost = 0;
  for (const s of timeline.steps) if (s.request) blueprintCost += s.request.cache.inputCostUsd;
  const inForce = (at: Int32Array, pick: (r: AsRecordedRequest) => number) =>
    Int32Array.from(at, (step) => {
      const k = atOrBefore(sent.steps, step);
      return k < 0 ? -1 : pick(itemAt(sent.requests, k));
    });
  const summary = asSent.summary;
  const comparison: RecordedComparison = {
    recorded,
    asSent: {
      inferences: summary.inferences,
      peakRequestTokens: summary.peakRequestTokens,
      inputCostUsd: asSentCostUsd(asSent, model),
      calibration: sent.calibration,
      compared: summary.recorded?.compared ?? 0,
      medianError: summary.recorded?.medianError ?? null,
    },
    blueprint: {
      inferences: timeline.summary.inferences,
      peakRequestTokens: timeline.summary.peakRequestTokens,
      inputCostUsd: table ? blueprintCost : null,
      taskKept: timeline.summary.taskLostAt === null,
      lost: timeline.summary.lost,
      readAgain: timeline.summary.readAgain.count,
    },
    prices: table && { model: model.id, source: table.source, checked: table.checked },
    approximate: timeline.model.approximate,
    window: {
      recorded: inForce(points.window, (r) => r.recorded?.promptTokens ?? -1),
      asSent: inForce(points.window, (r) => r.requestTokens),
    },
    cache: {
      recorded: inForce(points.requests, (r) => r.recorded?.cacheReadTokens ?? -1),
      asSent: inForce(points.requests, (r) => r.cache.cacheReadTokens),
    },
  };
  const { window, cache } = comparison;
  return {
    comparison,
    transfer: [window.recorded, window.asSent, cache.recorded, cache.asSent].map((a) => a.buffer as ArrayBuffer),
  };
}

/**
 * The as-sent request's window at `step` (the request in force: the latest inference at or before
 * it): its message list, the reasoning it carries, and the harness overhead the calibration learned.
 */
export function asSentBreakdown(sent: AsSentRequests, step: number): WindowBreakdown | null {
  const k = atOrBefore(sent.steps, step);
  if (k < 0) return null;
  const r = itemAt(sent.requests, k);
  const parts = [{ name: 'message list (as sent)', kind: 'messages' as const, tokens: r.messageTokens }];
  if (r.reasoningTokens > 0)
    parts.push({ name: 'reasoning (within the turn)', kind: 'messages', tokens: r.reasoningTokens });
  const overhead =
    r.harnessTokens > 0
      ? {
          parts: [{ name: 'harness system prompt and tool definitions', tokens: r.harnessTokens }],
          source: sent.calibration ?? 'estimated from the recorded usage',
        }
      : undefined;
  return breakdown(sent.window, parts, overhead);
}
