// "Did you mean ...?" for misspelled keys and values.
import { itemAt } from '../item-at.ts';

/** Optimal string alignment distance (Levenshtein plus adjacent transpositions). */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => {
    const row = new Array<number>(cols).fill(0);
    row[0] = i;
    return row;
  });
  const first = itemAt(d, 0);
  for (let j = 0; j < cols; j++) first[j] = j;
  for (let i = 1; i < rows; i++) {
    const row = itemAt(d, i);
    const above = itemAt(d, i - 1);
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(itemAt(above, j) + 1, itemAt(row, j - 1) + 1, itemAt(above, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, itemAt(itemAt(d, i - 2), j - 2) + 1);
      row[j] = best;
    }
  }
  return itemAt(itemAt(d, a.length), b.length);
}

const normalize = (s: string): string => s.toLowerCase().replace(/[-\s]/g, '_');

/** The closest candidate, if it is close enough to be a plausible typo. */
export function closest(input: string, candidates: readonly string[]): string | undefined {
  if (input.length > 64) return undefined;
  const wanted = normalize(input);
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const norm = normalize(candidate);
    if (norm === wanted) return candidate;
    const distance = editDistance(wanted, norm);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  const allowed = Math.max(2, Math.floor(wanted.length / 3));
  if (best !== undefined && bestDistance <= allowed) return best;
  // `sliding` for `sliding_window`, `caller_input` for `caller`: one contains the other.
  const contained = candidates.find((c) => {
    const norm = normalize(c);
    return norm.length >= 3 && wanted.length >= 3 && (wanted.startsWith(norm) || norm.startsWith(wanted));
  });
  return contained;
}

/** ` Did you mean "x"?` or the empty string. */
export function didYouMean(input: string, candidates: readonly string[]): string {
  const match = closest(input, candidates);
  return match === undefined ? '' : ` Did you mean "${match}"?`;
}
