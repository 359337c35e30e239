// Engine limits end runaway scripts with ordinary errors instead of hanging.
import { describe, expect, it } from 'vitest';
import { compile, DEFAULT_LIMITS, evaluate, RhaiError, type RhaiLimits } from '../../src/rhai/index.ts';

function errorKind(src: string, limits?: RhaiLimits): string {
  try {
    evaluate(src, { limits });
  } catch (e) {
    if (e instanceof RhaiError) return e.kind;
    throw e;
  }
  return 'no error';
}

describe('limits', () => {
  it('uses Rhai release defaults', () => {
    expect(DEFAULT_LIMITS).toEqual({
      maxOperations: 0, maxCallDepth: 64, maxStringSize: 0, maxArraySize: 0, maxMapSize: 0,
      maxExprDepth: 64, maxFunctionExprDepth: 32,
    });
  });

  it('stops `loop {}` with ErrorTooManyOperations', () => {
    const started = Date.now();
    expect(errorKind('loop {}', { maxOperations: 1_000_000 })).toBe('ErrorTooManyOperations');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('counts operations inside functions and closures too', () => {
    expect(errorKind('fn spin() { while true { } } spin()', { maxOperations: 10_000 })).toBe('ErrorTooManyOperations');
    expect(errorKind('let f = || { loop { } }; f.call()', { maxOperations: 10_000 })).toBe('ErrorTooManyOperations');
    expect(errorKind('let s = 0; for i in 0..100 { s += i; } s', { maxOperations: 10_000 })).toBe('no error');
  });

  it('ends deep recursion with ErrorStackOverflow at the configured depth', () => {
    const src = 'fn d(n) { if n == 0 { 0 } else { 1 + d(n - 1) } }';
    expect(errorKind(`${src} d(63)`)).toBe('no error');
    expect(errorKind(`${src} d(64)`)).toBe('ErrorStackOverflow');
    expect(errorKind(`${src} d(10)`, { maxCallDepth: 5 })).toBe('ErrorStackOverflow');
    expect(errorKind(`${src} d(500)`, { maxCallDepth: 1000 })).toBe('no error');
  });

  it('stops string growth with ErrorDataTooLarge', () => {
    expect(errorKind('let s = "ab"; loop { s += s; }', { maxStringSize: 10_000 })).toBe('ErrorDataTooLarge');
    expect(errorKind('let s = "x"; let t = `${s}${s}${s}`;', { maxStringSize: 2 })).toBe('ErrorDataTooLarge');
  });

  it('limits arrays and maps', () => {
    expect(errorKind('let a = []; loop { a.push(1); }', { maxArraySize: 100 })).toBe('ErrorDataTooLarge');
    expect(errorKind('let a = [1, 2, 3];', { maxArraySize: 2 })).toBe('ErrorDataTooLarge');
    // Nested copies count every item at every depth, so doubling by nesting stops too.
    expect(errorKind('let a = [1]; loop { a = [a, a]; }', { maxArraySize: 1000 })).toBe('ErrorDataTooLarge');
    expect(errorKind('let m = #{}; let i = 0; loop { m[`k${i}`] = i; i += 1; }', { maxMapSize: 50 })).toBe('ErrorDataTooLarge');
  });

  it('applies per-call limits on top of compile-time ones', () => {
    const script = compile('fn spin(n) { let i = 0; while i < n { i += 1; } i }', { limits: { maxOperations: 500 } });
    expect(script.call('spin', [10])).toBe(10);
    expect(() => script.call('spin', [10_000])).toThrow(expect.objectContaining({ kind: 'ErrorTooManyOperations' }));
    expect(script.call('spin', [10_000], { limits: { maxOperations: 0 } })).toBe(10_000);
  });
});
