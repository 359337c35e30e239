// Every case in fixtures/cases.json (produced by real Rhai 1.26.0) must give the same result here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { debugString, evaluate, RhaiError } from '../../src/rhai/index.ts';

interface Case {
  id: string;
  script: string;
  expect: { debug?: string; error?: string; inner_error?: string };
  prints?: string[];
}

const cases = JSON.parse(readFileSync(new URL('./fixtures/cases.json', import.meta.url), 'utf8')) as Case[];

describe('Rhai conformance (cases.json)', () => {
  it('has all 240 cases', () => {
    expect(cases).toHaveLength(240);
  });

  for (const c of cases) {
    it(`${c.id}: ${c.script.slice(0, 60)}`, () => {
      const prints: string[] = [];
      let actual: { debug?: string; error?: string; inner_error?: string };
      try {
        const { value } = evaluate(c.script, { onPrint: (t) => prints.push(t) });
        actual = { debug: debugString(value) };
      } catch (e) {
        if (!(e instanceof RhaiError)) throw e;
        actual = { error: e.kind };
        if (e.kind === 'ErrorInFunctionCall') actual.inner_error = e.innerKind;
      }
      expect(actual).toEqual(c.expect);
      if (c.prints) expect(prints).toEqual(c.prints);
      else if ('debug' in c.expect) expect(prints).toEqual([]);
    });
  }
});
