// Reading and writing properties and indexes (src/eval/chaining.rs): maps, arrays, strings as
// chars, integers as bit-fields, with Rhai's bounds and type errors.
import {
  bitFieldBoundsError,
  boundsError,
  dotExprError,
  indexingTypeError,
  mismatchError,
  RhaiError,
  type Pos,
} from '../errors.ts';
import { bitFieldRange, getBits, setBits } from '../packages/bits.ts';
import { NATIVE_FUNCTIONS, NO_MATCH, PROPERTY_GETTERS, type NativeContext } from '../packages/index.ts';
import { displayString } from '../format.ts';
import { checkMap, checkString, type Runtime } from '../runtime.ts';
import { isInt, makeChar, normInt, RhaiBlob, RhaiChar, RhaiRange, typeName, type RhaiValue } from '../values.ts';
import { chargeChars } from '../cost.ts';
import { charAtIndex, charLength, charSlice, textIndex } from '../text.ts';
import { byteOf } from '../packages/blob.ts';
import type { Env, LValue } from './frame.ts';

export function readProp(rt: Runtime, obj: RhaiValue, name: string, safe: boolean, pos: Pos): RhaiValue {
  if (obj instanceof Map) return obj.get(name);
  if (obj === undefined && safe) return undefined;
  if (PROPERTY_GETTERS.has(name)) {
    const r = NATIVE_FUNCTIONS.get(name)!([obj], rt.native as NativeContext);
    if (r !== NO_MATCH) return r;
  }
  throw dotExprError(name, `Unknown property '${name}' - a getter is not registered for type '${typeName(obj)}'`, pos);
}
export function arrayIndex(
  len: number,
  idx: RhaiValue,
  pos: Pos,
  kind: 'ErrorArrayBounds' | 'ErrorStringBounds',
): number {
  let i = typeof idx === 'number' ? idx : Number(idx);
  if (i < 0) i += len;
  if (i < 0 || i >= len) throw boundsError(kind, len, idx, pos);
  return i;
}
function bitField(r: RhaiRange, pos: Pos): { shift: number; mask: bigint } {
  try {
    return bitFieldRange(r);
  } catch (e) {
    if (e instanceof RhaiError) e.setPosition(pos);
    throw e;
  }
}

export function bitIndex(idx: RhaiValue, pos: Pos): number {
  let i = Number(idx);
  if (i < 0) i += 64;
  if (i < 0 || i >= 64) throw bitFieldBoundsError(idx, pos);
  return i;
}

/**
 * The chars `s[range]` covers, as Rhai's get_indexed_mut reads a string slice (Rhai 1.18): a
 * negative start counts from the end (ErrorStringBounds beyond it), a negative end too (0 beyond
 * it), and `a..=b` covers nothing when b is not after a. `keepBefore`/`keepFrom` are what a write
 * keeps around the new text (target.rs).
 */
function stringSlice(
  rt: Runtime,
  s: string,
  r: RhaiRange,
  pos: Pos,
): { text: string; keepBefore: number; keepFrom: number } {
  const n = charLength(rt, s);
  if (n === 0) return { text: '', keepBefore: 0, keepFrom: 0 };
  const chars = { slice: (from: number, to: number): string => charSlice(rt, s, from, Math.max(0, to - from)) };
  const fromEnd = (i: number): number | undefined => (-i <= n ? n + i : undefined);
  const rs = Number(r.start); // beyond the safe range an end only clamps to the string
  const re = Number(r.end);
  const start = rs >= 0 ? rs : fromEnd(rs);
  if (start === undefined) throw boundsError('ErrorStringBounds', n, r.start, pos);
  const end = re >= 0 ? re : (fromEnd(re) ?? 0);
  if (!r.inclusive) {
    const text = start === 0 && end >= n ? s : chars.slice(start, Math.min(n, start + Math.max(0, end - start)));
    return { text, keepBefore: start, keepFrom: Math.min(end, n) };
  }
  const text = start === 0 && end >= n - 1 ? s : end > start ? chars.slice(start, Math.min(n, end + 1)) : '';
  return { text, keepBefore: start, keepFrom: Math.min(end, n - 1) + 1 };
}

const isRangeIndex = (idx: RhaiValue): idx is RhaiRange => idx instanceof RhaiRange && idx.step === 1;

