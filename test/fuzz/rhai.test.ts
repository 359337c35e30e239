// Random Rhai scripts, written from the grammar or mutated from the conformance cases: the
// interpreter only ever throws RhaiError, and runaway scripts end within the operation limit.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evaluate, RhaiError } from '../../src/rhai/index.ts';
import { HOOK_LIMITS } from '../../src/engine/custom-script.ts';
import { SEED } from './arbitraries.ts';

/** The hook limits, with fewer operations so hundreds of runaway scripts stay quick. */
const LIMITS = { ...HOOK_LIMITS, maxOperations: 20_000 };

const VARS = ['x', 'y', 'a', 's', 'm', 'f'];
const LITERALS = ['0', '1', '-1', '42', '3', '1000000', '9223372036854775807', '-9223372036854775808', '1.5', '0.0', '1e300', '"s"', '""', '"a,b"', "'c'", 'true', 'false', '()'];
const BINARY = ['+', '-', '*', '/', '%', '**', '==', '!=', '<', '>', '<=', '&&', '||', '??', '&', '|', '^', '<<', '>>', '..', '..=', 'in'];
const FUNCTIONS = ['len', 'to_string', 'type_of', 'abs', 'parse_int', 'to_int', 'to_float', 'is_empty', 'keys', 'values', 'to_upper', 'trim', 'reverse', 'sort', 'pop', 'shift', 'clear'];
const METHODS_1 = ['push', 'contains', 'split', 'index_of', 'append', 'remove', 'get', 'starts_with', 'truncate', 'extract', 'drain', 'retain', 'sub_string', 'chop', 'insert', 'pad'];

const expr: fc.Arbitrary<string> = fc.letrec<{ e: string }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(...LITERALS),
    fc.constantFrom(...VARS),
    fc.tuple(tie('e'), fc.constantFrom(...BINARY), tie('e')).map(([l, op, r]) => `(${l} ${op} ${r})`),
    fc.tuple(fc.constantFrom('-', '!'), tie('e')).map(([op, e]) => `${op}${e}`),
    fc.array(tie('e'), { maxLength: 3 }).map((items) => `[${items.join(', ')}]`),
    fc.tuple(tie('e'), tie('e')).map(([a, b]) => `#{a: ${a}, b: ${b}}`),
    fc.tuple(fc.constantFrom(...FUNCTIONS), tie('e')).map(([f, e]) => `${f}(${e})`),
    fc.tuple(tie('e'), fc.constantFrom(...FUNCTIONS)).map(([e, f]) => `(${e}).${f}()`),
    fc.tuple(tie('e'), fc.constantFrom(...METHODS_1), tie('e')).map(([e, f, x]) => `(${e}).${f}(${x})`),
    fc.tuple(tie('e'), fc.constantFrom('map', 'filter', 'reduce', 'all', 'some'), tie('e')).map(([e, f, b]) => `(${e}).${f}(|v| ${b})`),
    fc.tuple(tie('e'), tie('e')).map(([e, i]) => `(${e})[${i}]`),
    tie('e').map((e) => `(${e}).a`),
    tie('e').map((e) => `(${e})?.a`),
    fc.tuple(tie('e'), tie('e'), tie('e')).map(([c, t, f]) => `if (${c}) == 1 { ${t} } else { ${f} }`),
    fc.tuple(tie('e'), tie('e'), tie('e')).map(([v, a, b]) => `switch ${v} { 1 => ${a}, "s" => ${b}, _ => () }`),
    tie('e').map((e) => `\`t \${${e}} t\``),
    tie('e').map((e) => `(|x| ${e}).call(1)`),
    tie('e').map((e) => `Fn("g").call(${e})`),
  ),
})).e;

/** Rhai refuses a constant non-boolean condition at parse time, so conditions compare. */
const condition = fc.oneof(
  fc.constantFrom('true', 'false', 'x > 0', 'a.len() < 3', 's.len() > 100', 'type_of(m) == "map"'),
  expr.map((e) => `(${e}) == 1`),
);

