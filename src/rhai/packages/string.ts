// String functions (src/packages/string_basic.rs, string_more.rs). Strings are char sequences:
// positions and lengths count Unicode scalar values. Changing functions write the new string into
// args[0] (the caller stores it back into the variable) and return ().
import { displayString, toDebugText } from '../format.ts';
import { dataTooLarge } from '../errors.ts';
import { checkString, RT } from '../runtime.ts';
import { charCount, hasAstral, makeChar, toChars, type RhaiValue } from '../values.ts';
import { intArg, isIntArg, NO_MATCH, startPos, textArg, type Library, type NativeResult } from './types.ts';

// Char index -> UTF-16 offset helpers, with a fast path for strings without astral chars.
function subChars(s: string, start: number, count: number): string {
  if (!hasAstral(s)) return s.substr(start, count);
  return Array.from(s).slice(start, start + count).join('');
}

function indexOfChars(s: string, find: string, startChar: number): number {
  if (!hasAstral(s)) return s.indexOf(find, startChar);
  const chars = Array.from(s);
  const offset = chars.slice(0, startChar).join('').length;
  const at = s.indexOf(find, offset);
  return at < 0 ? -1 : charCount(s.slice(0, at));
}

/** Rust's `str::split`: an empty separator also yields an empty piece at each end. */
function splitAll(s: string, sep: string): string[] {
  return sep === '' ? ['', ...toChars(s), ''] : s.split(sep);
}

function splitN(s: string, sep: string, n: number): string[] {
  if (n <= 0) return [];
  const parts = splitAll(s, sep);
  if (parts.length <= n) return parts;
  return [...parts.slice(0, n - 1), parts.slice(n - 1).join(sep)];
}

/** Rust's `split(char::is_whitespace)` keeps empty pieces between adjacent spaces. */
const splitWhitespace = (s: string): string[] => s.split(/\s/);

const str = (f: (s: string, rest: RhaiValue[], args: RhaiValue[]) => NativeResult) =>
  (args: RhaiValue[]): NativeResult => (typeof args[0] === 'string' ? f(args[0], args.slice(1), args) : NO_MATCH);

