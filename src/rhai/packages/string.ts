// String functions (src/packages/string_basic.rs, string_more.rs). Strings are char sequences:
// positions and lengths count Unicode scalar values. Changing functions write the new string into
// args[0] (the caller stores it back into the variable) and return ().
import { displayString, toDebugText } from '../format.ts';
import { checkArrayLength, checkString, checkStringLength, type Runtime } from '../runtime.ts';
import { charCount, hasAstral, makeChar, RhaiBlob, RhaiChar, toChars, type RhaiValue } from '../values.ts';
import { blobText } from './blob.ts';
import { intArg, isIntArg, NO_MATCH, spanArgs, startPos, textArg, type Library, type NativeContext, type NativeResult } from './types.ts';

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
function splitAll(rt: Runtime, s: string, sep: string): string[] {
  if (s === '') return [s]; // string_more.rs: an empty string is one empty piece
  if (sep === '') {
    checkArrayLength(rt, charCount(s) + 2);
    return ['', ...toChars(s), ''];
  }
  return checked(rt, s.split(sep));
}

/** The pieces a split produced, against the array size limit. */
function checked(rt: Runtime, pieces: string[]): string[] {
  checkArrayLength(rt, pieces.length);
  return pieces;
}

/** A string's chars as an array of chars, refused before it is built when too long. */
function charArray(rt: Runtime, s: string): RhaiValue[] {
  checkArrayLength(rt, charCount(s));
  return toChars(s).map(makeChar);
}

/** Rust's `splitn`: at most `n` pieces (at least one), the last holding the rest. */
function splitN(rt: Runtime, s: string, sep: string, n: number): string[] {
  const parts = splitAll(rt, s, sep);
  const pieces = Math.max(1, n);
  if (parts.length <= pieces) return parts;
  return [...parts.slice(0, pieces - 1), parts.slice(pieces - 1).join(sep)];
}

/** Rust's `rsplitn`: pieces from the end, the last holding what is left at the front. */
function splitRevN(rt: Runtime, s: string, sep: string, n: number): string[] {
  const parts = splitAll(rt, s, sep).reverse();
  const pieces = Math.max(1, n);
  if (parts.length <= pieces) return parts;
  return [...parts.slice(0, pieces - 1), parts.slice(pieces - 1).reverse().join(sep)];
}

/** Rust's `char::is_whitespace` (Unicode White_Space; JS's `\s` also takes U+FEFF and lacks U+0085). */
const RUST_WHITESPACE = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/;

/** `split()` (string_more.rs split_whitespace): the words between runs of whitespace; "" is [""]. */
function splitWhitespace(rt: Runtime, s: string): string[] {
  if (s === '') return [s];
  const words = s.split(RUST_WHITESPACE);
  if (words[0] === '') words.shift();
  if (words[words.length - 1] === '') words.pop();
  return checked(rt, words);
}

const str = (f: (s: string, rest: RhaiValue[], args: RhaiValue[], ctx: NativeContext) => NativeResult) =>
  (args: RhaiValue[], ctx: NativeContext): NativeResult => (typeof args[0] === 'string' ? f(args[0], args.slice(1), args, ctx) : NO_MATCH);

/** A char index counting from the end when negative; undefined when out of bounds. */
function charIndex(n: number, len: number): number | undefined {
  const i = n < 0 ? len + n : n;
  return i >= 0 && i < len ? i : undefined;
}

function caseMapped(v: RhaiValue, upper: boolean): RhaiValue {
  if (typeof v === 'string') return upper ? v.toUpperCase() : v.toLowerCase();
  const c = (v as RhaiChar).c;
  const mapped = upper ? c.toUpperCase() : c.toLowerCase();
  // A char whose case mapping is several chars ('ß' -> "SS") stays as it is, as in Rhai.
  return makeChar(charCount(mapped) === 1 ? mapped : c);
}

