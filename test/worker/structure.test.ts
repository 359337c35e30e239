// What each of the page's workers loads with its own code, checked on the sources: the Rhai
// interpreter (src/rhai) is a chunk fetched on demand (src/worker/rhai.ts), never a static import,
// so a scenario without scripts (the default example among them) never fetches it.
import { normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importGraph, reachable } from '../import-graph.ts';

const WORKERS = ['engine', 'edit', 'advise', 'trace'].map((name) => normalize(`src/worker/${name}.worker.ts`));

describe('the workers load Rhai on demand', () => {
  const graph = importGraph('src', { types: false });

  it.each(WORKERS)('%s imports nothing of src/rhai', (worker) => {
    const loaded = reachable(graph, worker);
    expect(loaded.length).toBeGreaterThan(3); // the walk follows imports
    expect(loaded.filter((file) => file.startsWith(normalize('src/rhai/')))).toEqual([]);
  });

  it('the module the workers load on demand is the interpreter', () => {
    expect(reachable(graph, normalize('src/engine/custom-script.ts'))).toContain(normalize('src/rhai/parser.ts'));
  });
});
