// Writes test/import/fixtures/* from run.ts, each in its format's real shape, and the gallery's
// imported-run example from the Claude Code one. Run from the repository root:  npx tsx test/import/build-fixtures.ts
// test/import/formats.test.ts ("the committed fixtures") fails when the committed files fall behind.
import { writeFileSync } from 'node:fs';
import { fixtureFiles } from './fixture-files.ts';
import { IMPORTED_RUN_FILE, importedRunSource } from './imported-example.ts';
import { loadEncodings } from '../../src/engine/index.ts';

await loadEncodings();

for (const [name, text] of Object.entries(fixtureFiles())) {
  writeFileSync(`test/import/fixtures/${name}`, text);
  console.log(`wrote test/import/fixtures/${name}`);
}

writeFileSync(IMPORTED_RUN_FILE, importedRunSource());
console.log(`wrote ${IMPORTED_RUN_FILE}`);
