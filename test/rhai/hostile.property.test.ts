// Random hostile scripts (runaway loops, growth without end, nesting 1 to 100,000 deep, long
// operator chains, deep recursion, junk) never let a JS error escape: the interpreter only throws
// RhaiError, and `lev rhai` always ends with a Rhai error or a value, never a JS stack trace.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { evaluate, PLAYGROUND_LIMITS, RhaiError } from '../../src/rhai/index.ts';
import { run } from '../../src/cli/rhai.ts';

const SEED = 12_345;
const size = fc.constantFrom(1, 3, 10, 70, 1_000, 5_000, 100_000);
const repeat = (text: string, n: number): string => text.repeat(n);

const hostile: fc.Arbitrary<string> = fc.oneof(
  size.map((n) => `${repeat('(', n)}1${repeat(')', n)}`),
  size.map((n) => `${repeat('[', n)}1${repeat(']', n)}`),
  size.map((n) => `${repeat('{', n)}1${repeat('}', n)}`),
  size.map((n) => `${repeat('#{a: ', n)}1${repeat('}', n)}`),
  size.map((n) => `${repeat('-', n)}1`),
  size.map((n) => `${repeat('!', n)}true`),
  size.map((n) => `${repeat('abs(', n)}1${repeat(')', n)}`),
  size.map((n) => `${repeat('`${', n)}1${repeat('}`', n)}`),
  size.map((n) => `${repeat('|| ', n)}1`),
  size.map((n) => `1${repeat(' + 1', n)}`),
  size.map((n) => `1${repeat('.abs()', n)}`),
  size.map((n) => `let a = [0]; a${repeat('[0]', n)}`),
  size.map((n) => `2${repeat(' ** 2', n)}`),
  size.map((n) => `"a"${repeat(' + "a"', n)}`),
  size.map((n) => `if true { ${repeat('if true { ', n)}1${repeat(' }', n)} }`),
  size.map((n) => `let a = []; for i in 0..${n} { a = [a]; } a`),
  size.map((n) => `let m = #{}; for i in 0..${n} { m = #{ inner: m }; } m`),
  size.map((n) => `let s = "ab"; for i in 0..${n} { s += s; } s.len()`),
  size.map((n) => `let a = [1]; for i in 0..${n} { a += a; } a.len()`),
  size.map((n) => `let a = [1]; for i in 0..${n} { a = [a, a]; } 0`),
  size.map((n) => `fn f(x) { if x > ${n} { x } else { f(x + 1) } } f(0)`),
  size.map((n) => `let s = ""; s.pad(${n} * 1000000, "ab"); s.len()`),
  size.map((n) => `let a = []; a.pad(${n} * 100000, [1, 2]); a.len()`),
  size.map((n) => `"x".split("").len() + ${n}`),
  size.map((n) => `range(0.0, ${n}.0 * 1000000.0, 1.0).len()`),
  fc.constantFrom(
    'loop {}',
    'let s = "x"; loop { s += s }',
    'let a = []; loop { a.push(1) }',
    'let a = [1]; loop { a.push(a) }',
    'let m = #{}; let i = 0; loop { m[`k${i}`] = i; i += 1; }',
    'fn f() { f() } f()',
    'let f = || f.call(); f.call()',
    'let s = "ab"; loop { s = `${s}${s}`; }',
    'let a = []; loop { a = [a, a]; }',
    'while true { let x = [1, 2, 3]; }',
    'let x = 9223372036854775807; x + 1',
    '1 << 9223372036854775807',
    '"é".pad(1000000000, "é")',
    'exit(exit)',
    'let a = [3, 1, 2]; a.sort(|x, y| { a.push(1); x - y }); a',
    'let a = [1]; a.for_each(|| a.push(this))',
  ),
);

/** A hostile fragment, sometimes inside a function, a closure or a try block, sometimes cut short. */
const script: fc.Arbitrary<string> = fc.tuple(hostile, fc.nat({ max: 4 }), fc.nat()).map(([body, wrap, cut]) => {
  const wrapped = [
    body,
    `fn hook(ctx) { ${body} } hook(#{})`,
    `let f = || { ${body} }; f.call()`,
    `let r = (); try { r = { ${body} }; } catch (e) { r = e; } r`,
    body.slice(0, cut % (body.length + 1)),
  ][wrap]!;
  return wrapped;
});

describe('hostile scripts under the playground limits', () => {
  it('never let a JS error escape the interpreter', () => {
    const limits = { ...PLAYGROUND_LIMITS, maxOperations: 50_000 };
    fc.assert(
      fc.property(script, (source) => {
        try {
          evaluate(source, { limits });
        } catch (e) {
          if (!(e instanceof RhaiError)) throw new Error(`${String(e)} escaped for:\n${source.slice(0, 300)}`);
          expect(e.kind).toMatch(/^Error[A-Za-z]+$/);
        }
      }),
      { numRuns: 200, seed: SEED },
    );
  }, 120_000);
});

describe('hostile scripts through lev rhai', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lev-rhai-hostile-'));
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('always end with exit 0 or 1 and never print a JS stack trace', async () => {
    await fc.assert(
      fc.asyncProperty(script, fc.boolean(), async (source, noLimits) => {
        const path = join(dir, 'hostile.rhai');
        writeFileSync(path, source);
        const printed: string[] = [];
        vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => {
          printed.push(a.join(' '));
        });
        vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => {
          printed.push(a.join(' '));
        });
        // --no-limits with a smaller operation budget: unlimited sizes, yet each run stays short.
        const code = await run(noLimits ? [path, '--no-limits', '--max-operations', '200000'] : [path]);
        vi.restoreAllMocks();
        expect([0, 1]).toContain(code);
        const text = printed.join('\n');
        expect(text).not.toMatch(/\n\s+at .*(\.ts|\.js|node:)/);
        expect(text).not.toContain('internal error');
      }),
      { numRuns: 60, seed: SEED },
    );
  }, 120_000);
});
