// All state of one run, on one object a compiled program is handed: operation counting, call
// depth, size limits, output callbacks, the control-flow signal, the program. Nothing is kept at
// module level: the evaluator reaches the run through its frames (`env.rt`), native functions
// through their context (`ctx.runtime`), and the size checks below are handed it.
import { dataTooLarge, NO_POS, RhaiError, type Pos } from './errors.ts';
import type { NativeContext } from './packages/types.ts';
import type { RhaiLimits } from './limits.ts';
import type { ModuleImport } from './eval/modules.ts';
import type { CharIndex } from './text.ts';
import { charCount, RhaiBlob, type RhaiValue } from './values.ts';

/**
 * "Unlimited" arrays and maps still stop here with ErrorDataTooLarge: a JS Map holds at most 2^24
 * entries, and an array grown without end would exhaust the process's memory and crash it.
 * (A string beyond what JS can hold raises a RangeError, which a run reports as ErrorDataTooLarge.)
 */
export const HOST_MAX_ITEMS = 2 ** 24 - 1;

export class Runtime {
  ops = 0;
  depth = 0;
  readonly opLimit: number;
  readonly maxDepth: number;
  readonly maxString: number;
  readonly maxArray: number;
  readonly maxMap: number;
  /** Expression depth limits, for the scripts `eval` compiles while running. */
  readonly parseLimits: { maxExprDepth: number; maxFunctionExprDepth: number };
  /** Values of top-level constants, for `global::NAME` inside functions (a module's own while its code runs). */
  globals = new Map<string, RhaiValue>();
  /** The modules imported so far, newest last (`import`); blocks and calls drop the ones they added. */
  readonly imports: ModuleImport[] = [];
  /** Where the imports the running code may see begin (a module's code sees only its own). */
  importsBase = 0;
  /** How control leaves a statement: none, break, continue or return (the evaluator's codes). */
  signal = 0;
  /** The value a `break` or `return` carries. */
  signalValue: RhaiValue = undefined;
  /** A `?.` / `?[` found (): the rest of its chain is skipped (cleared where the chain ends). */
  skipChain = false;
  /** `this` as the last script function left it, for writing back into the caller's variable. */
  lastThis: RhaiValue = undefined;
  /** The compiled program whose functions `Fn("name")` pointers resolve against. */
  program: unknown = null;
  /** While a module's function runs: the programs that called into it, outermost first. */
  readonly callers: unknown[] = [];
  /** The last strings indexed by chars (text.ts): a loop over a string's chars re-indexes nothing. */
  readonly textMemo: { text: string; index: CharIndex }[] = [];
  /** What native functions may ask of this run, and the position of the native call in progress. */
  native: NativeContext | null = null;
  callPos: Pos = NO_POS;

  constructor(
    limits: Required<RhaiLimits>,
    readonly onPrint: (text: string) => void,
    readonly onDebug: (text: string) => void,
  ) {
    const orElse = (n: number, unlimited: number): number => (n > 0 ? n : unlimited);
    this.opLimit = orElse(limits.maxOperations, Infinity);
    this.maxDepth = orElse(limits.maxCallDepth, Infinity);
    this.maxString = orElse(limits.maxStringSize, Infinity);
    this.maxArray = orElse(limits.maxArraySize, HOST_MAX_ITEMS);
    this.maxMap = orElse(limits.maxMapSize, HOST_MAX_ITEMS);
    this.parseLimits = { maxExprDepth: limits.maxExprDepth, maxFunctionExprDepth: limits.maxFunctionExprDepth };
  }
}

export function tooManyOperations(pos?: Pos): never {
  throw new RhaiError('ErrorTooManyOperations', 'Too many operations', pos);
}

export function checkString(rt: Runtime, s: string, pos?: Pos): string {
  if (s.length > rt.maxString && charCount(s) > rt.maxString) {
    throw dataTooLarge('Length of string', pos);
  }
  return s;
}

/** JS strings hold at most this many UTF-16 units (V8 on 64-bit); longer is a RangeError. */
const JS_MAX_STRING = 2 ** 29 - 24;

/** `a + b`, refused with ErrorDataTooLarge (at `pos`) when too long, before JS would throw. */
export function concatText(rt: Runtime, a: string, b: string, pos?: Pos): string {
  const length = a.length + b.length;
  if (length > JS_MAX_STRING) throw dataTooLarge('Length of string', pos);
  if (length <= rt.maxString) return a + b; // a char is one or two UTF-16 units
  return checkString(rt, a + b, pos);
}

/** Refuses a string of `chars` chars before it is built. */
export function checkStringLength(rt: Runtime, chars: number, pos?: Pos): void {
  if (chars > rt.maxString) throw dataTooLarge('Length of string', pos);
}

export function checkArray(rt: Runtime, a: RhaiValue[], pos?: Pos): void {
  if (a.length > rt.maxArray) throw dataTooLarge('Size of array/BLOB', pos);
}

/** Refuses an array of `items` items before it is built. */
export function checkArrayLength(rt: Runtime, items: number, pos?: Pos): void {
  if (items > rt.maxArray) throw dataTooLarge('Size of array/BLOB', pos);
}

export function checkMap(rt: Runtime, m: Map<string, RhaiValue>, pos?: Pos): void {
  if (m.size > rt.maxMap) throw dataTooLarge('Size of object map', pos);
}

/**
 * Rhai's data-size check on a new array or map literal (`calc_data_sizes`): items of nested arrays
 * and entries of nested maps count at every depth, so `[[1, 2], [3, 4]]` holds 6 array items.
 */
export function checkNestedSizes(rt: Runtime, v: RhaiValue[] | Map<string, RhaiValue>, pos?: Pos): void {
  const size = { items: 0, entries: 0 };
  countNested(v, size);
  if (size.items > rt.maxArray) throw dataTooLarge('Size of array/BLOB', pos);
  if (size.entries > rt.maxMap) throw dataTooLarge('Size of object map', pos);
}

function countNested(v: RhaiValue, size: { items: number; entries: number }): void {
  if (v instanceof RhaiBlob) size.items += v.bytes.length;
  else if (Array.isArray(v)) {
    size.items += v.length;
    for (const x of v) if (typeof x === 'object') countNested(x, size);
  } else if (v instanceof Map) {
    size.entries += v.size;
    for (const x of v.values()) if (typeof x === 'object') countNested(x, size);
  }
}
