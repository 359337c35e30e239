// String functions (src/packages/string_basic.rs, string_more.rs). Strings are char sequences:
// positions and lengths count Unicode scalar values (text.ts indexes them without splitting the
// string). Each function charges the operation budget for the text it touches (cost.ts) and
// refuses a result too large before building it. Changing functions write the new string into
// args[0] (the caller stores it back into the variable) and return ().
import { chargeChars, chargeNewItems } from '../cost.ts';
import { chargeFormatting, displayString, toDebugText } from '../format.ts';
import { checkArrayLength, checkString, checkStringLength, type Runtime } from '../runtime.ts';
import { charAtIndex, charLength, charSlice, textIndex } from '../text.ts';
import { makeChar, RhaiBlob, RhaiChar, toChars, type RhaiValue } from '../values.ts';
import { blobText } from './blob.ts';
import {
  intArg,
  isIntArg,
  NO_MATCH,
  spanArgs,
  startPos,
  textArg,
  type Library,
  type NativeContext,
  type NativeResult,
} from './types.ts';

/** The char index of the first `find` at or after char `startChar`, or -1. */
function indexOfChars(rt: Runtime, s: string, find: string, startChar: number): number {
  const index = textIndex(rt, s);
  chargeChars(rt, s.length);
  const at = s.indexOf(find, index.offset(startChar));
  return at < 0 ? -1 : index.charAt(at);
}

/** Rust's `str::split`: an empty separator also yields an empty piece at each end. */
function splitAll(rt: Runtime, s: string, sep: string): string[] {
  if (s === '') return [s]; // string_more.rs: an empty string is one empty piece
  if (sep === '') {
    checkArrayLength(rt, charLength(rt, s) + 2);
    chargeNewItems(rt, s.length);
    return ['', ...toChars(s), ''];
  }
  chargeChars(rt, s.length);
  return checked(rt, s.split(sep));
}

/** The pieces a split produced, against the array size limit (and charged as new values). */
function checked(rt: Runtime, pieces: string[]): string[] {
  checkArrayLength(rt, pieces.length);
  chargeNewItems(rt, pieces.length);
  return pieces;
}

/** A string's chars as an array of chars, refused before it is built when too long. */
function charArray(rt: Runtime, s: string): RhaiValue[] {
  checkArrayLength(rt, charLength(rt, s));
  chargeNewItems(rt, s.length);
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
  return [
    ...parts.slice(0, pieces - 1),
    parts
      .slice(pieces - 1)
      .reverse()
      .join(sep),
  ];
}

/** Rust's `char::is_whitespace` (Unicode White_Space; JS's `\s` also takes U+FEFF and lacks U+0085). */
const RUST_WHITESPACE = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/;

/** `split()` (string_more.rs split_whitespace): the words between runs of whitespace; "" is [""]. */
function splitWhitespace(rt: Runtime, s: string): string[] {
  if (s === '') return [s];
  chargeChars(rt, s.length);
  const words = s.split(RUST_WHITESPACE);
  if (words[0] === '') words.shift();
  if (words[words.length - 1] === '') words.pop();
  return checked(rt, words);
}

const str =
  (f: (s: string, rest: RhaiValue[], args: RhaiValue[], ctx: NativeContext) => NativeResult) =>
  (args: RhaiValue[], ctx: NativeContext): NativeResult =>
    typeof args[0] === 'string' ? f(args[0], args.slice(1), args, ctx) : NO_MATCH;

/** A char index counting from the end when negative; undefined when out of bounds. */
function charIndex(n: number, len: number): number | undefined {
  const i = n < 0 ? len + n : n;
  return i >= 0 && i < len ? i : undefined;
}

function caseMapped(rt: Runtime, v: RhaiValue, upper: boolean): RhaiValue {
  if (typeof v === 'string') {
    chargeChars(rt, v.length);
    // A few chars grow when their case changes ('ß' -> "SS"): the result is checked, not assumed.
    return checkString(rt, upper ? v.toUpperCase() : v.toLowerCase());
  }
  const c = (v as RhaiChar).c;
  const mapped = upper ? c.toUpperCase() : c.toLowerCase();
  // A char whose case mapping is several chars ('ß' -> "SS") stays as it is, as in Rhai.
  return makeChar(mapped.length <= 2 && [...mapped].length === 1 ? mapped : c);
}

