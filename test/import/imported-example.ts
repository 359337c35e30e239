// The gallery's imported-run example, made from the Claude Code fixture exactly as a user would
// (lev import, then Drop inline tool output so the link stays short). build-fixtures.ts writes it to
// src/scenarios/imported-run.ts; test/import/formats.test.ts ("the committed fixtures") fails when that file falls behind.
import { readFileSync } from 'node:fs';
import { countTokens } from '../../src/engine/index.ts';
import { importTrace } from '../../src/import/index.ts';
import { dropToolOutput } from '../../src/share/shrink.ts';

export const IMPORTED_RUN_FILE = 'src/scenarios/imported-run.ts';

export function importedRunSource(): string {
  const text = readFileSync(new URL('./fixtures/claude-code-session.jsonl', import.meta.url), 'utf8');
  const imported = importTrace(text).scenario;
  // The fixture's usage figures are placeholders written by fixture-files.ts, not a provider's
  // record, so the example does not carry them as recorded usage.
  const traffic = imported.traffic.map((e) => {
    if (e.type !== 'assistant') return e;
    const { recorded: _recorded, ...rest } = e;
    return rest;
  });
  const scenario = dropToolOutput({ ...imported, traffic }, countTokens);
  return [
    '// The Claude Code session in test/import/fixtures/claude-code-session.jsonl, as `lev import` makes it,',
    '// with tool output kept as its size (size_tokens). Written by `npx tsx test/import/build-fixtures.ts`.',
    "import type { TrafficEvent } from '../engine/page.ts';",
    '',
    `export const IMPORTED_RUN_TASK = ${JSON.stringify(scenario.inputs.task)};`,
    '',
    `export const IMPORTED_RUN_TRAFFIC: TrafficEvent[] = ${JSON.stringify(scenario.traffic, null, 2)};`,
    '',
  ].join('\n');
}
