// Lookups in ascending columns (steps, change rows, inference steps), shared by the worker's run
// view, the page's charts and read-again's namings.
import { itemAt } from './item-at.ts';

/** The index of the first value at or above `value` in an ascending column (its length if none). */
export function lowerBound(sorted: ArrayLike<number>, value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (itemAt(sorted, mid) < value) low = mid + 1;
    else high = mid;
  }
  return low;
}
