// Integers as bit-fields (src/packages/bit_field.rs): get_bit/set_bit/get_bits/set_bits.
import { RhaiError } from '../errors.ts';
import { normInt, RhaiRange, type RhaiValue } from '../values.ts';
import { intArg, isIntArg, NO_MATCH, rangeSpan, type Library } from './types.ts';

const BITS = 64;

/** A bit number counting from the MSB when negative, checked against 0..63. */
export function bitNumber(n: number): number {
  const bit = n < 0 ? BITS + n : n;
  if (bit < 0 || bit >= BITS) {
    throw new RhaiError('ErrorBitFieldBounds', `Bit-field index ${n} out of bounds: only ${BITS} bits in bit-field`);
  }
  return bit;
}

/** `(start, count)` or a range, as a start bit and a bit count clipped to the MSB. */
function bitSpan(rest: RhaiValue[]): { start: number; count: number } | undefined {
  const [a, b] = rest;
  if (a instanceof RhaiRange) {
    const span = rangeSpan(a);
    const start = bitNumber(span.start);
    return { start, count: Math.min(span.count, BITS - start) };
  }
  if (!isIntArg(a) || !isIntArg(b)) return undefined;
  const start = bitNumber(intArg(a));
  return { start, count: Math.max(0, Math.min(intArg(b), BITS - start)) };
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
