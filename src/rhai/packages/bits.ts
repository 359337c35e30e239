// Integers as bit-fields (src/packages/bit_field.rs): get_bit/set_bit/get_bits/set_bits.
import { RhaiError } from '../errors.ts';
import { MAX_INT, normInt, RhaiRange, type RhaiValue } from '../values.ts';
import { intArg, isIntArg, NO_MATCH, type Library } from './types.ts';

const BITS = 64;

/** A bit number counting from the MSB when negative, checked against 0..63. */
export function bitNumber(n: number): number {
  const bit = n < 0 ? BITS + n : n;
  if (bit < 0 || bit >= BITS) throw bitsOutOfBounds(n);
  return bit;
}

/**
 * `x[a..b]` / `x[a..=b]` on an INT (chaining.rs): the field's shift and mask. Neither end counts
 * from the MSB; an open end (`x[4..]`) runs to bit 63; a start or end past the bits is
 * ErrorBitFieldBounds.
 */
export function bitFieldRange(r: RhaiRange): { shift: number; mask: bigint } {
  const open = r.end === normInt(MAX_INT);
  const start = r.start;
  const end = open ? (r.inclusive ? BITS - 1 : BITS) : r.end;
  if (start < 0 || start >= BITS) throw bitsOutOfBounds(start);
  if (end < 0 || (r.inclusive ? end >= BITS : end > BITS)) throw bitsOutOfBounds(end);
  const s = Number(start);
  const count = Number(end) - s + (r.inclusive ? 1 : 0);
  if (count <= 0) return { shift: 0, mask: 0n };
  return { shift: s, mask: BigInt.asIntN(64, ((1n << BigInt(count)) - 1n) << BigInt(s)) };
}

/**
 * `(start, count)` or a range, as a start bit and a bit count clipped to the MSB (bit_field.rs
 * get_bits/set_bits): no bits is no bits whatever the start; an inclusive range ending past bit 63
 * is ErrorBitFieldBounds; a start past it too.
 */
function bitSpan(rest: RhaiValue[]): { start: number; count: number } | undefined {
  const [a, b] = rest;
  let from: number;
  let count: number;
  if (a instanceof RhaiRange) {
    from = Math.max(Number(a.start), 0);
    if (a.inclusive) {
      const to = Math.max(Number(a.end), from - 1);
      if (to >= BITS) throw bitsOutOfBounds(a.end);
      count = to - from + 1;
    } else count = Math.max(Number(a.end), from) - from;
  } else {
    if (!isIntArg(a) || !isIntArg(b)) return undefined;
    from = intArg(a);
    count = intArg(b);
  }
  if (count <= 0) return { start: 0, count: 0 };
  const start = bitNumber(from);
  return { start, count: Math.min(count, BITS - start) };
}

function bitsOutOfBounds(index: RhaiValue): RhaiError {
  return new RhaiError(
    'ErrorBitFieldBounds',
    `Bit-field index ${String(index)} out of bounds: only ${BITS} bits in bit-field`,
  );
}

const mask = (count: number): bigint => (1n << BigInt(count)) - 1n;

export function getBits(x: number | bigint, start: number, count: number): RhaiValue {
  if (count <= 0) return 0;
  return normInt(BigInt.asIntN(64, (BigInt.asUintN(64, BigInt(x)) >> BigInt(start)) & mask(count)));
}

export function setBits(x: number | bigint, start: number, count: number, value: number | bigint): RhaiValue {
  if (count <= 0) return x;
  const m = mask(count) << BigInt(start);
  const bits = (BigInt(value) << BigInt(start)) & m;
  return normInt(BigInt.asIntN(64, (BigInt(x) & ~m) | bits));
}

export const bitsLib: Library = {
  get_bit: (args) => {
    const [x, n] = args;
    if (args.length !== 2 || !isIntArg(x) || !isIntArg(n)) return NO_MATCH;
    return getBits(x, bitNumber(intArg(n)), 1) === 1;
  },
  set_bit: (args) => {
    const [x, n, on] = args;
    if (args.length !== 3 || !isIntArg(x) || !isIntArg(n) || typeof on !== 'boolean') return NO_MATCH;
    args[0] = setBits(x, bitNumber(intArg(n)), 1, on ? 1 : 0);
    return undefined;
  },
  get_bits: (args) => {
    const [x, ...rest] = args;
    if (!isIntArg(x) || rest.length < 1 || rest.length > 2) return NO_MATCH;
    const span = bitSpan(rest);
    return span ? getBits(x, span.start, span.count) : NO_MATCH;
  },
  set_bits: (args) => {
    const [x, ...rest] = args;
    const value = rest[rest.length - 1];
    if (!isIntArg(x) || !isIntArg(value) || rest.length < 2 || rest.length > 3) return NO_MATCH;
    const span = bitSpan(rest.slice(0, -1));
    if (!span) return NO_MATCH;
    args[0] = setBits(x, span.start, span.count, value);
    return undefined;
  },
};
