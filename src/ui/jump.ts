// Going to a step from anywhere on the page (a chart, a marker, a ledger cell, the verdict).
import type { ChartView } from '../share/view.ts';
import { useUi } from './page.ts';

/** Scrubs to a step and points the inspector at what changed there; `view` switches to the chart that shows it. */
export function jumpTo(step: number, region?: string, view?: ChartView): void {
  const ui = useUi.getState();
  ui.setPlaying(false);
  ui.setStep(step);
  ui.setFocusRegion(region || null);
  if (view) ui.setChartView(view);
}
