// JS <-> Rhai value conversion for embedding (the region engine passes plain JS data).
import { FnPtr, RhaiBlob, RhaiChar, RhaiFloat, RhaiRange, normInt, type RhaiMap, type RhaiValue } from './values.ts';
import { RhaiError } from './errors.ts';

/**
 * Arrays and maps nested deeper than this do not cross between Rhai and JS: the conversion (and
 * the engine code that walks the result) recurses once per level, and a few thousand levels
 * overflow the JS stack of a worker. A script can build such a value within its size limits
 * (`for i in 0..5000 { a = [a]; }`), so the bound is a Rhai error, which a hook's caller turns
 * into a warning, rather than a RangeError that ends the run.
 */
export const MAX_CONVERT_DEPTH = 1_000;

/** Values the conversion hands over as they are (Rhai's own scalars that are JS objects). */
const isRhaiScalar = (x: object): x is RhaiFloat | RhaiChar | RhaiRange | FnPtr =>
  x instanceof RhaiFloat || x instanceof RhaiChar || x instanceof RhaiRange || x instanceof FnPtr;

const tooDeep = (): RhaiError =>
  new RhaiError(
    'ErrorDataTooLarge',
    `Value nested too deeply: arrays and maps more than ${MAX_CONVERT_DEPTH.toLocaleString('en-US')} levels deep cannot be passed between the script and the playground`,
  );

/**
 * integer number -> INT, other number -> FLOAT, bigint -> INT, string -> string, boolean -> bool,
 * null/undefined -> (), array -> array, plain object -> map. Rhai values pass through unchanged.
 */
export function toRhai(js: unknown): RhaiValue {
  return toRhaiAt(js, 0);
}

function toRhaiAt(js: unknown, depth: number): RhaiValue {
  switch (typeof js) {
    case 'undefined':
      return undefined;
    case 'boolean':
    case 'string':
      return js;
    case 'number':
      return Number.isSafeInteger(js) ? (js === 0 ? 0 : js) : new RhaiFloat(js);
    case 'bigint':
      return normInt(BigInt.asIntN(64, js));
    case 'object':
      break;
    default:
      throw new TypeError(`Cannot convert a JS ${typeof js} to a Rhai value`);
  }
  if (js === null) return undefined;
  if (depth >= MAX_CONVERT_DEPTH && !isRhaiScalar(js)) throw tooDeep();
  const inner = depth + 1;
  if (Array.isArray(js)) {
    const out = new Array<RhaiValue>(js.length);
    for (let i = 0; i < js.length; i++) out[i] = toRhaiAt(js[i], inner);
    return out;
  }
  const proto = Object.getPrototypeOf(js);
  if (proto === Object.prototype || proto === null) {
    // Plain object (the common case): checked first, keys read without building entry arrays.
    const out: RhaiMap = new Map();
    const obj = js as Record<string, unknown>;
    for (const k of Object.keys(obj)) out.set(k, toRhaiAt(obj[k], inner));
    return out;
  }
  if (isRhaiScalar(js)) return js;
  if (js instanceof Uint8Array) return new RhaiBlob(Array.from(js));
  if (js instanceof Map) {
    const out: RhaiMap = new Map();
    for (const [k, v] of js) out.set(String(k), toRhaiAt(v, inner));
    return out;
  }
  const out: RhaiMap = new Map();
  for (const [k, v] of Object.entries(js as Record<string, unknown>)) out.set(k, toRhaiAt(v, inner));
  return out;
}

/**
 * () -> undefined, INT -> number (bigint only beyond the safe range), FLOAT -> number,
 * char/string -> string, array -> array, map -> plain object (keys in Rhai's sorted order).
 * Ranges become { start, end, inclusive }; Fn pointers stay FnPtr objects.
 */
export function fromRhai(v: RhaiValue): unknown {
  return fromRhaiAt(v, 0);
}

function fromRhaiAt(v: RhaiValue, depth: number): unknown {
  switch (typeof v) {
    case 'undefined':
    case 'boolean':
    case 'string':
    case 'number':
    case 'bigint':
      return v;
  }
  if (v instanceof RhaiFloat) return v.v;
  if (v instanceof RhaiChar) return v.c;
  if ((Array.isArray(v) || v instanceof Map) && depth >= MAX_CONVERT_DEPTH) throw tooDeep();
  if (Array.isArray(v)) {
    const out = new Array<unknown>(v.length);
    for (let i = 0; i < v.length; i++) out[i] = fromRhaiAt(v[i], depth + 1);
    return out;
  }
  if (v instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const k of [...v.keys()].sort()) out[k] = fromRhaiAt(v.get(k), depth + 1);
    return out;
  }
  if (v instanceof RhaiRange) return { start: v.start, end: v.end, inclusive: v.inclusive };
  if (v instanceof RhaiBlob) return Uint8Array.from(v.bytes);
  return v;
}
