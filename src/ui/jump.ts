// Going to a step from anywhere on the page (a chart, a marker, a ledger cell, the verdict).
import { useUi } from './page.ts';

/** Scrubs to a step and points the inspector at what changed there. */
export function jumpTo(step: number, region?: string): void {
  const ui = useUi.getState();
  ui.setPlaying(false);
  ui.setStep(step);
  ui.setFocusRegion(region || null);
}
