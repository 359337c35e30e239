// Calls (src/eval/fn_call.rs): native functions, script functions and closures, Fn pointers,
// each frame counted against the call depth and wrapped in ErrorInFunctionCall on failure.
import {
  fnNotFound,
  isJsStackOverflow,
  isSystemError,
  RhaiError,
  stackOverflow,
  wrapInFunctionCall,
  type Pos,
} from '../errors.ts';
import { NATIVE_FUNCTIONS, NO_MATCH, type NativeContext, type NativeFn } from '../packages/index.ts';
import { tooManyOperations } from '../cost.ts';
import type { Runtime } from '../runtime.ts';
import { FnPtr, type Cell, type RhaiValue } from '../values.ts';
import { NONE, releaseFrame, signature, takeFrame, type CompiledFn, type Env, type ParentScope } from './frame.ts';
import type { Program } from './program.ts';

/** What native functions may ask of the run they are called in (made once per run). */
export function nativeContext(rt: Runtime): NativeContext {
  return {
    runtime: rt,
    call: (fp, args) => callFnPtr(rt, fp, args, rt.callPos),
    callBound: (fp, thisValue, args) => {
      rt.lastThis = thisValue; // stays so when the pointer names a native function
      const result = callFnPtr(rt, fp, args, rt.callPos, { value: thisValue, isConst: false });
      return { result, thisAfter: rt.lastThis };
    },
    arityOf: (fp) => {
      if (fp.closure) return fp.closure.fn.arity - fp.curry.length;
      const arity = maxArityOf(rt, fp.name);
      return arity === undefined ? undefined : arity - fp.curry.length;
    },
    hasScriptFn: (name, arity) => (rt.program as Program).fns.has(`${name}/${arity}`),
    print: (text) => rt.onPrint(text),
    debug: (text) => rt.onDebug(text),
  };
}

export function callNative(rt: Runtime, fn: NativeFn, name: string, args: RhaiValue[], pos: Pos): RhaiValue {
  rt.callPos = pos;
  let r;
  try {
    r = fn(args, rt.native as NativeContext);
  } catch (e) {
    if (e instanceof RhaiError && !e.hasPosition()) {
      e.setPosition(pos);
      e.rhaiHasPosition = false;
    }
    throw e;
  }
  if (r === NO_MATCH) throw fnNotFound(signature(name, args), pos);
  return r;
}

export function wrapCallError(rt: Runtime, e: unknown, fn: CompiledFn, pos: Pos): unknown {
  rt.signal = NONE;
  if (isJsStackOverflow(e)) {
    return stackOverflow(pos);
  }
  if (e instanceof RhaiError && !isSystemError(e)) return wrapInFunctionCall(fn.name, e, pos);
  return e;
}

/** Runs a script function or closure body in a frame from takeFrame, which it then releases. */
export function runFrame(fn: CompiledFn, env: Env, pos: Pos): RhaiValue {
  const rt = env.rt;
  if (++rt.depth > rt.maxDepth) {
    rt.depth--;
    throw stackOverflow(pos);
  }
  let r: RhaiValue;
  try {
    if (++rt.ops > rt.opLimit) tooManyOperations(pos);
    r = fn.body(env);
  } catch (e) {
    rt.depth--;
    throw wrapCallError(rt, e, fn, pos);
  }
  rt.depth--;
  if (rt.signal !== NONE) {
    r = rt.signalValue;
    rt.signal = NONE;
    rt.signalValue = undefined;
  } // only `return` leaves a body
  rt.lastThis = env.thisVal;
  releaseFrame(fn, env);
  return r;
}

/** Calls a script function or closure with its arguments (already copied where needed). */
export function invoke(
  rt: Runtime,
  fn: CompiledFn,
  args: RhaiValue[],
  caps: Cell[] | null,
  hasThis: boolean,
  thisVal: RhaiValue,
  thisConst: boolean,
  pos: Pos,
  parent: ParentScope | null = null,
): RhaiValue {
  const env = takeFrame(fn, rt, caps);
  env.parent = parent;
  if (hasThis) {
    env.hasThis = true;
    env.thisVal = thisVal;
    env.thisConst = thisConst;
  }
  const slots = env.slots;
  const ps = fn.paramSlots;
  for (let i = 0; i < ps.length; i++) slots[ps[i]!] = fn.paramCaptured[i] ? { value: args[i] } : args[i];
  return runFrame(fn, env, pos);
}

/** The most parameters a script function of that name takes, in the running program or its callers. */
function maxArityOf(rt: Runtime, name: string): number | undefined {
  const own = (rt.program as Program).maxArity.get(name);
  if (own !== undefined || rt.callers.length === 0) return own;
  for (let i = rt.callers.length - 1; i >= 0; i--) {
    const arity = (rt.callers[i] as Program).maxArity.get(name);
    if (arity !== undefined) return arity;
  }
  return undefined;
}

/**
 * The script function a Fn pointer's name calls: the running program's first, then (inside a
 * module's function) its callers' — as Rhai searches the lib stack, so a pointer a script hands
 * to a module still reaches the script's own function.
 */
function scriptFnNamed(rt: Runtime, name: string, arity: number): CompiledFn | undefined {
  const key = `${name}/${arity}`;
  const own = (rt.program as Program).fns.get(key);
  if (own || rt.callers.length === 0) return own;
  for (let i = rt.callers.length - 1; i >= 0; i--) {
    const fn = (rt.callers[i] as Program).fns.get(key);
    if (fn) return fn;
  }
  return undefined;
}

export function callFnPtr(
  rt: Runtime,
  fp: FnPtr,
  args: RhaiValue[],
  pos: Pos,
  thisRef?: { value: RhaiValue; isConst: boolean },
): RhaiValue {
  const full = fp.curry.length ? [...fp.curry, ...args] : args;
  if (fp.closure) {
    const fn = fp.closure.fn as CompiledFn;
    if (fn.arity !== full.length) throw fnNotFound(signature(fp.name, full), pos);
    return invoke(
      rt,
      fn,
      full,
      fp.closure.captures,
      thisRef !== undefined,
      thisRef?.value,
      thisRef?.isConst ?? false,
      pos,
    );
  }
  const sfn = scriptFnNamed(rt, fp.name, full.length);
  if (sfn) return invoke(rt, sfn, full, null, thisRef !== undefined, thisRef?.value, thisRef?.isConst ?? false, pos);
  const nf = NATIVE_FUNCTIONS.get(fp.name);
  if (++rt.ops > rt.opLimit) tooManyOperations(pos); // a native function called through a pointer is a call too
  if (nf) return callNative(rt, nf, fp.name, thisRef ? [thisRef.value, ...full] : full, pos);
  throw fnNotFound(signature(fp.name, full), pos);
}
