// The state layer's structure, checked on its sources: no state at module level (a page's state
// lives in its PageSession, so a test makes as many sessions as it likes), the browser reached only
// through the PageHost a session is given, and no import of the UI layer or of the engine's inside.
import { readFileSync } from 'node:fs';
import { normalize } from 'node:path';
import { parseSync } from 'vite';
import { describe, expect, it } from 'vitest';
import { importGraph, sources } from '../import-graph.ts';

const ROOT = 'src/state';

interface Node { type: string; [key: string]: unknown }

/** Whether a module-level initializer makes nothing that can change: a literal (or arithmetic of them), a function, `as const`, a frozen object. */
function isConstant(init: Node | null | undefined): boolean {
  if (!init) return false;
  switch (init.type) {
    case 'Literal': case 'ArrowFunctionExpression': case 'FunctionExpression': return true;
    case 'TemplateLiteral': return (init.expressions as Node[]).length === 0;
    case 'UnaryExpression': return isConstant(init.argument as Node);
    case 'BinaryExpression': return isConstant(init.left as Node) && isConstant(init.right as Node);
    case 'TSAsExpression': case 'TSSatisfiesExpression': {
      const annotation = init.typeAnnotation as Node & { typeName?: { name?: string } };
      return (annotation.type === 'TSTypeReference' && annotation.typeName?.name === 'const') || isConstant(init.expression as Node);
    }
    case 'CallExpression': {
      const callee = init.callee as Node & { object?: { name?: string }; property?: { name?: string } };
      return callee.type === 'MemberExpression' && callee.object?.name === 'Object' && callee.property?.name === 'freeze';
    }
    default: return false;
  }
}

/** Every module-level statement of `file` that holds or changes state, as `file:line: text`. */
function moduleState(file: string, text = readFileSync(file, 'utf8')): string[] {
  const { program } = parseSync(file, text);
  const lineOf = (at: number) => text.slice(0, at).split('\n').length;
  const found: string[] = [];
  for (const statement of program.body as unknown as (Node & { start: number; end: number })[]) {
    const node = (statement.type === 'ExportNamedDeclaration' || statement.type === 'ExportDefaultDeclaration') && statement.declaration
      ? statement.declaration as Node & { start: number; end: number }
      : statement;
    const bad = node.type === 'VariableDeclaration'
      ? node.kind !== 'const' || (node.declarations as { init: Node | null }[]).some((d) => !isConstant(d.init))
      : node.type === 'ExpressionStatement';
    if (bad) found.push(`${file}:${lineOf(node.start)}: ${text.slice(node.start, node.end).split('\n')[0]}`);
  }
  return found;
}

describe('src/state structure', () => {
  it('keeps no state at module level: no let or var, no object or store made on import, nothing run on import', () => {
    // The check sees what it must refuse, and lets constants be.
    const sample = [
      "import { create } from 'zustand';",
      'let count = 0;',
      'export const store = create(() => ({}));',
      'const seen = new Map<string, number>();',
      'const holder = {};',
      "store.subscribe(() => undefined);",
      "export const KEY = 'k';",
      'export const KINDS = [1, 2] as const;',
      'const DEFAULTS = Object.freeze({ a: 1 });',
      'const twice = (n: number) => 2 * n;',
      'export function f(): void {}',
    ].join('\n');
    expect(moduleState('sample.ts', sample)).toEqual([
      'sample.ts:2: let count = 0;', 'sample.ts:3: const store = create(() => ({}));', 'sample.ts:4: const seen = new Map<string, number>();',
      'sample.ts:5: const holder = {};', 'sample.ts:6: store.subscribe(() => undefined);',
    ]);
    expect(sources(ROOT).flatMap((file) => moduleState(file))).toEqual([]);
  });

  it('never imports the UI layer', () => {
    const graph = importGraph(ROOT, { types: true });
    expect(graph.get(normalize(`${ROOT}/page-session.ts`))).toContain(normalize(`${ROOT}/replays.ts`)); // the scan sees imports
    const edges = [...graph.entries()].flatMap(([file, imports]) => imports.filter((i) => i.startsWith(normalize('src/ui/'))).map((i) => `${file} -> ${i}`));
    expect(edges).toEqual([]);
  });

  it('reaches the browser only through the PageHost it is given (no window, document, location, history or localStorage)', () => {
    // A global read as itself (`window.`, `history.state`), not a property of something else (`this.host.history`).
    const globals = /(?<![.\w])(window|document|localStorage|sessionStorage|navigator|location|history)\s*(\.|\?\.|\[)/;
    expect(globals.test('const at = window.location.hash;')).toBe(true);
    expect(globals.test('this.host.history.pushState(state)')).toBe(false);
    const used = sources(ROOT).flatMap((file) => readFileSync(file, 'utf8').split('\n')
      .flatMap((line, at) => (globals.test(line.replace(/\/\/.*$|^\s*\*.*$/, '')) ? [`${file}:${at + 1}: ${line.trim()}`] : [])));
    expect(used).toEqual([]);
  });
});
