// Frames and the pieces every part of the evaluator shares: the compiled-closure type, the
// control-flow signal codes, operation counting, function signatures for error messages.
import type { FnDef } from '../ast.ts';
import { mismatchError, type Pos } from '../errors.ts';
import { tooManyOperations } from '../cost.ts';
import type { Runtime } from '../runtime.ts';
import { typeName, type Callable, type Cell, type RhaiValue } from '../values.ts';

export type Ev = (env: Env) => RhaiValue;
export type Change<A> = (old: RhaiValue, arg: A, env: Env) => RhaiValue;
export interface LValue {
  get: Ev;
  set: (env: Env, v: RhaiValue) => void;
  /**
   * Read-modify-write that evaluates the container and index only once (`a[f()] += 1`).
   * `change` is made once per call site (creating closures per execution is costly under tsx).
   */
  update: <A>(env: Env, change: Change<A>, arg: A) => void;
  /** True when the root is a constant (a `const` variable, or `this` bound to one). */
  isConst: (env: Env) => boolean;
  /** For a variable a closure may capture: its cell (shared once a closure has captured it). */
  cell?: (env: Env) => Cell;
}
/** A variable `eval` added to a frame at run time (Rhai's scope grows; later reads search it by name). */
export interface DynVar {
  name: string;
  cell: Cell;
  isConst: boolean;
}

/**
 * The caller's variables seen by an `eval`'d script or a `foo!()` call: the caller's frame and its
 * variables in scope at the call, by name. Names the callee does not declare are looked up here.
 */
export interface ParentScope {
  env: Env;
  vars: ReadonlyMap<string, LValue>;
}

export class Env {
  readonly slots: RhaiValue[] | Cell[] | unknown[];
  thisVal: RhaiValue = undefined;
  hasThis = false;
  thisConst = false;
  /** Variables `eval` declared in this frame, oldest first (null until one does). */
  dyn: DynVar[] | null = null;
  /** For an `eval` frame or a `!` call: where names this frame does not declare are found. */
  parent: ParentScope | null = null;
  /** A module's top-level frame: its `export`s, read when its top level has run. */
  exports: { alias: string; read: () => RhaiValue }[] | null = null;
  /** The run this frame belongs to: counters, limits, control-flow signal, output. */
  constructor(
    size: number,
    readonly caps: Cell[] | null,
    readonly rt: Runtime,
  ) {
    this.slots = new Array(size);
  }
}

export interface CompiledFn extends Callable {
  readonly def: FnDef;
  readonly slotCount: number;
  readonly paramSlots: number[];
  readonly paramCaptured: boolean[];
  body: Ev;
  /** Frames earlier calls have finished with, cleared, for the next calls (see takeFrame). */
  readonly freeFrames: Env[];
  /** False when the body calls `eval`: its frame's variables may then be reached by name from outside. */
  readonly reusesFrames: boolean;
}

/**
 * Free frames each function keeps at most (a recursion deeper than this makes new frames for the
 * deeper calls).
 */
const MAX_FREE_FRAMES = 64;

/**
 * A frame for a call of `fn` in the run `rt` with the captured cells `caps`: one an earlier call of
 * the same run has finished with, else a new one. A call makes no other object, so reusing frames
 * spares allocating and collecting two objects per call. Nothing keeps a frame once its call has
 * returned: closures capture cells, not frames, and only `eval` (never in a function whose frames
 * are reused) and a module's exports (a module's top-level frame, never a function's) read a
 * frame's slots by name later. A closure that captures variables gets a new frame each call
 * (its frames would hold its cells), and so does every call of another run.
 */
export function takeFrame(fn: CompiledFn, rt: Runtime, caps: Cell[] | null): Env {
  const free = fn.freeFrames;
  if (free.length > 0 && (caps === null || caps.length === 0)) {
    const env = free.pop()!;
    if (env.rt === rt) return env;
    free.length = 0; // frames of an earlier run
  }
  return new Env(fn.slotCount, caps, rt);
}

/**
 * Hands back a frame whose call has returned. Its slots keep no object or string alive; numbers
 * and bools stay, as clearing them would change how V8 stores the slots array (a number-only array
 * stays unboxed) for every frame the same code reads.
 */
export function releaseFrame(fn: CompiledFn, env: Env): void {
  const free = fn.freeFrames;
  if (!fn.reusesFrames || free.length >= MAX_FREE_FRAMES || (env.caps !== null && env.caps.length > 0)) return;
  const slots = env.slots;
  for (let i = 0; i < slots.length; i++) {
    const v = slots[i];
    if (typeof v === 'object' || typeof v === 'string' || typeof v === 'bigint') slots[i] = undefined;
  }
  if (env.hasThis) {
    env.thisVal = undefined;
    env.hasThis = false;
    env.thisConst = false;
  }
  if (env.parent !== null) env.parent = null; // `dyn` stays null: only `eval` adds to it
  free.push(env);
}

// Control flow leaves a statement through a signal on the run (`rt.signal`), not exceptions.
export const NONE = 0,
  BREAK = 1,
  CONTINUE = 2,
  RETURN = 3;

export const unit: Ev = () => undefined;

/** `break` or `return`: sets the signal, carrying `value`'s result (or () when there is none). */
export function leaveWith(signal: typeof BREAK | typeof RETURN, value: Ev | null): Ev {
  return (env) => {
    env.rt.signalValue = value ? value(env) : undefined;
    env.rt.signal = signal;
    return undefined;
  };
}

export function slotsOf(env: Env): RhaiValue[] {
  return env.slots as RhaiValue[];
}
export function cellsOf(env: Env): Cell[] {
  return env.slots as Cell[];
}

export function countOp(rt: Runtime, pos: Pos): void {
  if (++rt.ops > rt.opLimit) tooManyOperations(pos);
}

export function expectBool(v: RhaiValue, pos: Pos): boolean {
  if (v === true) return true;
  if (v === false) return false;
  throw mismatchError('bool', typeName(v), pos);
}

export function signature(name: string, args: RhaiValue[]): string {
  return `${name} (${args.map(typeName).join(', ')})`;
}

export function makeCompiledFn(def: FnDef): CompiledFn {
  return {
    name: def.name,
    arity: def.params.length,
    def,
    slotCount: def.slotCount,
    paramSlots: def.params.map((p) => p.slot),
    paramCaptured: def.params.map((p) => p.captured),
    body: unit,
    freeFrames: [],
    reusesFrames: def.usesEval !== true,
  };
}
