// A source tree's import graph, read from its files, and the cycles in it: for tests that hold a
// module structure (no import cycle, no reaching into another layer).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

export function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory()
      ? sources(join(dir, d.name))
      : d.name.endsWith('.ts') && !d.name.endsWith('.test.ts')
        ? [join(dir, d.name)]
        : [],
  );
}

/** The relative imports of a file as normalized paths; type-only ones too when `types` is set. */
export function importsOf(file: string, { types }: { types: boolean }): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/^(?:import|export)\s+(type\s+)?[^;]*?from\s+'(\.[^']+)'/gms)) {
    if (types || !m[1]) out.push(normalize(join(dirname(file), m[2]!)));
  }
  return out;
}

export function importGraph(root: string, options: { types: boolean }): Map<string, string[]> {
  return new Map(
    sources(root)
      .map(normalize)
      .map((f) => [f, importsOf(f, options)]),
  );
}

/** Every module `entry` loads through the graph's imports, itself included, in the order first met. */
export function reachable(graph: Map<string, string[]>, entry: string): string[] {
  const seen = new Set<string>([entry]);
  for (const file of seen) for (const next of graph.get(file) ?? []) seen.add(next);
  return [...seen];
}

/** Every cycle's modules, relative to `root` (strongly connected components of more than one module, Tarjan). */
export function cycles(graph: Map<string, string[]>, root: string): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        component.push(relative(root, w));
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}
