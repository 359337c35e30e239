// Numeric functions (src/packages/arithmetic.rs, math_basic.rs).
import { arithmeticError } from '../errors.ts';
import { compareOp, negate, toFloat } from '../ops.ts';
import { MAX_INT, MIN_INT, normInt, RhaiFloat, makeChar, type RhaiValue } from '../values.ts';
import { isIntArg, NO_MATCH, runtimeError, type Library, type NativeResult } from './types.ts';
import { NO_POS } from '../errors.ts';

const float1 = (f: (x: number) => number) => (args: RhaiValue[]): NativeResult => {
  if (args.length !== 1) return NO_MATCH;
  const x = toFloat(args[0]);
  return x === undefined ? NO_MATCH : new RhaiFloat(f(x));
};

const floatOnly1 = (f: (x: number) => RhaiValue) => (args: RhaiValue[]): NativeResult =>
  args.length === 1 && args[0] instanceof RhaiFloat ? f(args[0].v) : NO_MATCH;

/** Rust's f64::round: half away from zero. */
const roundHalfAway = (x: number): number => (x < 0 ? -Math.round(-x) : Math.round(x));

function floatToInt(x: number): number | bigint {
  const t = Math.trunc(x);
  if (!Number.isFinite(t) || t > 9223372036854775807 || t < -9223372036854775808) {
    throw arithmeticError(`Integer overflow: to_int(${x})`);
  }
  return Number.isSafeInteger(t) ? (t === 0 ? 0 : t) : normInt(BigInt(t));
}

const FLOAT_RE = /^[+-]?(\d+\.?\d*(e[+-]?\d+)?|\.\d+(e[+-]?\d+)?|inf|infinity|nan)$/i;

function parseIntText(text: string, radix: number): number | bigint {
  const s = text.trim();
  const digits = '0123456789abcdefghijklmnopqrstuvwxyz'.slice(0, radix);
  const body = s.replace(/^[+-]/, '');
  if (!body || [...body.toLowerCase()].some((c) => !digits.includes(c))) {
    throw arithmeticError(`Error parsing integer number '${text}': invalid digit found in string`);
  }
  let v = 0n;
  for (const c of body.toLowerCase()) v = v * BigInt(radix) + BigInt(digits.indexOf(c));
  if (s.startsWith('-')) v = -v;
  if (v > MAX_INT || v < MIN_INT) throw arithmeticError(`Error parsing integer number '${text}': number too large`);
  return normInt(v);
}

