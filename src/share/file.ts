// A scenario as a file: what the page's Export and `lev import` write, held to the limit the page's
// Import and `lev replay` read with (limits.ts), so a file one of them writes the others read.
import { fmt, MAX_SCENARIO_BYTES, utf8Length } from '../engine/page.ts';

export type ScenarioFile = { ok: true; text: string; bytes: number } | { ok: false; bytes: number };

/**
 * The scenario's JSON, indented for people to read; without the indentation when only that fits
 * under `limit` (MAX_SCENARIO_BYTES unless a test passes another): the same data, which every
 * reader takes. `ok: false` when even that is too large, with its size: nothing should then be
 * written, since nothing would read it back. `byteLength`: Node's native count where there is one.
 */
export function scenarioFile(
  scenario: unknown,
  limit = MAX_SCENARIO_BYTES,
  byteLength: (text: string) => number = utf8Length,
): ScenarioFile {
  let bytes = Infinity;
  for (const indent of [2, 0]) {
    const text = stringify(scenario, indent);
    if (text === undefined) continue;
    bytes = byteLength(text);
    if (bytes <= limit) return { ok: true, text, bytes };
  }
  return { ok: false, bytes };
}

function stringify(value: unknown, indent: number): string | undefined {
  try {
    return `${JSON.stringify(value, null, indent)}\n`;
  } catch (error) {
    // Longer than the longest string V8 builds (~512 MB): far past the limit anyway.
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}

/** How large a scenario file that could not be written would have been, in bytes. */
export function fileSize(bytes: number): string {
  return Number.isFinite(bytes) ? `${fmt(bytes)} bytes` : 'more than 500,000,000 bytes';
}
