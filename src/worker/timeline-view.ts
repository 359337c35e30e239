// What the page draws of a timeline, shaped in the engine worker. The page gets the timeline's
// header, two per-step columns (stage, inference), series downsampled to the chart's width as typed
// arrays (every change kept at its own step, with that step's figures) and every change in a compact
// table; the typed arrays are transferred, not copied. The series carry every column figures.ts
// declares. The steps themselves stay in the worker, and a step's figures and detail are asked for
// when they are shown.
import {
  CACHE_COLUMNS,
  REGION_COLUMNS,
  REQUEST_COLUMNS,
  toColumnArrays,
  type ColumnArrays,
  CHANGE_TYPES,
  type ChangeType,
  type RegionFigures,
  type RequestFigures,
  type Timeline,
  type TimelineStep,
  lowerBound,
  itemAt,
} from '../engine/index.ts';
import { regionRows, type MarkdownFacts } from '../share/markdown.ts';
import type { RecordedComparison } from './recorded-view.ts';

/** The timeline without its steps. */
export type RunHeader = Omit<Timeline, 'steps'>;

export interface StepColumns {
  count: number;
  /** Per step: the index in `stageNames` of the stage in effect after it. */
  stage: Uint16Array;
  stageNames: string[];
  /** Per step: its inference number, or -1 when the step is not an inference. */
  inference: Int32Array;
}

/** The stacked window chart: one token column per charted region, at the kept steps. */
export interface WindowSeries {
  steps: Int32Array;
  /** `tokens[k][p]`: charted region k at kept step p. */
  tokens: Int32Array[];
  /** Stable cache prefix of the request in force; -1 before the first inference. */
  prefix: Int32Array;
}

/** One region's figures (every REGION_COLUMNS column) at the kept steps. */
export type RegionSeries = { steps: Int32Array } & ColumnArrays<typeof REGION_COLUMNS>;

/** Every request and cache column (figures.ts) at every `size`-th inference. */
export type RequestSeries = { steps: Int32Array } & ColumnArrays<typeof REQUEST_COLUMNS> &
  ColumnArrays<typeof CACHE_COLUMNS>;

/** Every change of the timeline in step order, one row per change. */
export interface ChangeTable {
  step: Int32Array;
  /** Index in CHANGE_TYPES. */
  type: Uint8Array;
  /** Index in `names` (a change may name a pseudo-region, such as a truncated tool's result). */
  region: Uint16Array;
  names: string[];
  tokens: Int32Array;
  /** Index in `reasons`, or -1 when the change gave none. */
  reason: Int32Array;
  reasons: string[];
}

export interface StageChange {
  i: number;
  from: string;
  to: string;
}

/** A distinct run warning: the step it first happened at (null: before the first) and how often. */
export interface WarningGroup {
  text: string;
  first: number | null;
  count: number;
}

export interface TimelineView {
  header: RunHeader;
  steps: StepColumns;
  /** Regions worth a chart: declared ones, and runtime ones that ever held something. */
  charted: string[];
  window: WindowSeries;
  regions: Record<string, RegionSeries>;
  requests: RequestSeries;
  changes: ChangeTable;
  stageChanges: StageChange[];
  warnings: WarningGroup[];
  markdown: MarkdownFacts;
  /** For a scenario that records its run: the run as recorded and as sent, beside this one (recorded-view.ts). */
  recorded?: RecordedComparison;
}

/** One step's figures, answered with its detail: the readout and the cache card at the scrubbed step. */
export interface StepFigures {
  index: number;
  regions: Record<string, RegionFigures>;
  /** The request in force at this step (the latest inference at or before it), and its step. */
  request: (RequestFigures & { step: number }) | null;
}

/** Buckets per series when the page does not say how wide its chart is. */
export const DEFAULT_POINTS = 300;

/**
 * The step indices a downsampled series draws: each bucket of `size` steps keeps its fullest step,
 * and the steps with a change are kept too, so a change is drawn (and named by the tooltip) at its
 * own step with its own figures. Where changes are denser than the buckets (more changed steps than
 * buckets), a bucket keeps its first changed step only: at most two points per bucket, and every
 * change is still in the change table (the markers) at its own step. Ascending, no duplicates.
 */