const statement: fc.Arbitrary<string> = fc.letrec<{ s: string }>((tie) => ({
  s: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.tuple(fc.constantFrom(...VARS), expr).map(([v, e]) => `let ${v} = ${e};`),
    fc.tuple(fc.constantFrom(...VARS), fc.constantFrom('=', '+=', '-=', '*=', '??='), expr).map(([v, op, e]) => `${v} ${op} ${e};`),
    fc.tuple(fc.constantFrom(...VARS), expr).map(([v, e]) => `${v}.a = ${e};`),
    fc.tuple(fc.constantFrom(...VARS), expr, expr).map(([v, i, e]) => `${v}[${i}] = ${e};`),
    expr.map((e) => `${e};`),
    expr.map((e) => `print(${e});`),
    fc.tuple(condition, fc.array(tie('s'), { maxLength: 3 })).map(([c, body]) => `while ${c} { ${body.join(' ')} }`),
    fc.tuple(fc.array(tie('s'), { maxLength: 3 }), condition).map(([body, c]) => `loop { ${body.join(' ')} if ${c} { break; } continue; }`),
    fc.tuple(fc.constantFrom(...VARS), expr, fc.array(tie('s'), { maxLength: 3 })).map(([v, e, body]) => `for ${v} in ${e} { ${body.join(' ')} }`),
    fc.tuple(fc.array(tie('s'), { maxLength: 3 }), fc.array(tie('s'), { maxLength: 2 })).map(([t, c]) => `try { ${t.join(' ')} } catch (err) { ${c.join(' ')} }`),
    expr.map((e) => `throw ${e};`),
    expr.map((e) => `return ${e};`),
    fc.constantFrom('let a = []; loop { a.push(a.len()); }', 'let s = "ab"; loop { s += s; }', 'let a = [1]; loop { a += a; }'),
  ),
})).s;

const functions = fc.array(fc.tuple(fc.array(statement, { maxLength: 3 }), expr).map(([body, e]) => `fn g(x) { ${body.join(' ')} ${e} }`), { maxLength: 1 });
const grammarScript = fc.tuple(functions, fc.array(statement, { minLength: 1, maxLength: 6 }), fc.option(expr, { nil: '' }))
  .map(([fns, stmts, tail]) => [...fns, 'let x = 1; let y = [1, 2, 3]; let a = []; let s = "text"; let m = #{a: 1}; let f = |v| v + 1;', ...stmts, tail].join('\n'));

interface Case { script: string }
const CASES = (JSON.parse(readFileSync(new URL('../rhai/fixtures/cases.json', import.meta.url), 'utf8')) as Case[]).map((c) => c.script);
const JUNK = ['{', '}', '(', ')', '[', ']', ';', ',', '.', '"', '`', '${', '#{', '|', '||', '=', '==', '+=', 'let', 'fn', 'loop', 'while', 'if', 'else', 'for', 'in', 'break', 'return', 'throw', 'x', '0', '9223372036854775807', '\n', ' '];

const mutatedCase = fc.tuple(
  fc.constantFrom(...CASES),
  fc.array(fc.record({ at: fc.nat(), cut: fc.integer({ min: 0, max: 6 }), text: fc.oneof(fc.constantFrom(...JUNK), fc.constant('')) }), { minLength: 1, maxLength: 4 }),
).map(([script, edits]) => edits.reduce((src, { at, cut, text }) => {
  const i = src.length === 0 ? 0 : at % src.length;
  return src.slice(0, i) + text + src.slice(i + cut);
}, script));

function runScript(source: string): void {
  try {
    evaluate(source, { limits: LIMITS });
  } catch (e) {
    if (!(e instanceof RhaiError)) throw new Error(`${(e as Error)?.constructor?.name}: ${(e as Error)?.message} for script:\n${source}`);
    expect(e.kind).toMatch(/^Error[A-Za-z]+$/);
    expect(e.line).toBeGreaterThanOrEqual(0);
    expect(e.message.length).toBeGreaterThan(0);
  }
}

describe('Rhai on random scripts', () => {
  it('scripts written from the grammar end in a value or a RhaiError', () => {
    fc.assert(fc.property(grammarScript, runScript), { numRuns: 400, seed: SEED });
  });

  it('mutated conformance scripts end in a value or a RhaiError', () => {
    fc.assert(fc.property(mutatedCase, runScript), { numRuns: 600, seed: SEED });
  });
});
