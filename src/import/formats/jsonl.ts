// JSON Lines: one JSON value per line; a line that does not parse stops the import with its
// number and column (a half-read session would replay a different run).
import { jsonErrorPosition } from '../../engine/blueprint/jsonLocate.ts';
import { ImportError, type Progress } from '../trace.ts';

const PROGRESS_EVERY_LINES = 2_000;

export function forEachJsonLine(text: string, visit: (value: unknown, line: number) => void, progress?: Progress): void {
  let start = 0;
  let line = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    line++;
    const source = text.slice(start, end).trim();
    if (source.length > 0) visit(parseLine(source, line), line);
    if (progress && line % PROGRESS_EVERY_LINES === 0) progress(end / text.length);
    start = end + 1;
  }
}

function parseLine(source: string, line: number): unknown {
  try {
    return JSON.parse(source);
  } catch (error) {
    const { column } = jsonErrorPosition(source, error);
    throw new ImportError({ line, path: '' }, `not valid JSON at column ${column} (${(error as Error).message})`, 'one complete JSON object per line (a truncated or hand-edited line?)');
  }
}
