// The numbers a replay reports, declared once: each region's figures at every step, and each
// inference's request figures with the provider's view of its cache. Every column has its name,
// its type and, when the page charts it, how. The timeline's figure types (RegionFigures,
// RequestFigures, CacheFigures in timeline.ts) are derived from these declarations; the engine
// worker sends every column to the page as a typed array (src/worker/timeline-view.ts), and the
// page's chart points and lines are read from them (src/ui/seriesPoints.ts). A new series is one entry
// here, plus the line of the engine that computes its value (docs/architecture.md).

/** How a column crosses to the page: whole numbers (Int32Array), any number (Float64Array), yes or no (Uint8Array). */
export type ColumnType = 'int' | 'number' | 'flag';

/** The page's charts drawn from these columns: each region's own, the prompt cache, the flat list against the blueprint. */
export type Chart = 'region' | 'cache' | 'flat';

/** How a chart draws a column. */
export interface ChartLine {
  /** The series' name. */
  readonly label: string;
  /** The legend's words, when the chart has a legend; `{model}` stands for the run's model id. */
  readonly legend?: string;
  /** Absent: the region's own colour (a region's chart). */
  readonly colour?: string;
  readonly width?: number;
  /** An SVG stroke-dasharray; the line is solid without one. */
  readonly dash?: string;
  /** Drawn as a filled step area rather than a line. */
  readonly area?: boolean;
}

export interface Column {
  readonly type: ColumnType;
  /** The charts that draw this column, and how; they draw their columns in declaration order. */
  readonly charts?: Partial<Record<Chart, ChartLine>>;
}

export type Columns = Readonly<Record<string, Column>>;

/** One value of each column: a row of the table. */
export type Row<T extends Columns> = { -readonly [K in keyof T]: T[K]['type'] extends 'flag' ? boolean : number };

type ArrayFor<C extends Column> = C['type'] extends 'flag'
  ? Uint8Array
  : C['type'] extends 'number'
    ? Float64Array
    : Int32Array;

/** Each column as a typed array: how a table crosses to the page. */
export type ColumnArrays<T extends Columns> = { -readonly [K in keyof T]: ArrayFor<T[K]> };

/** A region's figures after a step. */
export const REGION_COLUMNS = {
  tokens: { type: 'int', charts: { region: { label: 'tokens', area: true } } },
  /** The region's resolved budget on this model. */
  budget: { type: 'int', charts: { region: { label: 'budget', colour: 'var(--muted)', dash: '4 3' } } },
  entries: { type: 'int' },
  /** False when the current stage's layout hides the region (its content is kept). */
  visible: { type: 'flag' },
} as const satisfies Columns;

/** An inference's request (RequestFigures has these and `cache`). */
export const REQUEST_COLUMNS = {
  /** 0-based inference number (what `lev test --step` takes). */
  inference: { type: 'int' },
  /** The same traffic through one flat oldest-first list at the model window. */
  baselineTokens: {
    type: 'int',
    charts: { flat: { label: 'flat list', legend: 'flat list (thick)', colour: '#D55E00', width: 3 } },
  },
  taskInBaselineWindow: { type: 'flag' },
  requestTokens: {
    type: 'int',
    charts: {
      cache: { label: 'request', legend: 'request (thick)', colour: '#6e7781', width: 3 },
      flat: { label: 'blueprint', legend: 'blueprint (dashed)', colour: '#0072B2', width: 1.5, dash: '5 2' },
    },
  },
  systemTokens: { type: 'int' },
  messageTokens: { type: 'int' },
  /** Tokens of the leading blocks identical to the previous request's. */
  prefixTokens: {
    type: 'int',
    charts: {
      cache: { label: 'stable prefix', legend: 'stable prefix (dashed)', colour: '#009E73', width: 2, dash: '6 3' },
    },
  },
  /** prefixTokens / requestTokens (0 when the request is empty). */
  prefixShare: { type: 'number' },
  /** Unpaired tool calls/results left out of this request. */
  strippedBlocks: { type: 'int' },
  /** Whether the task's text is in this request under the blueprint. */
  taskInWindow: { type: 'flag' },
  /** True when the request still exceeds the window after the cascade shed all it may. */
  overWindow: { type: 'flag' },
} as const satisfies Columns;

/** What the provider would do with a request's cache under its rules (cache.ts providerView); CacheFigures adds the rule in words. */
export const CACHE_COLUMNS = {
  cacheReadTokens: {
    type: 'int',
    charts: {
      cache: {
        label: 'cache reads',
        legend: 'cache reads, {model} (dotted)',
        colour: '#0072B2',
        width: 1.5,
        dash: '2 2',
      },
    },
  },
  cacheWriteTokens: { type: 'int' },
  /** Input billed at the plain rate. read + write + uncached = the request's tokens. */
  uncachedTokens: { type: 'int' },
  inputCostUsd: { type: 'number' },
  costWithoutCacheUsd: { type: 'number' },
} as const satisfies Columns;

const ARRAYS = { int: Int32Array, number: Float64Array, flag: Uint8Array } as const;

/** `rows` as one typed array per column of `columns`; `rowOf` reads row k's values. */
export function toColumnArrays<T extends Columns, R>(
  columns: T,
  rows: readonly R[],
  rowOf: (row: R) => Row<T>,
): ColumnArrays<T> {
  const out: Record<string, Int32Array | Float64Array | Uint8Array> = {};
  for (const [name, column] of Object.entries(columns)) out[name] = new ARRAYS[column.type](rows.length);
  rows.forEach((r, k) => {
    const row: Record<string, number | boolean> = rowOf(r);
    for (const name in out) {
      const value = row[name]!;
      out[name]![k] = typeof value === 'boolean' ? Number(value) : value;
    }
  });
  return out as ColumnArrays<T>;
}

/** Row `at` of a table sent as typed arrays. */
export function rowAt<T extends Columns>(columns: T, arrays: ColumnArrays<T>, at: number): Row<T> {
  const row: Record<string, number | boolean> = {};
  for (const [name, column] of Object.entries(columns)) {
    const value = (arrays as Record<string, ArrayLike<number>>)[name]![at]!;
    row[name] = column.type === 'flag' ? value === 1 : value;
  }
  return row as Row<T>;
}

/** A column a chart draws: its name (the point's key) and how. */
export type ChartedColumn = ChartLine & { readonly column: string };

/** The columns `chart` draws, in drawing order (a later one is drawn over an earlier one). */
export function chartLines(chart: Chart, ...tables: Columns[]): ChartedColumn[] {
  return tables.flatMap((table) =>
    Object.entries(table).flatMap(([column, c]) => {
      const line = c.charts?.[chart];
      return line ? [{ column, ...line }] : [];
    }),
  );
}
