// Rhai's Dynamic value, mapped onto JS values:
//   ()      -> undefined            bool   -> boolean
//   INT     -> number (integer, always within the JS safe range) or bigint (only outside it)
//   FLOAT   -> RhaiFloat (boxed so that 2.0 stays distinct from 2)
//   string  -> string               char   -> RhaiChar
//   array   -> RhaiValue[]          map    -> Map<string, RhaiValue> (key order is applied when listed)
//   range   -> RhaiRange            Fn     -> FnPtr
//   blob    -> RhaiBlob             timestamp -> RhaiTimestamp

export type RhaiValue =
  | undefined
  | boolean
  | number
  | bigint
  | string
  | RhaiFloat
  | RhaiChar
  | RhaiValue[]
  | RhaiMap
  | RhaiRange
  | FnPtr
  | RhaiBlob
  | RhaiTimestamp;

export type RhaiMap = Map<string, RhaiValue>;
export type RhaiArray = RhaiValue[];

export class RhaiFloat {
  constructor(readonly v: number) {}
}

export class RhaiChar {
  /** `c` is one Unicode scalar value (one or two UTF-16 units). */
  constructor(readonly c: string) {}
}

const asciiChars: RhaiChar[] = [];
for (let i = 0; i < 128; i++) asciiChars.push(new RhaiChar(String.fromCharCode(i)));

export function makeChar(c: string): RhaiChar {
  const code = c.charCodeAt(0);
  return c.length === 1 && code < 128 ? asciiChars[code]! : new RhaiChar(c);
}

/**
 * `a..b`, `a..=b`, and `range(from, to, step)` for INT (a step other than 1 is a StepRange). The
 * ends are INT values (a bigint only beyond the safe range: `5..` ends at i64::MAX, as in Rhai).
 */
export class RhaiRange {
  constructor(
    readonly start: number | bigint,
    readonly end: number | bigint,
    readonly inclusive: boolean,
    readonly step = 1,
  ) {}
}

/** Rhai's BLOB (`Vec<u8>`): bytes, copied like arrays when stored. */
export class RhaiBlob {
  /** Each item is a byte, 0..=255. */
  constructor(readonly bytes: number[] = []) {}
}

/** Rhai's `timestamp()`: an instant, in milliseconds of the host's monotonic clock. */
export class RhaiTimestamp {
  constructor(readonly ms: number) {}
}

/** Anything a Fn pointer can resolve to at call time (a script function or a closure body). */
export interface Callable {
  readonly name: string;
  readonly arity: number;
}

export class FnPtr {
  constructor(
    readonly name: string,
    readonly curry: RhaiValue[] = [],
    /** Set for closures and anonymous functions: the compiled body plus its captured cells. */
    readonly closure?: { fn: Callable; captures: Cell[] },
  ) {}
  get isAnonymous(): boolean {
    return this.closure !== undefined;
  }
}

/**
 * A variable a closure may capture. `shared` is set once a closure has captured it: from then on it
 * is one value for the scope and the closures (Rhai's shared value, `is_shared`).
 */
export interface Cell {
  value: RhaiValue;
  shared?: boolean;
}

export const MAX_INT = 9223372036854775807n;
export const MIN_INT = -9223372036854775808n;

export function isInt(v: RhaiValue): v is number | bigint {
  return typeof v === 'number' || typeof v === 'bigint';
}

/** Brings an exact i64 back to the fast representation when it fits. */
export function normInt(b: bigint): number | bigint {
  return b >= -9007199254740991n && b <= 9007199254740991n ? Number(b) : b;
}

export function typeName(v: RhaiValue): string {
  switch (typeof v) {
    case 'undefined':
      return '()';
    case 'boolean':
      return 'bool';
    case 'number':
    case 'bigint':
      return 'i64';
    case 'string':
      return 'string';
  }
  if (v instanceof RhaiFloat) return 'f64';
  if (v instanceof RhaiChar) return 'char';
  if (Array.isArray(v)) return 'array';
  if (v instanceof Map) return 'map';
  if (v instanceof RhaiRange) return v.step !== 1 ? 'StepRange<i64>' : v.inclusive ? 'range=' : 'range';
  if (v instanceof RhaiBlob) return 'blob';
  if (v instanceof RhaiTimestamp) return 'timestamp';
  return 'Fn';
}

/** Bytewise order of UTF-8 strings (BTreeMap<SmartString> key order) == code point order. */
export function compareStrings(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      // Surrogates (astral code points) sort after every BMP char in code point order.
      const xs = x >= 0xd800 && x <= 0xdfff;
      const ys = y >= 0xd800 && y <= 0xdfff;
      if (xs !== ys) return xs ? 1 : -1;
      return x - y;
    }
  }
  return a.length - b.length;
}

export function sortedKeys(m: RhaiMap): string[] {
  return [...m.keys()].sort(compareStrings);
}

/** Does `s` hold a char outside the BMP (two UTF-16 units)? Without one, chars are UTF-16 units. */
export function hasAstral(s: string): boolean {
  return /[\ud800-\udfff]/.test(s);
}

/** Unicode scalar values of a string (Rhai strings are char sequences). */
export function toChars(s: string): string[] {
  return hasAstral(s) ? Array.from(s) : s.split('');
}

export function charCount(s: string): number {
  return hasAstral(s) ? Array.from(s).length : s.length;
}
