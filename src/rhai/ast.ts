// The AST (src/ast/*.rs). Variables are resolved while parsing: every reference points at its
// declaration (a slot in the function's frame) or at a closure capture.
import type { Pos } from './errors.ts';
import type { RhaiValue } from './values.ts';

export interface VarDecl {
  name: string;
  slot: number;
  isConst: boolean;
  /** Captured by a closure: stored in a shared cell instead of directly in the slot. */
  captured: boolean;
}

export type VarRef =
  | { kind: 'local'; decl: VarDecl }
  | { kind: 'capture'; index: number; name: string };

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
}

export interface SwitchCase {
  /** Constant values that select this case; empty for a range case. */
  values: RhaiValue[];
  range?: { start: number; end: number; inclusive: boolean };
  guard?: Expr;
  body: Expr;
}

export type Expr =
  | { k: 'lit'; pos: Pos; v: RhaiValue }
  | { k: 'var'; pos: Pos; name: string; ref: VarRef | null }
  | { k: 'this'; pos: Pos }
  | { k: 'global'; pos: Pos; name: string }
  | { k: 'array'; pos: Pos; items: Expr[] }
  | { k: 'map'; pos: Pos; entries: [string, Expr][] }
  | { k: 'interp'; pos: Pos; parts: (string | Expr)[] }
  | { k: 'unary'; pos: Pos; op: string; e: Expr }
  | { k: 'bin'; pos: Pos; op: string; l: Expr; r: Expr }
  | { k: 'prop'; pos: Pos; target: Expr; name: string; safe: boolean }
  | { k: 'index'; pos: Pos; target: Expr; index: Expr; safe: boolean }
  | { k: 'call'; pos: Pos; name: string; args: Expr[]; visibleVars: string[] }
  | { k: 'method'; pos: Pos; target: Expr; name: string; args: Expr[]; safe: boolean }
  | { k: 'closure'; pos: Pos; fn: FnDef }
  | { k: 'block'; pos: Pos; body: Stmt[] }
  | { k: 'if'; pos: Pos; cond: Expr; then: Stmt[]; else: Stmt[] | null }
  | { k: 'switch'; pos: Pos; subject: Expr; cases: SwitchCase[]; dflt: Expr | null }
  | { k: 'while'; pos: Pos; cond: Expr | null; body: Stmt[] }
  | { k: 'do'; pos: Pos; body: Stmt[]; cond: Expr; until: boolean }
  | { k: 'for'; pos: Pos; item: VarDecl; counter: VarDecl | null; iter: Expr; body: Stmt[] };

export type Stmt =
  | { k: 'let'; pos: Pos; decl: VarDecl; init: Expr | null }
  | { k: 'expr'; pos: Pos; e: Expr }
  | { k: 'assign'; pos: Pos; target: Expr; op: string; value: Expr }
  | { k: 'break'; pos: Pos; value: Expr | null }
  | { k: 'continue'; pos: Pos }
  | { k: 'return'; pos: Pos; value: Expr | null }
  | { k: 'throw'; pos: Pos; value: Expr | null; rethrow: VarDecl | null }
  | { k: 'try'; pos: Pos; body: Stmt[]; errVar: VarDecl | null; hidden: VarDecl; handler: Stmt[] };

export interface Script {
  body: Stmt[];
  slotCount: number;
  functions: FnDef[];
}
