// Issue 34's pathological scripts: each work-heavy string, array or formatting loop stops with a
// Rhai error naming the limit under the default limits (the page's, the hooks' and `lev rhai`'s),
// instead of staying under 1,000,000 operations while running for minutes. The time each takes
// is measured in docs/robustness.md, not asserted here.
import { describe, expect, it } from 'vitest';
import { evaluate, PLAYGROUND_LIMITS, RhaiError, toRhai } from '../../src/rhai/index.ts';
import { CHARS_PER_OP } from '../../src/rhai/cost.ts';
import { loadCustomHooks } from '../../src/engine/custom-script.ts';
import type { RhaiMap } from '../../src/rhai/values.ts';

/** `let s = ""; s.pad(n, c);`: a string of n copies of c built inside the script. */
const text = (n: number, c = 'a'): string => `let s = ""; s.pad(${n}, "${c}");`;

/** A map of 100,000 short entries (k0: "x", k1: "x", ...). */
const entries = 'let m = #{}; for i in 0..100000 { m[`k${i}`] = "x"; }';

function ending(source: string): { kind: string; line: number; column: number } {
  try {
    evaluate(source, { limits: PLAYGROUND_LIMITS });
  } catch (e) {
    if (!(e instanceof RhaiError)) throw e;
    return { kind: e.kind, line: e.line, column: e.column };
  }
  throw new Error(`expected ${source} to stop`);
}

