// What statements need beyond evaluation: the value a `catch` sees, switch-case matching, what a
// `for` loop visits, and JS engine failures turned into the Rhai errors they stand for.
import {
  dataTooLarge,
  innermost,
  isJsStackOverflow,
  RhaiError,
  rhaiDisplayText,
  rhaiKnowsPosition,
  stackOverflow,
  type Pos,
} from '../errors.ts';
import { valuesEqual } from '../ops.ts';
import { RhaiBlob, RhaiRange, typeName, type RhaiMap, type RhaiValue } from '../values.ts';

/**
 * The value a caught error gives to `catch (e)` (Rhai's `Stmt::TryCatch`): a value thrown anywhere
 * below, even inside called functions, as it was thrown; otherwise a map describing the error as
 * it reached the `try`, so an error inside a script function is the `ErrorInFunctionCall` that
 * wraps it, with the call's position and `function`/`source` fields.
 */
export function caughtValue(e: RhaiError): RhaiValue {
  const inner = innermost(e);
  if (inner.kind === 'ErrorRuntime') return inner.value;
  const m: RhaiMap = new Map();
  m.set('message', rhaiDisplayText(e, false));
  if (rhaiKnowsPosition(e)) {
    m.set('line', e.line);
    m.set('position', e.column);
  }
  m.set('error', e.kind);
  for (const [k, v] of Object.entries(e.fields ?? {})) m.set(k, v);
  return m;
}
/** A switch value case matches only a value of the same type (`"1"` does not match `1`). */
export function switchValueMatches(values: RhaiValue[], type: string, v: RhaiValue): boolean {
  for (const x of values) if (typeName(x) === type && sameTypedValue(x, v)) return true;
  return false;
}

/** Rhai looks switch cases up by hash, so items inside arrays and maps must match in type too. */
export function sameTypedValue(a: RhaiValue, b: RhaiValue): boolean {
  if (typeName(a) !== typeName(b)) return false;
  if (Array.isArray(a)) {
    const other = b as RhaiValue[];
    return a.length === other.length && a.every((x, i) => sameTypedValue(x, other[i]));
  }
  if (a instanceof Map) {
    const other = b as RhaiMap;
    if (a.size !== other.size) return false;
    for (const [k, x] of a) if (!other.has(k) || !sameTypedValue(x, other.get(k))) return false;
    return true;
  }
  return valuesEqual(a, b);
}

/** Values a `for` loop visits (a string's chars are read one at a time by the loop). */
export function iterationValues(v: RhaiValue, fresh: boolean, pos: Pos): RhaiValue[] | RhaiRange | string {
  if (v instanceof RhaiRange) return v;
  if (Array.isArray(v)) return fresh ? v : v.slice();
  if (typeof v === 'string') return v;
  if (v instanceof RhaiBlob) return v.bytes.slice(); // each byte as an INT
  throw new RhaiError('ErrorFor', 'For loop expects iterable type', pos);
}

/** JS engine failures a script can provoke, as the Rhai errors they stand for. */
export function asRhaiError(e: unknown): unknown {
  if (isJsStackOverflow(e)) return stackOverflow();
  if (e instanceof RangeError && /invalid string length/i.test(e.message)) return dataTooLarge('Length of string');
  if (e instanceof RangeError && /invalid array length/i.test(e.message)) return dataTooLarge('Size of array/BLOB');
  if (e instanceof RangeError && /map maximum size/i.test(e.message)) return dataTooLarge('Size of object map');
  return e;
}
