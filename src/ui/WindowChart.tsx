// The main chart: every region stacked step by step against the model's window, the cache prefix,
// the stage changes, and the change markers above it. Drawn as plain SVG from the engine's figures:
// it is the chart every visitor sees first, and recharts builds its first draw in one main-thread
// task that cannot be sliced (docs/decisions/ui.md). The other views (each region, the cache, the
// flat list) keep recharts.
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { TimelineView, StageChange } from '../worker/timeline-view.ts';
import {
  changesAt,
  inferenceAt,
  markerClusters,
  stackedStepBands,
  stageAt,
  stepLinePath,
  windowPoints,
  type MarkerCluster,
  type WindowPoint,
} from './chartData.ts';
import { CHANGE_TYPES, itemAt } from '../engine/page.ts';
import {
  Clickable,
  Cursor,
  RIGHT_MARGIN,
  WindowOffScale,
  Y_AXIS_WIDTH,
  ZoomControl,
  axisTop,
  compact,
  plotLeft,
  stepAtX,
  stepTick,
  xShare,
} from './chartFrame.tsx';
import { useUi } from './page.ts';
import { fmt, pct } from './format.ts';
import { jumpTo } from './jump.ts';
import { MARKER_LABELS, MarkerGlyph } from './markers.tsx';
import { AS_SENT_COLOUR, RECORDED_COLOUR } from './recordedColours.ts';
import { linearScale, nearestPoint, niceTicks, stepTicks } from './plotScale.ts';

/** A marker's width in pixels: markers closer than this become one cluster. */
const MARKER_PX = 20;
const TOP_MARGIN = 6;
/** The x axis's height under the plot: tick marks and step labels. */
const X_AXIS_HEIGHT = 30;
const TICK_SIZE = 6;
const TICK_COUNT = 5;
const TICK_TEXT = { fontSize: 10, fill: 'var(--muted)' } as const;

interface Size {
  width: number;
  height: number;
}

const UNMEASURED: Size = { width: 0, height: 0 };

