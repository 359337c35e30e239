// Built-in operators (src/func/builtin.rs): exact i64 arithmetic with overflow checks, floats,
// string concatenation, comparisons across int/float and char/string.
import { arithmeticError, fnNotFound, RhaiError, type Pos } from './errors.ts';
import { chargeFormatting, displayString } from './format.ts';
import { checkArrayLength, checkMap, concatText, type Runtime } from './runtime.ts';
import {
  compareStrings,
  FnPtr,
  isInt,
  MAX_INT,
  MIN_INT,
  normInt,
  RhaiBlob,
  RhaiChar,
  RhaiFloat,
  RhaiRange,
  RhaiTimestamp,
  typeName,
  type RhaiMap,
  type RhaiValue,
} from './values.ts';
import { blobText, byteOf, textBytes } from './packages/blob.ts';
import { chargeChars, chargeItems, chargeNewItems } from './cost.ts';
import { shiftTimestamp, timestampDiff } from './packages/time.ts';
import { cloneValue } from './copy.ts';

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

function opNotFound(op: string, a: RhaiValue, b: RhaiValue, pos: Pos): RhaiError {
  return fnNotFound(`${op} (${typeName(a)}, ${typeName(b)})`, pos);
}

function overflow(op: string, a: RhaiValue, b: RhaiValue, pos: Pos): RhaiError {
  return arithmeticError(`Arithmetic overflow: ${displayString(a)} ${op} ${displayString(b)}`, pos);
}

function checked(r: bigint, op: string, a: RhaiValue, b: RhaiValue, pos: Pos): number | bigint {
  if (r > MAX_INT || r < MIN_INT) throw overflow(op, a, b, pos);
  return normInt(r);
}

/** i64 arithmetic; `a` and `b` are INT values (number or bigint). */
function intArith(op: string, a: number | bigint, b: number | bigint, pos: Pos): RhaiValue {
  if (typeof a === 'number' && typeof b === 'number') {
    switch (op) {
      case '+': {
        const r = a + b;
        if (r <= MAX_SAFE && r >= -MAX_SAFE) return r;
        break;
      }
      case '-': {
        const r = a - b;
        if (r <= MAX_SAFE && r >= -MAX_SAFE) return r;
        break;
      }
      case '*': {
        const r = a * b;
        if (r <= MAX_SAFE && r >= -MAX_SAFE) return r === 0 ? 0 : r;
        break;
      }
      case '/':
        if (b === 0) throw arithmeticError(`Division by zero: ${a} / ${b}`, pos);
        if ((a | 0) === a && (b | 0) === b) {
          const q = Math.trunc(a / b);
          return q === 0 ? 0 : q;
        }
        break;
      case '%':
        if (b === 0) throw arithmeticError(`Division by zero: ${a} % ${b}`, pos);
        {
          const r = a % b;
          return r === 0 ? 0 : r;
        }
      case '&':
        if ((a | 0) === a && (b | 0) === b) return a & b;
        break;
      case '|':
        if ((a | 0) === a && (b | 0) === b) return a | b;
        break;
      case '^':
        if ((a | 0) === a && (b | 0) === b) return a ^ b;
        break;
    }
  }
  const x = BigInt(a);
  const y = BigInt(b);
  switch (op) {
    case '+':
      return checked(x + y, op, a, b, pos);
    case '-':
      return checked(x - y, op, a, b, pos);
    case '*':
      return checked(x * y, op, a, b, pos);
    case '/':
      if (y === 0n) throw arithmeticError(`Division by zero: ${a} / ${b}`, pos);
      return checked(x / y, op, a, b, pos);
    case '%':
      if (y === 0n) throw arithmeticError(`Division by zero: ${a} % ${b}`, pos);
      if (x === MIN_INT && y === -1n) throw overflow(op, a, b, pos);
      return normInt(x % y);
    case '**': {
      if (y < 0n) throw arithmeticError(`Integer raised to a negative power: ${a} ** ${b}`, pos);
      if (x === 0n || x === 1n) return y === 0n ? 1 : Number(x);
      if (x === -1n) return y % 2n === 0n ? 1 : -1;
      if (y > 64n) throw overflow(op, a, b, pos);
      return checked(x ** y, op, a, b, pos);
    }
    case '<<':
    case '>>':
      return shift(op, x, y, a, b, pos);
    case '&':
      return normInt(x & y);
    case '|':
      return normInt(x | y);
    case '^':
      return normInt(x ^ y);
  }
  throw opNotFound(op, a, b, pos);
}

const U32_MAX = 0xffffffffn;

/**
 * Rhai's shift_left/shift_right (arithmetic.rs): a negative count shifts the other way; a count of
 * 64 or more gives 0 (or -1 when a negative number is shifted right); beyond u32 is an error.
 */
