// Object map functions (src/packages/map_basic.rs). Listing functions follow the sorted key order.
import { checkMap, checkString } from '../runtime.ts';
import { FnPtr, RhaiBlob, sortedKeys, type RhaiMap, type RhaiValue } from '../values.ts';
import { cloneValue } from '../copy.ts';
import {
  callOnItem,
  fnArg,
  isTrue,
  NO_MATCH,
  textArg,
  type Library,
  type NativeContext,
  type NativeResult,
} from './types.ts';
import { chargeFormatting, debugString, stringDebug } from '../format.ts';
import { chargeItems } from '../cost.ts';

const map =
  (f: (m: RhaiMap, rest: RhaiValue[], ctx: NativeContext) => NativeResult) =>
  (args: RhaiValue[], ctx: NativeContext): NativeResult =>
    args[0] instanceof Map ? f(args[0], args.slice(1), ctx) : NO_MATCH;

/**
 * `to_json` as Rhai's format_dynamic_as_json (api/json.rs): () is null, a Fn pointer is its name
 * (curried: `["name",arg,...]`), a BLOB its bytes, arrays and maps recursively; anything else is
 * its Debug form (so a char is `'c'`, as in Rhai).
 */
function toJson(v: RhaiValue): string {
  if (v === undefined) return 'null';
  if (Array.isArray(v)) return `[${v.map(toJson).join(',')}]`;
  if (v instanceof Map)
    return `{${sortedKeys(v)
      .map((k) => `${stringDebug(k)}:${toJson(v.get(k))}`)
      .join(',')}}`;
  if (v instanceof FnPtr)
    return v.curry.length ? `[${[stringDebug(v.name), ...v.curry.map(toJson)].join(',')}]` : stringDebug(v.name);
  if (v instanceof RhaiBlob) return `[${v.bytes.join(',')}]`;
  return debugString(v);
}

/** The keys in Rhai's order, charged for sorting them (about n log n comparisons). */
function sortedKeysCharged(ctx: NativeContext, m: RhaiMap): string[] {
  chargeItems(ctx.runtime, m.size * Math.max(1, Math.ceil(Math.log2(m.size + 1))));
  return sortedKeys(m);
}

/**
 * Removes the entries the predicate picks (`drain`) or does not pick (`retain`) and returns them,
 * calling the predicate once per entry in key order.
 */
function removeWhere(m: RhaiMap, ctx: NativeContext, fp: FnPtr, removeMatches: boolean): RhaiMap {
  const removed: RhaiMap = new Map();
  for (const k of sortedKeysCharged(ctx, m)) {
    if (isTrue(callOnItem(ctx, fp, m, k, [k], 1)) === removeMatches) {
      removed.set(k, m.get(k));
      m.delete(k);
    }
  }
  return removed;
}

export const mapLib: Library = {
  keys: map((m, rest, ctx) => (rest.length ? NO_MATCH : sortedKeysCharged(ctx, m))),
  values: map((m, rest, ctx) =>
    rest.length ? NO_MATCH : sortedKeysCharged(ctx, m).map((k) => cloneValue(ctx.runtime, m.get(k))),
  ),
  len: map((m, rest) => (rest.length ? NO_MATCH : m.size)),
  is_empty: map((m, rest) => (rest.length ? NO_MATCH : m.size === 0)),
  contains: map((m, [k]) => {
    const key = textArg(k);
    return key === undefined ? NO_MATCH : m.has(key);
  }),
  get: map((m, [k], ctx) => {
    const key = textArg(k);
    return key === undefined ? NO_MATCH : cloneValue(ctx.runtime, m.get(key));
  }),
  set: map((m, [k, v], ctx) => {
    const key = textArg(k);
    if (key === undefined) return NO_MATCH;
    m.set(key, cloneValue(ctx.runtime, v));
    checkMap(ctx.runtime, m);
    return undefined;
  }),
  remove: map((m, [k]) => {
    const key = textArg(k);
    if (key === undefined) return NO_MATCH;
    const v = m.get(key);
    m.delete(key);
    return v;
  }),
  clear: map((m, rest) => {
    if (rest.length) return NO_MATCH;
    m.clear();
    return undefined;
  }),
  mixin: map((m, [other], ctx) => {
    if (!(other instanceof Map)) return NO_MATCH;
    chargeItems(ctx.runtime, other.size);
    for (const [k, v] of other) m.set(k, cloneValue(ctx.runtime, v));
    checkMap(ctx.runtime, m);
    return undefined;
  }),
  fill_with: map((m, [other], ctx) => {
    if (!(other instanceof Map)) return NO_MATCH;
    chargeItems(ctx.runtime, other.size);
    for (const [k, v] of other) if (!m.has(k)) m.set(k, cloneValue(ctx.runtime, v));
    checkMap(ctx.runtime, m);
    return undefined;
  }),
  filter: map((m, [f], ctx) => {
    const fp = fnArg(f);
    if (!fp) return NO_MATCH;
    const out: RhaiMap = new Map();
    for (const k of sortedKeysCharged(ctx, m))
      if (isTrue(callOnItem(ctx, fp, m, k, [k], 1))) out.set(k, cloneValue(ctx.runtime, m.get(k)));
    return out;
  }),
  map: map((m, [f], ctx) => {
    const fp = fnArg(f);
    if (!fp) return NO_MATCH;
    const out: RhaiMap = new Map();
    for (const k of sortedKeysCharged(ctx, m)) out.set(k, callOnItem(ctx, fp, m, k, [k], 1));
    return out;
  }),
  retain: map((m, [f], ctx) => {
    const fp = fnArg(f);
    return fp ? removeWhere(m, ctx, fp, false) : NO_MATCH;
  }),
  drain: map((m, [f], ctx) => {
    const fp = fnArg(f);
    return fp ? removeWhere(m, ctx, fp, true) : NO_MATCH;
  }),
  to_json: map((m, _rest, ctx) => {
    chargeFormatting(ctx.runtime, m);
    return checkString(ctx.runtime, toJson(m));
  }),
};
