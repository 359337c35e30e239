// `lev test SCENARIO --step N --format anthropic|openai` prints the same bodies the page copies.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Replay, resolveModel } from '../../src/engine/index.ts';
import { BUILT_IN_TRAFFIC } from '../../src/scenarios/generators.ts';
import { RHAI } from '../../src/engine/custom-script.ts';
import { anthropicBody, openaiChatBody } from '../../src/export/index.ts';
import { importTrace } from '../../src/import/index.ts';

const LEV = resolve(import.meta.dirname, '../../bin/lev.mjs');

describe('lev test --format', () => {
  const { scenario } = importTrace(
    readFileSync(resolve(import.meta.dirname, '../import/fixtures/openai-chat.json'), 'utf8'),
  );
  const file = join(mkdtempSync(join(tmpdir(), 'lev-export-')), 'run.json');
  writeFileSync(file, JSON.stringify(scenario));
  const lev = (...args: string[]) =>
    spawnSync(process.execPath, [LEV, 'test', file, ...args], { encoding: 'utf8', timeout: 60_000 });
  const request = new Replay(scenario, { ...BUILT_IN_TRAFFIC, ...RHAI }).inspectInference(3).request;
  const model = resolveModel(scenario.model);
  if (!model.ok) throw new Error(model.error);

  it('prints the Anthropic and the OpenAI body of inference N', () => {
    const anthropic = lev('--step', '3', '--format', 'anthropic');
    expect([anthropic.status, JSON.parse(anthropic.stdout)]).toEqual([0, anthropicBody(request, model.model)]);
    const openai = lev('--step=3', '--format=openai');
    expect([openai.status, JSON.parse(openai.stdout)]).toEqual([0, openaiChatBody(request, model.model)]);
  });

  it('an unknown format is a usage error', () => {
    const r = lev('--format', 'gemini');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^lev: test: --format takes anthropic or openai\n/);
  });
});