export function keptSteps(fullness: ArrayLike<number>, changed: ArrayLike<number>, size: number): number[] {
  const count = fullness.length;
  let changedSteps = 0;
  for (let k = 0; k < count; k++) if (changed[k]) changedSteps++;
  const everyChange = changedSteps <= Math.ceil(count / size);
  const kept: number[] = [];
  for (let start = 0; start < count; start += size) {
    const end = Math.min(count, start + size);
    let peak = start;
    for (let k = start + 1; k < end; k++) if (itemAt(fullness, k) > itemAt(fullness, peak)) peak = k;
    let changeKept = false;
    for (let k = start; k < end; k++) {
      const keepChange = changed[k] === 1 && (everyChange || !changeKept);
      if (k === peak || keepChange) kept.push(k);
      if (keepChange) changeKept = true;
    }
  }
  return kept;
}

function bucketSize(count: number, points: number): number {
  return Math.max(1, Math.ceil(count / Math.max(1, points)));
}

function stepColumns(steps: readonly TimelineStep[]): StepColumns {
  const stageNames: string[] = [];
  const stageIndex = new Map<string, number>();
  const stage = new Uint16Array(steps.length);
  const inference = new Int32Array(steps.length).fill(-1);
  steps.forEach((s, k) => {
    let at = stageIndex.get(s.stage);
    if (at === undefined) {
      at = stageNames.push(s.stage) - 1;
      stageIndex.set(s.stage, at);
    }
    stage[k] = at;
    if (s.request) inference[k] = s.request.inference;
  });
  return { count: steps.length, stage, stageNames, inference };
}

function chartedRegions(timeline: Timeline): string[] {
  return timeline.regions
    .filter((r) => r.declared || timeline.steps.some((s) => (s.regions[r.name]?.tokens ?? 0) > 0))
    .map((r) => r.name);
}

function windowSeries(steps: readonly TimelineStep[], charted: readonly string[], points: number): WindowSeries {
  const total = new Float64Array(steps.length);
  const changed = new Uint8Array(steps.length);
  const prefixAt = new Int32Array(steps.length);
  let prefix = -1;
  steps.forEach((s, k) => {
    let sum = 0;
    for (const r of charted) sum += s.regions[r]?.tokens ?? 0;
    total[k] = sum;
    if (s.changes.length > 0) changed[k] = 1;
    if (s.request) prefix = s.request.prefixTokens;
    prefixAt[k] = prefix;
  });
  const kept = keptSteps(total, changed, bucketSize(steps.length, points));
  return {
    steps: Int32Array.from(kept),
    tokens: charted.map((r) => Int32Array.from(kept, (k) => itemAt(steps, k).regions[r]?.tokens ?? 0)),
    prefix: Int32Array.from(kept, (k) => itemAt(prefixAt, k)),
  };
}

function regionSeries(steps: readonly TimelineStep[], region: string, points: number): RegionSeries {
  const tokens = new Float64Array(steps.length);
  const changed = new Uint8Array(steps.length);
  steps.forEach((s, k) => {
    tokens[k] = s.regions[region]?.tokens ?? -1;
    if (s.changes.some((c) => c.region === region)) changed[k] = 1;
  });
  const kept = keptSteps(tokens, changed, bucketSize(steps.length, points)).flatMap((k) => {
    const figures = itemAt(steps, k).regions[region];
    return figures === undefined ? [] : [{ k, figures }];
  });
  return {
    steps: Int32Array.from(kept, ({ k }) => k),
    ...toColumnArrays(REGION_COLUMNS, kept, ({ figures }) => figures),
  };
}

function requestSeries(steps: readonly TimelineStep[], points: number): RequestSeries {
  const inferences = steps.filter((s) => s.request);
  const size = bucketSize(inferences.length, points);
  const kept = inferences.filter((_, k) => k % size === 0);
  return {
    steps: Int32Array.from(kept, (s) => s.index),
    ...toColumnArrays(REQUEST_COLUMNS, kept, (s) => s.request!),
    ...toColumnArrays(CACHE_COLUMNS, kept, (s) => s.request!.cache),
  };
}

/** Numbers each distinct string in the order first seen. */
function interner(): { names: string[]; index: (name: string) => number } {
  const names: string[] = [];
  const seen = new Map<string, number>();
  return {
    names,
    index: (name) => {
      let at = seen.get(name);
      if (at === undefined) {
        at = names.push(name) - 1;
        seen.set(name, at);
      }
      return at;
    },
  };
}

