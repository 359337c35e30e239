// Shapes the engine's timeline into chart series. Only selection and downsampling happen here:
// every number is one the engine reported.
import type { Change, Timeline, TimelineStep } from '../engine/timeline.ts';

/** Charts stay responsive by drawing at most this many points per series (peaks are kept). */
export const MAX_POINTS = 300;

export interface RegionPoint {
  i: number;
  tokens: number;
  budget: number;
  /** Set where the region changed (evict, compact, ...); the marker's height. */
  marker?: number;
  changes?: Change[];
}

function bucketSize(n: number): number {
  return Math.max(1, Math.ceil(n / MAX_POINTS));
}

export function regionSeries(timeline: Timeline, region: string): RegionPoint[] {
  const steps = timeline.steps;
  const size = bucketSize(steps.length);
  const points: RegionPoint[] = [];
  for (let start = 0; start < steps.length; start += size) {
    let peak: TimelineStep | undefined;
    const changes: Change[] = [];
    for (let i = start; i < Math.min(steps.length, start + size); i++) {
      const figures = steps[i].regions[region];
      if (figures && (!peak || figures.tokens > (peak.regions[region]?.tokens ?? -1))) peak = steps[i];
      for (const c of steps[i].changes) if (c.region === region) changes.push(c);
    }
    const figures = (peak ?? steps[start]).regions[region];
    if (!figures) continue;
    const point: RegionPoint = { i: peak?.index ?? start, tokens: figures.tokens, budget: figures.budget };
    if (changes.length) { point.marker = figures.tokens; point.changes = changes; }
    points.push(point);
  }
  return points;
}

export interface RequestPoint {
  i: number;
  inference: number;
  requestTokens: number;
  prefixTokens: number;
  prefixShare: number;
  cacheRead: number;
  baseline: number;
  taskInBaseline: boolean;
  taskInWindow: boolean;
}

export function requestSeries(timeline: Timeline): RequestPoint[] {
  const inferences = timeline.steps.filter((s) => s.request);
  const size = bucketSize(inferences.length);
  const points: RequestPoint[] = [];
  for (let k = 0; k < inferences.length; k += size) {
    const s = inferences[k];
    const r = s.request!;
    points.push({
      i: s.index, inference: r.inference, requestTokens: r.requestTokens, prefixTokens: r.prefixTokens,
      prefixShare: r.prefixShare, cacheRead: r.cache.cacheReadTokens, baseline: r.baselineTokens,
      taskInBaseline: r.taskInBaselineWindow, taskInWindow: r.taskInWindow,
    });
  }
  return points;
}

/** The latest inference step at or before `step` (the request in force at that point). */
export function requestAt(timeline: Timeline, step: number): TimelineStep | undefined {
  for (let i = Math.min(step, timeline.steps.length - 1); i >= 0; i--) {
    if (timeline.steps[i].request) return timeline.steps[i];
  }
  return undefined;
}

/** The step index of inference number `inference`. */
export function stepOfInference(timeline: Timeline, inference: number | null): number | null {
  if (inference === null) return null;
  return timeline.steps.find((s) => s.request?.inference === inference)?.index ?? null;
}

/** Regions worth a chart: declared ones, and runtime ones that ever held something. */
export function chartedRegions(timeline: Timeline): string[] {
  return timeline.regions
    .filter((r) => r.declared || timeline.steps.some((s) => (s.regions[r.name]?.tokens ?? 0) > 0))
    .map((r) => r.name);
}

export interface StageChange {
  i: number;
  from: string;
  to: string;
}

/** Steps at which the stage changed (a transition that passed its gate). */
export function stageChanges(timeline: Timeline): StageChange[] {
  const out: StageChange[] = [];
  for (let k = 1; k < timeline.steps.length; k++) {
    const from = timeline.steps[k - 1].stage;
    const to = timeline.steps[k].stage;
    if (from !== to) out.push({ i: timeline.steps[k].index, from, to });
  }
  return out;
}
