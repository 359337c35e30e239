// BLOBs (src/packages/blob_basic.rs, and to_blob in string_more.rs): byte arrays. Positions follow
// Rhai's calc_offset_len (a negative start counts from the end, anything past the end is nothing)
// and a value stored as a byte keeps its low 8 bits. Changing functions work in place on args[0].
import { chargeChars, chargeItems, chargeNewItems } from '../cost.ts';
import { checkArrayLength, checkString, type Runtime } from '../runtime.ts';
import { normInt, RhaiBlob, RhaiChar, RhaiFloat, RhaiRange, type RhaiValue } from '../values.ts';
import { intArg, isIntArg, NO_MATCH, type Library, type NativeContext, type NativeResult } from './types.ts';

const INT_BYTES = 8;
const FLOAT_BYTES = 8;

/** An INT's low 8 bits (`value & 0xff` on an i64). */
export function byteOf(v: number | bigint): number {
  return typeof v === 'number' && Number.isSafeInteger(v)
    ? ((v % 256) + 256) % 256
    : Number(BigInt.asUintN(8, BigInt(v)));
}

/** Rhai's calc_offset_len: a start and a length inside `length` items. */
export function offsetLen(length: number, start: number, len: number): [number, number] {
  let s: number;
  if (start < 0) s = length - Math.min(-start, length);
  else if (start >= length) return [length, 0];
  else s = start;
  return [s, len <= 0 ? 0 : Math.min(len, length - s)];
}

/** Rhai's calc_index counting a negative index from the end: the position, or undefined when outside. */
export function byteIndex(length: number, index: number): number | undefined {
  if (length === 0) return undefined;
  if (index < 0) return -index <= length ? length + index : undefined;
  return index < length ? index : undefined;
}

/** The `(start, len)` a range argument stands for in blob_basic.rs's `*_range` overloads. */
function rangeArgs(r: RhaiRange): [number, number] {
  const start = Math.max(Number(r.start), 0);
  if (!r.inclusive) return [start, Math.max(Number(r.end), start) - start];
  const end = Math.min(Math.max(Number(r.end), start), Number.MAX_SAFE_INTEGER - 1);
  return [start, end - start + 1];
}

/** `(start, len, ...rest)` or `(range, ...rest)` after the blob: the start, the length and what follows. */
function spanOf(rest: RhaiValue[]): { start: number; len: number; tail: RhaiValue[] } | undefined {
  const [a, b] = rest;
  if (a instanceof RhaiRange) {
    const [start, len] = rangeArgs(a);
    return { start, len, tail: rest.slice(1) };
  }
  if (isIntArg(a) && isIntArg(b)) return { start: intArg(a), len: intArg(b), tail: rest.slice(2) };
  return undefined;
}

function checkBlobSize(rt: Runtime, length: number): void {
  checkArrayLength(rt, length);
}

const blob =
  (f: (b: number[], rest: RhaiValue[], args: RhaiValue[], ctx: NativeContext) => NativeResult) =>
  (args: RhaiValue[], ctx: NativeContext): NativeResult =>
    args[0] instanceof RhaiBlob ? f(args[0].bytes, args.slice(1), args, ctx) : NO_MATCH;

const utf8 = new TextEncoder();
const lossy = new TextDecoder('utf-8');

/** A blob's bytes as text, invalid UTF-8 replaced by U+FFFD (Rust's String::from_utf8_lossy). */
export function blobText(bytes: number[]): string {
  return lossy.decode(Uint8Array.from(bytes));
}

export function textBytes(text: string): number[] {
  return Array.from(utf8.encode(text));
}

/** parse_le_int / parse_be_int: up to 8 bytes from `start` into an i64 (missing bytes are 0). */
function parseInt64(bytes: number[], start: number, len: number, littleEndian: boolean): RhaiValue {
  if (bytes.length === 0 || len <= 0) return 0;
  const [s, l] = offsetLen(bytes.length, start, len);
  if (l === 0) return 0;
  const buf = new DataView(new ArrayBuffer(INT_BYTES));
  for (let i = 0; i < Math.min(l, INT_BYTES); i++) buf.setUint8(i, bytes[s + i]!);
  return normInt(buf.getBigInt64(0, littleEndian));
}

