// The operation budget charged in proportion to work. Rhai counts one operation per statement,
// call and loop pass, whatever a native function does; a function that scans a 10 MB string then
// costs what an addition costs, and a loop of them runs for minutes under a 1,000,000-operation
// limit. Here a function also charges for the size it touches, at rates chosen so that one
// operation is at most about 2 µs of work on the machines measured (docs/performance-rhai.md), so
// the default budget bounds any script to about 2 s.
import { RhaiError, type Pos } from './errors.ts';
import type { Runtime } from './runtime.ts';

/**
 * Chars per operation for work done a char at a time by the JS engine's own string code: comparing,
 * searching, copying, case mapping, encoding, escaping (up to about 8 ns a char measured).
 */
export const CHARS_PER_OP = 256;

/** Items per operation for work that visits array or map items, or compares them (up to about 100 ns each). */
export const ITEMS_PER_OP = 16;

/** Items per operation for work that makes a new value per item (a char string, a boxed char: up to about 300 ns each). */
export const NEW_ITEMS_PER_OP = 4;

export function tooManyOperations(pos?: Pos): never {
  throw new RhaiError('ErrorTooManyOperations', 'Too many operations', pos);
}

/** Charges `ops` operations (at least one when there is any work), failing past the run's limit. */
export function chargeOps(rt: Runtime, ops: number, pos?: Pos): void {
  rt.ops += ops;
  if (rt.ops > rt.opLimit) tooManyOperations(pos);
}

/** Charges for `chars` chars of text handled. */
export function chargeChars(rt: Runtime, chars: number, pos?: Pos): void {
  if (chars > CHARS_PER_OP) chargeOps(rt, Math.ceil(chars / CHARS_PER_OP), pos);
}

/** Charges for `items` array or map items visited. */
export function chargeItems(rt: Runtime, items: number, pos?: Pos): void {
  if (items > ITEMS_PER_OP) chargeOps(rt, Math.ceil(items / ITEMS_PER_OP), pos);
}

/** Charges for `items` new values made (chars, bytes as INTs, pieces). */
export function chargeNewItems(rt: Runtime, items: number, pos?: Pos): void {
  if (items > NEW_ITEMS_PER_OP) chargeOps(rt, Math.ceil(items / NEW_ITEMS_PER_OP), pos);
}
