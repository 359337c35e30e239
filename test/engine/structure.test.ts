// The engine's structure, checked on its sources: it imports nothing outside itself but src/rhai
// (callers bring the traffic generators), and no import cycle among its modules, counting type-only
// imports too (a cycle of types is still a tangle a reader has to untie). Everything else reaches it
// through its doors: src/engine/index.ts, and for what the page's main thread loads, page.ts.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REGION_KINDS } from '../../src/engine/blueprint/types.ts';
import { cycles, importGraph, reachable, sources } from '../import-graph.ts';
import { mutableModuleState } from '../module-state.ts';

const ROOT = 'src/engine';

describe('src/engine structure', () => {
  it('has no import cycle between its modules, type imports included', () => {
    const graph = importGraph(ROOT, { types: true });
    expect(graph.get(normalize(`${ROOT}/cache.ts`))).toContain(normalize(`${ROOT}/format.ts`)); // the scan sees imports
    expect(cycles(graph, ROOT)).toEqual([]);
  });

  it('reaches outside itself only for the Rhai interpreter: callers bring the traffic generators', () => {
    const outside = [...importGraph(ROOT, { types: true }).entries()].flatMap(([file, imports]) =>
      imports.filter((i) => !i.startsWith(normalize(`${ROOT}/`))).map((i) => `${file} -> ${i}`),
    );
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
    // Each kind reads its own keys (its definition's `read`), so the blueprint reader needs no name either.
    const allowed = (file: string) => file.startsWith(normalize(`${ROOT}/regions/`));
    const asked = sources(ROOT)
      .filter((file) => !allowed(file))
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .flatMap((line, at) => (kindName.test(line) ? [`${file}:${at + 1}: ${line.trim()}`] : [])),
      );
    expect(asked).toEqual([]);
  });

  it("loads none of the project's modules at run time (a dynamic import would hide an edge from the scan above)", () => {
    expect(sources(ROOT).filter((file) => /\bimport\s*\(\s*['"`]\./.test(readFileSync(file, 'utf8')))).toEqual([]);
  });
});

/** Every .ts/.tsx/.mjs file under `dir`, tests included. */
function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'fixtures' || name === 'node_modules' ? [] : files(path);
    return /\.(tsx?|mjs)$/.test(name) ? [path] : [];
  });
}

/** The relative imports of a file, static and dynamic, as normalized paths; type-only ones unless `loaded`. */
function importsIn(file: string, loaded = false): string[] {
  const text = readFileSync(file, 'utf8');
  const found = [
    ...text.matchAll(
      loaded
        ? /^(?:import|export)\s(?!type\s)[^;]*?from\s+'(\.[^']+)'/gms
        : /^(?:import|export)\s[^;]*?from\s+'(\.[^']+)'/gms,
    ),
    ...text.matchAll(/\bimport\(\s*'(\.[^']+)'\s*\)/g),
  ];
  return found.map((m) => normalize(join(dirname(file), m[1]!)));
}

const DOOR = normalize(`${ROOT}/index.ts`);
const PAGE_DOOR = normalize(`${ROOT}/page.ts`);
// The Rhai interpreter's door: RHAI and the hooks' helpers, for Node callers and the workers' on-demand
// import (index.ts loads no Rhai, so the page's workers fetch it only for a scenario with a script).
const RHAI_DOOR = normalize(`${ROOT}/custom-script.ts`);
const inEngine = (path: string) => path.startsWith(normalize(`${ROOT}/`));
/**
 * Tests of the engine itself may reach its inside: test/engine (mirroring src/engine, with the spec's
 * suites in test/engine/spec), the property and hostile-input suites (test/fuzz, test/hostile), and
 * the shared modules at the top of test/ (builders.ts builds Runs and region contexts). The tests of
 * every other layer (test/ui, state, worker, cli, share, import, export, scenarios, rhai) use the
 * doors as their modules do.
 */
const ENGINE_TESTS = /^test[\\/](engine|fuzz|hostile)[\\/]|^test[\\/][^\\/]+\.ts$/;
/**
 * main.tsx evaluates the scenario's schemas in a task of their own before the rest of the page
 * (vite.config.ts STAGED): a dynamic import of the module itself, since one of page.ts would load
 * every module it re-exports.
 */
const STAGED = 'src/main.tsx -> src/engine/scenario.ts';

/**
 * Module state the engine still keeps, each for a reason: what a thread loads once and every run
 * shares (a tokenizer's encodings, the filler text), a hook the thread's host sets (its script
 * watcher, a count observer for the benches), and caches keyed by objects that never change.
 * Everything else a run keeps is its own (Run, AssemblyState), and kinds are a frozen table.
 */
