// Runtime errors: Rhai's variant names, messages, positions, wrapping, and what `catch` receives.
import { describe, expect, it } from 'vitest';
import { debugString, evaluate, RhaiError } from '../../src/rhai/index.ts';

function runError(src: string): RhaiError {
  try {
    evaluate(src);
  } catch (e) {
    if (e instanceof RhaiError) return e;
    throw e;
  }
  throw new Error(`expected an error from: ${src}`);
}

describe('runtime errors carry kind, message and position', () => {
  it.each([
    ['let a = [1, 2, 3];\nlet b = a[5];', 'ErrorArrayBounds', 2, 10],
    ['let x = 1;\n  x.foo(2)', 'ErrorFunctionNotFound', 2, 5],
    ['let d = 0;\nlet q = 10 / d;', 'ErrorArithmetic', 2, 12],
    ['let t = true;\nt + 1', 'ErrorFunctionNotFound', 2, 3],
    ['missing + 1', 'ErrorVariableNotFound', 1, 1],
    ['let c = 1;\nif c { }', 'ErrorMismatchDataType', 2, 4],
    ['let n = 5;\nfor x in n { }', 'ErrorFor', 2, 10],
    ['let m = #{};\nm.a.b', 'ErrorDotExpr', 2, 5],
    ['let s = "abc";\ns[10]', 'ErrorStringBounds', 2, 2],
    ['let b = true;\nb[0]', 'ErrorIndexingType', 2, 2],
    ['\n  throw "bad";', 'ErrorRuntime', 2, 3],
  ])('%j -> %s', (src, kind, line, column) => {
    const e = runError(src);
    expect(e.kind).toBe(kind);
    expect([e.line, e.column]).toEqual([line, column]);
    expect(e.message).toContain(`line ${line}, position ${column}`);
  });

  it('wraps errors inside script functions in ErrorInFunctionCall, naming the innermost cause', () => {
    const e = runError('fn a() { b() }\nfn b() { 1 / 0 }\na()');
    expect(e.kind).toBe('ErrorInFunctionCall');
    expect(e.innerKind).toBe('ErrorArithmetic');
    expect(e.fnName).toBe('a');
    expect([e.line, e.column]).toEqual([3, 1]);
    expect(e.inner?.kind).toBe('ErrorInFunctionCall');
    expect(e.inner?.inner?.kind).toBe('ErrorArithmetic');
    expect([e.inner?.inner?.line, e.inner?.inner?.column]).toEqual([2, 12]);
    expect(e.message).toBe(
      "Division by zero: 1 / 0 (line 2, position 12)\nin call to function 'b' (line 1, position 10)\nin call to function 'a' (line 3, position 1)",
    );
  });

  it('does not wrap stack overflow', () => {
    const e = runError('fn down(n) { down(n + 1) }\ndown(0)');
    expect(e.kind).toBe('ErrorStackOverflow');
    expect(e.innerKind).toBeUndefined();
  });

  it('keeps the thrown value on ErrorRuntime', () => {
    const e = runError('throw #{code: 7};');
    expect(e.kind).toBe('ErrorRuntime');
    expect(debugString(e.value)).toBe('#{"code": 7}');
  });

  it('rejects calling a changing method on a constant', () => {
    expect(runError('const A = [1];\nA.push(2);').kind).toBe('ErrorNonPureMethodCallOnConstant');
    expect(debugString(evaluate('const A = [1]; A.len()').value)).toBe('1');
  });
});

describe('catch', () => {
  it('receives a system error as a map with error, message, line and position', () => {
    const { value } = evaluate('let e2 = ();\ntry { let x = [1][5]; } catch (e) { e2 = e; }\ne2');
    expect(debugString(value)).toBe(
      '#{"error": "ErrorArrayBounds", "index": 5, "length": 1, "line": 2, ' +
        '"message": "Array index 5 out of bounds: only 1 element in array", "position": 18}',
    );
  });

  // Rhai's Stmt::TryCatch unwraps to the innermost error only for a thrown value; any other error
  // is described as it reached the `try`, i.e. as the ErrorInFunctionCall around it.
  it('gives a value thrown inside a function as thrown, and any other error as its ErrorInFunctionCall', () => {
    expect(debugString(evaluate('fn f() { throw "x"; } let r = (); try { f(); } catch (e) { r = e; } r').value)).toBe(
      '"x"',
    );
    const { value } = evaluate('fn g(a) { a[3] }\nfn f() { g([1]) }\nlet r = (); try { f(); } catch (e) { r = e; } r');
    expect(debugString(value)).toBe(
      '#{"error": "ErrorInFunctionCall", "function": "f", "line": 3, "message": ' +
        '"Array index 3 out of bounds: only 1 element in array (line 1, position 12)\\n' +
        'in call to function \'g\' (line 2, position 10)\\nin call to function \'f\'", "position": 19, "source": ""}',
    );
    const arithmetic = evaluate('fn f() { 1 / 0 } let r = (); try { f(); } catch (e) { r = [e.error, e.message]; } r');
    expect(debugString(arithmetic.value)).toBe(
      '["ErrorInFunctionCall", "Division by zero: 1 / 0\\nin call to function \'f\'"]',
    );
  });

  it('cannot catch limit errors', () => {
    const e = (() => {
      try {
        evaluate('try { loop { } } catch { }', { limits: { maxOperations: 1000 } });
      } catch (err) {
        return err as RhaiError;
      }
      throw new Error('expected an error');
    })();
    expect(e.kind).toBe('ErrorTooManyOperations');
  });

  it('re-throws the original error with a bare throw', () => {
    const e = runError('try { let z = 1 / 0; } catch { throw; }');
    expect(e.kind).toBe('ErrorArithmetic');
  });
});
