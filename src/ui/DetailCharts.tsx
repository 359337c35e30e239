// The timeline's other views, drawn with recharts: each region's own chart, the prompt cache and
// the flat-list comparison. A chunk of its own, fetched when one of their tabs is pointed at or
// opened: the window chart, the view every visit starts on, is drawn without recharts.
import { memo, useEffect, useMemo } from 'react';
import {
  Area,
  CartesianGrid,
  ComposedChart,
  Line,
  LineChart,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { TimelineView, StageChange } from '../worker/timeline-view.ts';
import type { ChartedColumn } from '../engine/page.ts';
import { stepOfInference } from './chartData.ts';
import {
  regionChartLines,
  regionPoints,
  requestChartLines,
  requestPoints,
  type RegionPoint,
  type RequestPoint,
} from './seriesPoints.ts';
import {
  Clickable,
  Cursor,
  RIGHT_MARGIN,
  WindowOffScale,
  Y_AXIS_WIDTH,
  ZoomControl,
  axisTop,
  compact,
  stepTick,
} from './chartFrame.tsx';
import { fmt, pct } from './format.ts';
import { WhenVisible } from './Visible.tsx';
import { useResults, useUi } from './page.ts';
import { AS_SENT_COLOUR, RECORDED_COLOUR } from './recordedColours.ts';

// Every tick the scale makes is drawn (five or fewer): with `interval` 0 recharts never measures
// label text in the DOM to thin the ticks out, the largest part of drawing a chart otherwise.
const axis = { tick: { fontSize: 10, fill: 'var(--muted)' }, interval: 0 } as const;
// Horizontal lines only. `vertical={false}` alone still has recharts place the vertical lines,
// measuring every x tick's label in the DOM; this places none.
const grid = {
  stroke: 'var(--border)',
  strokeDasharray: '2 4',
  vertical: false,
  verticalCoordinatesGenerator: () => [],
} as const;
// Recharts keeps each axis's and series' props in a store and recomputes every series when one
// changes identity; so margins, domains, accessors and tooltips keep theirs across renders.
const REGION_MARGIN = { top: 6, right: RIGHT_MARGIN, bottom: 0, left: 0 };
const REQUEST_MARGIN = { top: 4, right: RIGHT_MARGIN, bottom: 0, left: 0 };
/** The x domain of a chart over `steps` steps. */
function useStepDomain(steps: number): [number, number] {
  return useMemo(() => [0, Math.max(1, steps - 1)], [steps]);
}
const usd = (n: number) => `$${n < 0.01 ? n.toFixed(4) : n.toFixed(3)}`;
// Each chart's lines, in drawing order, as figures.ts declares them.
const REGION_LINES = regionChartLines();
const CACHE_LINES = requestChartLines('cache');
const FLAT_LINES = requestChartLines('flat');
const FLAT_LIST_COLOUR = FLAT_LINES.find((l) => l.column === 'baselineTokens')!.colour;
// The figures each chart's axis fits: what its lines draw.
const REGION_PEAK_COLUMNS = REGION_LINES.map((l) => l.column as keyof RegionPoint);
const CACHE_PEAK_COLUMNS = CACHE_LINES.map((l) => l.column as keyof RequestPoint);
const FLAT_PEAK_COLUMNS = FLAT_LINES.map((l) => l.column as keyof RequestPoint);
const TASK_LOST_LABEL = { value: 'task lost', fontSize: 10, fill: 'var(--text)', position: 'insideTopLeft' } as const;

type TooltipProps = { active?: boolean; payload?: readonly { payload?: unknown }[] };

function RegionTooltip({ active, payload }: TooltipProps) {
  const p = payload?.[0]?.payload as RegionPoint | undefined;
  if (!active || !p) return null;
  return (
    <div className="tooltip">
      <div>
        Step {p.i + 1}: <b>{fmt(p.tokens)}</b> / {fmt(p.budget)} tokens
      </div>
      {p.changes?.slice(0, 6).map((c, k) => (
        <div key={k}>
          <b>{c.type}</b> {fmt(c.tokens)} tokens{c.reason ? <span className="muted"> — {c.reason}</span> : null}
        </div>
      ))}
    </div>
  );
}

/** A declared line's stroke props, with none left undefined (recharts keeps its own defaults then). */
function strokeOf(line: ChartedColumn, colour = line.colour) {
  return {
    dataKey: line.column,
    name: line.label,
    stroke: colour,
    dot: false,
    isAnimationActive: false,
    ...(line.width === undefined ? {} : { strokeWidth: line.width }),
    ...(line.dash === undefined ? {} : { strokeDasharray: line.dash }),
  } as const;
}

/** The chart's lines and areas as declared, in order; a line without a colour takes `colour`. */
function drawLines(lines: readonly ChartedColumn[], colour?: string, type?: 'stepAfter') {
  return lines.map((line) =>
    line.area ? (
      <Area
        key={line.column}
        {...strokeOf(line, line.colour ?? colour)}
        type={type}
        fill={line.colour ?? colour}
        fillOpacity={0.35}
      />
    ) : (
      <Line key={line.column} {...strokeOf(line, line.colour ?? colour)} type={type} />
    ),
  );
}

/** The y domain of a chart whose axis tops at `top`. */
function useTopDomain(top: number): [number, number] {
  return useMemo(() => [0, top], [top]);
}

/** The highest of a chart's figures: where `fit` tops its axis. */
function peakOf<T>(data: readonly T[], columns: readonly (keyof T)[]): number {
  let peak = 0;
  for (const point of data) for (const column of columns) peak = Math.max(peak, Number(point[column]) || 0);
  return peak;
}

const RegionChart = memo(function RegionChart({
  data,
  color,
  steps,
  stages,
  top,
}: {
  data: RegionPoint[];
  color: string;
  steps: number;
  stages: StageChange[];
  top: number;
}) {
  const xDomain = useStepDomain(steps);
  const yDomain = useTopDomain(top);
  return (
    <ResponsiveContainer width="100%" height={62}>
      <ComposedChart data={data} margin={REGION_MARGIN}>
        <XAxis dataKey="i" type="number" domain={xDomain} hide />
        <YAxis
          width={Y_AXIS_WIDTH}
          {...axis}
          tickFormatter={compact}
          tickCount={3}
          domain={yDomain}
          allowDataOverflow
        />
        {drawLines(REGION_LINES, color, 'stepAfter')}
        {stages.map((c) => (
          <ReferenceLine key={c.i} x={c.i} stroke="var(--muted)" strokeDasharray="2 2" />
        ))}
        <Tooltip content={RegionTooltip} isAnimationActive={false} />
      </ComposedChart>
    </ResponsiveContainer>
  );
});

function RegionCharts({
  timeline,
  regions,
  colors,
  stages,
}: {
  timeline: TimelineView;
  regions: string[];
  colors: Map<string, string>;
  stages: StageChange[];
}) {
  const series = useMemo(() => new Map(regions.map((r) => [r, regionPoints(timeline, r)])), [timeline, regions]);
  const zoom = useUi((s) => s.zoom);
  const { window } = timeline.header.model;
  // Each chart fits its own region (its tokens and budget), or every chart shows the whole window.
  const tops = useMemo(
    () =>
      new Map(
        regions.map((r) => {
          const data = series.get(r)!;
          return [r, axisTop(zoom, peakOf(data, REGION_PEAK_COLUMNS), window)] as const;
        }),
      ),
    [regions, series, zoom, window],
  );
  const fitted = [...tops.values()].filter((t) => t.fit).length;
  const steps = timeline.steps.count;
  return (
    <div data-testid="region-charts" data-fit={fitted === regions.length ? 'yes' : fitted === 0 ? 'no' : 'some'}>
      <div className="chart-title">
        <h3>Each region</h3>
        <span className="muted">
          area: tokens · dashed: resolved budget · dotted line: stage change · click to inspect
        </span>
      </div>
      <div className="row muted small">
        <ZoomControl />
        <span className="spacer" />
        {fitted > 0 && (
          <span className="window-note" data-testid="window-off-scale">
            {fitted === regions.length
              ? 'each chart fits its region'
              : `${fitted} of ${regions.length} charts fit their region`}
            ; the window is {fmt(window)} tokens
          </span>
        )}
      </div>
      {regions.map((name) => (
        <div key={name} className="region-chart" data-testid={`chart-${name}`} data-top={tops.get(name)!.top}>
          <div className="muted mono small">
            <span className="legend-dot" style={{ background: colors.get(name) }} />
            {name}
          </div>
          <Clickable steps={steps}>
            <WhenVisible height={62}>
              <RegionChart
                data={series.get(name)!}
                color={colors.get(name)!}
                steps={steps}
                stages={stages}
                top={tops.get(name)!.top}
              />
              <Cursor steps={steps} />
            </WhenVisible>
          </Clickable>
        </div>
      ))}
    </div>
  );
}

function RequestTooltip({ active, payload }: TooltipProps) {
  const p = payload?.[0]?.payload as RequestPoint | undefined;
  if (!active || !p) return null;
  return (
    <div className="tooltip">
      <div>
        <b>Step {p.i + 1}</b> · inference #{p.inference}
      </div>
      <div>
        Request {fmt(p.requestTokens)} · stable prefix {fmt(p.prefixTokens)} ({pct(p.prefixShare)})
      </div>
      <div>
        Cache reads {fmt(p.cacheReadTokens)} · flat list {fmt(p.baselineTokens)}
      </div>
      <div>
        Task in window: blueprint {p.taskInWindow ? 'yes' : 'no'}, flat list {p.taskInBaselineWindow ? 'yes' : 'no'}
      </div>
    </div>
  );
}

/** A per-inference line chart over the timeline's steps: grid, axes, tooltip, cursor, click to inspect. */
function RequestChart({
  steps,
  data,
  height,
  window,
  peakColumns,
  testId,
  children,
}: {
  steps: number;
  data: RequestPoint[];
  height: number;
  window: number;
  /** The figures the axis fits when it fits the data. */
  peakColumns: readonly (keyof RequestPoint)[];
  testId: string;
  children: React.ReactNode;
}) {
  const xDomain = useStepDomain(steps);
  const zoom = useUi((s) => s.zoom);
  const peak = useMemo(() => peakOf(data, peakColumns), [data, peakColumns]);
  const { top, fit } = axisTop(zoom, peak, window);
  const yDomain = useTopDomain(top);
  return (
    <Clickable steps={steps}>
      <div data-testid={testId} data-fit={fit ? 'yes' : 'no'} data-top={top} style={{ position: 'relative' }}>
        {fit && <WindowOffScale window={window} top={top} />}
        <ResponsiveContainer width="100%" height={height}>
          <LineChart data={data} margin={REQUEST_MARGIN}>
            <CartesianGrid {...grid} />
            <XAxis dataKey="i" type="number" domain={xDomain} {...axis} tickFormatter={stepTick} />
            <YAxis width={Y_AXIS_WIDTH} {...axis} tickFormatter={compact} domain={yDomain} allowDataOverflow />
            {children}
            <Tooltip content={RequestTooltip} isAnimationActive={false} />
          </LineChart>
        </ResponsiveContainer>
      </div>
      <Cursor steps={steps} />
    </Clickable>
  );
}

function LegendLine({ color, dash, label }: { color?: string; dash?: boolean; label: string }) {
  return (
    <span>
      <svg width="18" height="8" aria-hidden>
        <line
          x1="0"
          y1="4"
          x2="18"
          y2="4"
          stroke={color}
          strokeWidth="2.5"
          strokeDasharray={dash ? '4 2' : undefined}
        />
      </svg>{' '}
      {label}
    </span>
  );
}

/** A chart's legend: each declared line that has legend words, in drawing order. */
function Legend({ lines, model }: { lines: readonly ChartedColumn[]; model: string }) {
  return lines
    .filter((l) => l.legend)
    .map((l) => (
      <LegendLine
        key={l.column}
        color={l.colour}
        dash={l.dash !== undefined}
        label={l.legend!.replace('{model}', model)}
      />
    ));
}

function CacheCard({ timeline, data }: { timeline: TimelineView; data: RequestPoint[] }) {
  const at = useResults((s) => s.figures?.request);
  return (
    <div data-testid="cache">
      <div className="chart-title">
        <h3>Prompt cache</h3>
        <span className="muted">
          the provider's view of the cost at this step; stable prefix vs the whole request, per inference
        </span>
      </div>
      {/* The cost at the scrubbed step comes first: at 1024x768 the cards stay above the fold. */}
      {at ? (
        <div className="stat-grid" data-testid="cache-at-step">
          <div className="stat">
            <div className="v" data-testid="prefix-tokens">
              {fmt(at.prefixTokens)}
            </div>
            <div className="k">stable prefix tokens ({pct(at.prefixShare)})</div>
          </div>
          <div className="stat">
            <div className="v" data-testid="cache-read">
              {fmt(at.cache.cacheReadTokens)}
            </div>
            <div className="k">cache-read tokens</div>
          </div>
          <div className="stat">
            <div className="v" data-testid="input-cost">
              {usd(at.cache.inputCostUsd)}
            </div>
            <div className="k">input cost ({usd(at.cache.costWithoutCacheUsd)} uncached)</div>
          </div>
          <div className="muted small" style={{ gridColumn: '1 / -1' }} data-testid="cache-rule">
            {at.cache.rule}
          </div>
        </div>
      ) : (
        <div className="muted">No inference yet at this step.</div>
      )}
      <RequestChart
        steps={timeline.steps.count}
        data={data}
        height={150}
        window={timeline.header.model.window}
        peakColumns={CACHE_PEAK_COLUMNS}
        testId="cache-chart"
      >
        {drawLines(CACHE_LINES)}
        {timeline.recorded && (
          <Line
            dataKey="asSentCacheRead"
            name="cache reads, as sent"
            stroke={AS_SENT_COLOUR}
            strokeWidth={1.5}
            strokeDasharray="1 2"
            dot={false}
            isAnimationActive={false}
          />
        )}
        {timeline.recorded && (
          <Line
            dataKey="recordedCacheRead"
            name="cache reads, as recorded"
            stroke={RECORDED_COLOUR}
            strokeWidth={2}
            dot={false}
            connectNulls
            isAnimationActive={false}
          />
        )}
      </RequestChart>
      <div className="row muted small">
        <ZoomControl />
        <Legend lines={CACHE_LINES} model={timeline.header.model.id} />
        {timeline.recorded && (
          <span data-testid="cache-recorded-legend">
            <LegendLine color={RECORDED_COLOUR} dash={false} label="cache reads as recorded (the provider's)" />
            <LegendLine color={AS_SENT_COLOUR} dash label="cache reads as sent (replayed)" />
          </span>
        )}
        <span className="spacer" />
        <span>mean prefix share {pct(timeline.header.summary.meanPrefixShare)}</span>
      </div>
    </div>
  );
}

function ComparisonCard({ timeline, data }: { timeline: TimelineView; data: RequestPoint[] }) {
  const lostStep = stepOfInference(timeline, timeline.header.summary.baselineLosesTaskAt);
  const { window } = timeline.header.model;
  return (
    <div data-testid="comparison">
      <div className="chart-title">
        <h3>Flat list vs blueprint</h3>
        <span className="muted">request tokens for the same traffic</span>
      </div>
      <RequestChart
        steps={timeline.steps.count}
        data={data}
        height={170}
        window={window}
        peakColumns={FLAT_PEAK_COLUMNS}
        testId="flat-chart"
      >
        <ReferenceLine y={window} stroke="var(--error)" strokeDasharray="4 3" ifOverflow="hidden" />
        {drawLines(FLAT_LINES)}
        {lostStep !== null && <ReferenceLine x={lostStep} stroke={FLAT_LIST_COLOUR} label={TASK_LOST_LABEL} />}
      </RequestChart>
      <div className="row muted small">
        <ZoomControl />
        <Legend lines={FLAT_LINES} model={timeline.header.model.id} />
        <span>red dashed: the window ({fmt(window)})</span>
      </div>
    </div>
  );
}

export type DetailView = 'regions' | 'cache' | 'flat';

/** One of the recharts views; `onDrawn` hears the timeline it shows once drawn. */
export default function DetailCharts({
  view,
  timeline,
  regions,
  colors,
  stages,
  onDrawn,
}: {
  view: DetailView;
  timeline: TimelineView;
  regions: string[];
  colors: Map<string, string>;
  stages: StageChange[];
  onDrawn: (timeline: TimelineView) => void;
}) {
  useEffect(() => onDrawn(timeline), [view, timeline, onDrawn]);
  const requests = useMemo(() => requestPoints(timeline), [timeline]);
  if (view === 'regions') return <RegionCharts timeline={timeline} regions={regions} colors={colors} stages={stages} />;
  return view === 'cache' ? (
    <CacheCard timeline={timeline} data={requests} />
  ) : (
    <ComparisonCard timeline={timeline} data={requests} />
  );
}