describe('work-heavy loops stop at a limit (issue 34, default limits)', () => {
  const loops: [string, string, string][] = [
    ['to_upper on 10,000,000 chars', `${text(10_000_000)}\nloop { let t = s.to_upper(); }`, 'ErrorTooManyOperations'],
    [
      'len of 5,000,000 astral chars',
      `${text(5_000_000, '😀')}\nlet n = 0; loop { n += s.len(); }`,
      'ErrorTooManyOperations',
    ],
    [
      'get(i) at the end of 5,000,000 astral chars',
      `${text(5_000_000, '😀')}\nloop { let c = s.get(4999999); }`,
      'ErrorTooManyOperations',
    ],
    ['contains over 10,000,000 chars', `${text(10_000_000)}\nloop { s.contains("b"); }`, 'ErrorTooManyOperations'],
    [
      'replace over 5,000,000 chars',
      `${text(5_000_000)}\nloop { let t = s; t.replace("b", "c"); }`,
      'ErrorTooManyOperations',
    ],
    ['index_of over 10,000,000 chars', `${text(10_000_000)}\nloop { s.index_of("b"); }`, 'ErrorTooManyOperations'],
    ['== on two 10,000,000-char strings', `${text(10_000_000)}\nlet t = s; loop { s == t; }`, 'ErrorTooManyOperations'],
    [
      '== on two 5,000,000-astral-char strings',
      `${text(5_000_000, '😀')}\nlet t = s; loop { s == t; }`,
      'ErrorTooManyOperations',
    ],
    ['a Fn pointer curried without end', 'let f = Fn("x");\nloop { f = f.curry(1); }', 'ErrorTooManyOperations'],
    ['to_chars on 9,000,000 emoji', `${text(9_000_000, '😀')}\ns.to_chars();`, 'ErrorDataTooLarge'],
    [
      'debug() of a 9,000,000-char string 2,000 times',
      `${text(9_000_000)}\nfor i in 0..2000 { debug(s); }`,
      'ErrorTooManyOperations',
    ],
    [
      'to_debug() of a 9,000,000-char string 2,000 times',
      `${text(9_000_000)}\nfor i in 0..2000 { let t = s.to_debug(); }`,
      'ErrorTooManyOperations',
    ],
    [
      'print of a 9,000,000-char string 2,000 times',
      `${text(9_000_000)}\nfor i in 0..2000 { print(s); }`,
      'ErrorTooManyOperations',
    ],
    [
      'to_json of a 100,000-entry map without end',
      `${entries}\nloop { let t = m.to_json(); }`,
      'ErrorTooManyOperations',
    ],
    ['debug of a 100,000-entry map without end', `${entries}\nloop { debug(m); }`, 'ErrorTooManyOperations'],
    ['== on two 100,000-entry maps without end', `${entries}\nlet n = m; loop { m == n; }`, 'ErrorTooManyOperations'],
  ];
  for (const [name, source, kind] of loops) {
    it(name, () => {
      const end = ending(source);
      expect(end.kind).toBe(kind);
      expect(end.line).toBe(2); // the loop's line, not the pad that built the text
    });
  }

  it('a curried argument list counts toward the array size limit', () => {
    // one curried array of 999,999 items is 1,000,000 items counted at every depth: the limit exactly
    const fill = `let a = []; a.pad(${PLAYGROUND_LIMITS.maxArraySize - 1}, 0);`;
    expect(evaluate(`${fill} let f = Fn("x").curry(a); 1`, { limits: PLAYGROUND_LIMITS }).value).toBe(1);
    expect(ending(`${fill}\nlet f = Fn("x").curry(a);\nf = f.curry(1);`)).toEqual({
      kind: 'ErrorDataTooLarge',
      line: 3,
      column: 7,
    });
  });

  it('one call is charged in proportion to the text it touches', () => {
    // to_upper over n chars costs n / CHARS_PER_OP operations more than the same script without it
    const n = 1_000_000;
    const budget = (ops: number) => ({ limits: { ...PLAYGROUND_LIMITS, maxOperations: ops } });
    const without = `${text(n)} s.len()`;
    const withUpper = `${text(n)} let t = s.to_upper(); t.len()`;
    // building the text (pad) is charged too: twice n / CHARS_PER_OP, plus a few statements
    const base = (2 * n) / CHARS_PER_OP + 10;
    expect(evaluate(without, budget(base)).value).toBe(n);
    expect(() => evaluate(withUpper, budget(base))).toThrow(
      expect.objectContaining({ kind: 'ErrorTooManyOperations' }),
    );
    expect(() => evaluate(withUpper, budget(base + n / CHARS_PER_OP - 10))).toThrow(
      expect.objectContaining({ kind: 'ErrorTooManyOperations' }),
    );
    expect(evaluate(withUpper, budget(base + n / CHARS_PER_OP)).value).toBe(n);
  });

  it('a realistic hook, counting vowels with get(i) over a 100,000-char tool result, finishes with the right count', () => {
    const result = 'The quick brown fox jumps over the lazy dog. '.repeat(2223).slice(0, 100_000);
    const expected = [...result].filter((c) => 'aeiou'.includes(c)).length;
    const hooks = loadCustomHooks(
      'vowels.rhai',
      {
        'vowels.rhai': [
          'fn render(ctx) { "" }',
          'fn on_write(ctx) {',
          '  let s = ctx.entry.content; let n = 0;',
          '  for i in 0..s.len() { if "aeiou".contains(s.get(i)) { n += 1; } }',
          '  n',
          '}',
        ].join('\n'),
      },
      'brain',
    );
    const called = hooks.call('on_write', toRhai({ entry: { content: result, kind: 'text', tokens: 1 } }) as RhaiMap);
    expect(called).toEqual({ ok: true, value: expected });
  });

  it('the same loop as a hook is a failure naming the limit and the line, not a stalled replay', () => {
    const hooks = loadCustomHooks(
      'upper.rhai',
      {
        'upper.rhai': `fn render(ctx) { "" }\nfn on_write(ctx) {\n  ${text(10_000_000)}\n  loop { s.to_upper(); }\n}`,
      },
      'brain',
    );
    const called = hooks.call('on_write', toRhai({ entry: { content: 'x', kind: 'text', tokens: 1 } }) as RhaiMap);
    expect(called.ok).toBe(false);
    if (called.ok) return;
    expect(called.failure).toMatchObject({ file: 'upper.rhai', line: 4, detail: 'Too many operations' });
  });
});
