// The interpreter's structure, checked on its sources: no run state at module level, and no import
// cycle among its modules (type-only imports vanish at run time and are not counted).
import { readFileSync } from 'node:fs';
import { normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cycles, importGraph, sources } from '../import-graph.ts';

const ROOT = 'src/rhai';

describe('src/rhai structure', () => {
  it('keeps no mutable state at module level (run state lives on the Runtime)', () => {
    const offenders = sources(ROOT).flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .flatMap((line, i) => (/^(export )?(let|var) /.test(line) ? [`${f}:${i + 1}: ${line}`] : [])),
    );
    expect(offenders).toEqual([]);
  });

  it('has no import cycle between its modules', () => {
    const graph = importGraph(ROOT, { types: false });
    expect(graph.get(normalize(`${ROOT}/runtime.ts`))).toContain(normalize(`${ROOT}/errors.ts`)); // the scan sees imports
    expect(graph.get(normalize(`${ROOT}/eval/expressions.ts`))).toContain(normalize(`${ROOT}/eval/statements.ts`)); // and eval/
    expect(cycles(graph, ROOT)).toEqual([]);
  });
});
