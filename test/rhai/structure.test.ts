// The interpreter's structure, checked on its sources: no run state at module level, and no import
// cycle among its modules (type-only imports vanish at run time and are not counted).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = 'src/rhai';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? sources(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : []);
}

function valueImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/^(?:import|export)\s+(type\s+)?[^;]*?from\s+'(\.[^']+)'/gms)) {
    if (!m[1]) out.push(normalize(join(dirname(file), m[2]!)));
  }
  return out;
}

/** Every cycle's modules (strongly connected components of more than one module, Tarjan). */
function cycles(graph: Map<string, string[]>): string[][] {
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
      if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v)!, low.get(w)!)); }
      else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do { w = stack.pop()!; component.push(relative(ROOT, w)); } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('src/rhai structure', () => {
  const files = sources(ROOT).map(normalize);

  it('keeps no mutable state at module level (run state lives on the Runtime)', () => {
    const offenders = files.flatMap((f) =>
      readFileSync(f, 'utf8').split('\n').flatMap((line, i) => (/^(export )?(let|var) /.test(line) ? [`${f}:${i + 1}: ${line}`] : [])));
    expect(offenders).toEqual([]);
  });

  it('has no import cycle between its modules', () => {
    const graph = new Map(files.map((f) => [f, valueImports(f)]));
    expect(graph.get(normalize(`${ROOT}/runtime.ts`))).toContain(normalize(`${ROOT}/errors.ts`)); // the scan sees imports
    expect(cycles(graph)).toEqual([]);
  });
});
