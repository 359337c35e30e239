// Turns the timeline view the engine worker sent (columns of typed arrays, already downsampled) into
// the window chart's points, paths and markers, and answers lookups by step (the detail charts'
// points: seriesPoints.ts). Every number is one the engine
// reported; nothing here computes a region's figures.
import { CHANGE_TYPES, type ChangeType, IMPLICIT_REGIONS, lowerBound, itemAt } from '../engine/page.ts';
import type { TimelineView } from '../worker/timeline-view.ts';

export interface ChangeRow {
  type: ChangeType;
  region: string;
  tokens: number;
  reason?: string;
}

/** One point of the stacked window chart: every charted region's tokens at step `i`, exactly. */
export interface WindowPoint {
  i: number;
  /** Tokens per charted region, in the order of `view.charted`. */
  tokens: number[];
  total: number;
  /** Stable cache prefix of the request in force at this step (null before the first inference). */
  prefix: number | null;
  /** For a scenario that records its run: the request in force as the provider recorded it, and as the as-sent replay sends it (null: none yet). */
  recorded?: number | null;
  asSent?: number | null;
}

function changeRow(timeline: TimelineView, row: number): ChangeRow {
  const { changes } = timeline;
  const out: ChangeRow = {
    type: itemAt(CHANGE_TYPES, itemAt(changes.type, row)),
    region: itemAt(changes.names, itemAt(changes.region, row)),
    tokens: itemAt(changes.tokens, row),
  };
  const reason = itemAt(changes.reason, row);
  if (reason >= 0) out.reason = itemAt(changes.reasons, reason);
  return out;
}

/** The changes at `step`, of one region when `region` is given. */
export function changesAt(timeline: TimelineView, step: number, region?: string): ChangeRow[] {
  const out: ChangeRow[] = [];
  // The change table is in step order.
  for (
    let row = lowerBound(timeline.changes.step, step);
    row < timeline.changes.step.length && timeline.changes.step[row] === step;
    row++
  ) {
    const change = changeRow(timeline, row);
    if (region === undefined || change.region === region) out.push(change);
  }
  return out;
}

export function windowPoints(timeline: TimelineView): WindowPoint[] {
  const { steps, tokens, prefix } = timeline.window;
  const beside = timeline.recorded?.window;
  const orNull = (v: number) => (v < 0 ? null : v);
  return Array.from(steps, (i, p) => {
    const at = tokens.map((column) => itemAt(column, p));
    const point: WindowPoint = {
      i,
      tokens: at,
      total: at.reduce((a, b) => a + b, 0),
      prefix: orNull(itemAt(prefix, p)),
    };
    if (beside) {
      point.recorded = orNull(itemAt(beside.recorded, p));
      point.asSent = orNull(itemAt(beside.asSent, p));
    }
    return point;
  });
}

/** The stage in effect after `step`. */
export function stageAt(timeline: TimelineView, step: number): string | undefined {
  const at = timeline.steps.stage[step];
  return at === undefined ? undefined : timeline.steps.stageNames[at];
}

/** The inference number of `step`, or null when it is not an inference. */
export function inferenceAt(timeline: TimelineView, step: number): number | null {
  const n = timeline.steps.inference[step];
  return n === undefined || n < 0 ? null : n;
}

/** The step index of inference number `inference`. */
export function stepOfInference(timeline: TimelineView, inference: number | null): number | null {
  if (inference === null) return null;
  const at = timeline.steps.inference.indexOf(inference);
  return at < 0 ? null : at;
}

/** The first step replayed in `stage`, if the replay entered it. */
export function firstStepOfStage(timeline: TimelineView, stage: string): number | undefined {
  const index = timeline.steps.stageNames.indexOf(stage);
  const at = index < 0 ? -1 : timeline.steps.stage.indexOf(index);
  return at < 0 ? undefined : at;
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
  /** The first markers of the cluster (at most SAMPLED_MARKERS), for its label and tooltip. */
  markers: Marker[];
  /** The first real region a marker of the cluster names ('' if none): a click shows it. */
  region: string;
}

/** Markers listed per cluster: a tooltip shows a dozen, and counts the rest. */
const SAMPLED_MARKERS = 12;

/** Every change and stage change at its own step, in step order, one at a time. */
function forEachMarker(
  timeline: TimelineView,
  visit: (i: number, marker: () => Marker, kind: MarkerKind) => void,
): void {
  // A change can name a pseudo-region (a truncated tool's result); only real ones are focusable.
  const regions = new Set(timeline.header.regions.map((r) => r.name));
  const stages = timeline.stageChanges;
  let next = 0;
  const rows = timeline.changes.step.length;
  for (let row = 0; row <= rows; row++) {
    const step = row < rows ? itemAt(timeline.changes.step, row) : Infinity;
    for (; next < stages.length && itemAt(stages, next).i <= step; next++) {
      const stage = itemAt(stages, next);
      visit(
        stage.i,
        () => ({ i: stage.i, kind: 'stage', region: '', tokens: 0, text: `stage ${stage.from} → ${stage.to}` }),
        'stage',
      );
    }
    if (row === rows) break;
    const kind = itemAt(CHANGE_TYPES, itemAt(timeline.changes.type, row));
    visit(
      step,
      () => {
        const c = changeRow(timeline, row);
        return {
          i: step,
          kind,
          region: regions.has(c.region) ? c.region : '',
          tokens: c.tokens,
          text: `${c.type} in ${c.region}: ${c.tokens} tokens${c.reason ? ` (${c.reason})` : ''}`,
        };
      },
      kind,
    );
  }
}

/**
 * Markers that would share a marker-wide column become one cluster, and clusters are at least a
 * column apart (so their counts never overlap). `columns` is how many marker-wide
 * columns the plot has. Only the first markers of each cluster are made into objects, so a timeline
 * with a hundred thousand changes costs a count per column, not an object per change.
 */
