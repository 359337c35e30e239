// Links made by earlier versions of the page keep opening, to the same timeline (see link-fixtures.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { replay } from '../../src/engine/index.ts';
import { BUILT_IN_TRAFFIC } from '../../src/scenarios/generators.ts';
import { RHAI } from '../../src/engine/custom-script.ts';
import { decodeFragment } from '../../src/share/index.ts';
import { timelineFigures, type LinkFixture } from './link-fixtures.ts';

const dir = new URL('./fixtures/', import.meta.url);
const files = readdirSync(dir).filter((f) => /^links-\d{4}-\d{2}-\d{2}\.json$/.test(f));

describe('committed share links', () => {
  it('include the links made on 2026-12-03', () => {
    expect(files).toContain('links-2026-12-03.json');
  });

  for (const file of files) {
    const fixtures = JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as LinkFixture[];
    describe(file, () => {
      for (const fixture of fixtures) {
        it(`${fixture.name} opens to the same timeline`, () => {
          const decoded = decodeFragment(`https://leviath.dev/playground/${fixture.fragment}`);
          if (!decoded.ok) throw new Error(decoded.error);
          expect(decoded.scenario.name).toBe(fixture.name);
          expect(timelineFigures(replay(decoded.scenario, { ...BUILT_IN_TRAFFIC, ...RHAI }))).toEqual(fixture.opensTo);
        });
      }
    });
  }
});