function parseFloat64(bytes: number[], start: number, len: number, littleEndian: boolean): RhaiValue {
  if (bytes.length === 0 || len <= 0) return new RhaiFloat(0);
  const [s, l] = offsetLen(bytes.length, start, len);
  if (l === 0) return new RhaiFloat(0);
  const buf = new DataView(new ArrayBuffer(FLOAT_BYTES));
  for (let i = 0; i < Math.min(l, FLOAT_BYTES); i++) buf.setUint8(i, bytes[s + i]!);
  return new RhaiFloat(buf.getFloat64(0, littleEndian));
}

/** write_le / write_be: the first `len` (at most 8) bytes of the value's little- or big-endian form. */
function writeNumber(
  bytes: number[],
  start: number,
  len: number,
  value: RhaiValue,
  littleEndian: boolean,
): NativeResult {
  const buf = new DataView(new ArrayBuffer(8));
  if (isIntArg(value)) buf.setBigInt64(0, BigInt(value), littleEndian);
  else if (value instanceof RhaiFloat) buf.setFloat64(0, value.v, littleEndian);
  else return NO_MATCH;
  if (bytes.length === 0 || len <= 0) return undefined;
  const [s, l] = offsetLen(bytes.length, start, len);
  for (let i = 0; i < Math.min(l, 8); i++) bytes[s + i] = buf.getUint8(i);
  return undefined;
}

/** write_utf8 / write_ascii: the text's bytes (or only its ASCII chars) from `start`, at most `len`. */
function writeText(bytes: number[], start: number, len: number, text: string, asciiOnly: boolean): void {
  if (len <= 0 || bytes.length === 0 || text === '') return;
  const [s, l] = offsetLen(bytes.length, start, len);
  if (l === 0) return;
  const encoded = utf8.encode(text);
  const n = Math.min(l, encoded.length);
  if (asciiOnly) {
    let i = 0;
    for (const ch of text) {
      if (i >= n) break;
      const code = ch.codePointAt(0)!;
      if (code < 128) bytes[s + i++] = code;
    }
  } else for (let i = 0; i < n; i++) bytes[s + i] = encoded[i]!;
}

/** extract / drain / retain by `(start[, len])` or a range: the span, or undefined for other arguments. */
function span(bytes: number[], rest: RhaiValue[]): [number, number] | undefined {
  const [a, b] = rest;
  if (a instanceof RhaiRange && rest.length === 1) return rangeArgs(a);
  if (isIntArg(a) && rest.length === 1) return [intArg(a), Number.MAX_SAFE_INTEGER];
  if (isIntArg(a) && isIntArg(b) && rest.length === 2) return [intArg(a), intArg(b)];
  void bytes;
  return undefined;
}