function shift(op: string, x: bigint, y: bigint, a: RhaiValue, b: RhaiValue, pos: Pos): RhaiValue {
  let left = op === '<<';
  let n = y;
  if (n < 0n) {
    left = !left;
    n = n === MIN_INT ? MAX_INT : -n;
  }
  if (n > U32_MAX) {
    throw arithmeticError(
      `${left ? 'Left' : 'Right'}-shift by too many bits: ${displayString(a)} ${op} ${displayString(b)}`,
      pos,
    );
  }
  if (n >= 64n) return left || x >= 0n ? 0 : -1;
  return normInt(left ? BigInt.asIntN(64, x << n) : x >> n);
}

function floatArith(op: string, x: number, y: number): RhaiFloat | undefined {
  switch (op) {
    case '+':
      return new RhaiFloat(x + y);
    case '-':
      return new RhaiFloat(x - y);
    case '*':
      return new RhaiFloat(x * y);
    case '/':
      return new RhaiFloat(x / y);
    case '%':
      return new RhaiFloat(x % y);
    case '**':
      return new RhaiFloat(Math.pow(x, y));
  }
  return undefined;
}

/** An INT or FLOAT as a JS number; undefined for any other type. */
export function toFloat(v: RhaiValue): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof RhaiFloat) return v.v;
  return undefined;
}

/** A value's Display text for joining it to a string: charged for its length when it had to be made. */
function textOf(rt: Runtime, v: RhaiValue): string {
  if (typeof v === 'string') return v;
  chargeFormatting(rt, v);
  return displayString(v);
}

function isTextual(v: RhaiValue): v is string | RhaiChar {
  return typeof v === 'string' || v instanceof RhaiChar;
}

function removeAll(rt: Runtime, s: string, part: string): string {
  chargeChars(rt, s.length);
  return part === '' ? s : s.split(part).join('');
}

/** Every arithmetic / bitwise operator, after the evaluator's int fast paths missed. */
export function binaryOp(rt: Runtime, op: string, a: RhaiValue, b: RhaiValue, pos: Pos): RhaiValue {
  if (isInt(a) && isInt(b)) return intArith(op, a, b, pos);
  if ((a instanceof RhaiFloat || isInt(a)) && (b instanceof RhaiFloat || isInt(b))) {
    const r = floatArith(op, toFloat(a)!, toFloat(b)!);
    if (r) return r;
    throw opNotFound(op, a, b, pos);
  }
  if (op === '+') {
    // string_more.rs: a BLOB joins a string as its UTF-8 text.
    if (typeof a === 'string' && b instanceof RhaiBlob) return concatText(rt, a, blobText(b.bytes), pos);
    if (a instanceof RhaiBlob && typeof b === 'string') return concatText(rt, blobText(a.bytes), b, pos);
    if (typeof a === 'string' || typeof b === 'string') return concatText(rt, textOf(rt, a), textOf(rt, b), pos);
    if (a instanceof RhaiBlob && (b instanceof RhaiBlob || b instanceof RhaiChar)) {
      // builtin.rs
      const added = b instanceof RhaiBlob ? b.bytes : textBytes(b.c);
      checkArrayLength(rt, a.bytes.length + added.length, pos);
      return new RhaiBlob(a.bytes.concat(added));
    }
    if (a instanceof RhaiChar && b instanceof RhaiChar) return concatText(rt, a.c, b.c, pos);
    if (Array.isArray(a) && Array.isArray(b)) {
      checkArrayLength(rt, a.length + b.length, pos);
      return (cloneValue(rt, a) as RhaiValue[]).concat(cloneValue(rt, b) as RhaiValue[]);
    }
    if (a instanceof Map && b instanceof Map) {
      const out = cloneValue(rt, a) as RhaiMap;
      for (const [k, v] of b) out.set(k, cloneValue(rt, v));
      checkMap(rt, out, pos);
      return out;
    }
  }
  if (op === '-' && typeof a === 'string' && isTextual(b)) return removeAll(rt, a, typeof b === 'string' ? b : b.c);
  if (a instanceof RhaiTimestamp && (op === '+' || op === '-')) {
    // time_basic.rs
    if (isInt(b) || b instanceof RhaiFloat) return shiftTimestamp(a, b, op === '-');
    if (op === '-' && b instanceof RhaiTimestamp) return timestampDiff(a, b);
  }
  if (typeof a === 'boolean' && typeof b === 'boolean') {
    if (op === '&') return a && b;
    if (op === '|') return a || b;
    if (op === '^') return a !== b;
  }
  throw opNotFound(op, a, b, pos);
}

