// What Export writes, apart from the page that writes it: the file a scenario becomes, or why
// there is none. Held to the limit Import and `lev` read (share/file.ts), so that what Export
// writes the page and `lev` read back.
import { fmt, MAX_SCENARIO_BYTES, type Scenario } from '../engine/page.ts';
import { fileSize, scenarioFile } from '../share/file.ts';
import { jsonLongerThan } from '../state/jsonSize.ts';

export type ExportFile = { ok: true; name: string; text: string } | { ok: false; message: string };

/**
 * The scenario as the file Export saves: indented JSON, or compact when only that fits under
 * `limit` (MAX_SCENARIO_BYTES unless a test passes another); too large even so, the message the
 * page shows instead.
 */
export function exportFile(scenario: Scenario, limit = MAX_SCENARIO_BYTES): ExportFile {
  // A scenario certainly past the limit is turned down without building its JSON on the page's thread.
  const file = jsonLongerThan(scenario, limit)
    ? { ok: false as const, bytes: Infinity }
    : scenarioFile(scenario, limit);
  if (file.ok)
    return { ok: true, name: `${(scenario.name || 'scenario').replace(/[^\w.-]+/g, '-')}.json`, text: file.text };
  const size = Number.isFinite(file.bytes)
    ? `${fileSize(file.bytes)} of JSON`
    : `more than ${fmt(limit)} bytes of JSON`;
  return {
    ok: false,
    message:
      `"${scenario.name}" was not exported: it is ${size}, and Import (like lev) reads scenario files up to ${fmt(limit)} bytes, so the file could not be opened again. ` +
      'Your work on the page is unchanged. To export it, shorten its traffic or replace long tool output with size_tokens.',
  };
}
