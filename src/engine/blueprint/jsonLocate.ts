// Line and column of a key path in a JSON document (for scenario errors), without recursion:
// walk down one segment at a time, skipping sibling values by bracket counting.
import type { Position } from './locate.ts';

export function locateJson(source: string, path: readonly (string | number)[]): Position {
  let pos = skipSpace(source, 0);
  let found = pos;
  for (const segment of path) {
    const next = findChild(source, pos, segment);
    if (next === undefined) break;
    found = next.at;
    pos = next.value;
  }
  return positionOf(source, found);
}

/** The start of `segment`'s key (or array element) and of its value, inside the container at `pos`. */
function findChild(src: string, pos: number, segment: string | number): { at: number; value: number } | undefined {
  const open = src[pos];
  if (open !== '{' && open !== '[') return undefined;
  let i = pos + 1;
  for (let index = 0; ; index++) {
    i = skipSpace(src, i);
    if (src[i] === '}' || src[i] === ']' || i >= src.length) return undefined;
    const at = i;
    let matches = index === segment;
    if (open === '{') {
      const end = stringEnd(src, i);
      matches = decodeKey(src.slice(i, end)) === segment;
      i = skipSpace(src, end);
      i = skipSpace(src, i + 1); // the colon
    }
    if (matches) return { at, value: i };
    i = skipSpace(src, valueEnd(src, i));
    if (src[i] === ',') i++;
  }
}

function decodeKey(literal: string): string | undefined {
  try {
    return JSON.parse(literal) as string;
  } catch {
    return undefined;
  }
}

function skipSpace(src: string, i: number): number {
  while (i < src.length && ' \t\r\n'.includes(src.charAt(i))) i++;
  return i;
}

function stringEnd(src: string, i: number): number {
  for (i++; i < src.length; i++) {
    if (src[i] === '\\') i++;
    else if (src[i] === '"') return i + 1;
  }
  return i;
}

function valueEnd(src: string, i: number): number {
  let depth = 0;
  while (i < src.length) {
    const c = src.charAt(i);
    if (c === '"') {
      i = stringEnd(src, i);
      if (depth === 0) return i;
      continue;
    }
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      if (depth === 0) return i;
      if (--depth === 0) return i + 1;
    } else if (c === ',' && depth === 0) return i;
    i++;
  }
  return i;
}

function positionOf(src: string, offset: number): Position {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < src.length; i++) {
    if (src[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

// V8 says "... at position 12 (line 2 column 5)" or just "at position 12".
export function jsonErrorPosition(source: string, err: unknown): { line: number; column: number } {
  const message = err instanceof Error ? err.message : '';
  const lineCol = /line (\d+) column (\d+)/.exec(message);
  if (lineCol) return { line: Number(lineCol[1]), column: Number(lineCol[2]) };
  const position = /position (\d+)/.exec(message);
  if (!position) return { line: 1, column: 1 };
  const before = source.slice(0, Number(position[1]));
  const line = before.split('\n').length;
  return { line, column: before.length - before.lastIndexOf('\n') };
}
