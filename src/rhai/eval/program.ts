// The evaluator (src/eval/*.rs): a script's AST compiled once into a tree of JS closures, so
// running never re-inspects node kinds. This is the entry: compile a script, run it or call one
// of its functions. The compiler's parts live beside it in eval/: statements.ts, loops.ts,
// assignment.ts, expressions.ts, call-sites.ts; what the compiled closures run on is in
// frame.ts, calls.ts, access.ts and control.ts.
import type { Expr, Script, Stmt, VarDecl } from '../ast.ts';
import { fnNotFound, parseError, RhaiError } from '../errors.ts';
import { parse, type ParseLimits } from '../parser.ts';
import type { Runtime } from '../runtime.ts';
import type { RhaiValue } from '../values.ts';
import { invoke, nativeContext } from './calls.ts';
import type { Compiler } from './compiler.ts';
import { asRhaiError } from './control.ts';
import { compileExpr } from './expressions.ts';
import { Env, makeCompiledFn, NONE, RETURN, signature, type CompiledFn, type Ev } from './frame.ts';
import type { ModuleRegistry } from './modules.ts';
import { compileBlock } from './statements.ts';

/** Where a program comes from: its id (a module file's path) and the modules its `import`s reach. */
export interface ProgramOrigin {
  id?: string;
  modules?: ModuleRegistry | null;
}

export class Program {
  readonly fns = new Map<string, CompiledFn>();
  /** The most parameters any script function of each name takes (read on every callback call). */
  readonly maxArity = new Map<string, number>();
  readonly main: Ev;
  readonly mainSlots: number;
  readonly id: string | undefined;
  readonly modules: ModuleRegistry | null;

  constructor(
    readonly script: Script,
    origin: ProgramOrigin = {},
  ) {
    this.id = origin.id;
    this.modules = origin.modules ?? null;
    for (const def of script.functions) {
      const fn = makeCompiledFn(def);
      this.fns.set(`${def.name}/${def.params.length}`, fn);
      this.maxArity.set(def.name, Math.max(fn.arity, this.maxArity.get(def.name) ?? 0));
    }
    for (const fn of this.fns.values())
      fn.body = new ScriptCompiler(this, true, fn.def.usesEval === true, false).functionBody(
        fn.def.body,
        fn.def.usesEval === true,
      );
    this.main = new ScriptCompiler(this, false, script.usesEval === true, true).body(script.body);
    this.mainSlots = script.slotCount;
  }

  private readonly evalCache = new Map<string, EvalCode>();

  /**
   * The script an `eval(text)` runs, compiled once per text: its statements with this program's
   * functions; `topLevel` when the call is at the script's top level (then its top-level constants
   * are global constants). Defining a function in it is a parse error, as in Rhai.
   */
  evalCode(text: string, limits: ParseLimits, topLevel: boolean): EvalCode {
    const key = `${topLevel ? 1 : 0}${text}`;
    const cached = this.evalCache.get(key);
    if (cached) return cached;
    const script = parse(text, limits);
    const [fn] = script.functions;
    if (fn) throw parseError('A function cannot be defined inside eval', fn.pos);
    const code: EvalCode = {
      body: new ScriptCompiler(this, false, script.usesEval === true, topLevel).body(script.body),
      slots: script.slotCount,
      declared: script.body.flatMap((s) => (s.kind === 'let' ? [s.decl] : [])),
    };
    if (this.evalCache.size >= EVAL_CACHE_SIZE) this.evalCache.delete(this.evalCache.keys().next().value!);
    this.evalCache.set(key, code);
    return code;
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

/** Statements that `import` a module: the imports they made are dropped when they end (Rhai's truncate_imports). */
function dropImports(stmts: Stmt[], f: Ev): Ev {
  if (!stmts.some((s) => s.kind === 'import')) return f;
  return (env) => {
    const mark = env.rt.imports.length;
    try {
      return f(env);
    } finally {
      env.rt.imports.length = mark;
    }
  };
}

/** Distinct texts whose compiled form one program keeps for `eval` (a loop calling it recompiles nothing). */
const EVAL_CACHE_SIZE = 64;

/** What `eval` runs: the compiled statements, the frame they need, and the variables they declare at top level. */
export interface EvalCode {
  body: Ev;
  slots: number;
  declared: VarDecl[];
}

/** The compile context of one program, at top level or inside its functions. */
class ScriptCompiler implements Compiler {
  readonly fns: ReadonlyMap<string, CompiledFn>;
  readonly maxArity: ReadonlyMap<string, number>;

  constructor(
    readonly program: Program,
    readonly inFunction: boolean,
    readonly dynAware: boolean,
    readonly allowGlobals: boolean,
  ) {
    this.fns = program.fns;
    this.maxArity = program.maxArity;
  }

  expr(e: Expr): Ev {
    return compileExpr(this, e);
  }

  /** The script's own statements (the imports and variables they make stay for what follows). */
  body(stmts: Stmt[]): Ev {
    return compileBlock(this, stmts);
  }

  /**
   * A nested block: the modules it imports are dropped at its end, and where `eval` may add
   * variables, the ones it added go out of scope there too.
   */
  block(stmts: Stmt[]): Ev {
    return dropImports(stmts, this.dropEvalVariables(compileBlock(this, stmts)));
  }

  private dropEvalVariables(f: Ev): Ev {
    if (!this.dynAware) return f;
    return (env) => {
      const mark = env.dyn === null ? 0 : env.dyn.length;
      try {
        return f(env);
      } finally {
        if (env.dyn !== null && env.dyn.length > mark) env.dyn.length = mark;
      }
    };
  }

  /** A function or closure body: its imports last until it returns. */
  functionBody(stmts: Stmt[], usesEval: boolean): Ev {
    return dropImports(stmts, compileBlock(new ScriptCompiler(this.program, true, usesEval, false), stmts));
  }
}