function changeTable(steps: readonly TimelineStep[]): ChangeTable {
  const count = steps.reduce((n, s) => n + s.changes.length, 0);
  const table = {
    step: new Int32Array(count),
    type: new Uint8Array(count),
    region: new Uint16Array(count),
    tokens: new Int32Array(count),
    reason: new Int32Array(count),
  };
  const regions = interner();
  const reasons = interner();
  const typeIndex = new Map<ChangeType, number>(CHANGE_TYPES.map((t, k) => [t, k]));
  let row = 0;
  for (const s of steps) {
    for (const c of s.changes) {
      table.step[row] = s.index;
      table.type[row] = typeIndex.get(c.type)!;
      table.region[row] = regions.index(c.region);
      table.tokens[row] = c.tokens;
      table.reason[row] = c.reason ? reasons.index(c.reason) : -1;
      row++;
    }
  }
  return { ...table, names: regions.names, reasons: reasons.names };
}

function stageChanges(steps: readonly TimelineStep[]): StageChange[] {
  const out: StageChange[] = [];
  for (let k = 1; k < steps.length; k++) {
    const from = itemAt(steps, k - 1).stage;
    const to = itemAt(steps, k).stage;
    if (from !== to) out.push({ i: itemAt(steps, k).index, from, to });
  }
  return out;
}

/** Each distinct warning once: run-level ones first (no step), then in order of first step. */
export function groupWarnings(timeline: Timeline): WarningGroup[] {
  const groups = new Map<string, WarningGroup>();
  for (const text of timeline.warnings) groups.set(text, { text, first: null, count: 0 });
  for (const step of timeline.steps) {
    for (const text of step.warnings) {
      const group = groups.get(text);
      if (!group) groups.set(text, { text, first: step.index, count: 1 });
      else {
        group.first ??= step.index;
        group.count++;
      }
    }
  }
  return [...groups.values()];
}

function markdownFacts(timeline: Timeline): MarkdownFacts {
  const last = timeline.steps.findLast((s) => s.request)?.request;
  return {
    steps: timeline.steps.length,
    inferences: timeline.summary.inferences,
    modelId: timeline.model.id,
    meanPrefixShare: timeline.summary.meanPrefixShare,
    rows: regionRows(timeline),
    lastRequest: last ? { prefixTokens: last.prefixTokens, requestTokens: last.requestTokens } : null,
  };
}

/** The view of `timeline` for a chart about `points` pixels wide, and the buffers to transfer. */
export function timelineView(
  timeline: Timeline,
  points = DEFAULT_POINTS,
): { view: TimelineView; transfer: ArrayBuffer[] } {
  const { steps, ...header } = timeline;
  const charted = chartedRegions(timeline);
  const view: TimelineView = {
    header,
    steps: stepColumns(steps),
    charted,
    window: windowSeries(steps, charted, points),
    regions: Object.fromEntries(charted.map((r) => [r, regionSeries(steps, r, points)])),
    requests: requestSeries(steps, points),
    changes: changeTable(steps),
    stageChanges: stageChanges(steps),
    warnings: groupWarnings(timeline),
    markdown: markdownFacts(timeline),
  };
  return { view, transfer: buffersOf(view) };
}

function buffersOf(view: TimelineView): ArrayBuffer[] {
  const arrays: ArrayBufferView[] = [
    view.steps.stage,
    view.steps.inference,
    view.window.steps,
    view.window.prefix,
    ...view.window.tokens,
    ...Object.values(view.regions).flatMap((r) => Object.values(r)),
    ...Object.values(view.requests),
    view.changes.step,
    view.changes.type,
    view.changes.region,
    view.changes.tokens,
    view.changes.reason,
  ];
  return arrays.map((a) => a.buffer as ArrayBuffer);
}

/**
 * What the worker keeps of a timeline once its view is sent: each step's region figures (objects
 * the timeline already shares between steps where nothing changed) and the inference requests.
 * The steps' events, changes, results and warnings are let go: a step's detail comes from the kept run.
 */
export interface FigureTable {
  regions: Record<string, RegionFigures>[];
  /** The steps that are inferences, ascending, and their request figures. */
  inferenceSteps: Int32Array;
  requests: RequestFigures[];
}

export function figureTable(timeline: Timeline): FigureTable {
  const inferences = timeline.steps.filter((s) => s.request);
  return {
    regions: timeline.steps.map((s) => s.regions),
    inferenceSteps: Int32Array.from(inferences, (s) => s.index),
    requests: inferences.map((s) => s.request!),
  };
}

/** The figures at `step`, for the readout and the cache card. */
export function stepFigures(table: FigureTable, step: number): StepFigures | null {
  const regions = table.regions[step];
  if (!regions) return null;
  // The latest inference at or before `step` (steps are whole numbers).
  const at = lowerBound(table.inferenceSteps, step + 1) - 1;
  return {
    index: step,
    regions,
    request: at < 0 ? null : { ...itemAt(table.requests, at), step: itemAt(table.inferenceSteps, at) },
  };
}