export const stringLib: Library = {
  len: str((s) => charCount(s)),
  bytes: str((s) => new TextEncoder().encode(s).length),
  is_empty: str((s) => s.length === 0),
  to_upper: (args) => caseMapped(args[0], true),
  to_lower: (args) => caseMapped(args[0], false),
  make_upper: (args) => { args[0] = caseMapped(args[0], true); return undefined; },
  make_lower: (args) => { args[0] = caseMapped(args[0], false); return undefined; },
  trim: str((s, _r, args) => { args[0] = s.trim(); return undefined; }),
  contains: str((s, [x]) => s.includes(textArg(x)!)),
  starts_with: str((s, [x]) => s.startsWith(textArg(x)!)),
  ends_with: str((s, [x]) => s.endsWith(textArg(x)!)),
  index_of: str((s, [find, from]) => {
    const len = charCount(s);
    if (from === undefined) return indexOfChars(s, textArg(find)!, 0);
    const n = intArg(from as number | bigint);
    if (n >= len) return -1;
    return indexOfChars(s, textArg(find)!, startPos(n, len));
  }),
  sub_string: str((s, rest) => {
    const { start, count } = spanArgs(charCount(s), rest);
    return subChars(s, start, count);
  }),
  crop: str((s, rest, args) => {
    const { start, count } = spanArgs(charCount(s), rest);
    args[0] = subChars(s, start, count);
    return undefined;
  }),
  chars: str((s, rest, _args, ctx) => {
    if (rest.length === 0) return charArray(ctx.runtime, s);
    const { start, count } = spanArgs(charCount(s), rest);
    return charArray(ctx.runtime, subChars(s, start, count));
  }),
  split: str((s, rest, _args, ctx) => {
    if (rest.length === 0) return splitWhitespace(ctx.runtime, s);
    const [sep, n] = rest;
    if (isIntArg(sep)) {
      const len = charCount(s);
      const at = startPos(intArg(sep), len);
      return [subChars(s, 0, at), subChars(s, at, len - at)];
    }
    const text = textArg(sep)!;
    return n === undefined ? splitAll(ctx.runtime, s, text) : splitN(ctx.runtime, s, text, intArg(n as number | bigint));
  }),
  split_rev: str((s, [sep, n], _args, ctx) => splitRevN(ctx.runtime, s, textArg(sep)!, n === undefined ? Infinity : intArg(n as number | bigint))),
  replace: str((s, [find, sub], args, ctx) => {
    const f = textArg(find)!;
    const r = textArg(sub)!;
    // Rust's `str::replace` with an empty pattern inserts at every char boundary, ends included.
    const count = f === '' ? charCount(s) + 1 : s.split(f).length - 1;
    checkStringLength(ctx.runtime, charCount(s) + count * (charCount(r) - charCount(f)));
    args[0] = f === '' ? r + toChars(s).join(r) + r : s.split(f).join(r);
    return undefined;
  }),
  remove: str((s, [x], args) => {
    args[0] = s.split(textArg(x)!).join('');
    return undefined;
  }),
  pad: str((s, [n, x], args, ctx) => {
    const fill = textArg(x)!;
    const target = intArg(n as number | bigint);
    // Refuse before building: padding to a huge length would exhaust memory before any check ran.
    checkStringLength(ctx.runtime, target);
    const len = charCount(s);
    const fillLen = charCount(fill);
    if (fillLen === 0 || len >= target) return undefined;
    const whole = Math.floor((target - len) / fillLen);
    const rest = target - len - whole * fillLen;
    args[0] = s + fill.repeat(whole) + subChars(fill, 0, rest);
    return undefined;
  }),
  truncate: str((s, [n], args) => {
    args[0] = subChars(s, 0, Math.max(0, intArg(n as number | bigint)));
    return undefined;
  }),
  pop: str((s, [n], args) => {
    const chars = toChars(s);
    if (n === undefined) {
      if (chars.length === 0) return undefined;
      const last = chars.pop()!;
      args[0] = chars.join('');
      return makeChar(last);
    }
    const count = Math.min(chars.length, Math.max(0, intArg(n as number | bigint)));
    args[0] = chars.slice(0, chars.length - count).join('');
    return chars.slice(chars.length - count).join('');
  }),
  append: str((s, [x], args, ctx) => {
    const added = x instanceof RhaiBlob ? blobText(x.bytes) : displayString(x); // a BLOB as UTF-8 text
    checkStringLength(ctx.runtime, charCount(s) + charCount(added));
    args[0] = s + added;
    return undefined;
  }),
  clear: str((_s, _r, args) => { args[0] = ''; return undefined; }),
  to_chars: str((s, _rest, _args, ctx) => charArray(ctx.runtime, s)),
  get: str((s, [i]) => {
    const chars = toChars(s);
    const at = charIndex(intArg(i as number | bigint), chars.length);
    return at === undefined ? undefined : makeChar(chars[at]!);
  }),
  set: str((s, [i, c], args) => {
    const chars = toChars(s);
    const at = charIndex(intArg(i as number | bigint), chars.length);
    if (at !== undefined) { chars[at] = (c as RhaiChar).c; args[0] = chars.join(''); }
    return undefined;
  }),
  to_string: (args, ctx) => checkString(ctx.runtime, displayString(args[0])),
  to_debug: (args, ctx) => checkString(ctx.runtime, toDebugText(args[0])),
};
