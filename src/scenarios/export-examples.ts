// Writes every built-in example to examples/<id>.json. Run from the repository root:
//   npx tsx src/scenarios/export-examples.ts
// test/scenarios/example-files.test.ts fails when the committed files fall behind EXAMPLES.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { exampleFiles } from './example-files.ts';

for (const [path, text] of Object.entries(exampleFiles())) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  console.log(`wrote ${path}`);
}