export function markerClusters(timeline: TimelineView, columns: number): MarkerCluster[] {
  const perColumn = Math.max(1, timeline.steps.count / Math.max(1, columns));
  const byColumn = new Map<number, { cluster: MarkerCluster; counts: Map<MarkerKind, number> }>();
  forEachMarker(timeline, (i, marker, kind) => {
    const column = Math.floor(i / perColumn);
    let entry = byColumn.get(column);
    if (!entry) {
      entry = { cluster: { i, last: i, kind, count: 0, breakdown: [], markers: [], region: '' }, counts: new Map() };
      byColumn.set(column, entry);
    }
    const { cluster, counts } = entry;
    cluster.last = i;
    cluster.count++;
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
    if (cluster.markers.length < SAMPLED_MARKERS || !cluster.region) {
      const m = marker();
      if (cluster.markers.length < SAMPLED_MARKERS) cluster.markers.push(m);
      if (!cluster.region) cluster.region = m.region;
    }
  });
  // A cluster is drawn at its first step, so the first markers of two neighbouring columns can
  // stand a step apart, and their counts ("6" and "26") print over each other: a cluster that
  // starts less than a column after the one drawn before it joins that one.
  const drawn: { cluster: MarkerCluster; counts: Map<MarkerKind, number> }[] = [];
  for (const entry of [...byColumn.values()].sort((a, b) => a.cluster.i - b.cluster.i)) {
    const before = drawn.at(-1);
    if (!before || entry.cluster.i - before.cluster.i >= perColumn) {
      drawn.push(entry);
      continue;
    }
    const [into, from] = [before.cluster, entry.cluster];
    into.last = Math.max(into.last, from.last);
    into.count += from.count;
    into.markers.push(...from.markers.slice(0, SAMPLED_MARKERS - into.markers.length));
    if (!into.region) into.region = from.region;
    for (const [kind, n] of entry.counts) before.counts.set(kind, (before.counts.get(kind) ?? 0) + n);
  }
  return drawn.map(({ cluster, counts }) => {
    const breakdown = [...counts].sort((a, b) => b[1] - a[1]);
    return { ...cluster, kind: itemAt(breakdown, 0)[0], breakdown };
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
  '#0072B2',
  '#E69F00',
  '#009E73',
  '#CC79A7',
  '#56B4E9',
  '#D55E00',
  '#F0E442',
  '#882255',
  '#BBBBBB',
  '#999933',
  '#332288',
] as const;

function nameHash(name: string): number {
  let h = 2166136261;
  for (let k = 0; k < name.length; k++) h = Math.imul(h ^ name.charCodeAt(k), 16777619);
  return h >>> 0;
}

export function regionColors(
  names: readonly string[],
  remembered: ReadonlyMap<string, string> = new Map(),
): Map<string, string> {
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
    const start = nameHash(name) % REGION_PALETTE.length;
    // More regions than colours: the last ones share (the legend and tooltips still name them).
    const free = [...REGION_PALETTE.slice(start), ...REGION_PALETTE.slice(0, start)];
    const colour = free.find((c) => !taken.has(c)) ?? free[0] ?? REGION_PALETTE[0];
    taken.add(colour);
    out.set(name, colour);
  }
  return new Map(names.map((n) => [n, out.get(n)!]));
}

/** Why the runtime carries a region the blueprint did not declare. */
export const IMPLICIT_REGION_WHY: ReadonlyMap<string, string> = new Map(IMPLICIT_REGIONS.map((r) => [r.name, r.why]));

/** One region's band in the stacked window chart: the filled area, and its top edge (its line). */
export interface StackedBand {
  area: string;
  top: string;
}

/**
 * SVG paths of the regions stacked in order (the first at the bottom) as step areas: a region's
 * value holds from its point to the next one. `x` and `y` map steps and tokens to pixels.
 */
export function stackedStepBands(
  points: readonly WindowPoint[],
  count: number,
  x: (step: number) => number,
  y: (tokens: number) => number,
): StackedBand[] {
  if (points.length === 0) return [];
  const xs = points.map((p) => round(x(p.i)));
  let lower = points.map(() => round(y(0)));
  const bands: StackedBand[] = [];
  const sums = points.map(() => 0);
  for (let k = 0; k < count; k++) {
    const upper = points.map((p, j) => round(y((sums[j] = itemAt(sums, j) + itemAt(p.tokens, k)))));
    let top = `M${xs[0]},${upper[0]}`;
    for (let j = 1; j < points.length; j++) top += `H${xs[j]}V${upper[j]}`;
    // Back along the band's floor, right to left: down at each step, then across the step before.
    let area = `${top}V${lower[lower.length - 1]}`;
    for (let j = points.length - 2; j >= 0; j--) area += `V${lower[j]}H${xs[j]}`;
    area += 'Z';
    bands.push({ area, top });
    lower = upper;
  }
  return bands;
}

const round = (v: number) => Math.round(v * 10) / 10;

/**
 * The SVG path of a step line through `points` (a value holds from its point to the next one),
 * broken where `value` is null: the cache prefix before the first inference.
 */
export function stepLinePath<P extends { i: number }>(
  points: readonly P[],
  value: (p: P) => number | null,
  x: (step: number) => number,
  y: (v: number) => number,
): string {
  let path = '';
  let drawing = false;
  for (const p of points) {
    const v = value(p);
    if (v === null) {
      drawing = false;
      continue;
    }
    path += drawing ? `H${round(x(p.i))}V${round(y(v))}` : `M${round(x(p.i))},${round(y(v))}`;
    drawing = true;
  }
  return path;
}