export const mathLib: Library = {
  abs: ([x]) => (isIntArg(x) ? (x < 0 ? negate(x, NO_POS) : x) : x instanceof RhaiFloat ? new RhaiFloat(Math.abs(x.v)) : NO_MATCH),
  sign: ([x]) => {
    if (isIntArg(x)) return x > 0 ? 1 : x < 0 ? -1 : 0;
    if (x instanceof RhaiFloat) {
      if (Number.isNaN(x.v)) throw arithmeticError('Cannot get the sign of NaN');
      return x.v > 0 ? 1 : x.v < 0 ? -1 : 0;
    }
    return NO_MATCH;
  },
  max: (args) => minMax(args, '>='),
  min: (args) => minMax(args, '<='),
  floor: floatOnly1((x) => new RhaiFloat(Math.floor(x))),
  ceiling: floatOnly1((x) => new RhaiFloat(Math.ceil(x))),
  round: floatOnly1((x) => new RhaiFloat(roundHalfAway(x))),
  int: floatOnly1((x) => new RhaiFloat(Math.trunc(x))),
  fraction: floatOnly1((x) => new RhaiFloat(x - Math.trunc(x))),
  sqrt: float1(Math.sqrt),
  exp: float1(Math.exp),
  ln: float1(Math.log),
  log: (args) => {
    if (args.length === 1) return float1(Math.log10)(args);
    const x = toFloat(args[0]);
    const base = toFloat(args[1]);
    return args.length === 2 && x !== undefined && base !== undefined ? new RhaiFloat(Math.log(x) / Math.log(base)) : NO_MATCH;
  },
  sin: float1(Math.sin), cos: float1(Math.cos), tan: float1(Math.tan),
  asin: float1(Math.asin), acos: float1(Math.acos), atan: (args) => {
    if (args.length === 2) {
      const y = toFloat(args[0]);
      const x = toFloat(args[1]);
      return y !== undefined && x !== undefined ? new RhaiFloat(Math.atan2(y, x)) : NO_MATCH;
    }
    return float1(Math.atan)(args);
  },
  sinh: float1(Math.sinh), cosh: float1(Math.cosh), tanh: float1(Math.tanh),
  hypot: ([x, y]) => {
    const a = toFloat(x);
    const b = toFloat(y);
    return a !== undefined && b !== undefined ? new RhaiFloat(Math.hypot(a, b)) : NO_MATCH;
  },
  PI: (args) => (args.length === 0 ? new RhaiFloat(Math.PI) : NO_MATCH),
  E: (args) => (args.length === 0 ? new RhaiFloat(Math.E) : NO_MATCH),
  is_nan: floatOnly1((x) => Number.isNaN(x)),
  is_finite: floatOnly1((x) => Number.isFinite(x)),
  is_infinite: floatOnly1((x) => x === Infinity || x === -Infinity),
  is_zero: ([x]) => (isIntArg(x) ? x == 0 : x instanceof RhaiFloat ? x.v === 0 : NO_MATCH),
  is_odd: ([x]) => (isIntArg(x) ? BigInt(x) % 2n !== 0n : NO_MATCH),
  is_even: ([x]) => (isIntArg(x) ? BigInt(x) % 2n === 0n : NO_MATCH),
  to_int: ([x]) => {
    if (isIntArg(x)) return x;
    if (x instanceof RhaiFloat) return floatToInt(x.v);
    return NO_MATCH;
  },
  to_float: ([x]) => (isIntArg(x) ? new RhaiFloat(Number(x)) : x instanceof RhaiFloat ? x : NO_MATCH),
  to_char: ([x]) => {
    if (!isIntArg(x)) return NO_MATCH;
    const n = Number(x);
    if (n < 0 || n > 0x10ffff || (n >= 0xd800 && n <= 0xdfff)) throw runtimeError('ErrorArithmetic', `Invalid character code: ${n}`);
    return makeChar(String.fromCodePoint(n));
  },
  to_hex: ([x]) => (isIntArg(x) ? BigInt.asUintN(64, BigInt(x)).toString(16) : NO_MATCH),
  to_octal: ([x]) => (isIntArg(x) ? BigInt.asUintN(64, BigInt(x)).toString(8) : NO_MATCH),
  to_binary: ([x]) => (isIntArg(x) ? BigInt.asUintN(64, BigInt(x)).toString(2) : NO_MATCH),
  parse_int: (args) => {
    const [s, radix] = args;
    if (typeof s !== 'string' || args.length > 2) return NO_MATCH;
    if (args.length === 2 && !isIntArg(radix)) return NO_MATCH;
    const r = args.length === 2 ? Number(radix) : 10;
    if (r < 2 || r > 36) throw arithmeticError(`Invalid radix: '${r}'`);
    return parseIntText(s, r);
  },
  parse_float: (args) => {
    const [s] = args;
    if (typeof s !== 'string' || args.length !== 1) return NO_MATCH;
    const t = s.trim();
    if (!FLOAT_RE.test(t)) throw arithmeticError(`Error parsing floating-point number '${s}': invalid float literal`);
    const lower = t.toLowerCase().replace(/^\+/, '');
    if (lower.endsWith('inf') || lower.endsWith('infinity')) return new RhaiFloat(lower.startsWith('-') ? -Infinity : Infinity);
    return new RhaiFloat(lower.endsWith('nan') ? NaN : Number(t));
  },
};

function minMax(args: RhaiValue[], keepFirstIf: '>=' | '<='): NativeResult {
  if (args.length !== 2) return NO_MATCH;
  const [a, b] = args;
  const numeric = (v: RhaiValue): boolean => isIntArg(v) || v instanceof RhaiFloat;
  if (numeric(a) && numeric(b)) {
    if (isIntArg(a) && isIntArg(b)) return compareOp(keepFirstIf, a, b, NO_POS) ? a : b;
    const x = toFloat(a)!;
    const y = toFloat(b)!;
    return new RhaiFloat(keepFirstIf === '>=' ? Math.max(x, y) : Math.min(x, y));
  }
  if (typeof a === 'string' && typeof b === 'string') return compareOp(keepFirstIf, a, b, NO_POS) ? a : b;
  return NO_MATCH;
}

