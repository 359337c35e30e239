// Per-run state shared by the evaluator and the packages: operation counting, call depth, size
// limits, output callbacks. One run is active at a time (runs nest: a saved state is restored).
import { dataTooLarge, RhaiError, type Pos } from './errors.ts';
import { DEFAULT_LIMITS, type RhaiLimits } from './limits.ts';
import { charCount, type RhaiValue } from './values.ts';

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

  constructor(
    limits: Required<RhaiLimits>,
    readonly onPrint: (text: string) => void,
    readonly onDebug: (text: string) => void,
  ) {
    const unlimited = (n: number): number => (n > 0 ? n : Infinity);
    this.opLimit = unlimited(limits.maxOperations);
    this.maxDepth = unlimited(limits.maxCallDepth);
    this.maxString = unlimited(limits.maxStringSize);
    this.maxArray = unlimited(limits.maxArraySize);
    this.maxMap = unlimited(limits.maxMapSize);
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
