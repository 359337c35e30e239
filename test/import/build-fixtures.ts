// Writes test/import/fixtures/* from run.ts, each in its format's real shape. Run from the
// repository root:  npx tsx test/import/build-fixtures.ts
// test/import/fixtures.test.ts fails when the committed files fall behind.
import { writeFileSync } from 'node:fs';
import { fixtureFiles } from './fixture-files.ts';

for (const [name, text] of Object.entries(fixtureFiles())) {
  writeFileSync(`test/import/fixtures/${name}`, text);
  console.log(`wrote test/import/fixtures/${name}`);
}
