// Module-level state, found in a source file's syntax tree: for structure tests that hold a layer to
// keeping none (its state lives in objects a caller makes, so a test makes as many as it likes).
import { readFileSync } from 'node:fs';
import { parseSync } from 'vite';

interface Node {
  type: string;
  [key: string]: unknown;
}

/** Whether a module-level initializer makes nothing that can change: a literal (or arithmetic of them), a function, `as const`, a frozen object. */
function isConstant(init: Node | null | undefined): boolean {
  if (!init) return false;
  switch (init.type) {
    case 'Literal':
    case 'ArrowFunctionExpression':
    case 'FunctionExpression':
      return true;
    case 'TemplateLiteral':
      return (init.expressions as Node[]).length === 0;
    case 'UnaryExpression':
      return isConstant(init.argument as Node);
    case 'BinaryExpression':
      return isConstant(init.left as Node) && isConstant(init.right as Node);
    case 'TSAsExpression':
    case 'TSSatisfiesExpression': {
      const annotation = init.typeAnnotation as Node & { typeName?: { name?: string } };
      return (
        (annotation.type === 'TSTypeReference' && annotation.typeName?.name === 'const') ||
        isConstant(init.expression as Node)
      );
    }
    case 'CallExpression': {
      const callee = init.callee as Node & { object?: { name?: string }; property?: { name?: string } };
      return (
        callee.type === 'MemberExpression' && callee.object?.name === 'Object' && callee.property?.name === 'freeze'
      );
    }
    default:
      return false;
  }
}

/** Every module-level statement of `file` that holds or changes state, as `file:line: text`. */
export function moduleState(file: string, text = readFileSync(file, 'utf8')): string[] {
  const { program } = parseSync(file, text);
  const lineOf = (at: number) => text.slice(0, at).split('\n').length;
  const found: string[] = [];
  for (const statement of program.body as unknown as (Node & { start: number; end: number })[]) {
    const node =
      (statement.type === 'ExportNamedDeclaration' || statement.type === 'ExportDefaultDeclaration') &&
      statement.declaration
        ? (statement.declaration as Node & { start: number; end: number })
        : statement;
    const bad =
      node.type === 'VariableDeclaration'
        ? node.kind !== 'const' || (node.declarations as { init: Node | null }[]).some((d) => !isConstant(d.init))
        : node.type === 'ExpressionStatement';
    if (bad) found.push(`${file}:${lineOf(node.start)}: ${text.slice(node.start, node.end).split('\n')[0]}`);
  }
  return found;
}

const COLLECTIONS = new Set(['Map', 'Set', 'WeakMap', 'WeakSet']);

/**
 * The engine's rule, looser than the state layer's (its tables of constants are plain objects and
 * arrays): every module-level `let` or `var`, statement run on import (a call, a loop, an `if`),
 * and collection made on import that its type does not declare read-only, as `file:line: text`.
 */
export function mutableModuleState(file: string, text = readFileSync(file, 'utf8')): string[] {
  const { program } = parseSync(file, text);
  const lineOf = (at: number) => text.slice(0, at).split('\n').length;
  const found: string[] = [];
  for (const statement of program.body as unknown as (Node & { start: number; end: number })[]) {
    const node =
      (statement.type === 'ExportNamedDeclaration' || statement.type === 'ExportDefaultDeclaration') &&
      statement.declaration
        ? (statement.declaration as Node & { start: number; end: number })
        : statement;
    let bad = /Statement$/.test(node.type) && node.type !== 'EmptyStatement';
    if (node.type === 'VariableDeclaration') {
      const declarations = node.declarations as {
        id: Node & { typeAnnotation?: Node & { start: number; end: number } };
        init: Node | null;
      }[];
      bad =
        node.kind !== 'const' ||
        declarations.some((d) => {
          const init = d.init as (Node & { callee?: { name?: string } }) | null;
          if (init?.type !== 'NewExpression' || !COLLECTIONS.has(init.callee?.name ?? '')) return false;
          const annotation = d.id.typeAnnotation;
          return !annotation || !/^:\s*Readonly/.test(text.slice(annotation.start, annotation.end));
        });
    }
    if (bad) found.push(`${file}:${lineOf(node.start)}: ${text.slice(node.start, node.end).split('\n')[0]}`);
  }
  return found;
}
