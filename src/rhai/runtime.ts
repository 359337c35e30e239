// All state of one run, on one object a compiled program is handed: operation counting, call
// depth, size limits, output callbacks, the control-flow signal, the program. The packages and
// value copies reach the active run through RT (runs nest: a saved one is restored).
import { dataTooLarge, NO_POS, RhaiError, type Pos } from './errors.ts';
import type { NativeContext } from './packages/types.ts';
import { DEFAULT_LIMITS, type RhaiLimits } from './limits.ts';
import { charCount, type RhaiValue } from './values.ts';

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
  /** Values of top-level constants, for `global::NAME` inside functions. */
  readonly globals = new Map<string, RhaiValue>();
  /** How control leaves a statement: none, break, continue or return (the evaluator's codes). */
  signal = 0;
  /** The value a `break` or `return` carries. */
  signalValue: RhaiValue = undefined;
  /** `this` as the last script function left it, for writing back into the caller's variable. */
  lastThis: RhaiValue = undefined;
  /** The compiled program whose functions `Fn("name")` pointers resolve against. */
  program: unknown = null;
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
  }
}

export let RT: Runtime = new Runtime(DEFAULT_LIMITS, () => {}, () => {});

export function withRuntime<T>(rt: Runtime, body: () => T): T {
  const saved = RT;
  RT = rt;
  try { return body(); } finally { RT = saved; }
}

export function tooManyOperations(pos?: Pos): never {
  throw new RhaiError('ErrorTooManyOperations', 'Too many operations', pos);
}

export function checkString(s: string, pos?: Pos): string {
  if (s.length > RT.maxString && charCount(s) > RT.maxString) {
    throw dataTooLarge('Length of string', pos);
  }
  return s;
}

/** JS strings hold at most this many UTF-16 units (V8 on 64-bit); longer is a RangeError. */
const JS_MAX_STRING = 2 ** 29 - 24;

/** `a + b`, refused with ErrorDataTooLarge (at `pos`) when too long, before JS would throw. */
export function concatText(a: string, b: string, pos?: Pos): string {
  const length = a.length + b.length;
  if (length > JS_MAX_STRING) throw dataTooLarge('Length of string', pos);
  if (length <= RT.maxString) return a + b; // a char is one or two UTF-16 units
  return checkString(a + b, pos);
}

/** Refuses a string of `chars` chars before it is built. */
export function checkStringLength(chars: number, pos?: Pos): void {
  if (chars > RT.maxString) throw dataTooLarge('Length of string', pos);
}

export function checkArray(a: RhaiValue[], pos?: Pos): void {
  if (a.length > RT.maxArray) throw dataTooLarge('Size of array', pos);
}

/** Refuses an array of `items` items before it is built. */
export function checkArrayLength(items: number, pos?: Pos): void {
  if (items > RT.maxArray) throw dataTooLarge('Size of array', pos);
}

export function checkMap(m: Map<string, RhaiValue>, pos?: Pos): void {
  if (m.size > RT.maxMap) throw dataTooLarge('Size of object map', pos);
}
