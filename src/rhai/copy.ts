// Copying values (Rhai's value semantics for arrays and maps), against the run's limits.
// Its own module so that values.ts needs nothing from runtime.ts (which needs values.ts).
import { chargeItems } from './cost.ts';
import { dataTooLarge } from './errors.ts';
import type { Runtime } from './runtime.ts';
import { RhaiBlob, type RhaiMap, type RhaiValue } from './values.ts';

/**
 * Rhai clones arrays and maps on assignment and argument passing (value semantics). Like Rhai's
 * data-size check, the copy counts array items and map entries at every depth against the run's
 * limits, so `a = [a, a]` in a loop stops with ErrorDataTooLarge instead of doubling until the
 * process runs out of memory; and it charges operations for the items copied (Rhai does not, but
 * otherwise copying a large value in a loop would be unbounded work per operation).
 */
export function cloneValue(rt: Runtime, v: RhaiValue): RhaiValue {
  if (typeof v !== 'object') return v;
  const size = { items: 0, entries: 0 };
  const copy = cloneCounted(rt, v, size);
  charge(rt, size);
  return copy;
}

/**
 * What cloneValue checks and charges, for a value nothing else holds (fresh from toRhai), which is
 * then used as it is: the same errors at the same point, without building a copy.
 */
export function adoptValue(rt: Runtime, v: RhaiValue): RhaiValue {
  if (typeof v !== 'object') return v;
  const size = { items: 0, entries: 0 };
  countSized(rt, v, size);
  charge(rt, size);
  return v;
}

// Copying costs operations (one per 16 items), so a loop that copies a big or deep value stays
// bounded, while the size limits still stop a value that doubles before the operations run out.
function charge(rt: Runtime, size: { items: number; entries: number }): void {
  chargeItems(rt, size.items + size.entries);
}

function cloneCounted(rt: Runtime, v: RhaiValue, size: { items: number; entries: number }): RhaiValue {
  if (v instanceof RhaiBlob) {
    size.items += v.bytes.length;
    if (size.items > rt.maxArray) throw dataTooLarge('Size of array/BLOB');
    return new RhaiBlob(v.bytes.slice());
  }
  if (Array.isArray(v)) {
    size.items += v.length;
    if (size.items > rt.maxArray) throw dataTooLarge('Size of array/BLOB');
    const out = new Array<RhaiValue>(v.length);
    for (let i = 0; i < v.length; i++) {
      const x = v[i];
      out[i] = typeof x === 'object' ? cloneCounted(rt, x, size) : x;
    }
    return out;
  }
  if (v instanceof Map) {
    size.entries += v.size;
    if (size.entries > rt.maxMap) throw dataTooLarge('Size of object map');
    const out: RhaiMap = new Map();
    for (const [k, x] of v) out.set(k, typeof x === 'object' ? cloneCounted(rt, x, size) : x);
    return out;
  }
  return v;
}

/** cloneCounted's walk and checks, in the same order, copying nothing. */
function countSized(rt: Runtime, v: RhaiValue, size: { items: number; entries: number }): void {
  if (v instanceof RhaiBlob) {
    size.items += v.bytes.length;
    if (size.items > rt.maxArray) throw dataTooLarge('Size of array/BLOB');
  } else if (Array.isArray(v)) {
    size.items += v.length;
    if (size.items > rt.maxArray) throw dataTooLarge('Size of array/BLOB');
    for (let i = 0; i < v.length; i++) {
      const x = v[i];
      if (typeof x === 'object') countSized(rt, x, size);
    }
  } else if (v instanceof Map) {
    size.entries += v.size;
    if (size.entries > rt.maxMap) throw dataTooLarge('Size of object map');
    for (const x of v.values()) if (typeof x === 'object') countSized(rt, x, size);
  }
}
