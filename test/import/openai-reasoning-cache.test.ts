// OpenAI's prefix cache holds what the model generated too: the reasoning item a reply starts
// with is sent back right after that request's input, and the next call finds it cached. Shown on
// a real Codex 0.34 excerpt (sources in fixtures/real/SOURCES.md); every expected figure is read
// from the file's own token_count records here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { replayAsRecorded } from '../../src/engine/index.ts';
import { importTrace } from '../../src/import/index.ts';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === 'object' && v !== null ? (v as Obj) : {});
const name = 'codex-0.34-cache-expiry.jsonl';
const text = readFileSync(new URL(`./fixtures/real/${name}`, import.meta.url), 'utf8');

// Each call's last_token_usage (a repeat of the running total is the same call again).
const file: { input: number; cached: number; reasoning: number }[] = [];
let total: unknown;
for (const line of text.split('\n').filter((l) => l.trim())) {
  const payload = obj((JSON.parse(line) as Obj).payload);
  const info = obj(payload.info);
  if (payload.type !== 'token_count' || !info.total_token_usage) continue;
  if (obj(info.total_token_usage).total_tokens === total) continue;
  total = obj(info.total_token_usage).total_tokens;
  const last = obj(info.last_token_usage);
  file.push({
    input: Number(last.input_tokens),
    cached: Number(last.cached_input_tokens),
    reasoning: Number(last.reasoning_output_tokens),
  });
}
const STEP = 128;

describe("OpenAI's prefix cache and the reply's reasoning (Codex 0.34, gpt-5-codex)", () => {
  // Calls within one turn (only tool outputs since the call before) whose previous reply reasoned.
  const afterReasoning = [1, 5];
  const afterNone = [2, 3];

  it('the file itself: after a reply that reasoned, the read goes past the previous prompt by about its reasoning; after one that did not, it stops at it', () => {
    expect(file).toHaveLength(6);
    for (const k of afterReasoning) {
      expect(file[k - 1]!.reasoning).toBeGreaterThan(1000);
      const past = file[k]!.cached - file[k - 1]!.input;
      expect(past).toBeGreaterThan(file[k - 1]!.reasoning - STEP);
      expect(past).toBeLessThanOrEqual(file[k - 1]!.reasoning + STEP);
    }
    for (const k of afterNone) {
      expect(file[k - 1]!.reasoning).toBe(0);
      expect(file[k]!.cached).toBeLessThanOrEqual(file[k - 1]!.input);
    }
  });

  it('the replay reads the previous request and its reasoning there, and only the previous request after a reply without', () => {
    const requests = replayAsRecorded(importTrace(text).scenario).steps.flatMap((s) => (s.request ? [s.request] : []));
    expect(requests).toHaveLength(file.length);
    for (const k of afterReasoning) {
      // The reasoning is sized from the call's record (encrypted), so the previous request plus it is what is shared.
      const shared = requests[k - 1]!.requestTokens + file[k - 1]!.reasoning;
      expect(requests[k]!.cache.cacheReadTokens).toBeGreaterThan(shared - STEP);
      expect(requests[k]!.cache.cacheReadTokens).toBeLessThanOrEqual(shared);
    }
    for (const k of afterNone) {
      expect(requests[k]!.cache.cacheReadTokens).toBeGreaterThan(requests[k - 1]!.requestTokens - STEP);
      expect(requests[k]!.cache.cacheReadTokens).toBeLessThanOrEqual(requests[k - 1]!.requestTokens);
    }
  });
});
