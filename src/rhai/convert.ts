// JS <-> Rhai value conversion for embedding (the region engine passes plain JS data).
import { FnPtr, RhaiBlob, RhaiChar, RhaiFloat, RhaiRange, normInt, type RhaiMap, type RhaiValue } from './values.ts';

/**
 * integer number -> INT, other number -> FLOAT, bigint -> INT, string -> string, boolean -> bool,
 * null/undefined -> (), array -> array, plain object -> map. Rhai values pass through unchanged.
 */
export function toRhai(js: unknown): RhaiValue {
  switch (typeof js) {
    case 'undefined': return undefined;
    case 'boolean': case 'string': return js;
    case 'number': return Number.isSafeInteger(js) ? (js === 0 ? 0 : js) : new RhaiFloat(js);
    case 'bigint': return normInt(BigInt.asIntN(64, js));
    case 'object': break;
    default: throw new TypeError(`Cannot convert a JS ${typeof js} to a Rhai value`);
  }
  if (js === null) return undefined;
  if (Array.isArray(js)) {
    const out = new Array<RhaiValue>(js.length);
    for (let i = 0; i < js.length; i++) out[i] = toRhai(js[i]);
    return out;
  }
  const proto = Object.getPrototypeOf(js);
  if (proto === Object.prototype || proto === null) {
    // Plain object (the common case): checked first, keys read without building entry arrays.
    const out: RhaiMap = new Map();
    const obj = js as Record<string, unknown>;
    for (const k of Object.keys(obj)) out.set(k, toRhai(obj[k]));
    return out;
  }
  if (js instanceof RhaiFloat || js instanceof RhaiChar || js instanceof RhaiRange || js instanceof FnPtr) return js;
  if (js instanceof Uint8Array) return new RhaiBlob(Array.from(js));
  if (js instanceof Map) {
    const out: RhaiMap = new Map();
    for (const [k, v] of js) out.set(String(k), toRhai(v));
    return out;
  }
  const out: RhaiMap = new Map();
  for (const [k, v] of Object.entries(js as Record<string, unknown>)) out.set(k, toRhai(v));
  return out;
}

/**
 * () -> undefined, INT -> number (bigint only beyond the safe range), FLOAT -> number,
 * char/string -> string, array -> array, map -> plain object (keys in Rhai's sorted order).
 * Ranges become { start, end, inclusive }; Fn pointers stay FnPtr objects.
 */
export function fromRhai(v: RhaiValue): unknown {
  switch (typeof v) {
    case 'undefined': case 'boolean': case 'string': case 'number': case 'bigint': return v;
  }
  if (v instanceof RhaiFloat) return v.v;
  if (v instanceof RhaiChar) return v.c;
  if (Array.isArray(v)) return v.map(fromRhai);
  if (v instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const k of [...v.keys()].sort()) out[k] = fromRhai(v.get(k));
    return out;
  }
  if (v instanceof RhaiRange) return { start: v.start, end: v.end, inclusive: v.inclusive };
  if (v instanceof RhaiBlob) return Uint8Array.from(v.bytes);
  return v;
}
