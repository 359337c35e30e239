// Static checks over the AST that let the evaluator skip defensive copies.
import type { Expr, Stmt, VarDecl } from './ast.ts';

function rootVar(e: Expr): Expr {
  let cur = e;
  while (cur.kind === 'property' || cur.kind === 'index') cur = cur.target;
  return cur;
}

const isVar = (e: Expr, decl: VarDecl): boolean => e.kind === 'var' && e.ref?.kind === 'local' && e.ref.decl === decl;

/**
 * Could these statements change the value held by `decl` in place? Conservative: any assignment
 * through it, any method call on it, any function call with it first (natives take it by
 * reference), and any closure that captures it count as a change.
 */
export function mayMutate(stmts: Stmt[], decl: VarDecl): boolean {
  const inExpr = (e: Expr | null | undefined): boolean => {
    if (!e) return false;
    switch (e.kind) {
      case 'literal':
      case 'var':
      case 'this':
      case 'global':
      case 'modvar':
        return false;
      case 'array':
        return e.items.some(inExpr);
      case 'map':
        return e.entries.some(([, v]) => inExpr(v));
      case 'interpolation':
        return e.parts.some((p) => typeof p !== 'string' && inExpr(p));
      case 'unary':
        return inExpr(e.operand);
      case 'binary':
        return inExpr(e.left) || inExpr(e.right);
      case 'property':
        return inExpr(e.target);
      case 'index':
        return inExpr(e.target) || inExpr(e.index);
      case 'call':
        return (e.args[0] !== undefined && isVar(rootVar(e.args[0]), decl)) || e.args.some(inExpr);
      case 'method':
        return isVar(rootVar(e.target), decl) || inExpr(e.target) || e.args.some(inExpr);
      case 'closure':
        return e.fn.captures.some((c) => c.kind === 'local' && c.decl === decl);
      case 'block':
        return inStmts(e.body);
      case 'if':
        return inExpr(e.cond) || inStmts(e.then) || (e.else !== null && inStmts(e.else));
      case 'switch':
        return inExpr(e.subject) || inExpr(e.defaultCase) || e.cases.some((c) => inExpr(c.guard) || inExpr(c.body));
      case 'while':
        return inExpr(e.cond) || inStmts(e.body);
      case 'do':
        return inExpr(e.cond) || inStmts(e.body);
      case 'for':
        return inExpr(e.iter) || inStmts(e.body);
    }
  };
  const inStmt = (s: Stmt): boolean => {
    switch (s.kind) {
      case 'let':
        return inExpr(s.init);
      case 'expr':
        return inExpr(s.expr);
      case 'assign':
        return isVar(rootVar(s.target), decl) || inExpr(s.target) || inExpr(s.value);
      case 'break':
      case 'return':
      case 'throw':
        return inExpr(s.value);
      case 'continue':
      case 'export':
        return false;
      case 'import':
        return inExpr(s.path);
      case 'try':
        return inStmts(s.body) || inStmts(s.handler);
    }
  };
  const inStmts = (list: Stmt[]): boolean => list.some(inStmt);
  return inStmts(stmts);
}

/** Every statement in `stmts`, at any depth (inside blocks, loops, closures, `${}`), in source order. */
export function forEachStatement(stmts: Stmt[], visit: (s: Stmt) => void): void {
  const inExpr = (e: Expr | null | undefined): void => {
    if (!e) return;
    switch (e.kind) {
      case 'literal':
      case 'var':
      case 'this':
      case 'global':
      case 'modvar':
        return;
      case 'array':
        e.items.forEach(inExpr);
        return;
      case 'map':
        for (const [, v] of e.entries) inExpr(v);
        return;
      case 'interpolation':
        for (const p of e.parts) if (typeof p !== 'string') inExpr(p);
        return;
      case 'unary':
        inExpr(e.operand);
        return;
      case 'binary':
        inExpr(e.left);
        inExpr(e.right);
        return;
      case 'property':
        inExpr(e.target);
        return;
      case 'index':
        inExpr(e.target);
        inExpr(e.index);
        return;
      case 'call':
        e.args.forEach(inExpr);
        return;
      case 'method':
        inExpr(e.target);
        e.args.forEach(inExpr);
        return;
      case 'closure':
        inStmts(e.fn.body);
        return;
      case 'block':
        inStmts(e.body);
        return;
      case 'if':
        inExpr(e.cond);
        inStmts(e.then);
        if (e.else) inStmts(e.else);
        return;
      case 'switch':
        inExpr(e.subject);
        for (const c of e.cases) {
          inExpr(c.guard);
          inExpr(c.body);
        }
        inExpr(e.defaultCase);
        return;
      case 'while':
        inExpr(e.cond);
        inStmts(e.body);
        return;
      case 'do':
        inStmts(e.body);
        inExpr(e.cond);
        return;
      case 'for':
        inExpr(e.iter);
        inStmts(e.body);
        return;
    }
  };
  const inStmts = (list: Stmt[]): void => {
    for (const s of list) {
      visit(s);
      switch (s.kind) {
        case 'let':
          inExpr(s.init);
          break;
        case 'expr':
          inExpr(s.expr);
          break;
        case 'assign':
          inExpr(s.target);
          inExpr(s.value);
          break;
        case 'break':
        case 'return':
        case 'throw':
          inExpr(s.value);
          break;
        case 'import':
          inExpr(s.path);
          break;
        case 'try':
          inStmts(s.body);
          inStmts(s.handler);
          break;
        case 'continue':
        case 'export':
          break;
      }
    }
  };
  inStmts(stmts);
}
