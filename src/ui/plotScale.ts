// Scales and axis ticks for the chart drawn as plain SVG (the window chart): both axes are linear
// and start at zero, so a scale is its domain's end mapped onto a pixel range.
import { lowerBound, itemAt } from '../engine/page.ts';

/** A linear map from [0, end] onto [from, to] (pixels; `to` may be less than `from`). */
export function linearScale(end: number, from: number, to: number): (value: number) => number {
  const span = end > 0 ? end : 1;
  return (value) => from + ((to - from) * value) / span;
}

// Round tick spacings, as a multiple of a power of ten (the spacings recharts' axes use).
const ROUND_STEPS = [1, 2, 2.5, 5, 10];

/**
 * Ticks from 0 up to `end` at a round spacing, at most `count` of them; whole numbers only when
 * `whole` (steps). The spacing is the smallest round one that fits the range in `count` ticks.
 */
export function niceTicks(rangeEnd: number, count: number, whole = false): number[] {
  // Whole ticks never pass the last whole number: an end a hair past 4 is 4 (else its spacing was 5).
  const end = whole ? Math.floor(rangeEnd) : rangeEnd;
  if (!(end > 0) || count < 2) return [0];
  const wanted = end / (count - 1);
  const power = 10 ** Math.floor(Math.log10(wanted));
  let spacing = 10 * power;
  for (const m of ROUND_STEPS) {
    const candidate = m * power;
    if (candidate >= wanted && (!whole || Number.isInteger(candidate))) {
      spacing = candidate;
      break;
    }
  }
  if (whole) spacing = Math.max(1, Math.ceil(spacing));
  const ticks: number[] = [];
  for (let k = 0; k * spacing <= end + spacing * 1e-9; k++) ticks.push(Number((k * spacing).toPrecision(12)));
  return ticks;
}

/**
 * The step axis's ticks over steps 0..`last`: round steps, and the last step too when the round
 * ticks stop more than half a spacing short of it (so the axis always shows how long the run is).
 */
export function stepTicks(last: number, count: number): number[] {
  const ticks = niceTicks(last, count, true);
  const spacing = ticks.length > 1 ? itemAt(ticks, 1) : 1;
  const end = itemAt(ticks, ticks.length - 1);
  if (last - end > spacing / 2) ticks.push(last);
  return ticks;
}

/** The index of the point whose step is nearest `step`, in points sorted by step. */
export function nearestPoint(steps: ArrayLike<number>, step: number): number {
  if (steps.length === 0) return -1;
  const after = Math.min(lowerBound(steps, step), steps.length - 1);
  return after > 0 && step - itemAt(steps, after - 1) <= itemAt(steps, after) - step ? after - 1 : after;
}
