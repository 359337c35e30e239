// Every case in fixtures/cases.json (produced by real Rhai 1.26.0) must give the same result here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCase, validateCases, type ConformanceCase } from '../../src/rhai/conformance.ts';

const cases = JSON.parse(readFileSync(new URL('./fixtures/cases.json', import.meta.url), 'utf8')) as ConformanceCase[];

describe('Rhai conformance (cases.json)', () => {
  it('has all 240 well-formed cases', () => {
    expect(validateCases(cases)).toBeUndefined();
    expect(cases).toHaveLength(240);
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
