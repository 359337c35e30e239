// Strings by chars (Rhai strings are sequences of Unicode scalar values) without splitting them
// into arrays: a string with no astral char is indexed by UTF-16 units directly; one with astral
// chars gets a sparse index (the UTF-16 offset of every 64th char). The run keeps the index of the
// last two strings it indexed, so `s.get(i)` or `s[i]` in a loop over a string costs O(1) each after
// the first, and the first charges the operation budget for the scan.
import { chargeChars } from './cost.ts';
import type { Runtime } from './runtime.ts';

const BLOCK = 64;

export interface CharIndex {
  /** The string's length in chars. */
  readonly chars: number;
  /** The UTF-16 offset where char `i` starts (`chars` gives the string's end). */
  offset(i: number): number;
  /** The char index of the char that starts at (or contains) UTF-16 offset `unit`. */
  charAt(unit: number): number;
}

const isHigh = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

function unitsIndex(length: number): CharIndex {
  return { chars: length, offset: (i) => i, charAt: (unit) => unit };
}

function astralIndex(s: string): CharIndex {
  const starts: number[] = [];
  let chars = 0;
  for (let u = 0; u < s.length; chars++) {
    if (chars % BLOCK === 0) starts.push(u);
    u += isHigh(s.charCodeAt(u)) && isLow(s.charCodeAt(u + 1)) ? 2 : 1;
  }
  const blocks = Uint32Array.from(starts);
  const walk = (from: number, n: number): number => {
    let u = from;
    for (let k = 0; k < n && u < s.length; k++) u += isHigh(s.charCodeAt(u)) && isLow(s.charCodeAt(u + 1)) ? 2 : 1;
    return u;
  };
  return {
    chars,
    offset: (i) => (i >= chars ? s.length : walk(blocks[Math.floor(i / BLOCK)]!, i % BLOCK)),
    charAt: (unit) => {
      let lo = 0;
      let hi = blocks.length - 1;
      while (lo < hi) {
        // the last block starting at or before `unit`
        const mid = (lo + hi + 1) >> 1;
        if (blocks[mid]! <= unit) lo = mid;
        else hi = mid - 1;
      }
      let i = lo * BLOCK;
      for (let u = blocks[lo]!; u < unit; i++) u += isHigh(s.charCodeAt(u)) && isLow(s.charCodeAt(u + 1)) ? 2 : 1;
      return i;
    },
  };
}

/** Strings up to this many UTF-16 units are not worth remembering. */
const SHORT = 256;

/** Does the string hold a surrogate (an astral char)? */
const ASTRAL = /[\ud800-\udfff]/;

/** The char index of `s`: the run's last one when `s` is that string, else made (and charged) now. */
export function textIndex(rt: Runtime, s: string): CharIndex {
  // A short string is indexed afresh (cheaply) and leaves the run's remembered one in place.
  if (s.length <= SHORT) return ASTRAL.test(s) ? astralIndex(s) : unitsIndex(s.length);
  const memo = rt.textMemo;
  for (const m of memo) if (m.text === s) return m.index;
  chargeChars(rt, s.length);
  let index: CharIndex;
  if (ASTRAL.test(s)) {
    // Walking every unit to place the chars (flattening a string built by joining first) costs up
    // to about 70 ns a unit measured under load: eight times the scan rate.
    chargeChars(rt, 7 * s.length);
    index = astralIndex(s);
  } else index = unitsIndex(s.length);
  // The last two strings are remembered: a loop over two strings' chars re-indexes neither.
  if (memo.length === 2) memo.shift();
  memo.push({ text: s, index });
  return index;
}

/** `s`'s length in chars. */
export function charLength(rt: Runtime, s: string): number {
  return s.length <= 1 ? s.length : textIndex(rt, s).chars;
}

/** `count` chars of `s` from char `start` (both already within the string). */
export function charSlice(rt: Runtime, s: string, start: number, count: number): string {
  const index = textIndex(rt, s);
  const from = index.offset(start);
  const to = index.offset(Math.min(index.chars, start + count));
  chargeChars(rt, to - from);
  return s.slice(from, to);
}

/** The char at char index `i` (within the string). */
export function charAtIndex(rt: Runtime, s: string, i: number): string {
  const index = textIndex(rt, s);
  const from = index.offset(i);
  return s.slice(from, index.offset(i + 1));
}
