// Numeric functions (src/packages/arithmetic.rs, math_basic.rs).
import { arithmeticError } from '../errors.ts';
import { compareOp, negate, toFloat } from '../ops.ts';
import { MAX_INT, MIN_INT, normInt, RhaiChar, RhaiFloat, type RhaiValue } from '../values.ts';
import { isIntArg, NO_MATCH, type Library, type NativeResult } from './types.ts';
import { NO_POS } from '../errors.ts';

const MAX_INT_VALUE = normInt(MAX_INT);

/** A FLOAT-only function: Rhai never converts an INT argument to FLOAT (`16.sqrt()` is not found). */
const float1 =
  (f: (x: number) => RhaiValue) =>
  (args: RhaiValue[]): NativeResult =>
    args.length === 1 && args[0] instanceof RhaiFloat ? f(args[0].v) : NO_MATCH;
const floatFn = (f: (x: number) => number) => float1((x) => new RhaiFloat(f(x)));

const float2 =
  (f: (x: number, y: number) => number) =>
  (args: RhaiValue[]): NativeResult =>
    args.length === 2 && args[0] instanceof RhaiFloat && args[1] instanceof RhaiFloat
      ? new RhaiFloat(f(args[0].v, args[1].v))
      : NO_MATCH;

/** Rust's f64::round: half away from zero. */
const roundHalfAway = (x: number): number => (x < 0 ? -Math.round(-x) : Math.round(x));

const TWO_63 = 9223372036854775808;

/** Rhai's `to_int(FLOAT)`: beyond the i64 range is an error, NaN becomes 0 (Rust's `as` cast). */
function floatToInt(x: number): number | bigint {
  if (x > TWO_63 || x < -TWO_63) throw arithmeticError(`Integer overflow: to_int(${x})`);
  if (Number.isNaN(x)) return 0;
  const t = Math.trunc(x);
  if (t === TWO_63) return MAX_INT_VALUE;
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
  abs: ([x]) =>
    isIntArg(x) ? (x < 0 ? negate(x, NO_POS) : x) : x instanceof RhaiFloat ? new RhaiFloat(Math.abs(x.v)) : NO_MATCH,
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
  floor: floatFn(Math.floor),
  ceiling: floatFn(Math.ceil),
  round: floatFn(roundHalfAway),
  int: floatFn(Math.trunc),
  fraction: floatFn((x) => x - Math.trunc(x)),
  sqrt: floatFn(Math.sqrt),
  exp: floatFn(Math.exp),
  ln: floatFn(Math.log),
  log: (args) =>
    args.length === 1 ? floatFn(Math.log10)(args) : float2((x, base) => Math.log(x) / Math.log(base))(args),
  sin: floatFn(Math.sin),
  cos: floatFn(Math.cos),
  tan: floatFn(Math.tan),
  sinh: floatFn(Math.sinh),
  cosh: floatFn(Math.cosh),
  tanh: floatFn(Math.tanh),
  asin: floatFn(Math.asin),
  acos: floatFn(Math.acos),
  atan: (args) => (args.length === 1 ? floatFn(Math.atan)(args) : float2(Math.atan2)(args)),
  asinh: floatFn(Math.asinh),
  acosh: floatFn(Math.acosh),
  atanh: floatFn(Math.atanh),
  hypot: float2(Math.hypot),
  to_degrees: floatFn((x) => (x * 180) / Math.PI),
  to_radians: floatFn((x) => (x * Math.PI) / 180),
  PI: (args) => (args.length === 0 ? new RhaiFloat(Math.PI) : NO_MATCH),
  E: (args) => (args.length === 0 ? new RhaiFloat(Math.E) : NO_MATCH),
  is_nan: float1((x) => Number.isNaN(x)),
  is_finite: float1((x) => Number.isFinite(x)),
  is_infinite: float1((x) => x === Infinity || x === -Infinity),
  is_zero: ([x]) => (isIntArg(x) ? x == 0 : x instanceof RhaiFloat ? x.v === 0 : NO_MATCH),
  is_odd: ([x]) => (isIntArg(x) ? BigInt(x) % 2n !== 0n : NO_MATCH),
  is_even: ([x]) => (isIntArg(x) ? BigInt(x) % 2n === 0n : NO_MATCH),
  to_int: (args) => {
    const [x] = args;
    if (args.length !== 1) return NO_MATCH;
    if (isIntArg(x)) return x;
    if (x instanceof RhaiFloat) return floatToInt(x.v);
    if (x instanceof RhaiChar) return x.c.codePointAt(0)!;
    return NO_MATCH;
  },
  to_float: ([x]) => (isIntArg(x) ? new RhaiFloat(Number(x)) : x instanceof RhaiFloat ? x : NO_MATCH),
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
    if (lower.endsWith('inf') || lower.endsWith('infinity'))
      return new RhaiFloat(lower.startsWith('-') ? -Infinity : Infinity);
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
    // logic.rs: `if x >= y { x } else { y }` with Rust's plain f64 operators (a NaN first loses).
    return new RhaiFloat((keepFirstIf === '>=' ? x >= y : x <= y) ? x : y);
  }
  const sameText = (typeof a === 'string' && typeof b === 'string') || (a instanceof RhaiChar && b instanceof RhaiChar);
  return sameText ? (compareOp(keepFirstIf, a, b, NO_POS) ? a : b) : NO_MATCH;
}