const KEPT_STATE = [
  'src/engine/filler.ts: let pool',
  'src/engine/regions/base.ts: const reasons = new Map',
  'src/engine/regions/base.ts: const renderedMessages = new WeakMap',
  'src/engine/regions/base.ts: const renderParts = new WeakMap',
  'src/engine/regions/base.ts: const stubMessages = new WeakSet',
  'src/engine/script-activity.ts: let watcher',
  'src/engine/stages.ts: const implicitCache = new Map',
  'src/engine/tokens.ts: const loadedTokenizers = new Map',
  'src/engine/tokens.ts: const loadedRanks = new Map',
  'src/engine/tokens.ts: const pendingLoads = new Map',
  'src/engine/tokens.ts: let lastPaged',
  'src/engine/tokens.ts: let countObserver',
];

describe('src/engine module state', () => {
  it('keeps none at module level but what KEPT_STATE lists: no let, no collection made on import, nothing run on import', () => {
    const sample = [
      'let count = 0;',
      'const seen = new Map<string, number>();',
      "const KNOWN: ReadonlySet<string> = new Set(['a']);",
      "const WORDS = ['a', 'b'];",
      'for (const w of WORDS) seen.set(w, 1);',
      'export function f(): void {}',
    ].join('\n');
    expect(mutableModuleState('sample.ts', sample)).toEqual([
      'sample.ts:1: let count = 0;',
      'sample.ts:2: const seen = new Map<string, number>();',
      'sample.ts:5: for (const w of WORDS) seen.set(w, 1);',
    ]);
    const found = sources(ROOT)
      .flatMap((file) => mutableModuleState(file))
      .map((line) => line.replaceAll('\\', '/'));
    const kept = (line: string) => KEPT_STATE.some((k) => line.replace(/:\d+: (export )?/, ': ').startsWith(k));
    expect(found.filter((line) => !kept(line))).toEqual([]);
    // Each exception is still there (a removed one comes off the list).
    expect(
      KEPT_STATE.filter((k) => !found.some((line) => line.replace(/:\d+: (export )?/, ': ').startsWith(k))),
    ).toEqual([]);
  });
});

describe('the engine is reached only through its doors', () => {
  it('every module outside src/engine, and the tests of other layers, import index.ts, page.ts or custom-script.ts and nothing else of it', () => {
    const outside = ['src', 'bench', 'scripts', 'bin', 'e2e', 'test']
      .flatMap(files)
      .filter((file) => !inEngine(file) && !ENGINE_TESTS.test(file.replaceAll('\\', '/')));
    expect(outside).toContain(normalize('src/ui/App.tsx')); // the scan sees the page
    const edges = outside.flatMap((file) =>
      importsIn(file)
        .map((target) => target.replace(/^(\.\.[\\/])+/, ''))
        .filter((target) => inEngine(target) && ![DOOR, PAGE_DOOR, RHAI_DOOR].includes(target))
        .map((target) => `${file} -> ${target}`.replaceAll('\\', '/')),
    );
    expect(edges.filter((edge) => edge !== STAGED)).toEqual([]);
  });

  it("the modules the page's main thread loads use page.ts, which re-exports no replay and no Rhai", () => {
    // What src/main.tsx reaches by static and dynamic imports (a worker is started by URL, not imported).
    const reached = new Set<string>();
    const visit = (file: string): void => {
      if (reached.has(file) || inEngine(file)) return;
      reached.add(file);
      for (const target of importsIn(file, true)) {
        const found = [target, `${target}.ts`, `${target}.tsx`].find((candidate) =>
          files(dirname(candidate)).includes(candidate),
        );
        if (found) visit(found);
      }
    };
    visit(normalize('src/main.tsx'));
    expect(reached).toContain(normalize('src/ui/monaco/leviathLanguage.ts')); // the scan follows dynamic imports
    expect(reached).not.toContain(normalize('src/worker/engine.worker.ts'));
    const throughIndex = [...reached].flatMap((file) =>
      importsIn(file)
        .filter((target) => target === DOOR)
        .map((target) => `${file} -> ${target}`),
    );
    expect(throughIndex).toEqual([]);
    // page.ts itself re-exports no value of the replay or the interpreter (their types are free).
    const heavy = ['replay.ts', 'run/run.ts', 'custom-script.ts', 'advise/index.ts', 'validate.ts'].map((m) =>
      normalize(`${ROOT}/${m}`),
    );
    expect(importsIn(PAGE_DOOR, true).filter((target) => heavy.includes(target))).toEqual([]);
  });
});
