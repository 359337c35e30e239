// The resolver: a pass over the parsed AST (like jlox's Resolver, or Rhai's own variable
// resolution in the parser's scope stack) that gives every declaration a frame slot and points
// every variable at its declaration or at a closure capture. It also refuses, as a parse error,
// an assignment to a constant itself (`A = 1`), which needs the resolved declaration.
import type { Expr, FnDef, Script, Stmt, VarDecl, VarRef } from './ast.ts';
import { parseError, type Pos } from './errors.ts';

/** The variables of one function (or closure, or the script), innermost block last. */
class FnScope {
  readonly vars: VarDecl[] = [];
  slotCount = 0;
  readonly captures: VarRef[] = [];
  /** A closure's first variable found in no enclosing scope: making the closure fails on it. */
  missingCapture: { name: string; pos: Pos } | undefined;
  /** The scope's own code calls `eval`. */
  usesEval = false;
  constructor(readonly parent: FnScope | null) {}
}

/** Resolves `script` in place (slots, references, captures) and returns it. */
export function resolveScript(script: Script): Script {
  const top = new FnScope(null);
  new Resolver(top, true).statements(script.body);
  script.slotCount = top.slotCount;
  script.usesEval = top.usesEval;
  for (const fn of script.functions) {
    const scope = new FnScope(null);
    new Resolver(scope, false).function(fn);
    fn.slotCount = scope.slotCount;
    fn.usesEval = scope.usesEval;
  }
  return script;
}

class Resolver {
  /** Nesting of blocks in the current function: the script's own statements are at depth 1. */
  private depth = 0;
  private readonly top: FnScope;

  constructor(
    private scope: FnScope,
    private readonly isMain: boolean,
  ) {
    this.top = scope;
  }

  function(fn: FnDef): void {
    for (const p of fn.params) this.declare(p);
    this.statements(fn.body);
  }

  private declare(decl: VarDecl): void {
    decl.slot = this.scope.slotCount++;
    this.scope.vars.push(decl);
  }

  private lookup(name: string, scope: FnScope = this.scope): VarRef | null {
    const decl = scope.vars.findLast((d) => d.name === name);
    if (decl) return { kind: 'local', decl };
    const index = scope.captures.findIndex((c) => (c.kind === 'local' ? c.decl.name : c.name) === name);
    if (index >= 0) return { kind: 'capture', index, name };
    if (!scope.parent) return null;
    const outer = this.lookup(name, scope.parent);
    if (!outer) return null;
    if (outer.kind === 'local') outer.decl.captured = true;
    scope.captures.push(outer);
    return { kind: 'capture', index: scope.captures.length - 1, name };
  }

  /** Every name `is_def_var` can see from here. */
  private visibleNames(): string[] {
    const names: string[] = [];
    for (let s: FnScope | null = this.scope; s; s = s.parent) {
      for (const v of s.vars) names.push(v.name);
      for (const c of s.captures) names.push(c.kind === 'local' ? c.decl.name : c.name);
    }
    return names;
  }

  /** The variables in scope here by name (the innermost of a name), for `eval` and `!` calls. */
  private scopeRefs(): [string, VarRef][] {
    const byName = new Map<string, VarRef>();
    this.scope.captures.forEach((c, index) => {
      const name = c.kind === 'local' ? c.decl.name : c.name;
      byName.set(name, { kind: 'capture', index, name });
    });
    for (const decl of this.scope.vars) byName.set(decl.name, { kind: 'local', decl });
    return [...byName];
  }

  /** A block: the variables it declares go out of scope at its end (their slots stay taken). */
  private block(body: () => void): void {
    const mark = this.scope.vars.length;
    this.depth++;
    try {
      body();
    } finally {
      this.scope.vars.length = mark;
      this.depth--;
    }
  }

  statements(stmts: Stmt[]): void {
    this.block(() => {
      for (const s of stmts) this.statement(s);
    });
  }

