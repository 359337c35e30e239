// JSON Lines: one JSON value per line. A line that does not parse stops the import with its number
// and column (a half-read session would replay a different run), except the last line of the
// file: a session still being written ends mid-line, so that line is left out with a warning.
import { jsonErrorPosition } from '../../engine/page.ts';
import { ImportError, type Progress } from '../trace.ts';

const PROGRESS_EVERY_LINES = 2_000;

/** Visits each line's value; returns the warnings (a truncated last line left out). */
export function forEachJsonLine(
  text: string,
  visit: (value: unknown, line: number) => void,
  progress?: Progress,
): string[] {
  let start = 0;
  let line = 0;
  const warnings: string[] = [];
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    line++;
    const source = text.slice(start, end).trim();
    if (source.length > 0) {
      const parsed = parseLine(source, line, () => text.slice(end).trim().length === 0);
      if (parsed.ok) visit(parsed.value, line);
      else warnings.push(parsed.warning);
    }
    if (progress && line % PROGRESS_EVERY_LINES === 0) progress(end / text.length);
    start = end + 1;
  }
  return warnings;
}

function parseLine(
  source: string,
  line: number,
  isLast: () => boolean,
): { ok: true; value: unknown } | { ok: false; warning: string } {
  try {
    return { ok: true, value: JSON.parse(source) };
  } catch (error) {
    const { column } = jsonErrorPosition(source, error);
    if (isLast()) {
      return {
        ok: false,
        warning: `the last line (${line}) is cut off at column ${column} (a session still being written?); it was left out`,
      };
    }
    throw new ImportError(
      { line, path: '' },
      `not valid JSON at column ${column} (${(error as Error).message})`,
      'one complete JSON object per line (a hand-edited line?)',
    );
  }
}
