// Calls as written in a script — `f(x)` and `x.f(y)` — compiled: each binds, when compiled, to
// the script function or native function of its name and arity. Running a call (frames, depth,
// Fn pointers) is in calls.ts.
import type { Expr, VarDecl } from '../ast.ts';
import { fnNotFound, mismatchError, RhaiError, wrapInFunctionCall, type Pos } from '../errors.ts';
import { isNonPureCall, NATIVE_FUNCTIONS, type NativeFn } from '../packages/index.ts';
import { cloneValue } from '../copy.ts';
import { FnPtr, typeName, type Cell, type RhaiValue } from '../values.ts';
import { lvalue, varLValue } from './assignment.ts';
import { callFnPtr, callNative, invoke, runFrame } from './calls.ts';
import { owned, type Compiler } from './compiler.ts';
import { countOp, Env, NONE, RETURN, signature, takeFrame, type CompiledFn, type Ev, type LValue } from './frame.ts';
import type { Program } from './program.ts';
import { findModule, markSource, runIn } from './modules.ts';
import { findVariable } from './scope.ts';

function compileArgs(c: Compiler, args: Expr[]): Ev[] {
  return args.map((a) => owned(c, a));
}

/** `f(a, b)`: a script function of that arity, else a native function. */
export function compileCall(c: Compiler, e: Extract<Expr, { kind: 'call' }>): Ev {
  const pos = e.pos;
  const name = e.name;
  const [firstArg, ...moreArgs] = e.args;
  const only = moreArgs.length === 0 ? firstArg : undefined;
  if (name === 'is_shared' && only) return compileIsShared(c, only);
  if (name === 'is_def_var' && only) {
    const arg = c.expr(only);
    const visible = new Set(e.visibleVars);
    return (env) => {
      const v = arg(env);
      if (typeof v !== 'string') throw fnNotFound(`is_def_var (${typeName(v)})`, pos);
      return visible.has(v) || findVariable(env, v) !== undefined;
    };
  }
  if (e.namespace) return compileModuleCall(c, e, e.namespace);
  if (name === 'eval' && e.args.length === 1) return compileEval(c, e);
  const sfn = c.fns.get(`${name}/${e.args.length}`);
  if (e.bang) return compileBangCall(c, e, sfn);
  if (sfn) return compileScriptCall(sfn, compileArgs(c, e.args), pos);
  const native = NATIVE_FUNCTIONS.get(name);
  if (!native) {
    const args = compileArgs(c, e.args);
    return (env) => {
      throw fnNotFound(
        signature(
          name,
          args.map((a) => a(env)),
        ),
        pos,
      );
    };
  }
  // A native function receives a plain variable (or `this`) as its first argument by reference,
  // as in Rhai (fn_call.rs: "func(x, ...) -> x.func(...)"), so `push(a, 1)` changes `a`. A
  // constant is passed as a copy instead, so it silently stays unchanged.
  const first = e.args[0];
  const firstLv = first && (first.kind === 'var' || first.kind === 'this') ? lvalue(c, first) : null;
  const rest = e.args.map((a, i) => (i === 0 && firstLv ? firstLv.get : owned(c, a)));
  return (env) => {
    const args = new Array<RhaiValue>(rest.length);
    for (let i = 0; i < rest.length; i++) args[i] = rest[i]!(env);
    if (env.rt.signal !== NONE) return undefined;
    const byRef = firstLv !== null && !firstLv.isConst(env);
    if (firstLv && !byRef) args[0] = cloneValue(env.rt, args[0]);
    const before = args[0];
    const r = callNative(env.rt, native, name, args, pos);
    if (byRef && args[0] !== before) firstLv.set(env, args[0]);
    return r;
  };
}

/**
 * `is_shared(x)` / `x.is_shared()`: whether the variable has been captured by a closure (Rhai makes
 * a captured variable one shared value). Any other value is not shared.
 */
function compileIsShared(c: Compiler, arg: Expr): Ev {
  if (arg.kind === 'var' || arg.kind === 'this') {
    const lv = lvalue(c, arg);
    const cell = lv.cell;
    if (cell) return (env) => cell(env).shared === true;
    return (env) => {
      lv.get(env);
      return false;
    };
  }
  const f = c.expr(arg);
  return (env) => {
    f(env);
    return false;
  };
}

/**
 * Calling a closure with `this` bound to a variable the closure itself captured: Rhai passes the
 * captured values as leading arguments, finds that one locked by the `this` binding and refuses
 * the call (ensure_no_data_race) before it starts.
 */
function checkDataRace(target: LValue, env: Env, fp: FnPtr): void {
  if (!target.cell || !fp.closure) return;
  const cell = target.cell(env);
  const at = fp.closure.captures.indexOf(cell);
  if (at >= 0)
    throw new RhaiError(
      'ErrorDataRace',
      `Data race detected on variable 'argument #${at + 1} of function '${fp.name}''`,
    );
}

/**
 * `m::f(args)`: a public function of an imported module, run as the module's code (its functions,
 * its imports, its constants); a private one is not found from outside.
 */
