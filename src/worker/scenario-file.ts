// A dropped or chosen file that is a Leviath scenario, read in the import worker: held to the
// limit Export writes to (limits.ts), and checked, so the page only opens what it can use.
import { ScenarioSchema, megabytes, MAX_SCENARIO_BYTES, fmt } from '../engine/index.ts';
import { describeIssues } from './protocol.ts';
import type { ScenarioFileResult } from './trace-protocol.ts';

/** The file's JSON when it is a Leviath scenario (an object with a version and an agent), else undefined. */
export function scenarioJson(text: string): object | undefined {
  if (!text.trimStart().startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && 'version' in value && 'agent' in value ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A scenario file: as large as Export and `lev import` write at most, and valid, or why not. */
export function readScenarioFile(
  name: string,
  size: number,
  json: object,
  invalidUtf8At: number | undefined,
): ScenarioFileResult {
  if (size > MAX_SCENARIO_BYTES) {
    return {
      ok: false,
      message: `${name} is ${fmt(size)} bytes; scenario files up to ${fmt(MAX_SCENARIO_BYTES)} bytes (${megabytes(MAX_SCENARIO_BYTES)}) can be imported, the most Export writes. Nothing was changed.`,
    };
  }
  const parsed = ScenarioSchema.safeParse(json);
  if (!parsed.success)
    return {
      ok: false,
      message: `${name} is not a Leviath scenario (${describeIssues(parsed.error)}). Nothing was changed.`,
    };
  return { ok: true, scenario: parsed.data, ...(invalidUtf8At === undefined ? {} : { invalidUtf8At }) };
}
