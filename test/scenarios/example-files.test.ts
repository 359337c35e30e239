import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXAMPLES_DIR, exampleFiles } from '../../src/scenarios/example-files.ts';

describe('examples/*.json', () => {
  const expected = exampleFiles();

  it('holds exactly one file per built-in example', () => {
    const committed = readdirSync(EXAMPLES_DIR)
      .filter((f) => f.endsWith('.json'))
      .map((f) => `${EXAMPLES_DIR}/${f}`);
    expect(committed.sort()).toEqual(Object.keys(expected).sort());
  });

  for (const [path, text] of Object.entries(expected)) {
    it(`${path} matches EXAMPLES (else run: npx tsx src/scenarios/export-examples.ts)`, () => {
      expect(readFileSync(path, 'utf8')).toBe(text);
    });
  }
});