function compileModuleCall(c: Compiler, e: Extract<Expr, { kind: 'call' }>, path: string[]): Ev {
  const pos = e.pos;
  const name = e.name;
  const args = compileArgs(c, e.args);
  return (env) => {
    const module = findModule(env.rt, path, pos);
    const argv = new Array<RhaiValue>(args.length);
    for (let i = 0; i < args.length; i++) argv[i] = args[i]!(env);
    if (env.rt.signal !== NONE) return undefined;
    const fn = module.program.fns.get(`${name}/${argv.length}`);
    if (!fn || fn.def.private) throw fnNotFound(signature(`${path.join('::')}::${name}`, argv), pos);
    try {
      return runIn(env.rt, module.program, module.constants, module.environ, () =>
        invoke(env.rt, fn, argv, null, false, undefined, false, pos),
      );
    } catch (err) {
      throw markSource(err, module.id);
    }
  };
}

/** The caller's variables in scope at an `eval` or `!` call, as places in the caller's frame. */
function callerVars(c: Compiler, e: Extract<Expr, { kind: 'call' }>): Map<string, LValue> {
  return new Map((e.scope ?? []).map(([name, ref]) => [name, varLValue(c, name, ref, e.pos)]));
}

/**
 * `eval(text)` (func/call.rs): the text runs as statements in the caller's scope. It reads and
 * changes the caller's variables; a `let` at its top level adds a variable to the caller's scope
 * (until the caller's block ends); at the script's top level its constants are global constants.
 * Its failures are ErrorInFunctionCall("eval") (limits excepted, which stop the whole run here).
 */
function compileEval(c: Compiler, e: Extract<Expr, { kind: 'call' }>): Ev {
  const pos = e.pos;
  const arg = c.expr(e.args[0]!);
  const vars = callerVars(c, e);
  const topLevel = e.topLevel === true;
  return (env) => {
    const text = arg(env);
    if (env.rt.signal !== NONE) return undefined;
    if (typeof text !== 'string') throw mismatchError('string', typeName(text), e.args[0]!.pos);
    countOp(env.rt, pos);
    const source = text.trim();
    if (source === '') return undefined;
    const rt = env.rt;
    try {
      const code = (rt.program as Program).evalCode(source, rt.parseLimits, topLevel);
      const frame = new Env(code.slots, null, rt);
      frame.parent = { env, vars };
      let v = code.body(frame);
      if (rt.signal === RETURN) {
        v = rt.signalValue;
        rt.signal = NONE;
        rt.signalValue = undefined;
      }
      exportEvalVariables(env, frame, code.declared);
      return v;
    } catch (err) {
      if (err instanceof RhaiError && !LIMIT_KINDS.has(err.kind)) throw wrapInFunctionCall('eval', err, pos);
      throw err;
    }
  };
}

/** Errors that stop the whole run: never wrapped, so never caught. */
const LIMIT_KINDS = new Set([
  'ErrorExit',
  'ErrorTooManyOperations',
  'ErrorStackOverflow',
  'ErrorDataTooLarge',
  'ErrorTerminated',
]);

/** The variables an `eval`'d script declared at its top level (and those its own `eval`s added) join the caller's frame. */
function exportEvalVariables(caller: Env, frame: Env, declared: VarDecl[]): void {
  if (declared.length === 0 && frame.dyn === null) return;
  const dyn = caller.dyn ?? (caller.dyn = []);
  for (const d of declared) {
    const held = frame.slots[d.slot];
    dyn.push({ name: d.name, cell: d.captured ? (held as Cell) : { value: held as RhaiValue }, isConst: d.isConst });
  }
  if (frame.dyn !== null) dyn.push(...frame.dyn);
}

/**
 * `f!(args)` and `call!(fp, args)`: the script function runs with the caller's variables in sight
 * (names it does not declare itself), and may change them; its own `let`s stay its own. A native
 * function sees nothing more, so it is called as usual.
 */
function compileBangCall(c: Compiler, e: Extract<Expr, { kind: 'call' }>, sfn: CompiledFn | undefined): Ev {
  const pos = e.pos;
  const args = compileArgs(c, e.args);
  const vars = callerVars(c, e);
  const name = e.name;
  const native = NATIVE_FUNCTIONS.get(name);
  return (env) => {
    const argv = new Array<RhaiValue>(args.length);
    for (let i = 0; i < args.length; i++) argv[i] = args[i]!(env);
    if (env.rt.signal !== NONE) return undefined;
    let fn = sfn;
    let rest = argv;
    if (!fn && name === 'call' && argv[0] instanceof FnPtr && !argv[0].closure) {
      const fp = argv[0];
      rest = [...fp.curry, ...argv.slice(1)];
      fn = (env.rt.program as Program).fns.get(`${fp.name}/${rest.length}`);
      if (!fn) return callFnPtr(env.rt, fp, argv.slice(1), pos);
    }
    if (!fn) {
      if (!native) throw fnNotFound(signature(name, argv), pos);
      return callNative(env.rt, native, name, argv, pos);
    }
    return invoke(env.rt, fn, rest, null, false, undefined, false, pos, { env, vars });
  };
}

