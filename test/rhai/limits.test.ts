// Engine limits end runaway scripts with ordinary errors instead of hanging.
import { describe, expect, it } from 'vitest';
import {
  compile,
  DEFAULT_LIMITS,
  evaluate,
  PLAYGROUND_LIMITS,
  RhaiError,
  type RhaiLimits,
} from '../../src/rhai/index.ts';
import { HOOK_LIMITS, loadCustomHooks } from '../../src/engine/custom-script.ts';
import { HOST_MAX_ITEMS } from '../../src/rhai/runtime.ts';

/** The error a script ends with under `limits`: kind, 1-based position, and how long it took. */
function ending(src: string, limits?: RhaiLimits): { kind: string; line: number; column: number; ms: number } {
  const started = Date.now();
  try {
    evaluate(src, { limits });
  } catch (e) {
    if (!(e instanceof RhaiError)) throw e;
    return { kind: e.kind, line: e.line, column: e.column, ms: Date.now() - started };
  }
  throw new Error(`expected ${src} to fail`);
}

const RUNAWAYS = [
  { src: 'loop {}', kind: 'ErrorTooManyOperations', line: 1, column: 1 },
  { src: 'let s = "x";\nloop { s += s }', kind: 'ErrorDataTooLarge', line: 2, column: 10 },
  { src: 'let a = [];\nloop { a.push(1) }', kind: 'ErrorTooManyOperations', line: 2, column: 1 },
];

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
      maxOperations: 0,
      maxCallDepth: 64,
      maxStringSize: 0,
      maxArraySize: 0,
      maxMapSize: 0,
      maxExprDepth: 64,
      maxFunctionExprDepth: 32,
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
    // A literal counts nested items too, as Rhai's calc_data_sizes: [[1, 2], [3, 4]] holds 6.
    expect(errorKind('let a = [[1, 2], [3, 4]];', { maxArraySize: 6 })).toBe('no error');
    expect(errorKind('let a = [[1, 2], [3, 4]];', { maxArraySize: 5 })).toBe('ErrorDataTooLarge');
    expect(errorKind('let m = #{a: #{b: 1}, c: 2};', { maxMapSize: 3 })).toBe('no error');
    expect(errorKind('let m = #{a: #{b: 1}, c: 2};', { maxMapSize: 2 })).toBe('ErrorDataTooLarge');
    expect(errorKind('let m = #{}; let i = 0; loop { m[`k${i}`] = i; i += 1; }', { maxMapSize: 50 })).toBe(
      'ErrorDataTooLarge',
    );
  });

  it('gives the page (custom-region hooks) and the CLI one set of defaults', () => {
    expect(HOOK_LIMITS).toBe(PLAYGROUND_LIMITS);
    expect(PLAYGROUND_LIMITS).toEqual({
      maxOperations: 1_000_000,
      maxCallDepth: 64,
      maxStringSize: 10_000_000,
      maxArraySize: 1_000_000,
      maxMapSize: 100_000,
      maxExprDepth: 64,
      maxFunctionExprDepth: 32,
    });
  });

  for (const r of RUNAWAYS) {
    it(`ends ${JSON.stringify(r.src)} under the playground limits with ${r.kind} and its position`, () => {
      const got = ending(r.src, PLAYGROUND_LIMITS);
      expect({ ...got, ms: undefined }).toEqual({ kind: r.kind, line: r.line, column: r.column, ms: undefined });
      expect(got.ms).toBeLessThan(5_000);
    });

    it(`ends ${JSON.stringify(r.src)} inside a custom region's render hook with ${r.kind}`, () => {
      const body = r.src.replace('\n', '\n  ');
      const hooks = loadCustomHooks('r.rhai', { 'r.rhai': `fn render(ctx) {\n  ${body}\n}` }, 'runaway');
      const started = Date.now();
      const call = hooks.call('render', new Map());
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(call.ok).toBe(false);
      if (call.ok) return;
      expect(call.failure.line).toBe(r.line + 1);
      expect(call.failure.column).toBe(r.line === 1 ? r.column + 2 : r.column + 2);
    });
  }

  it('with the size limits lifted, an array still stops at the host cap rather than crashing the process', () => {
    const unlimited = { ...PLAYGROUND_LIMITS, maxOperations: 0, maxArraySize: 0, maxMapSize: 0 };
    expect(ending('let a = [];\na.pad(20000000, 0);', unlimited)).toMatchObject({
      kind: 'ErrorDataTooLarge',
      line: 2,
      column: 3,
    });
    expect(ending(`let a = [];\na.pad(${HOST_MAX_ITEMS + 1}, 0);`, unlimited)).toMatchObject({
      kind: 'ErrorDataTooLarge',
      line: 2,
      column: 3,
    });
  });

  it('with no limits at all, doubling a string stops where JS strings end, with its position', () => {
    expect(ending('let s = "x";\nloop { s += s }', DEFAULT_LIMITS)).toMatchObject({
      kind: 'ErrorDataTooLarge',
      line: 2,
      column: 10,
    });
  });

  it('checks sizes inside native functions on what they would produce, before producing it', () => {
    const small = { ...PLAYGROUND_LIMITS, maxStringSize: 100, maxArraySize: 100 };
    for (const src of [
      'let s = "ab"; s.pad(101, "c");',
      'let t = "y"; t.pad(100, "z"); let s = "x"; s.append(t);',
      'let s = "aaaaaaaaaa"; s.replace("a", "aaaaaaaaaaa");',
      'let t = "y"; t.pad(100, "z"); let s = "x"; s += t;',
      'let s = ""; s.pad(100, "a"); s.split("");',
      'let s = ""; s.pad(100, ","); s.split(",");',
      'let s = ""; s.pad(99, "é"); s.split_rev("");',
      'let s = ""; s.pad(100, "é"); s += "x"; s.to_chars();',
      'let a = []; a.pad(101, 0);',
      'let a = [1]; let b = []; b.pad(100, 0); a.append(b);',
      'let a = [1]; let b = []; b.pad(100, 0); a.splice(0, 0, b);',
      'let a = []; a.pad(60, 0); a + a;',
      'let a = []; a.pad(60, 0); a += a;',
      'range(0.0, 1000.0, 1.0)',
      'let a = []; a.pad(40, "xyz"); a.to_string();',
      'let a = []; a.pad(40, "xyz"); `${a}`;',
    ]) {
      expect(ending(src, small).kind, src).toBe('ErrorDataTooLarge');
    }
  });

  it('applies per-call limits on top of compile-time ones', () => {
    const script = compile('fn spin(n) { let i = 0; while i < n { i += 1; } i }', { limits: { maxOperations: 500 } });
    expect(script.call('spin', [10])).toBe(10);
    expect(() => script.call('spin', [10_000])).toThrow(expect.objectContaining({ kind: 'ErrorTooManyOperations' }));
    expect(script.call('spin', [10_000], { limits: { maxOperations: 0 } })).toBe(10_000);
  });
});
