// The timeline's charts: the main chart (the whole window, step by step, with its change markers
// and the readout at the scrubbed step), the per-region charts, the prompt cache and the flat-list
// comparison, one tab each. Its own chunk (with recharts): it is fetched while the first replay
// runs, and evaluated in a task of its own rather than with the page's first script.
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  Area, CartesianGrid, ComposedChart, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis,
  useXAxisScale, useYAxisScale,
} from 'recharts';
import type { RunView, StageChange } from '../worker/run-view.ts';
import { useResults } from '../state/results.ts';
import { useUi } from '../state/ui.ts';
import {
  IMPLICIT_REGION_WHY, changesAt, inferenceAt, markerClusters, regionColors, regionPoints, requestPoints, stackedStepBands,
  stageAt, stepOfInference, windowPoints,
  type MarkerCluster, type RegionPoint, type RequestPoint, type WindowPoint,
} from './chartData.ts';
import { CHANGE_TYPES } from '../engine/timeline.ts';
import { fmt, pct } from './format.ts';
import { jumpTo } from './jump.ts';
import { MARKER_LABELS, MarkerGlyph } from './markers.tsx';
import { WhenVisible } from './Visible.tsx';

// Every tick the scale makes is drawn (five or fewer): with `interval` 0 recharts never measures
// label text in the DOM to thin the ticks out, which was the largest part of drawing a chart.
const axis = { tick: { fontSize: 10, fill: 'var(--muted)' }, interval: 0 } as const;
// Horizontal lines only. `vertical={false}` alone still has recharts place the vertical lines,
// measuring every x tick's label in the DOM (a third of the first draw); this places none.
const grid = { stroke: 'var(--border)', strokeDasharray: '2 4', vertical: false, verticalCoordinatesGenerator: () => [] } as const;
const Y_AXIS_WIDTH = 44;
const RIGHT_MARGIN = 8;
// Recharts keeps each axis's and series' props in a store and recomputes every series when one
// changes identity; so margins, domains, accessors and tooltips keep theirs across renders.
const WINDOW_MARGIN = { top: 6, right: RIGHT_MARGIN, bottom: 0, left: 0 };
const REQUEST_MARGIN = { top: 4, right: RIGHT_MARGIN, bottom: 0, left: 0 };
const stepTick = (v: number) => String(v + 1);
/** The x domain of a chart over `steps` steps. */
function useStepDomain(steps: number): [number, number] {
  return useMemo(() => [0, Math.max(1, steps - 1)], [steps]);
}
/** A marker's width in pixels: markers closer than this become one cluster. */
const MARKER_PX = 20;
const usd = (n: number) => `$${n < 0.01 ? n.toFixed(4) : n.toFixed(3)}`;
const compact = (n: number) => (n >= 1000 ? `${Math.round(n / 100) / 10}k` : String(n));
const CACHE_COLORS = { request: '#6e7781', prefix: '#009E73', reads: '#0072B2' };
const FLAT_COLORS = { baseline: '#D55E00', blueprint: '#0072B2' };
const TASK_LOST_LABEL = { value: 'task lost', fontSize: 10, fill: 'var(--text)', position: 'insideTopLeft' } as const;

type TooltipProps = { active?: boolean; payload?: readonly { payload?: unknown }[] };

interface Size { width: number; height: number }

const UNMEASURED: Size = { width: 0, height: 0 };

/**
 * The element's content box in whole pixels, as a ResizeObserver reports it (measuring never
 * forces a layout); UNMEASURED until its first report.
 */
