// The engine's structure, checked on its sources: it imports nothing outside itself but src/rhai
// (callers bring the traffic generators), and no import cycle among its modules, counting type-only
// imports too (a cycle of types is still a tangle a reader has to untie).
import { readFileSync } from 'node:fs';
import { normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REGION_KINDS } from '../../src/engine/blueprint/types.ts';
import { cycles, importGraph, reachable, sources } from '../import-graph.ts';

const ROOT = 'src/engine';

describe('src/engine structure', () => {
  it('has no import cycle between its modules, type imports included', () => {
    const graph = importGraph(ROOT, { types: true });
    expect(graph.get(normalize(`${ROOT}/cache.ts`))).toContain(normalize(`${ROOT}/format.ts`)); // the scan sees imports
    expect(cycles(graph, ROOT)).toEqual([]);
  });

  it('reaches outside itself only for the Rhai interpreter: callers bring the traffic generators', () => {
    const outside = [...importGraph(ROOT, { types: true }).entries()]
      .flatMap(([file, imports]) => imports.filter((i) => !i.startsWith(normalize(`${ROOT}/`))).map((i) => `${file} -> ${i}`));
    expect(outside).toContain('src/engine/custom-script.ts -> src/rhai/index.ts'); // the scan sees outside imports
    expect(outside.filter((edge) => !/ -> src\/rhai\//.test(edge))).toEqual([]);
  });

  it('runs no Rhai of its own: nothing index.ts loads imports src/rhai (callers bring the interpreter, rhai-host.ts)', () => {
    const graph = importGraph('src', { types: false });
    const loaded = reachable(graph, normalize(`${ROOT}/index.ts`));
    expect(loaded).toContain(normalize(`${ROOT}/regions/custom.ts`)); // the walk follows imports
    expect(reachable(graph, normalize(`${ROOT}/custom-script.ts`))).toContain(normalize('src/rhai/index.ts')); // and sees Rhai
    expect(loaded.filter((file) => file.startsWith(normalize('src/rhai/')))).toEqual([]);
  });

  it('asks a kind what it can do (regions/capabilities.ts), never compares its name or class outside regions/', () => {
    const kindName = new RegExp(`\\bkind\\s*[!=]==?\\s*'(${REGION_KINDS.join('|')})'|instanceof\\s+\\w+Region\\b`);
    // The blueprint reader reads each kind's own keys (strategy, compact_at, max_entries, script).
    const allowed = (file: string) => file.startsWith(normalize(`${ROOT}/regions/`)) || file === normalize(`${ROOT}/blueprint/regions.ts`);
    const asked = sources(ROOT).filter((file) => !allowed(file)).flatMap((file) => readFileSync(file, 'utf8').split('\n')
      .flatMap((line, at) => kindName.test(line) ? [`${file}:${at + 1}: ${line.trim()}`] : []));
    expect(asked).toEqual([]);
  });

  it('loads none of the project\'s modules at run time (a dynamic import would hide an edge from the scan above)', () => {
    expect(sources(ROOT).filter((file) => /\bimport\s*\(\s*['"`]\./.test(readFileSync(file, 'utf8')))).toEqual([]);
  });
});
