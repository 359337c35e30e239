// The detail charts' points and lines (each region's chart, the prompt cache, the flat list), read
// from the figure schema (src/engine/figures.ts) through the columns the engine worker sent. Only
// DetailCharts.tsx imports it, so the schema loads with those charts' chunk, not with the page.
import {
  CACHE_COLUMNS,
  REGION_COLUMNS,
  REQUEST_COLUMNS,
  chartLines,
  rowAt,
  type ChartedColumn,
  type Row,
  itemAt,
} from '../engine/page.ts';
import type { TimelineView } from '../worker/timeline-view.ts';
import { changesAt, type ChangeRow } from './chartData.ts';

/** One point of a region's chart: its REGION_COLUMNS figures at step `i`. */
export type RegionPoint = { i: number } & Row<typeof REGION_COLUMNS> & {
    /** Set where the region changed (evict, compact, ...); the marker's height. */
    marker?: number;
    changes?: ChangeRow[];
  };

/** One point of the per-inference charts: every request and cache column (figures.ts) at step `i`. */
export type RequestPoint = { i: number } & Row<typeof REQUEST_COLUMNS> &
  Row<typeof CACHE_COLUMNS> & {
    /** For a scenario that records its run: the cache reads the provider recorded for this call (absent: not recorded), and the as-sent replay's. */
    recordedCacheRead?: number;
    asSentCacheRead?: number;
  };

export function regionPoints(view: TimelineView, region: string): RegionPoint[] {
  const series = view.regions[region];
  if (!series) return [];
  return Array.from(series.steps, (i, p) => {
    const point: RegionPoint = { i, ...rowAt(REGION_COLUMNS, series, p) };
    const changes = changesAt(view, i, region);
    if (changes.length) {
      point.marker = point.tokens;
      point.changes = changes;
    }
    return point;
  });
}

export function requestPoints(view: TimelineView): RequestPoint[] {
  const r = view.requests;
  const beside = view.recorded?.cache;
  return Array.from(r.steps, (i, p) => {
    const point: RequestPoint = { i, ...rowAt(REQUEST_COLUMNS, r, p), ...rowAt(CACHE_COLUMNS, r, p) };
    if (beside) {
      if (itemAt(beside.recorded, p) >= 0) point.recordedCacheRead = itemAt(beside.recorded, p);
      point.asSentCacheRead = itemAt(beside.asSent, p);
    }
    return point;
  });
}

/** The lines of a per-inference chart (figures.ts), in drawing order. */
export const requestChartLines = (chart: 'cache' | 'flat'): ChartedColumn[] =>
  chartLines(chart, REQUEST_COLUMNS, CACHE_COLUMNS);

/** The lines and areas of a region's chart (figures.ts), in drawing order. */
export const regionChartLines = (): ChartedColumn[] => chartLines('region', REGION_COLUMNS);
