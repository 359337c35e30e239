// Shapes the engine's timeline into chart series. Only selection and downsampling happen here:
// every number is one the engine reported.
import type { Change, ChangeType, Timeline, TimelineStep } from '../engine/timeline.ts';

/** Charts stay responsive by drawing about this many points per series (peaks and changes are kept). */
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

/**
 * The step indices a downsampled series draws: each bucket of `bucketSize` steps keeps its fullest
 * step, and every step where `changed` holds is kept as well, so a change is drawn (and named by the
 * tooltip) at its own step with its own figures. Ascending, no duplicates.
 */
export function keptSteps(count: number, size: number, fullness: (k: number) => number, changed: (k: number) => boolean): number[] {
  const kept: number[] = [];
  for (let start = 0; start < count; start += size) {
    const end = Math.min(count, start + size);
    let peak = start;
    for (let k = start + 1; k < end; k++) if (fullness(k) > fullness(peak)) peak = k;
    for (let k = start; k < end; k++) if (k === peak || changed(k)) kept.push(k);
  }
  return kept;
}

export function regionSeries(timeline: Timeline, region: string): RegionPoint[] {
  const steps = timeline.steps;
  const changesAt = (k: number) => steps[k].changes.filter((c) => c.region === region);
  const kept = keptSteps(
    steps.length, bucketSize(steps.length),
    (k) => steps[k].regions[region]?.tokens ?? -1,
    (k) => steps[k].changes.some((c) => c.region === region),
  );
  const points: RegionPoint[] = [];
  for (const k of kept) {
    const figures = steps[k].regions[region];
    if (!figures) continue;
    const point: RegionPoint = { i: steps[k].index, tokens: figures.tokens, budget: figures.budget };
    const changes = changesAt(k);
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

// ---- The main chart: the whole window, inference by inference ----------------------------------

/** One point of the stacked window chart: every charted region's tokens at step `i`, exactly. */
export interface WindowPoint {
  i: number;
  /** Tokens per charted region, in the order of `chartedRegions`. */
  tokens: number[];
  total: number;
  /** Stable cache prefix of the request in force at this step (null before the first inference). */
  prefix: number | null;
}

/**
 * The stacked series, downsampled: each bucket of steps keeps its fullest step, and every step with
 * a change is kept too, each with that step's own figures, so a tooltip always names the real step
 * of a change and its real numbers. At most MAX_POINTS points plus one per step with a change.
 */
export function windowSeries(timeline: Timeline, regions: readonly string[]): WindowPoint[] {
  const steps = timeline.steps;
  const prefixAt: (number | null)[] = [];
  let prefix: number | null = null;
  for (const s of steps) {
    if (s.request) prefix = s.request.prefixTokens;
    prefixAt.push(prefix);
  }
  const tokensAt = (k: number) => regions.map((r) => steps[k].regions[r]?.tokens ?? 0);
  const totalAt = (k: number) => tokensAt(k).reduce((a, b) => a + b, 0);
  const kept = keptSteps(steps.length, bucketSize(steps.length), totalAt, (k) => steps[k].changes.length > 0);
  return kept.map((k) => {
    const tokens = tokensAt(k);
    return { i: steps[k].index, tokens, total: tokens.reduce((a, b) => a + b, 0), prefix: prefixAt[k] };
  });
}

/** What a marker stands for: one of the engine's change types, or the stage moving on. */
export type MarkerKind = ChangeType | 'stage';

export interface Marker {
  i: number;
  kind: MarkerKind;
  region: string;
  tokens: number;
  text: string;
}

/** Every change and stage change at its own step, in step order. */
export function timelineMarkers(timeline: Timeline): Marker[] {
  const out: Marker[] = [];
  const stages = new Map(stageChanges(timeline).map((c) => [c.i, c]));
  // A change can name a pseudo-region (a truncated tool's result); only real ones are focusable.
  const regions = new Set(timeline.regions.map((r) => r.name));
  for (const step of timeline.steps) {
    const stage = stages.get(step.index);
    if (stage) out.push({ i: step.index, kind: 'stage', region: '', tokens: 0, text: `stage ${stage.from} → ${stage.to}` });
    for (const c of step.changes) {
      out.push({ i: step.index, kind: c.type, region: regions.has(c.region) ? c.region : '', tokens: c.tokens, text: `${c.type} in ${c.region}: ${c.tokens} tokens${c.reason ? ` (${c.reason})` : ''}` });
    }
  }
  return out;
}

export interface MarkerCluster {
  /** The first step in the cluster (where a click lands). */
  i: number;
  /** The last step in the cluster. */
  last: number;
  /** The kind drawn: the most frequent in the cluster (ties: the first seen). */
  kind: MarkerKind;
  count: number;
  /** Count per kind, most frequent first. */
  breakdown: [MarkerKind, number][];
  markers: Marker[];
}

/**
 * Markers that would share a pixel column become one cluster. `columns` is how many marker-wide
 * columns the plot has; `steps` the timeline's length.
 */
export function clusterMarkers(markers: readonly Marker[], steps: number, columns: number): MarkerCluster[] {
  const perColumn = Math.max(1, steps / Math.max(1, columns));
  const byColumn = new Map<number, Marker[]>();
  for (const m of markers) {
    const column = Math.floor(m.i / perColumn);
    const list = byColumn.get(column);
    if (list) list.push(m);
    else byColumn.set(column, [m]);
  }
  return [...byColumn.values()].map((list) => {
    const counts = new Map<MarkerKind, number>();
    for (const m of list) counts.set(m.kind, (counts.get(m.kind) ?? 0) + 1);
    const breakdown = [...counts].sort((a, b) => b[1] - a[1]);
    return { i: list[0].i, last: list[list.length - 1].i, kind: breakdown[0][0], count: list.length, breakdown, markers: list };
  });
}

/**
 * Colour-blind-safe fills (Okabe–Ito, then Paul Tol's muted set). A region's colour follows its
 * name: a name keeps the colour it was given before (`remembered`, kept in this browser) unless
 * another region of the same timeline already holds it, so adding a region never repaints another.
 * A new name takes its hash's colour, or the next free one; new names are placed in name order, so
 * the result does not depend on the order of declaration either.
 */
export const REGION_PALETTE = [
  '#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442', '#882255',
  '#BBBBBB', '#999933', '#332288',
] as const;

function nameHash(name: string): number {
  let h = 2166136261;
  for (let k = 0; k < name.length; k++) h = Math.imul(h ^ name.charCodeAt(k), 16777619);
  return h >>> 0;
}

export function regionColors(names: readonly string[], remembered: ReadonlyMap<string, string> = new Map()): Map<string, string> {
  const taken = new Set<string>();
  const out = new Map<string, string>();
  for (const name of names) {
    const colour = remembered.get(name);
    if (colour && (REGION_PALETTE as readonly string[]).includes(colour) && !taken.has(colour)) {
      taken.add(colour);
      out.set(name, colour);
    }
  }
  for (const name of names.filter((n) => !out.has(n)).sort()) {
    let slot = nameHash(name) % REGION_PALETTE.length;
    // More regions than colours: the last ones share (the legend and tooltips still name them).
    for (let tries = 0; taken.has(REGION_PALETTE[slot]) && tries < REGION_PALETTE.length; tries++) slot = (slot + 1) % REGION_PALETTE.length;
    taken.add(REGION_PALETTE[slot]);
    out.set(name, REGION_PALETTE[slot]);
  }
  return new Map(names.map((n) => [n, out.get(n)!]));
}

/** Why the runtime carries a region the blueprint did not declare. */
export const IMPLICIT_REGION_WHY: Record<string, string> = {
  conversation: 'the runtime always carries it: user and assistant turns land here unless routed elsewhere',
  tool_results: 'the runtime always carries it: tool output lands here unless tool_routing sends it elsewhere',
  final_output: 'the runtime always carries it: it holds the stage’s final answer',
  stage_instructions: 'the runtime always carries it: it holds the entering stage’s system_prompt',
};
