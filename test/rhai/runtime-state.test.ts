// Two compiled programs with different limits, run alternately and one inside the other (a print
// callback of one runs the other), each keep their own operation counters, limits and call depth.
import { describe, expect, it } from 'vitest';
import { compile, RhaiError } from '../../src/rhai/index.ts';

const SPIN = 'fn spin(n) { let i = 0; while i < n { i += 1; } i }';

function kindOf(run: () => unknown): string {
  try {
    run();
    return 'ok';
  } catch (e) {
    if (e instanceof RhaiError) return e.kind;
    throw e;
  }
}

describe('run state belongs to each program and each call', () => {
  it('keeps separate limits for two hooks called alternately', () => {
    const tight = compile(SPIN, { limits: { maxOperations: 2_000 } });
    const roomy = compile(SPIN, { limits: { maxOperations: 200_000 } });
    const results: string[] = [];
    for (let round = 0; round < 3; round++) {
      results.push(kindOf(() => tight.call('spin', [1_500])));
      results.push(kindOf(() => roomy.call('spin', [100_000])));
      results.push(kindOf(() => tight.call('spin', [3_000])));
    }
    expect(results).toEqual(Array.from({ length: 3 }, () => ['ok', 'ok', 'ErrorTooManyOperations']).flat());
  });

  it("keeps the outer run's counters while another program runs inside its print callback", () => {
    const inner = compile(SPIN, { limits: { maxOperations: 100_000 } });
    const innerResults: unknown[] = [];
    const outer = compile('let i = 0; while i < 5 { print(i); i += 1; } i', { limits: { maxOperations: 50 } });
    // Each inner call spends 50,000 operations: far beyond the outer budget if the two shared one.
    const value = outer.run({
      onPrint: () => {
        innerResults.push(inner.call('spin', [50_000]));
      },
    });
    expect(value).toBe(5);
    expect(innerResults).toEqual([50_000, 50_000, 50_000, 50_000, 50_000]);
  });

  it('gives the inner run its own limit and call depth, then lets the outer run go on', () => {
    const deep = compile('fn d(n) { if n == 0 { 0 } else { 1 + d(n - 1) } }', { limits: { maxCallDepth: 10 } });
    const outer = compile('fn d(n) { if n == 0 { print("bottom"); 0 } else { 1 + d(n - 1) } } d(40)', {
      limits: { maxCallDepth: 50 },
    });
    const inner: string[] = [];
    const value = outer.run({
      onPrint: () => {
        inner.push(kindOf(() => deep.call('d', [5])));
        inner.push(kindOf(() => deep.call('d', [20])));
      },
    });
    expect(value).toBe(40);
    expect(inner).toEqual(['ok', 'ErrorStackOverflow']);
  });

  it("checks each run's data sizes against its own limits, also inside native functions and copies", () => {
    const small = compile('let a = []; a.pad(50, 0); let b = a; b.len()', { limits: { maxArraySize: 40 } });
    const large = compile('let a = []; a.pad(5_000, 0); let b = [a]; b[0].len()', { limits: { maxArraySize: 10_000 } });
    const inner: string[] = [];
    const outer = compile('let a = []; a.pad(30, 0); print(""); let b = a; a.pad(60, 0); b.len()', {
      limits: { maxArraySize: 50 },
    });
    expect(
      kindOf(() =>
        outer.run({
          onPrint: () => {
            inner.push(String(large.run()));
            inner.push(kindOf(() => small.run()));
          },
        }),
      ),
    ).toBe('ErrorDataTooLarge');
    expect(inner).toEqual(['5000', 'ErrorDataTooLarge']);
    expect(compile('let a = []; a.pad(30, 0); let b = a; b.len()', { limits: { maxArraySize: 50 } }).run()).toBe(30);
  });
});
