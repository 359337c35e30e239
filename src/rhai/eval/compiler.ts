// The compile context every part of the compiler is handed, and what they all need from it: when
// a value must be copied to be stored, and which variables are plain frame slots. The parts reach
// one another through the context (`c.expr`, `c.block`), so none imports another in a cycle.
import type { Expr, Stmt } from '../ast.ts';
import { cloneValue } from '../copy.ts';
import { NATIVE_FUNCTIONS } from '../packages/index.ts';
import type { CompiledFn, Ev } from './frame.ts';
import type { Program } from './program.ts';

/** Where code is being compiled: the script's functions and whether inside one of them. */
export interface Compiler {
  /** The program (script or module file) the code belongs to: its id and the modules it reaches. */
  readonly program: Program;
  /** The script's functions by `name/arity`; a call binds to one when it is compiled. */
  readonly fns: ReadonlyMap<string, CompiledFn>;
  /** The most parameters any script function of each name takes. */
  readonly maxArity: ReadonlyMap<string, number>;
  /** True inside a function or closure body. */
  readonly inFunction: boolean;
  /**
   * The code being compiled calls `eval`, so its frame may gain variables at run time: variables
   * are read by name through them first (`Env.dyn`), and blocks drop the ones they added.
   */
  readonly dynAware: boolean;
  /** A top-level `const` here is a `global::` constant (the script itself, or a top-level `eval`). */
  readonly allowGlobals: boolean;
  expr(e: Expr): Ev;
  block(stmts: Stmt[]): Ev;
  /** A function or closure body: `block` in a function's context (`usesEval`: it calls `eval`). */
  functionBody(stmts: Stmt[], usesEval: boolean): Ev;
}

/** Compiles `e`, copying the value when it may be shared (for storing it somewhere). */
export function owned(c: Compiler, e: Expr): Ev {
  const f = c.expr(e);
  if (!mayBeBorrowed(c, e)) return f;
  return (env) => {
    const v = f(env);
    return typeof v === 'object' ? cloneValue(env.rt, v) : v;
  };
}

/** Expressions whose value may be shared with a variable or container, so storing it copies it. */
export function mayBeBorrowed(c: Compiler, e: Expr): boolean {
  switch (e.kind) {
    case 'literal':
    case 'array':
    case 'map':
    case 'interpolation':
    case 'binary':
    case 'unary':
    case 'closure':
      return false;
    case 'call':
      return c.maxArity.has(e.name) || e.name === 'call';
    case 'method':
      return c.maxArity.has(e.name) || e.name === 'call' || !NATIVE_FUNCTIONS.has(e.name);
    default:
      return true;
  }
}

/** The frame slot of a plain (not captured) local variable, if `e` is one read straight from its slot. */
export function localSlot(c: Compiler, e: Expr): number | undefined {
  if (c.dynAware) return undefined; // `eval` may shadow it by name
  return e.kind === 'var' && e.ref?.kind === 'local' && !e.ref.decl.captured ? e.ref.decl.slot : undefined;
}
