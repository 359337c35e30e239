// The built-in examples as scenario files (examples/<id>.json), so `lev replay examples/<id>.json`
// runs exactly what the page's gallery loads.
import { EXAMPLES } from './examples.ts';

export const EXAMPLES_DIR = 'examples';

/** File path (relative to the repository root) -> file text. */
export function exampleFiles(): Record<string, string> {
  return Object.fromEntries(
    EXAMPLES.map((example) => [`${EXAMPLES_DIR}/${example.id}.json`, `${JSON.stringify(example.scenario, null, 2)}\n`]),
  );
}
