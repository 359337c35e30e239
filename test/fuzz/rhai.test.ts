// Random Rhai scripts, written from the grammar or mutated from the conformance cases: the
// interpreter only ever throws RhaiError, and runaway scripts end within the operation limit.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evaluate, RhaiError } from '../../src/rhai/index.ts';
import { HOOK_LIMITS } from '../../src/engine/custom-script.ts';
import { SEED } from './arbitraries.ts';
import { runs, tried } from './harness.ts';
import { grammarScript } from './rhai-grammar.ts';

/** The hook limits, with fewer operations so hundreds of runaway scripts stay quick. */
const LIMITS = { ...HOOK_LIMITS, maxOperations: 20_000 };

interface Case {
  script: string;
}
const CASES = (JSON.parse(readFileSync(new URL('../rhai/fixtures/cases.json', import.meta.url), 'utf8')) as Case[]).map(
  (c) => c.script,
);
const JUNK = [
  '{',
  '}',
  '(',
  ')',
  '[',
  ']',
  ';',
  ',',
  '.',
  '"',
  '`',
  '${',
  '#{',
  '|',
  '||',
  '=',
  '==',
  '+=',
  'let',
  'fn',
  'loop',
  'while',
  'if',
  'else',
  'for',
  'in',
  'break',
  'return',
  'throw',
  'x',
  '0',
  '9223372036854775807',
  '\n',
  ' ',
];

const mutatedCase = fc
  .tuple(
    fc.constantFrom(...CASES),
    fc.array(
      fc.record({
        at: fc.nat(),
        cut: fc.integer({ min: 0, max: 6 }),
        text: fc.oneof(fc.constantFrom(...JUNK), fc.constant('')),
      }),
      { minLength: 1, maxLength: 4 },
    ),
  )
  .map(([script, edits]) =>
    edits.reduce((src, { at, cut, text }) => {
      const i = src.length === 0 ? 0 : at % src.length;
      return src.slice(0, i) + text + src.slice(i + cut);
    }, script),
  );

function runScript(source: string): void {
  tried('rhai scripts', () => evaluateOrRefuse(source));
}

function evaluateOrRefuse(source: string): 'ok' | 'error' {
  try {
    evaluate(source, { limits: LIMITS });
    return 'ok';
  } catch (e) {
    if (!(e instanceof RhaiError))
      throw new Error(`${(e as Error)?.constructor?.name}: ${(e as Error)?.message} for script:\n${source}`);
    expect(e.kind).toMatch(/^Error[A-Za-z]+$/);
    expect(e.line).toBeGreaterThanOrEqual(0);
    expect(e.message.length).toBeGreaterThan(0);
    return 'error';
  }
}

describe('Rhai on random scripts', () => {
  it('scripts written from the grammar end in a value or a RhaiError', () => {
    fc.assert(fc.property(grammarScript, runScript), { numRuns: runs(400), seed: SEED });
  });

  it('mutated conformance scripts end in a value or a RhaiError', () => {
    fc.assert(fc.property(mutatedCase, runScript), { numRuns: runs(600), seed: SEED });
  });
});
