// The standard package: every native function by name, overloads tried in order.
import { arrayLib } from './array.ts';
import { blobLib } from './blob.ts';
import { timeLib } from './time.ts';
import { bitsLib } from './bits.ts';
import { coreLib } from './core.ts';
import { mapLib } from './map.ts';
import { mathLib } from './math.ts';
import { stringLib } from './string.ts';
import { overloadMatchers } from './signatures.ts';
import { NO_MATCH, type Library, type NativeFn } from './types.ts';
import { RhaiBlob } from '../values.ts';

export { NO_MATCH } from './types.ts';
export type { NativeContext, NativeFn } from './types.ts';

/**
 * One function per name: the overload check from signatures.ts first (ErrorFunctionNotFound for any
 * argument types Rhai does not register), then each package's body in turn.
 */
function merge(libs: Library[]): Map<string, NativeFn> {
  const byName = new Map<string, NativeFn[]>();
  for (const lib of libs) {
    for (const [name, fn] of Object.entries(lib)) {
      const list = byName.get(name) ?? [];
      list.push(fn);
      byName.set(name, list);
    }
  }
  const matchers = overloadMatchers();
  const out = new Map<string, NativeFn>();
  for (const [name, list] of byName) {
    const [first] = list;
    const accepts = matchers.get(name);
    if (!accepts) throw new Error(`native function '${name}' has no entry in packages/signatures.ts`);
    const body: NativeFn =
      list.length === 1 && first
        ? first
        : (args, ctx) => {
            for (const fn of list) {
              const r = fn(args, ctx);
              if (r !== NO_MATCH) return r;
            }
            return NO_MATCH;
          };
    out.set(name, (args, ctx) => (accepts(args) ? body(args, ctx) : NO_MATCH));
  }
  for (const name of matchers.keys())
    if (!out.has(name)) throw new Error(`signatures.ts lists '${name}', which no package defines`);
  return out;
}

export const NATIVE_FUNCTIONS: ReadonlyMap<string, NativeFn> = merge([
  coreLib,
  mathLib,
  bitsLib,
  stringLib,
  arrayLib,
  mapLib,
  blobLib,
  timeLib,
]);

export { PROPERTY_GETTERS } from './signatures.ts';

/** Native methods that change their first argument (Rhai's non-`pure` functions). */
const NON_PURE = new Set([
  'push',
  'append',
  'insert',
  'pop',
  'shift',
  'remove',
  'reverse',
  'clear',
  'pad',
  'truncate',
  'chop',
  'retain',
  'drain',
  'splice',
  'dedup',
  'sort',
  'sort_by',
  'sort_desc',
  'set',
  'mixin',
  'fill_with',
  'make_upper',
  'make_lower',
  'trim',
  'replace',
  'crop',
  'set_bit',
  'set_bits',
  'for_each',
  'take',
  'write_le',
  'write_be',
  'write_utf8',
  'write_ascii',
]);

/** Would calling native `name` on `target` change it? (`split` changes arrays, not strings.) */
export function isNonPureCall(name: string, target: unknown): boolean {
  if (name === 'split') return Array.isArray(target) || target instanceof RhaiBlob;
  return (
    NON_PURE.has(name) &&
    (Array.isArray(target) ||
      target instanceof Map ||
      target instanceof RhaiBlob ||
      typeof target === 'string' ||
      typeof target === 'number' ||
      typeof target === 'bigint')
  );
}
