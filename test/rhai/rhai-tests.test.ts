// Rhai's own test suite: every assertion of rhaiscript/rhai tests/*.rs that runs a script on a plain
// Engine::new() (or Engine::new_raw(), whose scripts here use no package) and compares the result
// (or an entry of its map) with a literal value or an error kind
// (rhai-tests/cases.json, made by rhai-tests/extract.ts; rhai-tests/README.md lists what was left out).
// Each case runs as Rhai's `Engine::eval::<T>` would: a result of another type than T is
// ErrorMismatchOutputType, and the value is compared with the Rust test's own literal.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Expected, RhaiTestCase, RhaiTestsFile } from './rhai-tests/extract.ts';
import { compile, compileExpression, DEFAULT_LIMITS, RhaiError, type RhaiValue } from '../../src/rhai/index.ts';
import { FnPtr, RhaiBlob, RhaiChar, RhaiFloat, typeName } from '../../src/rhai/values.ts';

const file = JSON.parse(readFileSync(new URL('./rhai-tests/cases.json', import.meta.url), 'utf8')) as RhaiTestsFile;

/** The Rhai type name each Rust type of `eval::<T>` accepts (Dynamic takes any). */
const RUST_TYPES: Record<string, string> = {
  INT: 'i64',
  i64: 'i64',
  FLOAT: 'f64',
  f64: 'f64',
  String: 'string',
  ImmutableString: 'string',
  '&str': 'string',
  char: 'char',
  bool: 'bool',
  '()': '()',
  Array: 'array',
  Map: 'map',
  Blob: 'blob',
  FnPtr: 'Fn',
};

/** A Rhai value in the case file's tagged form, built here from the value alone. */
function tagged(v: RhaiValue): Expected | { other: string } {
  if (typeof v === 'number' || typeof v === 'bigint') return { int: String(v) };
  if (v instanceof RhaiFloat)
    return { float: Number.isNaN(v.v) ? 'NaN' : v.v === Infinity ? 'inf' : v.v === -Infinity ? '-inf' : v.v };
  if (typeof v === 'string') return { string: v };
  if (v instanceof RhaiChar) return { char: v.c };
  if (typeof v === 'boolean') return { bool: v };
  if (v === undefined) return { unit: true };
  if (Array.isArray(v)) return { array: v.map(tagged) as Expected[] };
  if (v instanceof RhaiBlob) return { blob: [...v.bytes] };
  return { other: v instanceof FnPtr ? 'Fn' : typeName(v) };
}

type Outcome = { value: RhaiValue } | { error: RhaiError };

/** Runs a case as the Rust test's call does: compile, eval, eval_expression or run. */
function run(c: RhaiTestCase): Outcome {
  try {
    if (c.call === 'compile') {
      compile(c.script, { limits: DEFAULT_LIMITS });
      return { value: undefined };
    }
    if (c.call === 'compile_expression') {
      compileExpression(c.script, { limits: DEFAULT_LIMITS });
      return { value: undefined };
    }
    const script =
      c.call === 'eval_expression'
        ? compileExpression(c.script, { limits: DEFAULT_LIMITS })
        : compile(c.script, { limits: DEFAULT_LIMITS });
    const value = script.run({ limits: DEFAULT_LIMITS });
    if (c.call === 'run') return { value: undefined };
    const wanted = c.type ? RUST_TYPES[c.type] : undefined;
    if (wanted && typeName(value) !== wanted) {
      // Engine::eval::<T> refuses a result of another type (src/api/eval.rs).
      return {
        error: new RhaiError(
          'ErrorMismatchOutputType',
          `Output type incorrect: ${typeName(value)} (expecting ${wanted})`,
        ),
      };
    }
    return { value };
  } catch (e) {
    if (e instanceof RhaiError) return { error: e };
    throw e;
  }
}

function check(c: RhaiTestCase, outcome: Outcome): void {
  const ex = c.expect;
  if ('error' in ex) {
    if (!('error' in outcome))
      throw new Error(`expected an error (${ex.error.join(' | ')}), got ${JSON.stringify(tagged(outcome.value))}`);
    const e = outcome.error;
    if (!ex.error.includes('*')) expect(ex.error, e.message).toContain(e.kind);
    if (ex.inner) expect(ex.inner, e.message).toContain(e.innerKind);
    if (ex.message !== undefined) expect(e.message).toBe(ex.message);
    if (ex.position) expect([e.line, e.column], e.message).toEqual(ex.position);
    return;
  }
  if ('error' in outcome) throw outcome.error;
  if ('ok' in ex) return; // succeeded, with a result of the asked type (run() checked it)
  // `x["a"]` of a Map result (run() checked it is one)
  const v = c.key === undefined ? outcome.value : (outcome.value as Map<string, RhaiValue>).get(c.key);
  if ('length' in ex) {
    const length =
      typeof v === 'string'
        ? new TextEncoder().encode(v).length // Rust's String::len is bytes
        : Array.isArray(v)
          ? v.length
          : v instanceof Map
            ? v.size
            : v instanceof RhaiBlob
              ? v.bytes.length
              : NaN;
    expect(length).toBe(ex.length);
    return;
  }
  if (ex.tolerance !== undefined || ex.compare !== undefined) {
    expect(v).toBeInstanceOf(RhaiFloat);
    const x = (v as RhaiFloat).v;
    const y = (ex.value as { float: number }).float;
    if (ex.compare === '<') expect(x).toBeLessThan(y);
    else if (ex.compare === '>') expect(x).toBeGreaterThan(y);
    else expect(Math.abs(x - y)).toBeLessThanOrEqual(ex.tolerance!);
    return;
  }
  expect(tagged(v)).toEqual(ex.value);
}

describe(`Rhai ${file.source.version}'s own tests (rhaiscript/rhai ${file.source.commit.slice(0, 8)}, tests/*.rs)`, () => {
  it('holds every kept assertion, each naming its test and line, and README.md quotes its counts', () => {
    const readme = readFileSync(new URL('./rhai-tests/README.md', import.meta.url), 'utf8');
    expect(readme).toContain(`**${file.cases.length} kept** from ${file.source.files} files`);
    expect(readme).toContain(file.source.commit);
    for (const [reason, n] of Object.entries(file.excluded))
      expect(readme, reason).toMatch(new RegExp(`^\\| ${n} \\|`, 'm'));
    for (const c of file.cases) {
      expect(c.file).toMatch(/^tests\/\w+\.rs$/);
      expect(c.line).toBeGreaterThan(0);
      expect(c.test).toMatch(/^\w+$/);
    }
  });

  for (const c of file.cases) {
    it(`${c.file}:${c.line} ${c.test}: ${c.script.trim().replace(/\s+/g, ' ').slice(0, 60)}`, () => {
      check(c, run(c));
    });
  }
});
