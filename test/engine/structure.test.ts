// The engine's structure, checked on its sources: no import cycle among its modules, counting
// type-only imports too (a cycle of types is still a tangle a reader has to untie).
import { normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cycles, importGraph } from '../import-graph.ts';

const ROOT = 'src/engine';

describe('src/engine structure', () => {
  it('has no import cycle between its modules, type imports included', () => {
    const graph = importGraph(ROOT, { types: true });
    expect(graph.get(normalize(`${ROOT}/cache.ts`))).toContain(normalize(`${ROOT}/format.ts`)); // the scan sees imports
    expect(cycles(graph, ROOT)).toEqual([]);
  });

  it('reaches outside itself only for the Rhai interpreter and the traffic generators', () => {
    const outside = [...importGraph(ROOT, { types: true }).entries()]
      .flatMap(([file, imports]) => imports.filter((i) => !i.startsWith(normalize(`${ROOT}/`))).map((i) => `${file} -> ${i}`));
    expect(outside.filter((edge) => !/ -> src\/rhai\//.test(edge))).toEqual(['src/engine/index.ts -> src/scenarios/generators.ts']);
  });
});