export const stringLib: Library = {
  len: str((s, rest) => (rest.length === 0 ? charCount(s) : NO_MATCH)),
  bytes: str((s, rest) => (rest.length === 0 ? new TextEncoder().encode(s).length : NO_MATCH)),
  is_empty: str((s, rest) => (rest.length === 0 ? s.length === 0 : NO_MATCH)),
  to_upper: (args) => {
    const [s] = args;
    if (typeof s === 'string') return s.toUpperCase();
    const c = textArg(s);
    return c !== undefined && args.length === 1 ? makeChar(c.toUpperCase().length === c.length ? c.toUpperCase() : c) : NO_MATCH;
  },
  to_lower: (args) => {
    const [s] = args;
    if (typeof s === 'string') return s.toLowerCase();
    const c = textArg(s);
    return c !== undefined && args.length === 1 ? makeChar(c.toLowerCase().length === c.length ? c.toLowerCase() : c) : NO_MATCH;
  },
  make_upper: str((s, _r, args) => { args[0] = s.toUpperCase(); return undefined; }),
  make_lower: str((s, _r, args) => { args[0] = s.toLowerCase(); return undefined; }),
  trim: str((s, _r, args) => { args[0] = s.trim(); return undefined; }),
  trim_start: str((s, _r, args) => { args[0] = s.trimStart(); return undefined; }),
  trim_end: str((s, _r, args) => { args[0] = s.trimEnd(); return undefined; }),
  contains: str((s, [x]) => { const t = textArg(x); return t === undefined ? NO_MATCH : s.includes(t); }),
  starts_with: str((s, [x]) => { const t = textArg(x); return t === undefined ? NO_MATCH : s.startsWith(t); }),
  ends_with: str((s, [x]) => { const t = textArg(x); return t === undefined ? NO_MATCH : s.endsWith(t); }),
  index_of: str((s, rest) => {
    const t = textArg(rest[0]);
    if (t === undefined || rest.length > 2) return NO_MATCH;
    let start = 0;
    if (rest.length === 2) {
      if (!isIntArg(rest[1])) return NO_MATCH;
      start = startPos(intArg(rest[1]), charCount(s));
    }
    return indexOfChars(s, t, start);
  }),
  sub_string: str((s, rest) => {
    const len = charCount(s);
    if (rest.length === 0 || !isIntArg(rest[0])) return NO_MATCH;
    const start = startPos(intArg(rest[0]), len);
    if (rest.length === 1) return subChars(s, start, len - start);
    if (!isIntArg(rest[1])) return NO_MATCH;
    const count = intArg(rest[1]);
    return count <= 0 ? '' : subChars(s, start, count);
  }),
  split: str((s, rest) => {
    if (rest.length === 0) return splitWhitespace(s);
    if (isIntArg(rest[0]) && rest.length === 1) {
      const len = charCount(s);
      const at = startPos(intArg(rest[0]), len);
      return [subChars(s, 0, at), subChars(s, at, len - at)];
    }
    const sep = textArg(rest[0]);
    if (sep === undefined) return NO_MATCH;
    if (rest.length === 2) return isIntArg(rest[1]) ? splitN(s, sep, intArg(rest[1])) : NO_MATCH;
    return splitAll(s, sep);
  }),
  split_rev: str((s, rest) => {
    const sep = textArg(rest[0]);
    if (sep === undefined || rest.length !== 1) return NO_MATCH;
    return s.split(sep).reverse();
  }),
  replace: str((s, [find, sub], args) => {
    const f = textArg(find);
    const r = textArg(sub);
    if (f === undefined || r === undefined) return NO_MATCH;
    // Rust's `str::replace` with an empty pattern inserts at every char boundary, ends included.
    args[0] = checkString(f === '' ? r + toChars(s).join(r) + r : s.split(f).join(r));
    return undefined;
  }),
  remove: str((s, [x], args) => {
    const t = textArg(x);
    if (t === undefined) return NO_MATCH;
    args[0] = s.split(t).join('');
    return undefined;
  }),
  pad: str((s, [n, x], args) => {
    const fill = textArg(x);
    if (!isIntArg(n) || fill === undefined) return NO_MATCH;
    const target = intArg(n);
    // Refuse before building: padding to a huge length would exhaust memory before any check ran.
    if (target > RT.maxString) throw dataTooLarge('Length of string');
    const len = charCount(s);
    const fillLen = charCount(fill);
    if (fillLen === 0 || len >= target) return undefined;
    const whole = Math.floor((target - len) / fillLen);
    const rest = target - len - whole * fillLen;
    args[0] = checkString(s + fill.repeat(whole) + subChars(fill, 0, rest));
    return undefined;
  }),
  truncate: str((s, [n], args) => {
    if (!isIntArg(n)) return NO_MATCH;
    args[0] = subChars(s, 0, Math.max(0, intArg(n)));
    return undefined;
  }),
  crop: str((s, rest, args) => {
    if (!isIntArg(rest[0])) return NO_MATCH;
    const len = charCount(s);
    const start = startPos(intArg(rest[0]), len);
    if (rest.length === 1) { args[0] = subChars(s, start, len - start); return undefined; }
    if (!isIntArg(rest[1])) return NO_MATCH;
    args[0] = subChars(s, start, Math.max(0, intArg(rest[1])));
    return undefined;
  }),
  append: str((s, [x], args) => {
    if (x === undefined && args.length < 2) return NO_MATCH;
    args[0] = checkString(s + displayString(x));
    return undefined;
  }),
  clear: str((_s, rest, args) => { if (rest.length) return NO_MATCH; args[0] = ''; return undefined; }),
  to_chars: str((s, rest) => (rest.length === 0 ? toChars(s).map(makeChar) : NO_MATCH)),
  chars: str((s, rest) => (rest.length === 0 ? toChars(s).map(makeChar) : NO_MATCH)),
  get: str((s, [i]) => {
    if (!isIntArg(i)) return NO_MATCH;
    const chars = toChars(s);
    let n = intArg(i);
    if (n < 0) n += chars.length;
    return n >= 0 && n < chars.length ? makeChar(chars[n]!) : undefined;
  }),
  reverse: str((s, rest, args) => { if (rest.length) return NO_MATCH; args[0] = toChars(s).reverse().join(''); return undefined; }),
  to_string: (args) => (args.length === 1 ? displayString(args[0]) : NO_MATCH),
  to_debug: (args) => (args.length === 1 ? toDebugText(args[0]) : NO_MATCH),
};
