// The cache's lifetime, on real excerpts whose own timestamps show a pause longer than it (sources
// in fixtures/real/SOURCES.md). Every expected figure is read from the file here: the calls'
// timestamps and the provider's usage records; the replay must agree with what the provider did.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { replayAsRecorded, type Scenario } from '../../src/engine/index.ts';
import { importTrace } from '../../src/import/index.ts';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === 'object' && v !== null ? (v as Obj) : {});
const text = (name: string) => readFileSync(new URL(`./fixtures/real/${name}`, import.meta.url), 'utf8');
const entries = (name: string) =>
  text(name)
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Obj);
const requestsOf = (scenario: Scenario) =>
  replayAsRecorded(scenario).steps.flatMap((s) => (s.request ? [s.request] : []));
const withoutTimes = (scenario: Scenario): Scenario => ({
  ...scenario,
  traffic: scenario.traffic.map((e) => {
    if (e.type !== 'assistant') return e;
    const { at: _at, ...rest } = e;
    return rest;
  }),
});

describe('Claude Code (2.0.72): a pause past the 5-minute lifetime', () => {
  const name = 'claude-code-2.0.72-cache-expiry.jsonl';
  // The file's calls: each message.id's first line gives its time, its last line its usage.
  const calls = new Map<string, { time: number; usage: Obj }>();
  for (const e of entries(name)) {
    const message = obj(e.message);
    if (e.type !== 'assistant' || e.isSidechain === true || message.model === '<synthetic>') continue;
    const id = String(message.id);
    const call = calls.get(id) ?? { time: Date.parse(String(e.timestamp)), usage: {} };
    call.usage = obj(message.usage);
    calls.set(id, call);
  }
  const file = [...calls.values()].map((c) => ({
    time: c.time,
    read: Number(c.usage.cache_read_input_tokens),
    prompt:
      Number(c.usage.input_tokens) +
      Number(c.usage.cache_read_input_tokens) +
      Number(c.usage.cache_creation_input_tokens),
    fiveMinuteWrites: Number(obj(c.usage.cache_creation).ephemeral_5m_input_tokens),
  }));
  const gap = (k: number) => (file[k]!.time - file[k - 1]!.time) / 1000;

  it('the file itself: calls 1 and 2 come over 300 s after the call before, and read only what the first call found cached', () => {
    expect(file).toHaveLength(10);
    expect(file.every((c) => c.fiveMinuteWrites > 0)).toBe(true);
    expect([gap(1), gap(2)].every((g) => g > 300)).toBe(true);
    expect(file.slice(3).every((_, i) => gap(i + 3) < 300)).toBe(true);
    // Not 0: the system prompt that the user's other sessions keep cached, which the first call read too.
    expect(file[1]!.read).toBe(file[0]!.read);
    expect(file[2]!.read).toBe(file[0]!.read);
    expect(file[1]!.read).toBeLessThan(file[0]!.prompt);
  });

  it('the replay expires the cache on those calls and reads what the provider read; every other call reads the previous request', () => {
    const { scenario } = importTrace(text(name));
    const requests = requestsOf(scenario);
    expect(requests).toHaveLength(file.length);
    // Calibrated on call 0 (10% of 10 calls): its recorded cache read is the prefix kept warm.
    expect(replayAsRecorded(scenario).summary.recorded).toMatchObject({
      calibration: { calls: [0], warmPrefixTokens: file[0]!.read },
      cacheExpiries: 2,
    });
    for (const k of [1, 2]) {
      expect(requests[k]!.cache.cacheReadTokens).toBe(file[k]!.read);
      expect(requests[k]!.cache.rule).toContain('cache expired');
    }
    for (let k = 3; k < file.length; k++) {
      expect(requests[k]!.cache.cacheReadTokens).toBe(requests[k - 1]!.requestTokens);
      expect(file[k]!.read / file[k]!.prompt).toBeGreaterThan(0.9);
    }
  });

  it('without the timestamps the pause is invisible: the replay reads the whole previous request where the provider read the warm prefix', () => {
    const requests = requestsOf(withoutTimes(importTrace(text(name)).scenario));
    expect(requests[1]!.cache.cacheReadTokens).toBe(requests[0]!.requestTokens);
    expect(requests[1]!.cache.cacheReadTokens).toBeGreaterThan(file[1]!.read);
  });
});

describe("Codex 0.34 (gpt-5-codex): a pause past OpenAI's one-hour lifetime", () => {
  const name = 'codex-0.34-cache-expiry.jsonl';
  // Each call's token_count (a repeat of the running total is the same call) and the time of the
  // response's first item after it (0.34 writes the count first).
  const file: { time?: number; input: number; cached: number }[] = [];
  let total: unknown;
  for (const e of entries(name)) {
    const payload = obj(e.payload);
    const info = obj(payload.info);
    if (payload.type === 'token_count' && info.total_token_usage) {
      if (obj(info.total_token_usage).total_tokens === total) continue;
      total = obj(info.total_token_usage).total_tokens;
      const last = obj(info.last_token_usage);
      file.push({ input: Number(last.input_tokens), cached: Number(last.cached_input_tokens) });
    } else if (
      e.type === 'response_item' &&
      payload.role !== 'user' &&
      file.length &&
      file.at(-1)!.time === undefined
    ) {
      file.at(-1)!.time = Date.parse(String(e.timestamp));
    }
  }
  const expiredAt = file.findIndex((c, k) => k > 0 && (c.time! - file[k - 1]!.time!) / 1000 > 3600);

  it('the file itself: one call comes hours after the one before, and the provider read nothing from the cache', () => {
    expect(file).toHaveLength(6);
    expect(expiredAt).toBeGreaterThan(0);
    expect(file[expiredAt]!.cached).toBe(0);
    expect(file[expiredAt - 1]!.cached).toBeGreaterThan(0);
    expect(file[expiredAt + 1]!.cached).toBeGreaterThan(0);
  });

  // This excerpt shows the replay agreeing, not the lifetime alone deciding: the call after the pause
  // also starts a new user turn, so the turn before's reasoning leaves the prompt and the prefix it
  // shares with the call before is the task alone, under the 1,024-token minimum, with or without
  // times. The Claude Code excerpt above is the one where the times decide.
  it('the replay expires the cache there and reads 0, as the provider did; the call after reads its prefix again', () => {
    const { scenario } = importTrace(text(name));
    const t = replayAsRecorded(scenario);
    const requests = t.steps.flatMap((s) => (s.request ? [s.request] : []));
    expect(requests).toHaveLength(file.length);
    expect(t.summary.recorded?.cacheExpiries).toBe(1);
    expect(requests[expiredAt]!.cache.rule).toContain('cache expired');
    expect(requests[expiredAt]!.cache.cacheReadTokens).toBe(0);
    expect(requests[expiredAt + 1]!.cache.cacheReadTokens).toBeGreaterThan(0);
    expect(requests[expiredAt - 1]!.cache.cacheReadTokens).toBeGreaterThan(0);
  });
});
