// The standard package: every native function by name, overloads tried in order.
import { arrayLib } from './array.ts';
import { bitsLib } from './bits.ts';
import { coreLib } from './core.ts';
import { mapLib } from './map.ts';
import { mathLib } from './math.ts';
import { stringLib } from './string.ts';
import { NO_MATCH, type Library, type NativeFn } from './types.ts';

export { NO_MATCH } from './types.ts';
export type { NativeContext, NativeFn } from './types.ts';

function merge(libs: Library[]): Map<string, NativeFn> {
  const byName = new Map<string, NativeFn[]>();
  for (const lib of libs) {
    for (const [name, fn] of Object.entries(lib)) {
      const list = byName.get(name) ?? [];
      list.push(fn);
      byName.set(name, list);
    }
  }
  const out = new Map<string, NativeFn>();
  for (const [name, list] of byName) {
    if (list.length === 1) { out.set(name, list[0]!); continue; }
    out.set(name, (args, ctx) => {
      for (const fn of list) {
        const r = fn(args, ctx);
        if (r !== NO_MATCH) return r;
      }
      return NO_MATCH;
    });
  }
  return out;
}

export const NATIVE_FUNCTIONS: ReadonlyMap<string, NativeFn> = merge([coreLib, mathLib, bitsLib, stringLib, arrayLib, mapLib]);

/** Names readable as properties on non-map values (`s.len`, `fp.name`, `r.start`). */
export const PROPERTY_GETTERS = new Set(['len', 'is_empty', 'name', 'is_anonymous', 'start', 'end', 'is_inclusive', 'is_exclusive', 'bytes']);

/** Native methods that change their first argument (Rhai's non-`pure` functions). */
const NON_PURE = new Set([
  'push', 'append', 'insert', 'pop', 'shift', 'remove', 'reverse', 'clear', 'pad', 'truncate', 'chop', 'retain',
  'drain', 'splice', 'dedup', 'sort', 'sort_desc', 'set', 'mixin', 'fill_with', 'make_upper', 'make_lower', 'trim',
  'trim_start', 'trim_end', 'replace', 'crop', 'set_bit', 'set_bits',
]);

/** Would calling native `name` on `target` change it? (`split` changes arrays, not strings.) */
export function isNonPureCall(name: string, target: unknown): boolean {
  if (name === 'split') return Array.isArray(target);
  return NON_PURE.has(name) &&
    (Array.isArray(target) || target instanceof Map || typeof target === 'string' || typeof target === 'number' || typeof target === 'bigint');
}