/** `x op= y`: arrays, strings and maps append in place where Rhai does. */
export function assignOp(rt: Runtime, op: string, a: RhaiValue, b: RhaiValue, pos: Pos): RhaiValue {
  if (op === '+') {
    if (Array.isArray(a)) {
      // `a += a` appends a copy of what `a` held: iterating `a` while pushing onto it never ends.
      checkArrayLength(rt, a.length + (Array.isArray(b) ? b.length : 1), pos);
      if (Array.isArray(b)) for (const x of b === a ? [...b] : b) a.push(cloneValue(rt, x));
      else a.push(cloneValue(rt, b));
      return a;
    }
    if (a instanceof Map && b instanceof Map) {
      for (const [k, v] of b) a.set(k, cloneValue(rt, v));
      checkMap(rt, a, pos);
      return a;
    }
    if (typeof a === 'string') return concatText(rt, a, b instanceof RhaiBlob ? blobText(b.bytes) : textOf(rt, b), pos);
    if (a instanceof RhaiBlob) {
      // builtin.rs: blob += blob / INT / char / string, in place
      const added =
        b instanceof RhaiBlob
          ? b.bytes
          : isInt(b)
            ? [byteOf(b)]
            : b instanceof RhaiChar
              ? textBytes(b.c)
              : typeof b === 'string'
                ? textBytes(b)
                : undefined;
      if (added) {
        checkArrayLength(rt, a.bytes.length + added.length, pos);
        for (const x of b === a ? [...added] : added) a.bytes.push(x);
        return a;
      }
    }
  }
  return binaryOp(rt, op, a, b, pos);
}

/** Rust's f64::max: NaN loses to any number. */
function rustMax(a: number, b: number): number {
  if (Number.isNaN(a)) return b;
  if (Number.isNaN(b)) return a;
  return Math.max(a, b);
}

/**
 * A FLOAT comparison as Rhai's checked build makes it (builtin.rs impl_float): relative to the
 * larger magnitude, within f64::EPSILON counts as equal, so `0.1 + 0.2 == 0.3` and `0 < 1e-16` is
 * false. Any NaN makes every comparison false, `!=` included.
 */
export function floatCompare(op: string, x: number, y: number): boolean {
  const max = x * y === 0 ? 1 : rustMax(Math.abs(x), Math.abs(y));
  const eps = Number.EPSILON;
  switch (op) {
    case '==':
      return max === 0 || Math.abs(x - y) / max <= eps;
    case '!=':
      return max !== 0 && Math.abs(x - y) / max > eps;
    case '>':
      return max !== 0 && (x - y) / max > eps;
    case '>=':
      return max === 0 || (x - y) / max > -eps;
    case '<':
      return max !== 0 && (y - x) / max > eps;
    default:
      return max === 0 || (y - x) / max > -eps; // <=
  }
}

/** `==`: int/float and char/string compare across types; other mixed types are unequal. */
export function valuesEqual(a: RhaiValue, b: RhaiValue, rt?: Runtime, pos?: Pos): boolean {
  if (typeof a === 'string' && typeof b === 'string') {
    // Two equal-length strings compare char by char: charged when long (cost.ts).
    if (rt && a.length === b.length) chargeChars(rt, a.length, pos);
    return a === b;
  }
  if (a === b) return !(a instanceof RhaiFloat && Number.isNaN(a.v)); // NaN equals nothing, itself included
  switch (typeof a) {
    case 'number':
    case 'bigint':
      if (isInt(b)) return BigInt(a) === BigInt(b);
      return b instanceof RhaiFloat && floatCompare('==', Number(a), b.v);
    case 'string':
      return b instanceof RhaiChar && a === b.c;
    case 'undefined':
    case 'boolean':
      return false;
  }
  if (a instanceof RhaiFloat) return (b instanceof RhaiFloat || isInt(b)) && floatCompare('==', a.v, toFloat(b)!);
  if (a instanceof RhaiChar) return (b instanceof RhaiChar && a.c === b.c) || (typeof b === 'string' && a.c === b);
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    if (rt) chargeItems(rt, a.length, pos);
    for (let i = 0; i < a.length; i++) if (!valuesEqual(a[i], b[i], rt, pos)) return false;
    return true;
  }
  if (a instanceof Map) {
    if (!(b instanceof Map) || a.size !== b.size) return false;
    // a key lookup and a compare an entry: up to about 400 ns measured, so at the new-item rate
    if (rt) chargeNewItems(rt, a.size, pos);
    for (const [k, v] of a) if (!b.has(k) || !valuesEqual(v, b.get(k), rt, pos)) return false;
    return true;
  }
  if (a instanceof RhaiRange)
    return b instanceof RhaiRange && a.start === b.start && a.end === b.end && a.inclusive === b.inclusive;
  if (a instanceof RhaiBlob) {
    if (!(b instanceof RhaiBlob) || a.bytes.length !== b.bytes.length) return false;
    if (rt) chargeItems(rt, a.bytes.length);
    return a.bytes.every((x, i) => x === b.bytes[i]);
  }
  if (a instanceof RhaiTimestamp) return b instanceof RhaiTimestamp && a.ms === b.ms;
  if (a instanceof FnPtr)
    return (
      b instanceof FnPtr && a.name === b.name && a.closure === b.closure && a.curry.length === 0 && b.curry.length === 0
    );
  return false;
}

