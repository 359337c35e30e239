// What every timeline chart shares, drawn with recharts or not: the plot's margins (so a click, the
// scrub cursor and a marker all find the same step), the axis labels, and click to inspect.
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
export function Clickable({ steps, className, children }: { steps: number; className?: string; children: React.ReactNode }) {
  const inspect = (e: React.MouseEvent<HTMLElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    jumpTo(stepAtX(e.clientX - box.left, box.width, steps));
  };
  return <div className={`clickable-chart ${className ?? ''}`} onClick={inspect}>{children}</div>;
}

/** The scrubbed step, as a bar over the chart: scrubbing moves the bar and redraws no chart. */
export function Cursor({ steps }: { steps: number }) {
  const step = useUi((s) => s.step);
  return <div aria-hidden className="scrub-cursor" style={{ left: plotLeft(xShare(Math.min(step, steps - 1), steps)) }} />;
}
