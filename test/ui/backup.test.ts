// Export writes only what Import reads back: a scenario too large for any file the playground
// reads is not written, and the page says why (the writing itself is checked in e2e/inputs.spec.ts).
import { describe, expect, it } from 'vitest';
import { MAX_SCENARIO_BYTES, ScenarioSchema } from '../../src/engine/index.ts';
import { jsonLengthAtLeast } from '../../src/state/jsonSize.ts';
import { exportFile } from '../../src/ui/exportFile.ts';

const withOutput = (chars: number) =>
  ScenarioSchema.parse({
    version: 1,
    name: 'huge run',
    model: { id: 'gpt-4o' },
    agent: { 'agent.leviath': '[context.regions]\nconversation = { kind = "sliding_window" }\n' },
    traffic: [
      { type: 'assistant', content: '', tool_calls: [{ id: 'c1', name: 'read_file' }] },
      { type: 'tool_result', tool_call_id: 'c1', tool_name: 'read_file', content: 'x'.repeat(chars) },
    ],
  });
const refused = (size: string, limit: number) =>
  `"huge run" was not exported: it is ${size}, and Import (like lev) reads scenario files up to ${limit.toLocaleString('en-US')} bytes, so the file could not be opened again. ` +
  'Your work on the page is unchanged. To export it, shorten its traffic or replace long tool output with size_tokens.';

describe('Export', () => {
  it(`refuses a scenario certainly over ${MAX_SCENARIO_BYTES.toLocaleString('en-US')} bytes without building its JSON, saying so with the limit and what to do`, () => {
    expect(exportFile(withOutput(MAX_SCENARIO_BYTES + 1))).toEqual({
      ok: false,
      message: refused('more than 64,000,000 bytes of JSON', MAX_SCENARIO_BYTES),
    });
  });

  // Below, a limit of 10,000 bytes stands in for the 64 MB one (the same code, a smaller file).
  const LIMIT = 10_000;
  const base = withOutput(0);
  /** JSON.stringify's compact length of `base` beyond its content, and what jsonLengthAtLeast counts of it. */
  const compactOverhead = JSON.stringify(base).length + 1;

  it('writes an ordinary scenario indented', () => {
    const scenario = withOutput(100);
    expect(exportFile(scenario, LIMIT)).toEqual({
      ok: true,
      name: 'huge-run.json',
      text: `${JSON.stringify(scenario, null, 2)}\n`,
    });
  });

  it('measures the JSON when the quick bound cannot tell: indented just over the limit, it is written compact', () => {
    const scenario = withOutput(LIMIT - compactOverhead);
    expect(JSON.stringify(scenario, null, 2).length + 1).toBeGreaterThan(LIMIT);
    expect(exportFile(scenario, LIMIT)).toEqual({
      ok: true,
      name: 'huge-run.json',
      text: `${JSON.stringify(scenario)}\n`,
    });
  });

  it('refuses with the exact size when even the compact JSON is one byte over', () => {
    const scenario = withOutput(LIMIT - compactOverhead + 1);
    expect(jsonLengthAtLeast(scenario)).toBeLessThanOrEqual(LIMIT);
    expect(exportFile(scenario, LIMIT)).toEqual({ ok: false, message: refused('10,001 bytes of JSON', LIMIT) });
  });
});
