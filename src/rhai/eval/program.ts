// The evaluator (src/eval/*.rs): a script's AST compiled once into a tree of JS closures, so
// running never re-inspects node kinds. This is the entry: compile a script, run it or call one
// of its functions. The compiler's parts live beside it in eval/: statements.ts, loops.ts,
// assignment.ts, expressions.ts, call-sites.ts; what the compiled closures run on is in
// frame.ts, calls.ts, access.ts and control.ts.
import type { Expr, Script, Stmt } from '../ast.ts';
import { fnNotFound, RhaiError } from '../errors.ts';
import type { Runtime } from '../runtime.ts';
import type { RhaiValue } from '../values.ts';
import { invoke, nativeContext } from './calls.ts';
import type { Compiler } from './compiler.ts';
import { asRhaiError } from './control.ts';
import { compileExpr } from './expressions.ts';
import { Env, makeCompiledFn, NONE, RETURN, signature, type CompiledFn, type Ev } from './frame.ts';
import { compileBlock } from './statements.ts';

export class Program {
  readonly fns = new Map<string, CompiledFn>();
  /** The most parameters any script function of each name takes (read on every callback call). */
  readonly maxArity = new Map<string, number>();
  readonly main: Ev;
  readonly mainSlots: number;

  constructor(script: Script) {
    for (const def of script.functions) {
      const fn = makeCompiledFn(def);
      this.fns.set(`${def.name}/${def.params.length}`, fn);
      this.maxArity.set(def.name, Math.max(fn.arity, this.maxArity.get(def.name) ?? 0));
    }
    const inFunction = new ScriptCompiler(this.fns, this.maxArity, true);
    for (const fn of this.fns.values()) fn.body = inFunction.block(fn.def.body);
    this.main = new ScriptCompiler(this.fns, this.maxArity, false).block(script.body);
    this.mainSlots = script.slotCount;
  }

  /** Runs the top-level statements. */
  runMain(runtime: Runtime): RhaiValue {
    return this.enter(runtime, () => {
      const env = new Env(this.mainSlots, null, runtime);
      let v = this.main(env);
      if (runtime.signal === RETURN) v = runtime.signalValue;
      return v;
    });
  }

  callFunction(runtime: Runtime, name: string, args: RhaiValue[]): RhaiValue {
    return this.enter(runtime, () => {
      const fn = this.fns.get(`${name}/${args.length}`);
      if (!fn) throw fnNotFound(signature(name, args));
      return invoke(runtime, fn, args, null, false, undefined, false, fn.def.pos);
    });
  }

  /** Hands `runtime` this program and the native-call context for it, then runs `body`. */
  private enter<T>(runtime: Runtime, body: () => T): T {
    runtime.program = this;
    runtime.native = nativeContext(runtime);
    try {
      return body();
    } catch (e) {
      if (e instanceof RhaiError && e.kind === 'ErrorExit') return e.value as T; // `exit(value)`
      throw asRhaiError(e);
    } finally {
      runtime.signal = NONE;
      runtime.signalValue = undefined;
    }
  }
}

/** The compile context of one program, at top level or inside its functions. */
class ScriptCompiler implements Compiler {
  constructor(
    readonly fns: ReadonlyMap<string, CompiledFn>,
    readonly maxArity: ReadonlyMap<string, number>,
    readonly inFunction: boolean,
  ) {}

  expr(e: Expr): Ev { return compileExpr(this, e); }
  block(stmts: Stmt[]): Ev { return compileBlock(this, stmts); }
  functionBody(stmts: Stmt[]): Ev { return compileBlock(this.inFunction ? this : new ScriptCompiler(this.fns, this.maxArity, true), stmts); }
}
