// A scenario file dropped on the page or chosen with Import, as the import worker reads it.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { MAX_SCENARIO_BYTES, ScenarioSchema } from '../../src/engine/index.ts';
import { readScenarioFile, scenarioJson } from '../../src/worker/scenario-file.ts';

const text = readFileSync(resolve(import.meta.dirname, '../../examples/coding-agent.json'), 'utf8');

describe('a scenario file in the page', () => {
  it('is told from a trace by its version and agent', () => {
    expect(scenarioJson(text)).toEqual(JSON.parse(text));
    expect(scenarioJson('{"messages": []}')).toBeUndefined();
    expect(scenarioJson('{"version": 1, "agent": ')).toBeUndefined();
    expect(scenarioJson('{"type":"user"}\n{"type":"assistant"}')).toBeUndefined();
  });

  it('opens up to the size Export and lev import write, with its UTF-8 warning kept', () => {
    expect(readScenarioFile('run.json', MAX_SCENARIO_BYTES, JSON.parse(text), 12)).toEqual({
      ok: true,
      scenario: ScenarioSchema.parse(JSON.parse(text)),
      invalidUtf8At: 12,
    });
  });

  it('one byte more is refused with its size and the limit', () => {
    expect(readScenarioFile('run.json', MAX_SCENARIO_BYTES + 1, JSON.parse(text), undefined)).toEqual({
      ok: false,
      message:
        'run.json is 64,000,001 bytes; scenario files up to 64,000,000 bytes (64 MB) can be imported, the most Export writes. Nothing was changed.',
    });
  });

  it('an invalid one says which field', () => {
    expect(readScenarioFile('broken.json', 30, { version: 1, agent: {} }, undefined)).toEqual({
      ok: false,
      message:
        'broken.json is not a Leviath scenario (model: Invalid input; agent: agent must contain "agent.leviath"). Nothing was changed.',
    });
  });
});
