// What every timeline chart shares, drawn with recharts or not: the plot's margins (so a click, the
// scrub cursor and a marker all find the same step), the axis labels, and click to inspect.
import { fitsData, type Zoom } from '../share/view.ts';
import { fmt } from './format.ts';
import { jumpTo } from './jump.ts';
import { useUi } from './page.ts';

/** The y axis's width, left of the plot; every chart's x axis starts here. */
export const Y_AXIS_WIDTH = 44;
/** The space right of the plot. */
export const RIGHT_MARGIN = 8;
/** A step's label on an axis: steps count from 1 on the page. */
export const stepTick = (v: number) => String(v + 1);
/** Tokens on an axis: 1.5k for 1,500. */
export const compact = (n: number) => (n >= 1000 ? `${Math.round(n / 100) / 10}k` : String(n));

/** Where step `i` of `steps` sits across the plot, from 0 (the first step) to 1 (the last). */
export function xShare(i: number, steps: number): number {
  return steps > 1 ? i / (steps - 1) : 0;
}

/** The CSS `left` of step share `share` in a box whose plot has the shared margins. */
export function plotLeft(share: number): string {
  return `calc(${Y_AXIS_WIDTH}px + (100% - ${Y_AXIS_WIDTH + RIGHT_MARGIN}px) * ${share})`;
}

/** The step under the pointer, from its x in the chart's box (whose plot has the shared margins). */
export function stepAtX(x: number, boxWidth: number, steps: number): number {
  const share = (x - Y_AXIS_WIDTH) / Math.max(1, boxWidth - Y_AXIS_WIDTH - RIGHT_MARGIN);
  return Math.round(Math.min(1, Math.max(0, share)) * Math.max(0, steps - 1));
}

/** A chart area where a click inspects the step under the pointer. */
export function Clickable({
  steps,
  className,
  children,
}: {
  steps: number;
  className?: string;
  children: React.ReactNode;
}) {
  const inspect = (e: React.MouseEvent<HTMLElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    jumpTo(stepAtX(e.clientX - box.left, box.width, steps));
  };
  return (
    <div className={`clickable-chart ${className ?? ''}`} onClick={inspect}>
      {children}
    </div>
  );
}

/** The scrubbed step, as a bar over the chart: scrubbing moves the bar and redraws no chart. */
export function Cursor({ steps }: { steps: number }) {
  const step = useUi((s) => s.step);
  return (
    <div aria-hidden className="scrub-cursor" style={{ left: plotLeft(xShare(Math.min(step, steps - 1), steps)) }} />
  );
}

/**
 * The top of a chart's token axis: the data's peak (with a tenth of headroom) when the zoom fits
 * it, else the window (or the peak, past it). `fit` says which, for the window-off-scale note.
 */
export function axisTop(zoom: Zoom, peak: number, window: number): { top: number; fit: boolean } {
  const fit = fitsData(zoom, peak, window);
  return { fit, top: fit ? Math.max(1, Math.ceil(peak * 1.1)) : Math.max(window, peak) };
}

const ZOOM_LABELS: Record<Zoom, string> = { auto: 'auto', fit: 'fit the data', window: 'whole window' };

/** The token axis's choice, the same in every view; a choice is kept for every later scenario. */
export function ZoomControl() {
  const zoom = useUi((s) => s.zoom);
  return (
    <label
      className="row zoom-control"
      style={{ gap: 3 }}
      title="auto fits the axis to the data when they use less than half of the window"
    >
      token axis
      <select value={zoom} data-testid="zoom" onChange={(e) => useUi.getState().chooseZoom(e.target.value as Zoom)}>
        {(Object.keys(ZOOM_LABELS) as Zoom[]).map((z) => (
          <option key={z} value={z}>
            {ZOOM_LABELS[z]}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Where the axis fits data far below the window: says how large the window is, since its line is off the scale. */
export function WindowOffScale({ window, top }: { window: number; top: number }) {
  if (window <= top) return null;
  return (
    <span className="window-off-scale" data-testid="window-off-scale">
      ⇡ window {fmt(window)} tokens, {Math.round(window / top)}× this axis
    </span>
  );
}