/** The element's content box in whole pixels, as a ResizeObserver reports it (measuring never forces a layout). */
function useSize<T extends HTMLElement>(): [Size, React.RefObject<T | null>] {
  const ref = useRef<T>(null);
  const [size, setSize] = useState<Size>(UNMEASURED);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => {
      if (!entry) return;
      const width = Math.round(entry.contentRect.width);
      const height = Math.round(entry.contentRect.height);
      setSize((old) => (old.width === width && old.height === height ? old : { width, height }));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [size, ref];
}

function clusterLabel(c: MarkerCluster): string {
  const where = c.last === c.i ? `step ${c.i + 1}` : `steps ${c.i + 1}–${c.last + 1}`;
  const kinds = c.breakdown.map(([k, n]) => `${MARKER_LABELS[k]} ×${n}`).join(', ');
  return `${where}: ${c.count === 1 && c.markers[0] ? c.markers[0].text : `${c.count} changes (${kinds})`}`;
}

function clusterDetail(c: MarkerCluster): string {
  const lines = c.markers.map((m) => `step ${m.i + 1}: ${m.text}`);
  if (c.count > c.markers.length) lines.push(`… and ${c.count - c.markers.length} more`);
  return `${clusterLabel(c)}\n${lines.join('\n')}\nClick to go to step ${c.i + 1}.`;
}

/**
 * A strip of marker buttons that is one tab stop (a toolbar with a roving tabindex): Tab passes it
 * in one press, and the arrows, Home and End move between its markers (they do not step the
 * timeline while here).
 */
function useRovingStrip(count: number) {
  const [active, setActive] = useState(0);
  const lane = useRef<HTMLDivElement>(null);
  const current = Math.min(active, Math.max(0, count - 1));
  const move = (e: React.KeyboardEvent<HTMLDivElement>) => {
    const to = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: count - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    e.stopPropagation();
    const next = Math.max(0, Math.min(count - 1, to));
    setActive(next);
    lane.current?.querySelectorAll<HTMLButtonElement>('.marker')[next]?.focus();
  };
  return { lane, current, move, setActive };
}

/** The strip of change markers above the main chart; a marker is a button that jumps to its step. */
function MarkerLane({ clusters, steps }: { clusters: MarkerCluster[]; steps: number }) {
  const { lane, current, move, setActive } = useRovingStrip(clusters.length);
  return (
    <div
      ref={lane}
      className="marker-lane"
      data-testid="marker-lane"
      role="toolbar"
      aria-label="Changes over the run (arrow keys move between them)"
      onKeyDown={move}
    >
      {clusters.map((c, k) => (
        <button
          key={`${c.i}-${c.kind}`}
          type="button"
          className="marker"
          data-step={c.i}
          data-kind={c.kind}
          data-count={c.count}
          data-kinds={c.breakdown.map(([kind]) => kind).join(' ')}
          tabIndex={k === current ? 0 : -1}
          style={{ left: `calc(${plotLeft(xShare(c.i, steps))} - 6px)` }}
          aria-label={clusterLabel(c)}
          title={clusterDetail(c)}
          onFocus={() => setActive(k)}
          onClick={() => jumpTo(c.i, c.region)}
        >
          <MarkerGlyph kind={c.kind} />
          {c.count > 1 && <span className="marker-count">{c.count > 99 ? '99+' : c.count}</span>}
        </button>
      ))}
    </div>
  );
}

/** A circled mark: an entry let go, named again. */
function ReadAgainGlyph({ size = 12 }: { size?: number }) {
  return (
    <svg className="glyph" width={size} height={size} viewBox="0 0 12 12" aria-hidden>
      <circle cx={6} cy={6} r={4.5} fill="none" stroke="currentColor" strokeWidth={1.5} />
      <path d="M6 3.5V6.5M6 8V8.6" stroke="currentColor" strokeWidth={1.5} />
    </svg>
  );
}

type ReadAgainItem = TimelineView['header']['summary']['readAgain']['items'][number];

/**
 * The steps where the run names again an entry the blueprint let go (read-again.ts): a lane of
 * markers under the change markers, one per column of MARKER_PX, each a button to its step.
 */
function ReadAgainLane({ items, steps, columns }: { items: readonly ReadAgainItem[]; steps: number; columns: number }) {
  // A marker is drawn at its first item's step; an item less than a marker's width after it joins it,
  // so no two markers of the lane overlap (positions in marker widths).
  const clusters = useMemo(() => {
    const out: { at: number; items: ReadAgainItem[] }[] = [];
    for (const item of [...items].sort((a, b) => a.namedAt - b.namedAt)) {
      const at = xShare(item.namedAt, steps) * columns;
      const last = out.at(-1);
      if (last && at - last.at < 1) last.items.push(item);
      else out.push({ at, items: [item] });
    }
    return out.map((c) => c.items);
  }, [items, steps, columns]);
  const { lane, current, move, setActive } = useRovingStrip(clusters.length);
  if (items.length === 0) return null;
  const line = (item: ReadAgainItem) =>
    `step ${item.namedAt + 1}: ${item.key} named again (let go at ${item.lostAt < 0 ? 'spawn' : `step ${item.lostAt + 1}`} by ${item.change} in ${item.region})`;
  return (
    <div
      ref={lane}
      className="marker-lane read-again-lane"
      data-testid="read-again-lane"
      role="toolbar"
      aria-label="Entries read again later (arrow keys move between them)"
      onKeyDown={move}
    >
      {clusters.map((group, k) => {
        const first = itemAt(group, 0);
        const label =
          group.length === 1
            ? line(first)
            : `steps ${first.namedAt + 1}–${group.at(-1)!.namedAt + 1}: ${group.length} entries read again later`;
        return (
          <button
            key={first.namedAt}
            type="button"
            className="marker read-again-marker"
            data-step={first.namedAt}
            data-count={group.length}
            tabIndex={k === current ? 0 : -1}
            onFocus={() => setActive(k)}
            style={{ left: `calc(${plotLeft(xShare(first.namedAt, steps))} - 6px)` }}
            aria-label={label}
            title={`${label}\n${group.slice(0, 8).map(line).join('\n')}\nClick to go to step ${first.namedAt + 1}.`}
            onClick={() => jumpTo(first.namedAt)}
          >
            <ReadAgainGlyph />
            {group.length > 1 && <span className="marker-count">{group.length > 99 ? '99+' : group.length}</span>}
          </button>
        );
      })}
    </div>
  );
}

function WindowTooltip({
  point,
  timeline,
  regions,
  colors,
}: {
  point: WindowPoint;
  timeline: TimelineView;
  regions: string[];
  colors: Map<string, string>;
}) {
  const inference = inferenceAt(timeline, point.i);
  const { window } = timeline.header.model;
  return (
    <>
      <div>
        <b>Step {point.i + 1}</b>
        {inference !== null ? ` · inference #${inference}` : ''} · stage <code>{stageAt(timeline, point.i)}</code>
      </div>
      <div>
        {fmt(point.total)} of {fmt(window)} tokens ({pct(point.total / window)})
      </div>
      {point.prefix !== null && <div>cache prefix {fmt(point.prefix)}</div>}
      {point.recorded != null && <div>as recorded: {fmt(point.recorded)} prompt tokens (the provider's count)</div>}
      {point.asSent != null && <div>as sent (replayed): {fmt(point.asSent)} tokens</div>}
      <table className="compact">
        <tbody>
          {regions
            .map((r, k) => ({ r, k }))
            .reverse()
            .filter(({ k }) => itemAt(point.tokens, k) > 0)
            .map(({ r, k }) => (
              <tr key={r}>
                <td>
                  <span className="legend-dot" style={{ background: colors.get(r) }} />
                  {r}
                </td>
                <td className="num">{fmt(point.tokens[k])}</td>
              </tr>
            ))}
        </tbody>
      </table>
      {changesAt(timeline, point.i)
        .slice(0, 4)
        .map((c, k) => (
          <div key={k}>
            step {point.i + 1}: {c.type} in {c.region}, {fmt(c.tokens)} tokens
          </div>
        ))}
      <div className="muted">Click to inspect step {point.i + 1}.</div>
    </>
  );
}

interface PlotProps {
  size: Size;
  data: WindowPoint[];
  regions: string[];
  colors: Map<string, string>;
  steps: number;
  /** The top of the token axis. */
  top: number;
  window: number;
  stages: StageChange[];
}

/** The plot itself: grid, stacked regions, cache prefix, window and stage lines, both axes. */
const WindowPlot = memo(function WindowPlot({ size, data, regions, colors, steps, top, window, stages }: PlotProps) {
  const left = Y_AXIS_WIDTH;
  const right = size.width - RIGHT_MARGIN;
  const bottom = size.height - X_AXIS_HEIGHT;
  const lastStep = Math.max(1, steps - 1);
  const x = linearScale(lastStep, left, right);
  const y = linearScale(top, bottom, TOP_MARGIN);
  const bands = stackedStepBands(data, regions.length, x, y);
  const prefix = stepLinePath(data, (p) => p.prefix, x, y);
  const recorded = stepLinePath(data, (p) => p.recorded ?? null, x, y);
  const asSent = stepLinePath(data, (p) => p.asSent ?? null, x, y);
  const tokenTicks = niceTicks(top, TICK_COUNT);
  return (
    <svg
      width={size.width}
      height={size.height}
      className="window-svg"
      role="img"
      aria-label={`Tokens per region over ${fmt(steps)} steps, against the model's window`}
    >
      <g stroke="var(--border)" strokeDasharray="2 4">
        {tokenTicks.map((t) => (
          <line key={t} x1={left} x2={right} y1={y(t)} y2={y(t)} />
        ))}
      </g>
      <g className="stacked-regions">
        {bands.map((band, k) => (
          <g key={regions[k]}>
            <path d={band.area} fill={colors.get(itemAt(regions, k))} fillOpacity={0.7} stroke="none" />
            <path d={band.top} fill="none" stroke={colors.get(itemAt(regions, k))} strokeWidth={1} />
          </g>
        ))}
      </g>
      <path
        d={prefix}
        fill="none"
        stroke="var(--text)"
        strokeWidth={1.5}
        strokeDasharray="5 3"
        className="prefix-line"
      />
      {asSent && (
        <path
          d={asSent}
          fill="none"
          stroke={AS_SENT_COLOUR}
          strokeWidth={1.5}
          strokeDasharray="2 2"
          className="as-sent-line"
          data-testid="as-sent-line"
        />
      )}
      {recorded && (
        <path
          d={recorded}
          fill="none"
          stroke={RECORDED_COLOUR}
          strokeWidth={2}
          className="recorded-line"
          data-testid="recorded-line"
        />
      )}
      {window <= top && (
        <g className="window-line">
          <line x1={left} x2={right} y1={y(window)} y2={y(window)} stroke="var(--error)" strokeWidth={1.5} />
          <text x={right - 5} y={y(window) + 5} dy="0.71em" textAnchor="end" fontSize={10} fill="var(--error)">
            window {fmt(window)}
          </text>
        </g>
      )}
      <g stroke="var(--muted)" strokeDasharray="2 2">
        {stages.map((c) => (
          <line key={c.i} x1={x(c.i)} x2={x(c.i)} y1={TOP_MARGIN} y2={bottom} />
        ))}
      </g>
      <g className="y-axis" stroke="var(--muted)">
        <line x1={left} x2={left} y1={TOP_MARGIN} y2={bottom} />
        {tokenTicks.map((t) => (
          <g key={t}>
            <line x1={left - TICK_SIZE} x2={left} y1={y(t)} y2={y(t)} />
            <text x={left - TICK_SIZE - 2} y={y(t)} dy="0.355em" textAnchor="end" stroke="none" {...TICK_TEXT}>
              {compact(t)}
            </text>
          </g>
        ))}
      </g>
      <g className="x-axis" stroke="var(--muted)">
        <line x1={left} x2={right} y1={bottom} y2={bottom} />
        {stepTicks(lastStep, TICK_COUNT).map((s) => (
          <g key={s}>
            <line x1={x(s)} x2={x(s)} y1={bottom} y2={bottom + TICK_SIZE} />
            <text x={x(s)} y={bottom + TICK_SIZE + 2} dy="0.71em" textAnchor="middle" stroke="none" {...TICK_TEXT}>
              {stepTick(s)}
            </text>
          </g>
        ))}
      </g>
    </svg>
  );
});

interface Hover {
  point: number;
  x: number;
  y: number;
}

/**
 * The plot's box: measures it for the plot, and shows the point under the pointer (a line and the
 * tooltip). The hover is this component's own state, so moving the pointer redraws no plot.
 */
function PlotBox({
  sizeRef,
  size,
  data,
  pointSteps,
  steps,
  tooltip,
  children,
}: {
  sizeRef: React.RefObject<HTMLDivElement | null>;
  size: Size;
  data: WindowPoint[];
  /** The step of each point (the worker's downsampled steps, in order). */
  pointSteps: ArrayLike<number>;
  steps: number;
  tooltip: (point: WindowPoint) => React.ReactNode;
  children: React.ReactNode;
}) {
  const [hover, setHover] = useState<Hover | null>(null);
  // The tooltip's size decides where it fits; it is measured after each draw.
  const tipRef = useRef<HTMLDivElement>(null);
  const [tip, setTip] = useState<Size>(UNMEASURED);
  useLayoutEffect(() => {
    const el = tipRef.current;
    if (el && (el.offsetWidth !== tip.width || el.offsetHeight !== tip.height))
      setTip({ width: el.offsetWidth, height: el.offsetHeight });
  });
  // A touch has no "leave": the tooltip a tap opened stays until a tap (or click) outside the plot.
  const shown = hover !== null;
  useEffect(() => {
    if (!shown) return;
    const outside = (e: PointerEvent) => {
      if (!sizeRef.current?.contains(e.target as Node)) setHover(null);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [shown, sizeRef]);
  const show = (e: React.PointerEvent<HTMLDivElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    const x = e.clientX - box.left;
    const point = nearestPoint(pointSteps, stepAtX(x, box.width, steps));
    setHover(point < 0 ? null : { point, x, y: e.clientY - box.top });
  };
  const point = hover ? data[hover.point] : undefined;
  return (
    <div
      className="plot-box"
      ref={sizeRef}
      onPointerMove={show}
      onPointerDown={show}
      onPointerLeave={(e) => {
        if (e.pointerType === 'mouse') setHover(null);
      }}
    >
      {children}
      {hover && point && (
        <>
          <div
            aria-hidden
            className="hover-cursor"
            style={{ left: plotLeft(xShare(point.i, steps)), top: TOP_MARGIN, bottom: X_AXIS_HEIGHT }}
          />
          <div
            ref={tipRef}
            className="tooltip plot-tooltip"
            data-testid="plot-tooltip"
            style={{
              left: tooltipLeft(hover.x, tip.width, size.width),
              top: tooltipTop(hover.y, tip.height, size.height),
            }}
          >
            {tooltip(point)}
          </div>
        </>
      )}
    </div>
  );
}

const TIP_GAP = 12;

/**
 * Beside the pointer on the side with more room, and never past either edge of the plot: on a
 * phone the plot is barely wider than the tooltip.
 */
function tooltipLeft(pointer: number, tip: number, plot: number): number {
  const wanted = pointer < plot / 2 ? pointer + TIP_GAP : pointer - TIP_GAP - tip;
  return Math.max(0, Math.min(wanted, plot - tip));
}

/** Below the pointer if the tooltip fits there, else above it, else as high as the plot allows. */
function tooltipTop(pointer: number, tip: number, plot: number): number {
  if (pointer + TIP_GAP + tip <= plot) return pointer + TIP_GAP;
  if (pointer - TIP_GAP - tip >= 0) return pointer - TIP_GAP - tip;
  return Math.max(0, plot - tip);
}

export const WindowChart = memo(function WindowChart({
  timeline,
  regions,
  colors,
  stages,
  onDrawn,
}: {
  timeline: TimelineView;
  regions: string[];
  colors: Map<string, string>;
  stages: StageChange[];
  onDrawn: (timeline: TimelineView) => void;
}) {
  const zoom = useUi((s) => s.zoom);
  // The plot is drawn at the size the observer reports (the marker lane's clusters follow its width).
  const [size, sizeRef] = useSize<HTMLDivElement>();
  const measured = size !== UNMEASURED;
  useEffect(() => {
    if (measured) onDrawn(timeline);
  }, [measured, timeline, onDrawn]);
  const data = useMemo(() => windowPoints(timeline), [timeline]);
  const steps = timeline.steps.count;
  const columns = Math.max(1, (size.width - Y_AXIS_WIDTH - RIGHT_MARGIN) / MARKER_PX);
  const clusters = useMemo(() => markerClusters(timeline, columns), [timeline, columns]);
  const peak = useMemo(() => data.reduce((m, p) => Math.max(m, p.total, p.recorded ?? 0, p.asSent ?? 0), 0), [data]);
  const { window } = timeline.header.model;
  const { top, fit } = axisTop(zoom, peak, window);
  const tooltip = useCallback(
    (point: WindowPoint) => <WindowTooltip point={point} timeline={timeline} regions={regions} colors={colors} />,
    [timeline, regions, colors],
  );
  return (
    <div className="window-chart" data-testid="window-chart" data-fit={fit ? 'yes' : 'no'} data-top={top}>
      <MarkerLane clusters={clusters} steps={steps} />
      <ReadAgainLane items={timeline.header.summary.readAgain.items} steps={steps} columns={columns} />
      <Clickable steps={steps} className="window-plot">
        {fit && <WindowOffScale window={window} top={top} />}
        <PlotBox
          sizeRef={sizeRef}
          size={size}
          data={data}
          pointSteps={timeline.window.steps}
          steps={steps}
          tooltip={tooltip}
        >
          {size.width > 0 && size.height > 0 && (
            <WindowPlot
              size={size}
              data={data}
              regions={regions}
              colors={colors}
              steps={steps}
              top={top}
              window={window}
              stages={stages}
            />
          )}
        </PlotBox>
        <Cursor steps={steps} />
      </Clickable>
      <div className="row chart-legend">
        <span>
          <span className="legend-line window" /> model window
        </span>
        <span>
          <span className="legend-line prefix" /> cache prefix (served from cache)
        </span>
        <ZoomControl />
        {timeline.recorded && (
          <>
            <span>
              <span className="legend-line" style={{ borderTop: `2px solid ${RECORDED_COLOUR}` }} /> as recorded (the
              provider's prompt tokens)
            </span>
            <span>
              <span className="legend-line" style={{ borderTop: `2px dotted ${AS_SENT_COLOUR}` }} /> as sent (the run
              replayed as its harness sent it)
            </span>
          </>
        )}
        <span className="spacer" />
        <MarkerLegend changes={timeline.header.summary.changes} hasStages={stages.length > 0} />
        {timeline.header.summary.readAgain.count > 0 && (
          <span className="read-again-legend" title="An entry the blueprint let go that the run named again later">
            <ReadAgainGlyph size={10} /> read again ×{timeline.header.summary.readAgain.count}
          </span>
        )}
      </div>
    </div>
  );
});

function MarkerLegend({
  changes,
  hasStages,
}: {
  changes: TimelineView['header']['summary']['changes'];
  hasStages: boolean;
}) {
  const kinds = CHANGE_TYPES.filter((t) => changes[t].count > 0);
  return (
    <span className="row marker-legend" data-testid="marker-legend">
      {kinds.map((k) => (
        <span key={k} title={MARKER_LABELS[k]}>
          <MarkerGlyph kind={k} size={10} /> {k} ×{changes[k].count}
        </span>
      ))}
      {hasStages && (
        <span>
          <MarkerGlyph kind="stage" size={10} /> stage
        </span>
      )}
    </span>
  );
}