/** `!=`: a FLOAT against a number by Rhai's own `!=` (false when either is NaN); otherwise not `==`. */
export function valuesDiffer(a: RhaiValue, b: RhaiValue, rt?: Runtime, pos?: Pos): boolean {
  if ((a instanceof RhaiFloat && (b instanceof RhaiFloat || isInt(b))) || (isInt(a) && b instanceof RhaiFloat)) {
    return floatCompare('!=', toFloat(a)!, toFloat(b)!);
  }
  return !valuesEqual(a, b, rt, pos);
}

function sameTypeOrComparable(a: RhaiValue, b: RhaiValue): boolean {
  if ((isInt(a) || a instanceof RhaiFloat) && (isInt(b) || b instanceof RhaiFloat)) return true;
  if (isTextual(a) && isTextual(b)) return true;
  return typeName(a) === typeName(b);
}

/** `<`, `<=`, `>`, `>=`. */
export function compareOp(op: string, a: RhaiValue, b: RhaiValue, pos: Pos, rt?: Runtime): boolean {
  if (!sameTypeOrComparable(a, b)) return false;
  let c: number;
  if (isInt(a) && isInt(b)) c = typeof a === 'number' && typeof b === 'number' ? a - b : Number(BigInt(a) - BigInt(b));
  else if (isInt(a) || a instanceof RhaiFloat) return floatCompare(op, toFloat(a)!, toFloat(b)!);
  else if (isTextual(a) && isTextual(b)) {
    if (rt && typeof a === 'string' && typeof b === 'string') chargeChars(rt, Math.min(a.length, b.length), pos);
    c = compareStrings(typeof a === 'string' ? a : a.c, typeof b === 'string' ? b : b.c);
  } else if (typeof a === 'boolean' && typeof b === 'boolean') c = Number(a) - Number(b);
  else if (a instanceof RhaiTimestamp && b instanceof RhaiTimestamp) c = a.ms - b.ms;
  else if (a === undefined && b === undefined) return false;
  else throw opNotFound(op, a, b, pos);
  switch (op) {
    case '<':
      return c < 0;
    case '<=':
      return c <= 0;
    case '>':
      return c > 0;
    default:
      return c >= 0;
  }
}

export function negate(v: RhaiValue, pos: Pos): RhaiValue {
  if (typeof v === 'number') return v === 0 ? 0 : -v;
  if (typeof v === 'bigint') {
    if (v === MIN_INT) throw arithmeticError(`Arithmetic overflow: -(${v})`, pos);
    return normInt(-v);
  }
  if (v instanceof RhaiFloat) return new RhaiFloat(-v.v);
  throw fnNotFound(`- (${typeName(v)})`, pos);
}

/** Is the INT `n` in the range? (JS compares a bigint with a number exactly.) */
export function rangeContains(r: RhaiRange, n: number | bigint): boolean {
  if (r.step === 1) return n >= r.start && (r.inclusive ? n <= r.end : n < r.end);
  const inside = r.step > 0 ? n >= r.start && n < r.end : n <= r.start && n > r.end;
  return inside && (BigInt(n) - BigInt(r.start)) % BigInt(r.step) === 0n;
}

/** `item in container` (Rhai calls `contains(container, item)`). */
export function containsOp(container: RhaiValue, item: RhaiValue, pos: Pos, rt?: Runtime): boolean {
  if (Array.isArray(container)) {
    if (rt) chargeItems(rt, container.length, pos);
    for (const x of container) if (valuesEqual(x, item, rt, pos)) return true;
    return false;
  }
  if (container instanceof Map) {
    if (typeof item === 'string') return container.has(item);
    if (item instanceof RhaiChar) return container.has(item.c);
  }
  if (typeof container === 'string' && isTextual(item)) {
    if (rt) chargeChars(rt, container.length, pos);
    return container.includes(typeof item === 'string' ? item : item.c);
  }
  if (container instanceof RhaiRange && isInt(item)) return rangeContains(container, item);
  if (container instanceof RhaiBlob && isInt(item)) {
    if (rt) chargeItems(rt, container.bytes.length);
    return container.bytes.includes(byteOf(item));
  }
  throw fnNotFound(`contains (${typeName(container)}, ${typeName(item)})`, pos);
}