/** The UTF-8 length of a string, counted without encoding it. */
function utf8Length(s: string): number {
  let bytes = 0;
  for (let i = 0; i < s.length; i++) {
    const code = s.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 4;
      i++;
    } // a surrogate pair: one 4-byte char
    else bytes += 3;
  }
  return bytes;
}

/** How many times `find` (not empty) occurs in `s`, without building anything. */
function occurrences(s: string, find: string): number {
  let n = 0;
  for (let at = s.indexOf(find); at >= 0; at = s.indexOf(find, at + find.length)) n++;
  return n;
}

export const stringLib: Library = {
  len: str((s, _r, _a, ctx) => charLength(ctx.runtime, s)),
  bytes: str((s, _r, _a, ctx) => {
    chargeChars(ctx.runtime, s.length);
    return utf8Length(s);
  }),
  is_empty: str((s) => s.length === 0),
  to_upper: (args, ctx) => caseMapped(ctx.runtime, args[0], true),
  to_lower: (args, ctx) => caseMapped(ctx.runtime, args[0], false),
  make_upper: (args, ctx) => {
    args[0] = caseMapped(ctx.runtime, args[0], true);
    return undefined;
  },
  make_lower: (args, ctx) => {
    args[0] = caseMapped(ctx.runtime, args[0], false);
    return undefined;
  },
  trim: str((s, _r, args, ctx) => {
    chargeChars(ctx.runtime, s.length);
    args[0] = s.trim();
    return undefined;
  }),
  contains: str((s, [x], _a, ctx) => {
    chargeChars(ctx.runtime, s.length);
    return s.includes(textArg(x)!);
  }),
  starts_with: str((s, [x], _a, ctx) => {
    const f = textArg(x)!;
    chargeChars(ctx.runtime, f.length);
    return s.startsWith(f);
  }),
  ends_with: str((s, [x], _a, ctx) => {
    const f = textArg(x)!;
    chargeChars(ctx.runtime, f.length);
    return s.endsWith(f);
  }),
  index_of: str((s, [find, from], _a, ctx) => {
    const rt = ctx.runtime;
    if (from === undefined) return indexOfChars(rt, s, textArg(find)!, 0);
    const len = charLength(rt, s);
    const n = intArg(from as number | bigint);
    if (n >= len) return -1;
    return indexOfChars(rt, s, textArg(find)!, startPos(n, len));
  }),
  sub_string: str((s, rest, _a, ctx) => {
    const { start, count } = spanArgs(charLength(ctx.runtime, s), rest);
    return charSlice(ctx.runtime, s, start, count);
  }),
  crop: str((s, rest, args, ctx) => {
    const { start, count } = spanArgs(charLength(ctx.runtime, s), rest);
    args[0] = charSlice(ctx.runtime, s, start, count);
    return undefined;
  }),
  chars: str((s, rest, _args, ctx) => {
    if (rest.length === 0) return charArray(ctx.runtime, s);
    const { start, count } = spanArgs(charLength(ctx.runtime, s), rest);
    return charArray(ctx.runtime, charSlice(ctx.runtime, s, start, count));
  }),
  split: str((s, rest, _args, ctx) => {
    const rt = ctx.runtime;
    if (rest.length === 0) return splitWhitespace(rt, s);
    const [sep, n] = rest;
    if (isIntArg(sep)) {
      const len = charLength(rt, s);
      const at = startPos(intArg(sep), len);
      return [charSlice(rt, s, 0, at), charSlice(rt, s, at, len - at)];
    }
    const text = textArg(sep)!;
    return n === undefined ? splitAll(rt, s, text) : splitN(rt, s, text, intArg(n as number | bigint));
  }),
  split_rev: str((s, [sep, n], _args, ctx) =>
    splitRevN(ctx.runtime, s, textArg(sep)!, n === undefined ? Infinity : intArg(n as number | bigint)),
  ),
  replace: str((s, [find, sub], args, ctx) => {
    const rt = ctx.runtime;
    const f = textArg(find)!;
    const r = textArg(sub)!;
    chargeChars(rt, s.length);
    // Rust's `str::replace` with an empty pattern inserts at every char boundary, ends included.
    const count = f === '' ? charLength(rt, s) + 1 : occurrences(s, f);
    if (count === 0) return undefined;
    // Refused before it is built.
    checkStringLength(rt, charLength(rt, s) + count * (charLength(rt, r) - charLength(rt, f)));
    chargeChars(rt, s.length + count * r.length);
    args[0] = checkString(rt, f === '' ? r + toChars(s).join(r) + r : s.split(f).join(r));
    return undefined;
  }),
  remove: str((s, [x], args, ctx) => {
    chargeChars(ctx.runtime, s.length);
    args[0] = s.split(textArg(x)!).join('');
    return undefined;
  }),
  pad: str((s, [n, x], args, ctx) => {
    const rt = ctx.runtime;
    const fill = textArg(x)!;
    const target = intArg(n as number | bigint);
    // Refuse before building: padding to a huge length would exhaust memory before any check ran.
    checkStringLength(rt, target);
    const len = charLength(rt, s);
    const fillLen = charLength(rt, fill);
    if (fillLen === 0 || len >= target) return undefined;
    chargeChars(rt, target);
    const whole = Math.floor((target - len) / fillLen);
    const rest = target - len - whole * fillLen;
    args[0] = s + fill.repeat(whole) + charSlice(rt, fill, 0, rest);
    return undefined;
  }),
  truncate: str((s, [n], args, ctx) => {
    const len = charLength(ctx.runtime, s);
    args[0] = charSlice(ctx.runtime, s, 0, Math.min(len, Math.max(0, intArg(n as number | bigint))));
    return undefined;
  }),
  pop: str((s, [n], args, ctx) => {
    const rt = ctx.runtime;
    const len = charLength(rt, s);
    if (n === undefined) {
      if (len === 0) return undefined;
      const last = charAtIndex(rt, s, len - 1);
      args[0] = s.slice(0, s.length - last.length);
      return makeChar(last);
    }
    const count = Math.min(len, Math.max(0, intArg(n as number | bigint)));
    args[0] = charSlice(rt, s, 0, len - count);
    return charSlice(rt, s, len - count, count);
  }),
  append: str((s, [x], args, ctx) => {
    const rt = ctx.runtime;
    const added = x instanceof RhaiBlob ? blobText(x.bytes) : displayString(x); // a BLOB as UTF-8 text
    checkStringLength(rt, charLength(rt, s) + charLength(rt, added));
    chargeChars(rt, added.length);
    args[0] = s + added;
    return undefined;
  }),
  clear: str((_s, _r, args) => {
    args[0] = '';
    return undefined;
  }),
  to_chars: str((s, _rest, _args, ctx) => charArray(ctx.runtime, s)),
  get: str((s, [i], _a, ctx) => {
    const len = charLength(ctx.runtime, s);
    const at = charIndex(intArg(i as number | bigint), len);
    return at === undefined ? undefined : makeChar(charAtIndex(ctx.runtime, s, at));
  }),
  set: str((s, [i, c], args, ctx) => {
    const rt = ctx.runtime;
    const len = charLength(rt, s);
    const at = charIndex(intArg(i as number | bigint), len);
    if (at === undefined) return undefined;
    const index = textIndex(rt, s);
    chargeChars(rt, s.length);
    args[0] = s.slice(0, index.offset(at)) + (c as RhaiChar).c + s.slice(index.offset(at + 1));
    return undefined;
  }),
  to_string: (args, ctx) => {
    chargeFormatting(ctx.runtime, args[0]);
    return checkString(ctx.runtime, displayString(args[0]));
  },
  to_debug: (args, ctx) => {
    chargeFormatting(ctx.runtime, args[0]);
    return checkString(ctx.runtime, toDebugText(args[0]));
  },
};
