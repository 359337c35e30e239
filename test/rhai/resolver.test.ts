// The resolver pass (resolver.ts): slots, references and closure captures on the parsed AST.
import { describe, expect, it } from 'vitest';
import type { Expr, Stmt } from '../../src/rhai/ast.ts';
import { parseSyntax } from '../../src/rhai/parser.ts';
import { resolveScript } from '../../src/rhai/resolver.ts';
import { DEFAULT_LIMITS } from '../../src/rhai/limits.ts';
import { RhaiError } from '../../src/rhai/index.ts';

const syntax = (src: string) => parseSyntax(src, DEFAULT_LIMITS);
const exprOf = (s: Stmt): Expr => {
  if (s.kind !== 'expr') throw new Error(s.kind);
  return s.expr;
};

describe('resolver', () => {
  it('leaves the parsed AST unresolved, then gives each declaration a slot and each variable its declaration', () => {
    const script = syntax('let x = 1; let x = x + 1; x');
    const [first, second, last] = script.body as [Stmt, Stmt, Stmt];
    if (first.kind !== 'let' || second.kind !== 'let') throw new Error('lets expected');
    const read = exprOf(last);
    expect([first.decl.slot, second.decl.slot, read.kind === 'var' ? read.ref : 'x']).toEqual([-1, -1, null]);
    resolveScript(script);
    expect([first.decl.slot, second.decl.slot, script.slotCount]).toEqual([0, 1, 2]);
    // `let x = x + 1` reads the outer x; the final `x` is the second one.
    const init = second.init!;
    if (init.kind !== 'binary' || init.left.kind !== 'var' || read.kind !== 'var') throw new Error('shape');
    expect(init.left.ref).toEqual({ kind: 'local', decl: first.decl });
    expect(read.ref).toEqual({ kind: 'local', decl: second.decl });
  });

  it("ends a block's variables at its end but keeps their slots distinct", () => {
    const script = resolveScript(syntax('let a = 1; { let b = 2; } let c = b;'));
    const c = script.body[2] as Extract<Stmt, { kind: 'let' }>;
    expect(c.decl.slot).toBe(2);
    expect(c.init!.kind === 'var' && c.init!.ref).toBe(null); // `b` is out of scope
  });

  it('turns outside variables of a closure into captures, marking the captured declaration', () => {
    const script = resolveScript(syntax('let n = 5; let f = |x| x + n; f'));
    const [n, f] = script.body as [Extract<Stmt, { kind: 'let' }>, Extract<Stmt, { kind: 'let' }>];
    const closure = f.init!;
    if (closure.kind !== 'closure') throw new Error('closure expected');
    expect(n.decl.captured).toBe(true);
    expect(closure.fn.captures).toEqual([{ kind: 'local', decl: n.decl }]);
    expect([closure.fn.params[0]!.slot, closure.fn.slotCount, closure.fn.missingCapture]).toEqual([0, 1, undefined]);
  });

  it("records a closure's missing outside variable, so making the closure fails on it", () => {
    const script = resolveScript(syntax('let f = || nowhere + 1;'));
    const closure = (script.body[0] as Extract<Stmt, { kind: 'let' }>).init!;
    expect(closure.kind === 'closure' && closure.fn.missingCapture).toEqual({
      name: 'nowhere',
      pos: { line: 1, column: 12 },
    });
  });

  it('resolves each function in its own frame, parameters first', () => {
    const script = resolveScript(syntax('fn add(a, b) { let s = a + b; s }'));
    const fn = script.functions[0]!;
    expect([fn.params.map((p) => p.slot), fn.slotCount]).toEqual([[0, 1], 3]);
  });

  it('refuses an assignment to a constant itself, with its position', () => {
    let error: unknown;
    try {
      resolveScript(syntax('const A = 1;\nA += 2;'));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RhaiError);
    expect([(error as RhaiError).kind, (error as RhaiError).line, (error as RhaiError).column]).toEqual([
      'ErrorParsing',
      2,
      1,
    ]);
    expect(() => resolveScript(syntax('const A = [1]; A[0] = 2;'))).not.toThrow(); // a run-time error, as in Rhai
  });
});
