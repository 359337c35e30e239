// The AST (src/ast/*.rs). The parser leaves variables unresolved (slot -1, ref null); the resolver
// pass (resolver.ts) then points every reference at its declaration (a slot in the function's
// frame) or at a closure capture.
import type { Pos } from './errors.ts';
import type { RhaiRange, RhaiValue } from './values.ts';

export interface VarDecl {
  name: string;
  slot: number;
  isConst: boolean;
  /** Captured by a closure: stored in a shared cell instead of directly in the slot. */
  captured: boolean;
}

export type VarRef = { kind: 'local'; decl: VarDecl } | { kind: 'capture'; index: number; name: string };

export interface FnDef {
  name: string;
  params: VarDecl[];
  body: Stmt[];
  /** Number of frame slots (parameters and every `let` in the body). */
  slotCount: number;
  pos: Pos;
  /** For closures: where each captured cell comes from in the defining scope. */
  captures: VarRef[];
  isClosure: boolean;
  /** For closures: an outside variable that no enclosing scope declares. */
  missingCapture?: { name: string; pos: Pos };
  /** The body calls `eval`, which can add variables to its scope at run time. */
  usesEval?: boolean;
  /** `private fn`: not callable from outside its module. */
  private?: boolean;
}

export interface SwitchCase {
  /** Constant values that select this case by equality (a range literal too: it matches a range). */
  values: RhaiValue[];
  /** The non-empty ranges among them, which also select a number inside them. */
  ranges: RhaiRange[];
  guard?: Expr;
  body: Expr;
}

/**
 * A link of a property/index/method chain holding `?.` or `?[`: when a safe link finds (), the
 * rest of the chain is skipped and the whole chain is () (Rhai's `ASTFlags::NEGATED`). `guarded`:
 * an earlier safe link may have cut the chain (the run's `skipChain`); `top`: the chain ends here.
 */
export interface ChainFlags {
  guarded: boolean;
  top: boolean;
}

export type Expr =
  | { kind: 'literal'; pos: Pos; value: RhaiValue }
  | { kind: 'var'; pos: Pos; name: string; ref: VarRef | null }
  | { kind: 'this'; pos: Pos }
  | { kind: 'global'; pos: Pos; name: string }
  /** `m::x`, `m::sub::x`: a variable an imported module exports. */
  | { kind: 'modvar'; pos: Pos; path: string[]; name: string }
  | { kind: 'array'; pos: Pos; items: Expr[] }
  | { kind: 'map'; pos: Pos; entries: [string, Expr][] }
  | { kind: 'interpolation'; pos: Pos; parts: (string | Expr)[] }
  | { kind: 'unary'; pos: Pos; op: string; operand: Expr }
  | { kind: 'binary'; pos: Pos; op: string; left: Expr; right: Expr }
  | { kind: 'property'; pos: Pos; target: Expr; name: string; safe: boolean; chain?: ChainFlags }
  | { kind: 'index'; pos: Pos; target: Expr; index: Expr; safe: boolean; chain?: ChainFlags }
  | {
      kind: 'call';
      pos: Pos;
      name: string;
      args: Expr[];
      visibleVars: string[];
      /** `foo!(..)`, `call!(fp, ..)`: the function runs seeing (and changing) the caller's variables. */
      bang?: boolean;
      /** For `eval(..)` and `!` calls: the caller's variables in scope at the call, innermost last. */
      scope?: [string, VarRef][];
      /** `eval(..)` at the script's top level (outside any block): its top-level constants are global. */
      topLevel?: boolean;
      /** `m::f(..)`, `m::sub::f(..)`: a function of an imported module. */
      namespace?: string[];
    }
  | { kind: 'method'; pos: Pos; target: Expr; name: string; args: Expr[]; safe: boolean; chain?: ChainFlags }
  | { kind: 'closure'; pos: Pos; fn: FnDef }
  | { kind: 'block'; pos: Pos; body: Stmt[] }
  | { kind: 'if'; pos: Pos; cond: Expr; then: Stmt[]; else: Stmt[] | null }
  | { kind: 'switch'; pos: Pos; subject: Expr; cases: SwitchCase[]; defaultCase: Expr | null }
  | { kind: 'while'; pos: Pos; cond: Expr | null; body: Stmt[] }
  | { kind: 'do'; pos: Pos; body: Stmt[]; cond: Expr; until: boolean }
  | { kind: 'for'; pos: Pos; item: VarDecl; counter: VarDecl | null; iter: Expr; body: Stmt[] };

export type Stmt =
  /** `global`: a `const` at the script's top level, outside any block (also `global::NAME`). */
  | { kind: 'let'; pos: Pos; decl: VarDecl; init: Expr | null; global?: boolean }
  | { kind: 'expr'; pos: Pos; expr: Expr }
  | { kind: 'assign'; pos: Pos; target: Expr; op: string; value: Expr }
  | { kind: 'break'; pos: Pos; value: Expr | null }
  | { kind: 'continue'; pos: Pos }
  | { kind: 'return'; pos: Pos; value: Expr | null }
  | { kind: 'throw'; pos: Pos; value: Expr | null; rethrow: VarDecl | null }
  | { kind: 'try'; pos: Pos; body: Stmt[]; errVar: VarDecl | null; hidden: VarDecl; handler: Stmt[] }
  /** `import path [as alias];` (an alias of null: the module runs, nothing is named). */
  | { kind: 'import'; pos: Pos; path: Expr; alias: string | null }
  /** `export name [as alias];` at a module's top level; `ref` is set by resolver.ts. */
  | { kind: 'export'; pos: Pos; name: string; alias: string; ref: VarRef | null };

export interface Script {
  body: Stmt[];
  slotCount: number;
  functions: FnDef[];
  /** The top level calls `eval`. */
  usesEval?: boolean;
}