export const blobLib: Library = {
  blob: (args, ctx) => {
    const [len, value] = args;
    if (args.length === 0) return new RhaiBlob();
    if (!isIntArg(len) || (args.length === 2 && !isIntArg(value))) return NO_MATCH;
    const n = intArg(len);
    if (n <= 0) return new RhaiBlob();
    checkBlobSize(ctx.runtime, n);
    chargeItems(ctx.runtime, n);
    return new RhaiBlob(new Array<number>(n).fill(value === undefined ? 0 : byteOf(value as number | bigint)));
  },
  to_blob: (args, ctx) => {
    if (typeof args[0] !== 'string') return NO_MATCH;
    checkBlobSize(ctx.runtime, args[0].length); // at least one byte a UTF-16 unit
    chargeChars(ctx.runtime, args[0].length);
    return new RhaiBlob(textBytes(args[0]));
  },
  to_array: blob((b, _r, _a, ctx) => {
    chargeItems(ctx.runtime, b.length);
    return b.slice();
  }),
  as_string: blob((b, _r, _a, ctx) => {
    chargeNewItems(ctx.runtime, b.length);
    return checkString(ctx.runtime, blobText(b));
  }),
  len: blob((b) => b.length),
  is_empty: blob((b) => b.length === 0),
  contains: blob((b, [v], _a, ctx) => {
    if (!isIntArg(v)) return NO_MATCH;
    chargeItems(ctx.runtime, b.length);
    return b.includes(byteOf(v));
  }),
  get: blob((b, [i]) => {
    if (!isIntArg(i)) return NO_MATCH;
    const at = byteIndex(b.length, intArg(i));
    return (at === undefined ? undefined : b[at]) ?? 0;
  }),
  set: blob((b, [i, v]) => {
    if (!isIntArg(i) || !isIntArg(v)) return NO_MATCH;
    const at = byteIndex(b.length, intArg(i));
    if (at !== undefined) b[at] = byteOf(v);
    return undefined;
  }),
  push: blob((b, [v], _args, ctx) => {
    if (!isIntArg(v)) return NO_MATCH;
    checkBlobSize(ctx.runtime, b.length + 1);
    b.push(byteOf(v));
    return undefined;
  }),
  append: blob((b, [v], _args, ctx) => {
    let added: number[];
    if (isIntArg(v)) added = [byteOf(v)];
    else if (v instanceof RhaiBlob) added = v.bytes;
    else if (typeof v === 'string') added = textBytes(v);
    else if (v instanceof RhaiChar) added = textBytes(v.c);
    else return NO_MATCH;
    checkBlobSize(ctx.runtime, b.length + added.length);
    chargeItems(ctx.runtime, added.length);
    for (const x of added) b.push(x);
    return undefined;
  }),
  insert: blob((b, [i, v], _args, ctx) => {
    if (!isIntArg(i) || !isIntArg(v)) return NO_MATCH;
    checkBlobSize(ctx.runtime, b.length + 1);
    chargeItems(ctx.runtime, b.length);
    const byte = byteOf(v);
    if (b.length === 0) {
      b.push(byte);
      return undefined;
    }
    const [at] = offsetLen(b.length, intArg(i), 0);
    if (at >= b.length) b.push(byte);
    else b.splice(at, 0, byte);
    return undefined;
  }),
  pad: blob((b, [n, v], _args, ctx) => {
    if (!isIntArg(n) || !isIntArg(v)) return NO_MATCH;
    const len = intArg(n);
    if (len <= 0) return undefined;
    checkBlobSize(ctx.runtime, len); // refused before it is built
    chargeItems(ctx.runtime, len - b.length);
    const byte = byteOf(v);
    while (b.length < len) b.push(byte);
    return undefined;
  }),
  pop: blob((b, rest) => (rest.length ? NO_MATCH : b.length === 0 ? 0 : b.pop()!)),
  shift: blob((b, rest, _a, ctx) => {
    if (rest.length) return NO_MATCH;
    chargeItems(ctx.runtime, b.length);
    return b.length === 0 ? 0 : b.shift()!;
  }),
  remove: blob((b, [i], _a, ctx) => {
    if (!isIntArg(i)) return NO_MATCH;
    chargeItems(ctx.runtime, b.length);
    const at = byteIndex(b.length, intArg(i));
    return (at === undefined ? undefined : b.splice(at, 1)[0]) ?? 0;
  }),
  clear: blob((b, rest) => {
    if (rest.length) return NO_MATCH;
    b.length = 0;
    return undefined;
  }),
  truncate: blob((b, [n]) => {
    if (!isIntArg(n)) return NO_MATCH;
    const len = intArg(n);
    if (len <= 0) b.length = 0;
    else if (len < b.length) b.length = len;
    return undefined;
  }),
  chop: blob((b, [n], _a, ctx) => {
    if (!isIntArg(n)) return NO_MATCH;
    chargeItems(ctx.runtime, b.length);
    const len = intArg(n);
    if (len <= 0) b.length = 0;
    else if (len < b.length) b.splice(0, b.length - len);
    return undefined;
  }),
  reverse: blob((b, rest, _a, ctx) => {
    if (rest.length) return NO_MATCH;
    chargeItems(ctx.runtime, b.length);
    b.reverse();
    return undefined;
  }),
  splice: blob((b, rest, args, ctx) => {
    const replace = rest[rest.length - 1];
    if (!(replace instanceof RhaiBlob)) return NO_MATCH;
    const s = spanOf(rest.slice(0, -1));
    if (!s || s.tail.length) return NO_MATCH;
    if (b.length === 0) {
      args[0] = new RhaiBlob(replace.bytes.slice());
      return undefined;
    }
    const [start, len] = offsetLen(b.length, s.start, s.len);
    checkBlobSize(ctx.runtime, b.length - len + replace.bytes.length);
    chargeItems(ctx.runtime, b.length + replace.bytes.length);
    if (len === 0) b.push(...replace.bytes);
    else b.splice(start, len, ...replace.bytes);
    return undefined;
  }),
  extract: blob((b, rest, _a, ctx) => {
    const s = span(b, rest);
    if (!s) return NO_MATCH;
    chargeItems(ctx.runtime, b.length);
    if (b.length === 0 || s[1] <= 0) return new RhaiBlob();
    const [start, len] = offsetLen(b.length, s[0], s[1]);
    return new RhaiBlob(b.slice(start, start + len));
  }),
  split: blob((b, [i], args, ctx) => {
    if (!isIntArg(i) || args.length !== 2) return NO_MATCH;
    chargeItems(ctx.runtime, b.length);
    if (b.length === 0) return new RhaiBlob();
    const [at, len] = offsetLen(b.length, intArg(i), Number.MAX_SAFE_INTEGER);
    if (at >= b.length) return new RhaiBlob();
    if (at === 0) {
      if (len > b.length) return new RhaiBlob(b.splice(0));
      return new RhaiBlob(b.splice(b.length - len));
    }
    return new RhaiBlob(b.splice(at));
  }),
  drain: blob((b, rest, _a, ctx) => {
    const s = span(b, rest);
    if (!s || (rest.length === 1 && !(rest[0] instanceof RhaiRange))) return NO_MATCH;
    chargeItems(ctx.runtime, b.length);
    if (b.length === 0 || s[1] <= 0) return new RhaiBlob();
    const [start, len] = offsetLen(b.length, s[0], s[1]);
    return new RhaiBlob(len === 0 ? [] : b.splice(start, len));
  }),
  retain: blob((b, rest, _a, ctx) => {
    const s = span(b, rest);
    if (!s || (rest.length === 1 && !(rest[0] instanceof RhaiRange))) return NO_MATCH;
    chargeItems(ctx.runtime, b.length);
    if (b.length === 0 || s[1] <= 0) return new RhaiBlob();
    const [start, len] = offsetLen(b.length, s[0], s[1]);
    if (len === 0) return new RhaiBlob(b.splice(0));
    const drained = [...b.slice(0, start), ...b.slice(start + len)];
    b.splice(start + len);
    b.splice(0, start);
    return new RhaiBlob(drained);
  }),
  parse_le_int: blob((b, rest) => {
    const s = spanOf(rest);
    return s && !s.tail.length ? parseInt64(b, s.start, s.len, true) : NO_MATCH;
  }),
  parse_be_int: blob((b, rest) => {
    const s = spanOf(rest);
    return s && !s.tail.length ? parseInt64(b, s.start, s.len, false) : NO_MATCH;
  }),
  parse_le_float: blob((b, rest) => {
    const s = spanOf(rest);
    return s && !s.tail.length ? parseFloat64(b, s.start, s.len, true) : NO_MATCH;
  }),
  parse_be_float: blob((b, rest) => {
    const s = spanOf(rest);
    return s && !s.tail.length ? parseFloat64(b, s.start, s.len, false) : NO_MATCH;
  }),
  write_le: blob((b, rest) => {
    const s = spanOf(rest);
    return s && s.tail.length === 1 ? writeNumber(b, s.start, s.len, s.tail[0], true) : NO_MATCH;
  }),
  write_be: blob((b, rest) => {
    const s = spanOf(rest);
    return s && s.tail.length === 1 ? writeNumber(b, s.start, s.len, s.tail[0], false) : NO_MATCH;
  }),
  write_utf8: blob((b, rest, _a, ctx) => {
    const s = spanOf(rest);
    if (!s || s.tail.length !== 1 || typeof s.tail[0] !== 'string') return NO_MATCH;
    chargeChars(ctx.runtime, s.tail[0].length);
    writeText(b, s.start, s.len, s.tail[0], false);
    return undefined;
  }),
  write_ascii: blob((b, rest, _a, ctx) => {
    const s = spanOf(rest);
    if (!s || s.tail.length !== 1 || typeof s.tail[0] !== 'string') return NO_MATCH;
    chargeChars(ctx.runtime, s.tail[0].length);
    writeText(b, s.start, s.len, s.tail[0], true);
    return undefined;
  }),
};