  private statement(s: Stmt): void {
    switch (s.kind) {
      case 'let':
        if (s.init) this.expr(s.init); // before the declaration: `let x = x + 1` reads the outer x
        this.declare(s.decl);
        return;
      case 'expr':
        this.expr(s.expr);
        return;
      case 'assign':
        this.expr(s.target);
        this.refuseConstantTarget(s.target);
        this.expr(s.value);
        return;
      case 'break':
      case 'return':
      case 'throw':
        if (s.value) this.expr(s.value);
        return;
      case 'continue':
        return;
      case 'import':
        this.expr(s.path);
        return;
      case 'export':
        s.ref = this.lookup(s.name);
        return;
      case 'try':
        this.statements(s.body);
        this.block(() => {
          this.declare(s.hidden);
          if (s.errVar) this.declare(s.errVar);
          this.statements(s.handler);
        });
    }
  }

  /** Only `A = v` is refused; `A[0] = v` and `A.x = v` fail at run time, as in Rhai's parser. */
  private refuseConstantTarget(target: Expr): void {
    if (target.kind === 'var' && target.ref?.kind === 'local' && target.ref.decl.isConst) {
      throw parseError(`Cannot assign to constant '${target.name}'`, target.pos);
    }
  }

  private expr(e: Expr): void {
    switch (e.kind) {
      case 'literal':
      case 'this':
      case 'global':
      case 'modvar':
        return;
      case 'var':
        this.variable(e);
        return;
      case 'array':
        for (const item of e.items) this.expr(item);
        return;
      case 'map':
        for (const [, value] of e.entries) this.expr(value);
        return;
      case 'interpolation':
        for (const part of e.parts) if (typeof part !== 'string') this.expr(part);
        return;
      case 'unary':
        this.expr(e.operand);
        return;
      case 'binary':
        this.expr(e.left);
        this.expr(e.right);
        return;
      case 'property':
        this.expr(e.target);
        return;
      case 'index':
        this.expr(e.target);
        this.expr(e.index);
        return;
      case 'call':
        for (const a of e.args) this.expr(a);
        if (e.name === 'is_def_var') e.visibleVars = this.visibleNames();
        if (e.name === 'eval' && e.args.length === 1) {
          this.scope.usesEval = true;
          e.topLevel = this.isMain && this.scope === this.top && this.depth === 1;
        }
        if (e.bang || (e.name === 'eval' && e.args.length === 1)) {
          // Mark every variable in scope as read: the callee may read any of them by name.
          e.scope = this.scopeRefs();
        }
        return;
      case 'method':
        this.expr(e.target);
        for (const a of e.args) this.expr(a);
        return;
      case 'closure':
        this.closure(e.fn);
        return;
      case 'block':
        this.statements(e.body);
        return;
      case 'if':
        this.expr(e.cond);
        this.statements(e.then);
        if (e.else) this.statements(e.else);
        return;
      case 'switch':
        this.expr(e.subject);
        for (const c of e.cases) {
          if (c.guard) this.expr(c.guard);
          this.expr(c.body);
        }
        if (e.defaultCase) this.expr(e.defaultCase);
        return;
      case 'while':
        if (e.cond) this.expr(e.cond);
        this.statements(e.body);
        return;
      case 'do':
        this.statements(e.body);
        this.expr(e.cond);
        return;
      case 'for':
        this.expr(e.iter);
        this.block(() => {
          this.declare(e.item);
          if (e.counter) this.declare(e.counter);
          this.statements(e.body);
        });
    }
  }

  private variable(e: Extract<Expr, { kind: 'var' }>): void {
    e.ref = this.lookup(e.name);
    // Rhai captures a closure's outside variables when the closure is made, so a missing one fails
    // there (in every enclosing closure), not when the closure is called.
    if (!e.ref)
      for (let s: FnScope | null = this.scope; s?.parent; s = s.parent)
        s.missingCapture ??= { name: e.name, pos: e.pos };
  }

  private closure(fn: FnDef): void {
    const outer = this.scope;
    const scope = new FnScope(outer);
    this.scope = scope;
    try {
      for (const p of fn.params) this.declare(p);
      for (const s of fn.body) this.statement(s); // a closure's body shares the parameters' scope
    } finally {
      this.scope = outer;
    }
    fn.slotCount = scope.slotCount;
    fn.captures = scope.captures;
    fn.missingCapture = scope.missingCapture;
    fn.usesEval = scope.usesEval;
  }
}