function useSize<T extends HTMLElement>(): [Size, React.RefObject<T | null>] {
  const ref = useRef<T>(null);
  const [size, setSize] = useState<Size>(UNMEASURED);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => {
      const width = Math.round(entry.contentRect.width);
      const height = Math.round(entry.contentRect.height);
      setSize((old) => (old.width === width && old.height === height ? old : { width, height }));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [size, ref];
}

function xShare(i: number, steps: number): number {
  return steps > 1 ? i / (steps - 1) : 0;
}

/** The step under a click on a chart whose x axis spans the timeline (the plot's own margins known). */
function stepAtClick(e: React.MouseEvent<HTMLElement>, steps: number): number {
  const box = e.currentTarget.getBoundingClientRect();
  const share = (e.clientX - box.left - Y_AXIS_WIDTH) / Math.max(1, box.width - Y_AXIS_WIDTH - RIGHT_MARGIN);
  return Math.round(Math.min(1, Math.max(0, share)) * Math.max(0, steps - 1));
}

/** A chart area where a click inspects the step under the pointer. */
function Clickable({ steps, className, children }: { steps: number; className?: string; children: React.ReactNode }) {
  return <div className={`clickable-chart ${className ?? ''}`} onClick={(e) => jumpTo(stepAtClick(e, steps))}>{children}</div>;
}

function Cursor({ steps }: { steps: number }) {
  // Drawn as an overlay bar so scrubbing does not re-render the charts.
  const step = useUi((s) => s.step);
  const share = xShare(Math.min(step, steps - 1), steps);
  return <div aria-hidden className="scrub-cursor" style={{ left: `calc(${Y_AXIS_WIDTH}px + (100% - ${Y_AXIS_WIDTH + RIGHT_MARGIN}px) * ${share})` }} />;
}

function clusterLabel(c: MarkerCluster): string {
  const where = c.last === c.i ? `step ${c.i + 1}` : `steps ${c.i + 1}–${c.last + 1}`;
  const kinds = c.breakdown.map(([k, n]) => `${MARKER_LABELS[k]} ×${n}`).join(', ');
  return `${where}: ${c.count === 1 ? c.markers[0].text : `${c.count} changes (${kinds})`}`;
}

function clusterDetail(c: MarkerCluster): string {
  const lines = c.markers.map((m) => `step ${m.i + 1}: ${m.text}`);
  if (c.count > c.markers.length) lines.push(`… and ${c.count - c.markers.length} more`);
  return `${clusterLabel(c)}\n${lines.join('\n')}\nClick to go to step ${c.i + 1}.`;
}

/** The strip of change markers above the main chart; a marker is a button that jumps to its step. */
function MarkerLane({ clusters, steps }: { clusters: MarkerCluster[]; steps: number }) {
  return (
    <div className="marker-lane" data-testid="marker-lane" aria-label="Changes over the run">
      {clusters.map((c) => (
        <button
          key={`${c.i}-${c.kind}`} type="button" className="marker" data-step={c.i} data-kind={c.kind} data-count={c.count}
          data-kinds={c.breakdown.map(([k]) => k).join(' ')}
          style={{ left: `calc(${Y_AXIS_WIDTH}px + (100% - ${Y_AXIS_WIDTH + RIGHT_MARGIN}px) * ${xShare(c.i, steps)} - 6px)` }}
          aria-label={clusterLabel(c)} title={clusterDetail(c)}
          onClick={() => jumpTo(c.i, c.region)}
        >
          <MarkerGlyph kind={c.kind} />
          {c.count > 1 && <span className="marker-count">{c.count > 99 ? '99+' : c.count}</span>}
        </button>
      ))}
    </div>
  );
}

function WindowTooltip({ active, payload, run, regions, colors }: TooltipProps & { run: RunView; regions: string[]; colors: Map<string, string> }) {
  if (!active || !payload?.length) return null;
  const p = payload[0].payload as WindowPoint;
  const inference = inferenceAt(run, p.i);
  const { window } = run.header.model;
  return (
    <div className="tooltip">
      <div><b>Step {p.i + 1}</b>{inference !== null ? ` · inference #${inference}` : ''} · stage <code>{stageAt(run, p.i)}</code></div>
      <div>{fmt(p.total)} of {fmt(window)} tokens ({pct(p.total / window)})</div>
      {p.prefix !== null && <div>cache prefix {fmt(p.prefix)}</div>}
      <table className="compact"><tbody>
        {regions.map((r, k) => ({ r, k })).reverse().filter(({ k }) => p.tokens[k] > 0).map(({ r, k }) => (
          <tr key={r}><td><span className="legend-dot" style={{ background: colors.get(r) }} />{r}</td><td className="num">{fmt(p.tokens[k])}</td></tr>
        ))}
      </tbody></table>
      {changesAt(run, p.i).slice(0, 4).map((c, k) => <div key={k}>step {p.i + 1}: {c.type} in {c.region}, {fmt(c.tokens)} tokens</div>)}
      <div className="muted">Click to inspect step {p.i + 1}.</div>
    </div>
  );
}

/**
 * The regions stacked as step areas, drawn on the chart's own scales as two paths each (chartData's
 * `stackedStepBands`). As recharts series, an Area per region, each one re-ran every selector of
 * the chart as it registered: about half of the chart's first draw.
 */
function StackedRegions({ data, regions, colors, steps, top }: { data: WindowPoint[]; regions: string[]; colors: Map<string, string>; steps: number; top: number }) {
  const x = useXAxisScale();
  const y = useYAxisScale();
  // The scales are new functions each time recharts' store changes (several times as the chart
  // mounts); both are linear, so the pixels at the domain's ends say all, and the paths are built
  // again only when those move.
  const lastStep = Math.max(1, steps - 1);
  const [x0, x1, y0, y1] = x && y ? [x(0), x(lastStep), y(0), y(top)] : [];
  const bands = useMemo(() => {
    if (x0 === undefined || x1 === undefined || y0 === undefined || y1 === undefined) return [];
    return stackedStepBands(data, regions.length, (step) => x0 + ((x1 - x0) * step) / lastStep, (tokens) => y0 + ((y1 - y0) * tokens) / top);
  }, [data, regions.length, lastStep, top, x0, x1, y0, y1]);
  return (
    <g className="stacked-regions">
      {bands.map((band, k) => (
        <g key={regions[k]}>
          <path d={band.area} fill={colors.get(regions[k]!)} fillOpacity={0.7} stroke="none" />
          <path d={band.top} fill="none" stroke={colors.get(regions[k]!)} strokeWidth={1} />
        </g>
      ))}
    </g>
  );
}

/** The main chart: every region stacked, the window, the cache prefix, and the change markers. */
const WindowChart = memo(function WindowChart({ run, regions, colors, stages, onDrawn }: { run: RunView; regions: string[]; colors: Map<string, string>; stages: StageChange[]; onDrawn: (run: RunView) => void }) {
  const [fit, setFit] = useState(false);
  // The plot is drawn at the size the observer reports, in a task after the layout that gave it:
  // ResponsiveContainer measured it in the commit, forcing that layout, and drew the chart in the
  // same task. The plot spans the chart's width, which the marker lane's clusters follow too.
  const [plot, plotRef] = useSize<HTMLDivElement>();
  const { width } = plot;
  const measured = plot !== UNMEASURED;
  useEffect(() => { if (measured) onDrawn(run); }, [measured, run, onDrawn]);
  const data = useMemo(() => windowPoints(run), [run]);
  const steps = run.steps.count;
  const columns = Math.max(1, (width - Y_AXIS_WIDTH - RIGHT_MARGIN) / MARKER_PX);
  const clusters = useMemo(() => markerClusters(run, columns), [run, columns]);
  const peak = data.reduce((m, p) => Math.max(m, p.total), 0);
  const { window } = run.header.model;
  const top = fit ? Math.max(1, Math.ceil(peak * 1.1)) : Math.max(window, peak);
  const xDomain = useStepDomain(steps);
  const yDomain = useMemo(() => [0, top], [top]);
  const windowLabel = useMemo(() => ({ value: `window ${fmt(window)}`, fontSize: 10, fill: 'var(--error)', position: 'insideTopRight' as const }), [window]);
  const tooltip = useCallback((props: TooltipProps) => <WindowTooltip {...props} run={run} regions={regions} colors={colors} />, [run, regions, colors]);
  return (
    <div className="window-chart" data-testid="window-chart">
      <MarkerLane clusters={clusters} steps={steps} />
      <Clickable steps={steps} className="window-plot">
        <div className="plot-box" ref={plotRef}>
          {plot.width > 0 && plot.height > 0 && (
            <ComposedChart width={plot.width} height={plot.height} data={data} margin={WINDOW_MARGIN}>
              <CartesianGrid {...grid} />
              <XAxis dataKey="i" type="number" domain={xDomain} {...axis} tickFormatter={stepTick} />
              <YAxis width={Y_AXIS_WIDTH} {...axis} tickFormatter={compact} domain={yDomain} allowDataOverflow />
              <StackedRegions data={data} regions={regions} colors={colors} steps={steps} top={top} />
              <Line dataKey="prefix" name="cache prefix" type="stepAfter" stroke="var(--text)" strokeWidth={1.5} strokeDasharray="5 3" dot={false} isAnimationActive={false} connectNulls={false} />
              <ReferenceLine y={window} stroke="var(--error)" strokeWidth={1.5} ifOverflow="hidden" label={windowLabel} />
              {stages.map((c) => <ReferenceLine key={c.i} x={c.i} stroke="var(--muted)" strokeDasharray="2 2" />)}
              <Tooltip content={tooltip} isAnimationActive={false} />
            </ComposedChart>
          )}
        </div>
        <Cursor steps={steps} />
      </Clickable>
      <div className="row chart-legend">
        <span><span className="legend-line window" /> model window</span>
        <span><span className="legend-line prefix" /> cache prefix (served from cache)</span>
        <label className="row" style={{ gap: 3 }}><input type="checkbox" checked={fit} onChange={(e) => setFit(e.target.checked)} /> fit to the data</label>
        <span className="spacer" />
        <MarkerLegend changes={run.header.summary.changes} hasStages={stages.length > 0} />
      </div>
    </div>
  );
});

function MarkerLegend({ changes, hasStages }: { changes: RunView['header']['summary']['changes']; hasStages: boolean }) {
  const kinds = CHANGE_TYPES.filter((t) => changes[t].count > 0);
  return (
    <span className="row marker-legend" data-testid="marker-legend">
      {kinds.map((k) => <span key={k} title={MARKER_LABELS[k]}><MarkerGlyph kind={k} size={10} /> {k} ×{changes[k].count}</span>)}
      {hasStages && <span><MarkerGlyph kind="stage" size={10} /> stage</span>}
    </span>
  );
}

/** The figures at the scrubbed step: the legend of the main chart, and exact numbers. */
function RegionReadout({ run, regions, colors }: { run: RunView; regions: string[]; colors: Map<string, string> }) {
  const at = useResults((s) => s.figures);
  const meta = new Map(run.header.regions.map((r) => [r.name, r]));
  return (
    <table data-testid="region-readout" data-step={at?.index} aria-label="Regions at this step" className="compact readout">
      <thead><tr><th>Region</th><th>Kind</th><th className="num">Tokens</th><th className="num">Budget</th><th className="num">Entries</th><th className="num">Used</th></tr></thead>
      <tbody>
        {[...regions].reverse().map((name) => {
          const f = at?.regions[name];
          const over = f ? f.tokens > f.budget : false;
          const implicit = meta.get(name)?.declared === false;
          return (
            <tr key={name} data-region={name} className="clickable" onClick={() => useUi.getState().setFocusRegion(name)} title="Show this region in the inspector">
              <td>
                <span className="legend-dot" style={{ background: colors.get(name) }} /><code>{name}</code>
                {implicit && <span className="badge implicit" title={IMPLICIT_REGION_WHY[name] ?? 'added by the runtime, not declared in the blueprint'}>implicit</span>}
                {f && !f.visible ? <span className="muted"> (hidden)</span> : null}
              </td>
              <td className="muted">{meta.get(name)?.kind}</td>
              <td className={`num ${over ? 'over' : ''}`} data-testid="tokens">{fmt(f?.tokens)}</td>
              <td className="num" data-testid="budget">{fmt(f?.budget)}</td>
              <td className="num" data-testid="entries">{fmt(f?.entries)}</td>
              <td className="num">{f && f.budget ? pct(f.tokens / f.budget) : '–'}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function StageLinks({ stages }: { stages: StageChange[] }) {
  if (stages.length === 0) return null;
  return (
    <div className="row small" data-testid="change-legend">
      {stages.map((c) => (
        <button key={c.i} className="link" onClick={() => jumpTo(c.i)} title="Go to this step">
          stage {c.from} → {c.to} at step {c.i + 1}
        </button>
      ))}
    </div>
  );
}

function RegionTooltip({ active, payload }: TooltipProps) {
  if (!active || !payload?.length) return null;
  const p = payload[0].payload as RegionPoint;
  return (
    <div className="tooltip">
      <div>Step {p.i + 1}: <b>{fmt(p.tokens)}</b> / {fmt(p.budget)} tokens</div>
      {p.changes?.slice(0, 6).map((c, k) => <div key={k}><b>{c.type}</b> {fmt(c.tokens)} tokens{c.reason ? <span className="muted"> — {c.reason}</span> : null}</div>)}
    </div>
  );
}

const RegionChart = memo(function RegionChart({ data, color, steps, stages }: { data: RegionPoint[]; color: string; steps: number; stages: StageChange[] }) {
  const xDomain = useStepDomain(steps);
  return (
    <ResponsiveContainer width="100%" height={62}>
      <ComposedChart data={data} margin={WINDOW_MARGIN}>
        <XAxis dataKey="i" type="number" domain={xDomain} hide />
        <YAxis width={Y_AXIS_WIDTH} {...axis} tickFormatter={compact} tickCount={3} />
        <Area dataKey="tokens" type="stepAfter" stroke={color} fill={color} fillOpacity={0.35} isAnimationActive={false} dot={false} />
        <Line dataKey="budget" type="stepAfter" stroke="var(--muted)" strokeDasharray="4 3" dot={false} isAnimationActive={false} />
        {stages.map((c) => <ReferenceLine key={c.i} x={c.i} stroke="var(--muted)" strokeDasharray="2 2" />)}
        <Tooltip content={RegionTooltip} isAnimationActive={false} />
      </ComposedChart>
    </ResponsiveContainer>
  );
});

function RegionCharts({ run, regions, colors, stages }: { run: RunView; regions: string[]; colors: Map<string, string>; stages: StageChange[] }) {
  const series = useMemo(() => new Map(regions.map((r) => [r, regionPoints(run, r)])), [run, regions]);
  const steps = run.steps.count;
  return (
    <div>
      <div className="chart-title"><h3>Each region</h3><span className="muted">area: tokens · dashed: resolved budget · dotted line: stage change · click to inspect</span></div>
      {regions.map((name) => (
        <div key={name} className="region-chart" data-testid={`chart-${name}`}>
          <div className="muted mono small"><span className="legend-dot" style={{ background: colors.get(name) }} />{name}</div>
          <Clickable steps={steps}>
            <WhenVisible height={62}>
              <RegionChart data={series.get(name)!} color={colors.get(name)!} steps={steps} stages={stages} />
              <Cursor steps={steps} />
            </WhenVisible>
          </Clickable>
        </div>
      ))}
    </div>
  );
}

function RequestTooltip({ active, payload }: TooltipProps) {
  if (!active || !payload?.length) return null;
  const p = payload[0].payload as RequestPoint;
  return (
    <div className="tooltip">
      <div><b>Step {p.i + 1}</b> · inference #{p.inference}</div>
      <div>Request {fmt(p.requestTokens)} · stable prefix {fmt(p.prefixTokens)} ({pct(p.prefixShare)})</div>
      <div>Cache reads {fmt(p.cacheRead)} · flat list {fmt(p.baseline)}</div>
      <div>Task in window: blueprint {p.taskInWindow ? 'yes' : 'no'}, flat list {p.taskInBaseline ? 'yes' : 'no'}</div>
    </div>
  );
}

/** A per-inference line chart over the timeline's steps: grid, axes, tooltip, cursor, click to inspect. */
function RequestChart({ steps, data, height, children }: { steps: number; data: RequestPoint[]; height: number; children: React.ReactNode }) {
  const xDomain = useStepDomain(steps);
  return (
    <Clickable steps={steps}>
      <ResponsiveContainer width="100%" height={height}>
        <LineChart data={data} margin={REQUEST_MARGIN}>
          <CartesianGrid {...grid} />
          <XAxis dataKey="i" type="number" domain={xDomain} {...axis} tickFormatter={stepTick} />
          <YAxis width={Y_AXIS_WIDTH} {...axis} tickFormatter={compact} />
          {children}
          <Tooltip content={RequestTooltip} isAnimationActive={false} />
        </LineChart>
      </ResponsiveContainer>
      <Cursor steps={steps} />
    </Clickable>
  );
}

function LegendLine({ color, dash, label }: { color: string; dash?: boolean; label: string }) {
  return <span><svg width="18" height="8" aria-hidden><line x1="0" y1="4" x2="18" y2="4" stroke={color} strokeWidth="2.5" strokeDasharray={dash ? '4 2' : undefined} /></svg> {label}</span>;
}

function CacheCard({ run, data }: { run: RunView; data: RequestPoint[] }) {
  const at = useResults((s) => s.figures?.request);
  return (
    <div data-testid="cache">
      <div className="chart-title"><h3>Prompt cache</h3><span className="muted">stable prefix vs the whole request, per inference; the provider's view of the cost below</span></div>
      <RequestChart steps={run.steps.count} data={data} height={150}>
        <Line dataKey="requestTokens" name="request" stroke={CACHE_COLORS.request} strokeWidth={3} dot={false} isAnimationActive={false} />
        <Line dataKey="prefixTokens" name="stable prefix" stroke={CACHE_COLORS.prefix} strokeWidth={2} strokeDasharray="6 3" dot={false} isAnimationActive={false} />
        <Line dataKey="cacheRead" name="cache reads" stroke={CACHE_COLORS.reads} strokeWidth={1.5} strokeDasharray="2 2" dot={false} isAnimationActive={false} />
      </RequestChart>
      <div className="row muted small">
        <LegendLine color={CACHE_COLORS.request} label="request (thick)" />
        <LegendLine color={CACHE_COLORS.prefix} dash label="stable prefix (dashed)" />
        <LegendLine color={CACHE_COLORS.reads} dash label={`cache reads, ${run.header.model.id} (dotted)`} />
        <span className="spacer" />
        <span>mean prefix share {pct(run.header.summary.meanPrefixShare)}</span>
      </div>
      {at ? (
        <div className="stat-grid" data-testid="cache-at-step">
          <div className="stat"><div className="v" data-testid="prefix-tokens">{fmt(at.prefixTokens)}</div><div className="k">stable prefix tokens ({pct(at.prefixShare)})</div></div>
          <div className="stat"><div className="v" data-testid="cache-read">{fmt(at.cache.cacheReadTokens)}</div><div className="k">cache-read tokens</div></div>
          <div className="stat"><div className="v" data-testid="input-cost">{usd(at.cache.inputCostUsd)}</div><div className="k">input cost ({usd(at.cache.costWithoutCacheUsd)} uncached)</div></div>
          <div className="muted small" style={{ gridColumn: '1 / -1' }} data-testid="cache-rule">{at.cache.rule}</div>
        </div>
      ) : <div className="muted">No inference yet at this step.</div>}
    </div>
  );
}

function ComparisonCard({ run, data }: { run: RunView; data: RequestPoint[] }) {
  const lostStep = stepOfInference(run, run.header.summary.baselineLosesTaskAt);
  const { window } = run.header.model;
  return (
    <div data-testid="comparison">
      <div className="chart-title"><h3>Flat list vs blueprint</h3><span className="muted">request tokens for the same traffic</span></div>
      <RequestChart steps={run.steps.count} data={data} height={170}>
        <ReferenceLine y={window} stroke="var(--error)" strokeDasharray="4 3" />
        <Line dataKey="baseline" name="flat list" stroke={FLAT_COLORS.baseline} strokeWidth={3} dot={false} isAnimationActive={false} />
        <Line dataKey="requestTokens" name="blueprint" stroke={FLAT_COLORS.blueprint} strokeWidth={1.5} strokeDasharray="5 2" dot={false} isAnimationActive={false} />
        {lostStep !== null && <ReferenceLine x={lostStep} stroke={FLAT_COLORS.baseline} label={TASK_LOST_LABEL} />}
      </RequestChart>
      <div className="row muted small">
        <LegendLine color={FLAT_COLORS.baseline} label="flat list (thick)" />
        <LegendLine color={FLAT_COLORS.blueprint} dash label="blueprint (dashed)" />
        <span>red dashed: the window ({fmt(window)})</span>
      </div>
    </div>
  );
}

const VIEWS = [
  { id: 'window', label: 'Window' },
  { id: 'regions', label: 'Each region' },
  { id: 'cache', label: 'Prompt cache' },
  { id: 'flat', label: 'Flat list vs blueprint' },
] as const;
type View = (typeof VIEWS)[number]['id'];

/** `onDrawn` hears which run the charts on screen show, once they are drawn. */
export default function TimelineViews({ run, onDrawn }: { run: RunView; onDrawn: (run: RunView) => void }) {
  const [view, setView] = useState<View>('window');
  // The other views draw with their first render; the window chart once its plot is measured.
  useEffect(() => { if (view !== 'window') onDrawn(run); }, [view, run, onDrawn]);
  const regions = run.charted;
  // Read, not subscribed: remembering the colours below must not redraw the charts.
  const colors = useMemo(() => regionColors(regions, useUi.getState().regionColours), [regions]);
  useEffect(() => useUi.getState().rememberRegionColours(colors), [colors]);
  const stages = run.stageChanges;
  const requests = useMemo(() => requestPoints(run), [run]);
  return (
    <>
      <div className="view-tabs" role="tablist" aria-label="Timeline views">
        {VIEWS.map((v) => (
          <button key={v.id} role="tab" id={`view-${v.id}`} aria-selected={view === v.id} aria-controls="timeline-view" className={`tab ${view === v.id ? 'active' : ''}`} data-testid={`view-${v.id}`} onClick={() => setView(v.id)}>{v.label}</button>
        ))}
      </div>
      <div className={`panel-body timeline-body view-${view}`} id="timeline-view" role="tabpanel" aria-labelledby={`view-${view}`} tabIndex={0}>
        {view === 'window' && (
          <>
            <WindowChart run={run} regions={regions} colors={colors} stages={stages} onDrawn={onDrawn} />
            <StageLinks stages={stages} />
            <RegionReadout run={run} regions={regions} colors={colors} />
          </>
        )}
        {view === 'regions' && <RegionCharts run={run} regions={regions} colors={colors} stages={stages} />}
        {view === 'cache' && <CacheCard run={run} data={requests} />}
        {view === 'flat' && <ComparisonCard run={run} data={requests} />}
      </div>
    </>
  );
}
