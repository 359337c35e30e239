// Number and text formatting shared by the panels.
import { fmt as fmtInt } from '../engine/page.ts';

export const fmt = (n: number | undefined | null): string =>
  n === undefined || n === null || Number.isNaN(n) ? '–' : fmtInt(Math.round(n));

export const pct = (share: number | undefined | null, digits = 0): string =>
  share === undefined || share === null || Number.isNaN(share) ? '–' : `${(share * 100).toFixed(digits)}%`;

export function firstLine(text: string, max = 90): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** `fileSizes`, `coding-agent`, `max_items` -> "File sizes", "Coding agent", "Max items". */
export function humanize(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[-_]+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A dollar amount of input: four places below a cent, else two (three below a dollar). */
export const usd = (n: number): string => `$${n < 0.01 ? n.toFixed(4) : n < 1 ? n.toFixed(3) : n.toFixed(2)}`;
