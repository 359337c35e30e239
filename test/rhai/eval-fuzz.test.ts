// Random well-formed programs (built from a small Rhai grammar) never crash the evaluator with a
// JS error: anything that goes wrong is a RhaiError with a Rhai variant name.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evaluate, RhaiError } from '../../src/rhai/index.ts';
const atoms = [
  '0',
  '1',
  '-3',
  '2.5',
  '"s"',
  "'c'",
  'true',
  '()',
  '[1, "a"]',
  '#{a: 1, b: [2]}',
  'x',
  'y',
  'a',
  'm',
  '0..3',
  'this',
  'f',
  '9223372036854775807',
];
const bin = [
  '+',
  '-',
  '*',
  '/',
  '%',
  '**',
  '<<',
  '>>',
  '&',
  '|',
  '^',
  '==',
  '!=',
  '<',
  '>',
  '&&',
  '||',
  '??',
  'in',
  '..',
];
const methods = [
  'len()',
  'push(1)',
  'pop()',
  'to_string()',
  'keys()',
  'map(|v| v)',
  'filter(|v| true)',
  'sort()',
  'contains(1)',
  'sub_string(1)',
  'split(",")',
  'trim()',
  'abs()',
  'to_int()',
  'type_of()',
  'call(1)',
  'curry(2)',
  'remove(0)',
  'index_of(1)',
  'reduce(|a, b| a)',
  'extract(1)',
  'insert(0, 1)',
  'pad(3, 0)',
];
const expr: fc.Arbitrary<string> = fc.letrec((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(...atoms),
    fc.tuple(tie('e'), fc.constantFrom(...bin), tie('e')).map(([a, o, b]) => `(${a} ${o} ${b})`),
    fc.tuple(tie('e'), fc.constantFrom(...methods)).map(([a, m]) => `${a}.${m}`),
    fc.tuple(tie('e'), tie('e')).map(([a, b]) => `${a}[${b}]`),
    fc.tuple(tie('e'), fc.constantFrom('a', 'b', 'len')).map(([a, p]) => `${a}.${p}`),
    fc.tuple(tie('e'), tie('e'), tie('e')).map(([a, b, c]) => `if ${a} { ${b} } else { ${c} }`),
    fc.tuple(tie('e'), tie('e')).map(([a, b]) => `switch ${a} { 1 => ${b}, _ => 0 }`),
    fc.tuple(tie('e')).map(([a]) => `|v| ${a}`),
    fc.tuple(tie('e')).map(([a]) => `\`t\${${a}}\``),
    fc.tuple(tie('e')).map(([a]) => `-${a}`),
    fc.tuple(tie('e')).map(([a]) => `!${a}`),
  ),
})).e;
const stmt = fc.oneof(
  expr.map((e) => `${e};`),
  expr.map((e) => `x = ${e};`),
  expr.map((e) => `x += ${e};`),
  expr.map((e) => `a[0] = ${e};`),
  expr.map((e) => `m.a = ${e};`),
  expr.map((e) => `for v in ${e} { y += 1; if y > 5 { break; } }`),
  expr.map((e) => `try { ${e}; } catch (err) { y = err; }`),
  expr.map((e) => `let z = ${e};`),
  expr.map((e) => `print(${e});`),
  expr.map((e) => `f.call(${e});`),
  expr.map((e) => `g(${e});`),
  expr.map((e) => `x.h(${e});`),
);
const program = fc
  .array(stmt, { maxLength: 6 })
  .map(
    (ss) =>
      `fn g(p) { p + 1 } fn h(q) { this = q; } let x = 1; let y = 0; let a = [1, 2]; let m = #{a: 1}; let f = |v| v;\n${ss.join('\n')}`,
  );

const RUNS = Number(process.env.RHAI_FUZZ_RUNS ?? 300);

describe('evaluator robustness', () => {
  it('random well-formed programs only ever fail with RhaiError', () => {
    fc.assert(
      fc.property(program, (src) => {
        try {
          evaluate(src, { limits: { maxOperations: 100_000, maxStringSize: 100_000, maxArraySize: 10_000 } });
        } catch (e) {
          if (!(e instanceof RhaiError)) throw new Error(`${String(e)}\n--- script ---\n${src}`);
          expect(e.kind).toMatch(/^Error[A-Za-z]+$/);
        }
      }),
      { numRuns: RUNS, seed: RUNS === 300 ? 42 : undefined },
    );
  });
});