/** A call bound to a script function; a one-argument call fills the new frame directly. */
function compileScriptCall(fn: CompiledFn, args: Ev[], pos: Pos): Ev {
  switch (args.length) {
    case 0:
      return (env) => invoke(env.rt, fn, [], null, false, undefined, false, pos);
    case 2: {
      const a0 = args[0]!;
      const a1 = args[1]!;
      return (env) => {
        const x = a0(env);
        const y = a1(env);
        if (env.rt.signal !== NONE) return undefined;
        return invoke(env.rt, fn, [x, y], null, false, undefined, false, pos);
      };
    }
    case 1: {
      const a0 = args[0]!;
      const p0 = fn.paramSlots[0]!;
      const boxed = fn.paramCaptured[0]!;
      return (env) => {
        const frame = takeFrame(fn, env.rt, null);
        const v = a0(env);
        if (env.rt.signal !== NONE) return undefined; // a `return`/`break` inside the argument
        frame.slots[p0] = boxed ? { value: v } : v;
        return runFrame(fn, frame, pos);
      };
    }
    default:
      return (env) => {
        const argv = new Array<RhaiValue>(args.length);
        for (let i = 0; i < args.length; i++) argv[i] = args[i]!(env);
        if (env.rt.signal !== NONE) return undefined;
        return invoke(env.rt, fn, argv, null, false, undefined, false, pos);
      };
  }
}

/** `obj.name(...)` on a native function: `full` holds the target then the arguments. */
function nativeMethod(
  env: Env,
  native: NativeFn,
  name: string,
  full: RhaiValue[],
  target: LValue,
  pos: Pos,
): RhaiValue {
  const obj = full[0];
  if (isNonPureCall(name, obj) && target.isConst(env)) {
    throw new RhaiError(
      'ErrorNonPureMethodCallOnConstant',
      `Non-pure method '${name}' cannot be called on constant`,
      pos,
    );
  }
  const r = callNative(env.rt, native, name, full, pos);
  if (full[0] !== obj) target.set(env, full[0]);
  return r;
}

/**
 * `obj.name(a, b)`: a native method, a Fn pointer in a map property, `x.call(fp, ...)`, or a script
 * function with `this` bound to the target; what the call leaves in `this` is written back.
 */
export function compileMethodCall(c: Compiler, e: Extract<Expr, { kind: 'method' }>): Ev {
  const pos = e.pos;
  const name = e.name;
  if (name === 'is_shared' && e.args.length === 0) return compileIsShared(c, e.target);
  const target =
    e.target.kind === 'var' || e.target.kind === 'this' || e.target.kind === 'property' || e.target.kind === 'index'
      ? lvalue(c, e.target)
      : { get: owned(c, e.target), set: () => {}, update: () => {}, isConst: () => false }; // a temporary
  const args = compileArgs(c, e.args);
  const argc = args.length;
  const sfn = c.fns.get(`${name}/${argc}`);
  const native = NATIVE_FUNCTIONS.get(name);
  const safe = e.safe;
  const guarded = e.chain?.guarded ?? false;
  return (env) => {
    const obj = target.get(env);
    if (guarded && env.rt.skipChain) return undefined;
    if (obj === undefined && safe) {
      env.rt.skipChain = true;
      return undefined;
    }
    // The target and the arguments in one array, as a native function takes them.
    const full = new Array<RhaiValue>(argc + 1);
    full[0] = obj;
    for (let i = 0; i < argc; i++) full[i + 1] = args[i]!(env);
    if (env.rt.signal !== NONE) return undefined;
    if (native && !sfn && !(obj instanceof Map) && name !== 'call')
      return nativeMethod(env, native, name, full, target, pos);
    const argv = full.slice(1);
    // `x.call(fp, ...)`: call the pointer with `this` bound to x.
    if (name === 'call' && !(obj instanceof FnPtr) && argv[0] instanceof FnPtr) {
      checkDataRace(target, env, argv[0]);
      const ref = { value: obj, isConst: target.isConst(env) };
      env.rt.lastThis = obj; // stays so when the pointer names a native function
      const r = callFnPtr(env.rt, argv[0], argv.slice(1), pos, ref);
      if (env.rt.lastThis !== obj) target.set(env, env.rt.lastThis);
      return r;
    }
    // `obj.prop(...)` where the map property holds a Fn pointer: call it with `this` = obj.
    if (obj instanceof Map) {
      const f = obj.get(name);
      if (f instanceof FnPtr) checkDataRace(target, env, f);
      if (f instanceof FnPtr) return callFnPtr(env.rt, f, argv, pos, { value: obj, isConst: target.isConst(env) });
    }
    if (sfn) {
      const r = invoke(env.rt, sfn, argv, null, true, obj, target.isConst(env), pos);
      if (env.rt.lastThis !== obj) target.set(env, env.rt.lastThis);
      return r;
    }
    if (!native) throw fnNotFound(signature(name, full), pos);
    return nativeMethod(env, native, name, full, target, pos);
  };
}