export function readIndex(rt: Runtime, obj: RhaiValue, idx: RhaiValue, safe: boolean, pos: Pos): RhaiValue {
  if (Array.isArray(obj)) {
    if (!isInt(idx)) throw mismatchError('i64', typeName(idx), pos);
    return obj[arrayIndex(obj.length, idx, pos, 'ErrorArrayBounds')];
  }
  if (obj instanceof RhaiBlob) {
    // a byte, as an INT
    if (!isInt(idx)) throw mismatchError('i64', typeName(idx), pos);
    return obj.bytes[arrayIndex(obj.bytes.length, idx, pos, 'ErrorArrayBounds')];
  }
  if (obj instanceof Map) {
    if (typeof idx === 'string') return obj.get(idx);
    if (idx instanceof RhaiChar) return obj.get(idx.c);
    throw mismatchError('string', typeName(idx), pos);
  }
  if (typeof obj === 'string') {
    if (isRangeIndex(idx)) return stringSlice(rt, obj, idx, pos).text;
    if (!isInt(idx)) throw mismatchError('i64', typeName(idx), pos);
    const i = arrayIndex(charLength(rt, obj), idx, pos, 'ErrorStringBounds');
    return makeChar(charAtIndex(rt, obj, i));
  }
  if (isInt(obj)) {
    if (idx instanceof RhaiRange) {
      const { shift, mask } = bitField(idx, pos);
      return normInt((BigInt(obj) & mask) >> BigInt(shift)); // an arithmetic shift, as Rhai's i64 `>>`
    }
    if (!isInt(idx)) throw mismatchError('i64', typeName(idx), pos);
    return getBits(obj, bitIndex(idx, pos), 1) === 1;
  }
  if (obj === undefined && safe) return undefined;
  throw indexingTypeError(typeName(obj), pos);
}

export function writeIndex(env: Env, target: LValue, obj: RhaiValue, idx: RhaiValue, v: RhaiValue, pos: Pos): void {
  if (Array.isArray(obj)) {
    if (!isInt(idx)) throw mismatchError('i64', typeName(idx), pos);
    obj[arrayIndex(obj.length, idx, pos, 'ErrorArrayBounds')] = v;
    return;
  }
  if (obj instanceof RhaiBlob) {
    // target.rs BlobByte: the INT's low 8 bits
    if (!isInt(idx)) throw mismatchError('i64', typeName(idx), pos);
    const at = arrayIndex(obj.bytes.length, idx, pos, 'ErrorArrayBounds');
    if (!isInt(v)) throw mismatchError('INT', typeName(v), pos);
    obj.bytes[at] = byteOf(v);
    return;
  }
  if (obj instanceof Map) {
    const key = typeof idx === 'string' ? idx : idx instanceof RhaiChar ? idx.c : undefined;
    if (key === undefined) throw mismatchError('string', typeName(idx), pos);
    obj.set(key, v);
    checkMap(env.rt, obj, pos);
    return;
  }
  if (typeof obj === 'string') {
    const rt = env.rt;
    const index = textIndex(rt, obj);
    if (isRangeIndex(idx)) {
      // the covered chars are replaced by the new value's text
      const { keepBefore, keepFrom } = stringSlice(rt, obj, idx, pos);
      const added = displayString(v);
      chargeChars(rt, obj.length + added.length);
      const text =
        obj.slice(0, index.offset(keepBefore)) + added + obj.slice(index.offset(Math.min(keepFrom, index.chars)));
      target.set(env, checkString(rt, text, pos));
      return;
    }
    if (!isInt(idx)) throw mismatchError('i64', typeName(idx), pos);
    if (!(v instanceof RhaiChar)) throw mismatchError('char', typeName(v), pos);
    const i = arrayIndex(index.chars, idx, pos, 'ErrorStringBounds');
    chargeChars(rt, obj.length);
    target.set(env, obj.slice(0, index.offset(i)) + v.c + obj.slice(index.offset(i + 1)));
    return;
  }
  if (isInt(obj)) {
    if (idx instanceof RhaiRange) {
      if (!isInt(v)) throw mismatchError('i64', typeName(v), pos);
      const { shift, mask } = bitField(idx, pos);
      const bits = (BigInt(v) << BigInt(shift)) & mask;
      target.set(env, normInt(BigInt.asIntN(64, (BigInt(obj) & ~mask) | bits)));
      return;
    }
    if (!isInt(idx)) throw mismatchError('i64', typeName(idx), pos);
    if (typeof v !== 'boolean') throw mismatchError('bool', typeName(v), pos);
    target.set(env, setBits(obj, bitIndex(idx, pos), 1, v ? 1 : 0));
    return;
  }
  throw indexingTypeError(typeName(obj), pos);
}
