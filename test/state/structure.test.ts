// The state layer's structure, checked on its sources: no state at module level (a page's state
// lives in its PageSession, so a test makes as many sessions as it likes), the browser reached only
// through the PageHost a session is given, and no import of the UI layer or of the engine's inside.
import { readFileSync } from 'node:fs';
import { normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importGraph, sources } from '../import-graph.ts';
import { moduleState } from '../module-state.ts';

const ROOT = 'src/state';

describe('src/state structure', () => {
  it('keeps no state at module level: no let or var, no object or store made on import, nothing run on import', () => {
    // The check sees what it must refuse, and lets constants be.
    const sample = [
      "import { create } from 'zustand';",
      'let count = 0;',
      'export const store = create(() => ({}));',
      'const seen = new Map<string, number>();',
      'const holder = {};',
      'store.subscribe(() => undefined);',
      "export const KEY = 'k';",
      'export const KINDS = [1, 2] as const;',
      'const DEFAULTS = Object.freeze({ a: 1 });',
      'const twice = (n: number) => 2 * n;',
      'export function f(): void {}',
    ].join('\n');
    expect(moduleState('sample.ts', sample)).toEqual([
      'sample.ts:2: let count = 0;',
      'sample.ts:3: const store = create(() => ({}));',
      'sample.ts:4: const seen = new Map<string, number>();',
      'sample.ts:5: const holder = {};',
      'sample.ts:6: store.subscribe(() => undefined);',
    ]);
    expect(sources(ROOT).flatMap((file) => moduleState(file))).toEqual([]);
  });

  it('never imports the UI layer', () => {
    const graph = importGraph(ROOT, { types: true });
    expect(graph.get(normalize(`${ROOT}/page-session.ts`))).toContain(normalize(`${ROOT}/replays.ts`)); // the scan sees imports
    const edges = [...graph.entries()].flatMap(([file, imports]) =>
      imports.filter((i) => i.startsWith(normalize('src/ui/'))).map((i) => `${file} -> ${i}`),
    );
    expect(edges).toEqual([]);
  });

  it('reaches the browser only through the PageHost it is given (no window, document, location, history or localStorage)', () => {
    // A global read as itself (`window.`, `history.state`), not a property of something else (`this.host.history`).
    const globals = /(?<![.\w])(window|document|localStorage|sessionStorage|navigator|location|history)\s*(\.|\?\.|\[)/;
    expect(globals.test('const at = window.location.hash;')).toBe(true);
    expect(globals.test('this.host.history.pushState(state)')).toBe(false);
    const used = sources(ROOT).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, at) =>
          globals.test(line.replace(/\/\/.*$|^\s*\*.*$/, '')) ? [`${file}:${at + 1}: ${line.trim()}`] : [],
        ),
    );
    expect(used).toEqual([]);
  });
});
