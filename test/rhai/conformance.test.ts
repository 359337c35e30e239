// Every case in fixtures/cases.json and cases-2.json (produced by real Rhai 1.26.0) must give the
// same result here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCase, validateCases, type ConformanceCase } from '../../src/rhai/conformance.ts';

const load = (file: string): ConformanceCase[] =>
  JSON.parse(readFileSync(new URL(`./fixtures/${file}`, import.meta.url), 'utf8')) as ConformanceCase[];
const files = { 'cases.json': load('cases.json'), 'cases-2.json': load('cases-2.json') };
const cases = [...files['cases.json'], ...files['cases-2.json']];

describe('Rhai conformance (cases.json, cases-2.json)', () => {
  it('has all 328 well-formed cases with distinct ids', () => {
    expect(validateCases(files['cases.json'])).toBeUndefined();
    expect(validateCases(files['cases-2.json'])).toBeUndefined();
    expect(files['cases.json']).toHaveLength(240);
    expect(files['cases-2.json']).toHaveLength(88);
    expect(new Set(cases.map((c) => c.id)).size).toBe(328);
  });

  for (const c of cases) {
    it(`${c.id}: ${c.script.slice(0, 60)}`, () => {
      const result = runCase(c);
      const { message: _message, ...actual } = result.actual;
      // Error cases list prints only when the script printed before failing.
      const printsChecked = c.prints !== undefined || c.expect.error === undefined;
      expect(actual).toEqual(printsChecked ? result.expected : { ...result.expected, prints: actual.prints });
      expect(result.passed).toBe(true);
    });
  }

  it('reports a wrong expectation as a failure', () => {
    const result = runCase({ id: 'x', script: '1 + 1', expect: { debug: '3' } });
    expect(result.passed).toBe(false);
    expect(result.actual.debug).toBe('2');
  });
});
