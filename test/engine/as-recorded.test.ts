// The as-sent replay: every expected figure here is worked out from the events' own sizes
// (size_tokens, so counts are exact) and the recorded usage the test writes, never from a run.
import { describe, expect, it } from 'vitest';
import { keepsEarlierThinking, PRIOR_FACTORS, replayAsRecorded } from '../../src/engine/as-recorded.ts';
import { ScenarioSchema, type Scenario, type TrafficEvent } from '../../src/engine/scenario.ts';

const sized = (type: 'user' | 'assistant', size: number): TrafficEvent => ({ type, content: '', size_tokens: size });
const scenarioOf = (traffic: TrafficEvent[], model = 'claude-sonnet-4'): Scenario =>
  ScenarioSchema.parse({
    version: 1,
    name: 'as-sent',
    model: { id: model },
    agent: { 'agent.leviath': '[context.regions]\nchat = { kind = "sliding_window" }\n' },
    traffic,
  });

describe('calibration', () => {
  it('learns the overhead, the factor and the framing per message from the first 10% of calls only, then agrees with every other recorded call', () => {
    // 40 calls; the provider counts 1.2 tokens per counted token, 7 per message, and 3,000 of its own.
    const traffic: TrafficEvent[] = [];
    const counted: number[] = [];
    let total = 0;
    let messages = 0;
    const first = [1500, 3000, 800, 2500];
    for (let i = 0; i < 40; i++) {
      const size = first[i] ?? 200 + 10 * i;
      traffic.push(sized('user', size));
      total += size;
      messages++;
      counted.push(total);
      traffic.push({
        ...sized('assistant', 40),
        recorded: { promptTokens: Math.round(3000 + 1.2 * total + 7 * messages), cacheReadTokens: 0 },
      } as TrafficEvent);
      total += 40;
      messages++;
    }
    const t = replayAsRecorded(scenarioOf(traffic));
    const r = t.summary.recorded!;
    expect(r.calibration.calls).toEqual([0, 1, 2, 3]);
    expect(r.calibration.factor).toBeCloseTo(1.2, 3);
    expect(r.calibration.perMessageTokens).toBeCloseTo(7, 1);
    expect(Math.abs(r.calibration.overheadTokens - 3000)).toBeLessThanOrEqual(2);
    expect(r.calls).toBe(40);
    expect(r.compared).toBe(36);
    expect(r.p90Error).toBeLessThan(0.001);
    const requests = t.steps.flatMap((s) => (s.request ? [s.request] : []));
    expect(requests.map((q) => q.countedTokens)).toEqual(counted);
    expect(requests.slice(0, 4).every((q) => q.calibration === true && q.error === undefined)).toBe(true);
    expect(requests.every((q) => q.harnessTokens === r.calibration.overheadTokens)).toBe(true);
  });

  it("fits no factor when the tokenizer is the provider's own (o200k_base for gpt-5): the calls' sizes only teach the overhead and framing", () => {
    // Recorded as 1.2 x counted: a factor the calibration would learn for an approximate tokenizer.
    const traffic: TrafficEvent[] = [];
    let total = 0;
    const first = [1500, 3000, 800, 2500];
    for (let i = 0; i < 40; i++) {
      const size = first[i] ?? 200;
      traffic.push(sized('user', size));
      total += size;
      traffic.push({
        ...sized('assistant', 40),
        recorded: { promptTokens: Math.round(3000 + 1.2 * total) },
      } as TrafficEvent);
      total += 40;
    }
    const r = replayAsRecorded(scenarioOf(traffic, 'gpt-5')).summary.recorded!;
    expect(r.calibration.calls).toEqual([0, 1, 2, 3]);
    expect(r.calibration.factor).toBe(1);
  });

  // 30 calls of near one size: 100 counted tokens each way, the provider `factor` per counted token, 30 per message.
  const nearOneSize = (factor: number): TrafficEvent[] => {
    const traffic: TrafficEvent[] = [];
    let total = 0;
    let messages = 0;
    for (let i = 0; i < 30; i++) {
      traffic.push(sized('user', 100));
      total += 100;
      messages++;
      traffic.push({
        ...sized('assistant', 40),
        recorded: { promptTokens: Math.round(5000 + factor * total + 30 * messages) },
      } as TrafficEvent);
      total += 40;
      messages++;
    }
    return traffic;
  };

  it('with calls of near one size, learns the overhead and the framing per message; a family without a prior (Gemini) keeps the factor at 1', () => {
    const r = replayAsRecorded(scenarioOf(nearOneSize(1), 'gemini-2.5-flash')).summary.recorded!;
    expect(r.calibration).toMatchObject({ calls: [0, 1, 2], factor: 1, factorSource: 'none', overheadTokens: 5000 });
    expect(r.calibration.perMessageTokens).toBeCloseTo(30, 6);
    expect(r.calibration.description).toContain('none learned, no prior for this model');
    expect(r.p90Error).toBeLessThan(0.0001);
  });

  it("with calls of near one size, Claude takes its family's prior factor, says so, and fits the overhead and framing at it", () => {
    const prior = PRIOR_FACTORS.claude!.factor;
    const r = replayAsRecorded(scenarioOf(nearOneSize(prior))).summary.recorded!;
    expect(r.calibration).toMatchObject({ calls: [0, 1, 2], factor: prior, factorSource: 'prior' });
    expect(Math.abs(r.calibration.overheadTokens - 5000)).toBeLessThanOrEqual(1);
    expect(r.calibration.perMessageTokens).toBeCloseTo(30, 1);
    expect(r.calibration.description).toContain('the Claude prior');
    expect(r.p90Error).toBeLessThan(0.0005);
  });

  it('one calibration call: the overhead is its record less the prior times its counted tokens', () => {
    // 10 calls: 10% is call 0 alone (2,000 counted, 21,000 recorded).
    const traffic: TrafficEvent[] = [];
    for (let i = 0; i < 10; i++) {
      traffic.push(sized('user', i === 0 ? 2000 : 500));
      traffic.push({
        ...sized('assistant', 0),
        ...(i === 0 ? { recorded: { promptTokens: 21_000 } } : {}),
      } as TrafficEvent);
    }
    const prior = PRIOR_FACTORS.claude!.factor;
    const r = replayAsRecorded(scenarioOf(traffic)).summary.recorded!;
    expect(r.calibration).toMatchObject({ calls: [0], factor: prior, factorSource: 'prior', perMessageTokens: 0 });
    expect(r.calibration.overheadTokens).toBe(Math.round(21_000 - prior * 2000));
    // The same run on a model whose tokenizer is the provider's own: no factor at all.
    const gpt = replayAsRecorded(scenarioOf(traffic, 'gpt-5')).summary.recorded!;
    expect(gpt.calibration).toMatchObject({ factor: 1, factorSource: 'tokenizer', overheadTokens: 19_000 });
  });

  it('a short run: two calibration calls 2,000 or more counted tokens apart give the factor (Claude), with the framing left at 0', () => {
    // 20 calls: 10% is calls 0 and 1. The provider counts 1.2 per counted token plus 3,000 of its own.
    const traffic: TrafficEvent[] = [];
    let total = 0;
    [500, 2600, ...Array.from({ length: 18 }, () => 300)].forEach((size) => {
      traffic.push(sized('user', size));
      total += size;
      traffic.push({
        ...sized('assistant', 40),
        recorded: { promptTokens: Math.round(3000 + 1.2 * total) },
      } as TrafficEvent);
      total += 40;
    });
    const r = replayAsRecorded(scenarioOf(traffic)).summary.recorded!;
    expect(r.calibration.calls).toEqual([0, 1]);
    expect(r.calibration.factor).toBeCloseTo(1.2, 3);
    expect(r.calibration.factorSource).toBe('learned');
    expect(r.calibration.perMessageTokens).toBe(0);
    expect(r.p90Error).toBeLessThan(0.001);
    // 100 tokens apart: too close to tell a factor from noise; Claude's prior stands in.
    const close = traffic.map((e, i) => (i === 2 ? sized('user', 600) : e));
    expect(replayAsRecorded(scenarioOf(close)).summary.recorded!.calibration).toMatchObject({
      factor: PRIOR_FACTORS.claude!.factor,
      factorSource: 'prior',
    });
  });

  it("sizes reasoning held encrypted without a record as the calibration calls' mean recorded reasoning (a record of 0 included)", () => {
    // 20 calls, one turn: calls 0 and 1 (10%) record 500 and 0 reasoning tokens; later replies carry
    // encrypted reasoning whose size the trace did not keep (one with a 3-token summary).
    const traffic: TrafficEvent[] = [sized('user', 2000)];
    for (let i = 0; i < 20; i++) {
      const reasoning =
        i < 2
          ? { size_tokens: i === 0 ? 500 : 0 }
          : i === 5
            ? { content: 'a b c', encrypted: true as const }
            : { encrypted: true as const };
      traffic.push({
        ...sized('assistant', 10),
        reasoning,
        tool_calls: [{ id: `c${i}`, name: 'shell', arguments: {} }],
        ...(i < 2 ? { recorded: { promptTokens: 9000, reasoningTokens: i === 0 ? 500 : 0 } } : {}),
      } as TrafficEvent);
      traffic.push({ type: 'tool_result', tool_call_id: `c${i}`, tool_name: 'shell', size_tokens: 100 });
    }
    const t = replayAsRecorded(scenarioOf(traffic, 'gpt-5'));
    expect(t.summary.recorded!.calibration.reasoningItemTokens).toBe(250);
    expect(t.summary.recorded!.calibration.description).toContain('taken as 250 tokens a reply');
    const requests = t.steps.flatMap((s) => (s.request ? [s.request] : []));
    // Within the turn every reply's reasoning stays: 500 + 0 from the records, then 250 a reply.
    expect(requests.map((q) => q.reasoningTokens)).toEqual(
      Array.from({ length: 20 }, (_, i) => (i === 0 ? 0 : i <= 2 ? 500 : 500 + 250 * (i - 2))),
    );
  });

  it('a run with no recorded usage says so and calibrates nothing', () => {
    const t = replayAsRecorded(scenarioOf([sized('user', 100), sized('assistant', 10)]));
    expect(t.summary.recorded).toBeNull();
    expect(t.summary.note).toMatch(/^this scenario carries no recorded usage/);
    expect(t.steps[1]!.request).toMatchObject({ requestTokens: 100, harnessTokens: 0, countedTokens: 100 });
  });

  it('a short run (fewer than 10 calls) is not calibrated: 10% of it is no call', () => {
    const traffic = [
      sized('user', 100),
      { ...sized('assistant', 10), recorded: { promptTokens: 900 } } as TrafficEvent,
    ];
    const r = replayAsRecorded(scenarioOf(traffic)).summary.recorded!;
    expect(r.calibration).toMatchObject({ calls: [], factor: 1, perMessageTokens: 0, overheadTokens: 0 });
    expect(r.compared).toBe(1);
    expect(r.medianError).toBeCloseTo((100 - 900) / -900, 6);
  });
});

describe("earlier turns' thinking", () => {
  // Anthropic's extended thinking documentation: Opus 4.5 and later, and Sonnet 4.6 and later, keep
  // all prior thinking blocks; earlier models drop the thinking of turns before the last.
  it('names the models that keep it', () => {
    expect(
      ['claude-opus-4-5-20251101', 'claude-opus-4-6', 'claude-sonnet-4-6', 'anthropic/claude-opus-4-5'].map(
        keepsEarlierThinking,
      ),
    ).toEqual([true, true, true, true]);
    expect(
      [
        'claude-sonnet-4-5-20250929',
        'claude-opus-4-1-20250805',
        'claude-opus-4-20250514',
        'claude-haiku-4-5-20251001',
        'claude-3-5-sonnet-20241022',
        'gpt-5',
      ].map(keepsEarlierThinking),
    ).toEqual([false, false, false, false, false, false]);
  });

  it('a new user turn keeps the thinking (and the cached prefix through it) on Opus 4.5, and drops it on Sonnet 4.5', () => {
    const traffic = (model: string): TrafficEvent[] => [
      sized('user', 2000),
      {
        ...sized('assistant', 100),
        reasoning: { size_tokens: 400 },
        recorded: { promptTokens: 2000, model },
      } as TrafficEvent,
      sized('user', 50),
      sized('assistant', 10),
    ];
    const second = (model: string) =>
      replayAsRecorded(scenarioOf(traffic(model))).steps.flatMap((s) => (s.request ? [s.request] : []))[1]!;
    const kept = second('claude-opus-4-5-20251101');
    expect([kept.countedTokens, kept.reasoningTokens]).toEqual([2000 + 400 + 100 + 50, 400]);
    // Claude's breakpoint at the end of the request before: its whole prompt is read.
    expect(kept.cache.cacheReadTokens).toBe(2000);
    const dropped = second('claude-sonnet-4-5-20250929');
    expect([dropped.countedTokens, dropped.reasoningTokens]).toEqual([2000 + 100 + 50, 0]);
    // The prefix ends where the thinking was: the 2,000 ahead of it.
    expect(dropped.cache.cacheReadTokens).toBe(2000);
  });
});

describe('compaction', () => {
  it('clears the flat list and starts it with the summary: the request drops to the summary and what follows', () => {
    const t = replayAsRecorded(
      scenarioOf([
        sized('user', 1000),
        sized('assistant', 50),
        sized('user', 1000),
        sized('assistant', 50),
        { type: 'compaction', summary: '', size_tokens: 300, pre_tokens: 9999 },
        sized('user', 100),
        sized('assistant', 50),
      ]),
    );
    const requests = t.steps.flatMap((s) => (s.request ? [s.request.requestTokens] : []));
    expect(requests).toEqual([1000, 1000 + 50 + 1000, 300 + 100]);
    expect(t.summary.compactions).toEqual([{ index: 4, preTokens: 9999, before: 2050, after: 400 }]);
  });
});

describe('caching as the provider applies it', () => {
  it('Anthropic: the previous request is read through the breakpoint at its end, the rest written', () => {
    const t = replayAsRecorded(
      scenarioOf([sized('user', 2000), sized('assistant', 50), sized('user', 500), sized('assistant', 50)]),
    );
    const [first, second] = t.steps.flatMap((s) => (s.request ? [s.request] : []));
    expect(first!.cache).toMatchObject({ cacheReadTokens: 0, cacheWriteTokens: 2000 });
    expect(second!.cache).toMatchObject({ cacheReadTokens: 2000, cacheWriteTokens: 550 });
  });

  it('Anthropic: a thinking block is sent back for the rest of its turn, ahead of its reply, and leaves at the next user message', () => {
    const t = replayAsRecorded(
      scenarioOf([
        sized('user', 2000),
        {
          ...sized('assistant', 300),
          reasoning: { size_tokens: 400 },
          tool_calls: [{ id: 'c1', name: 'shell', arguments: {} }],
        } as TrafficEvent,
        { type: 'tool_result', tool_call_id: 'c1', tool_name: 'shell', size_tokens: 700 },
        sized('assistant', 10),
        sized('user', 300),
        sized('assistant', 10),
      ]),
    );
    const [first, second, third] = t.steps.flatMap((s) => (s.request ? [s.request] : []));
    const callTokens = second!.countedTokens - (2000 + 400 + 300 + 700);
    expect(callTokens).toBeGreaterThan(0);
    expect([first!.countedTokens, first!.reasoningTokens]).toEqual([2000, 0]);
    // Within the turn: the thinking is in the request, and the whole previous request is read from cache.
    expect(second!.reasoningTokens).toBe(400);
    expect(second!.cache).toMatchObject({ cacheReadTokens: 2000, cacheWriteTokens: 400 + 300 + callTokens + 700 });
    // A new user message: the thinking leaves, so the cached prefix ends where it stood (before the reply).
    expect(third!.reasoningTokens).toBe(0);
    expect(third!.countedTokens).toBe(2000 + 300 + callTokens + 700 + 10 + 300);
    expect(third!.cache).toMatchObject({ cacheReadTokens: 2000, cacheWriteTokens: 300 + callTokens + 700 + 10 + 300 });
  });

  it('OpenAI: reasoning stays within its turn, and the prefix cache hits in 128-token steps up to where it left', () => {
    const t = replayAsRecorded(
      scenarioOf(
        [
          sized('user', 2000),
          {
            ...sized('assistant', 300),
            reasoning: { size_tokens: 500 },
            tool_calls: [{ id: 'c1', name: 'shell', arguments: {} }],
          } as TrafficEvent,
          { type: 'tool_result', tool_call_id: 'c1', tool_name: 'shell', size_tokens: 700 },
          sized('assistant', 10),
          sized('user', 300),
          sized('assistant', 10),
        ],
        'gpt-5',
      ),
    );
    const requests = t.steps.flatMap((s) => (s.request ? [s.request] : []));
    const first = requests[0]!;
    const second = requests[1]!;
    const third = requests[2]!;
    // The call's own tokens (its JSON) are whatever the second request holds beyond the sizes given.
    const callTokens = second.countedTokens - (2000 + 300 + 500 + 700);
    expect(callTokens).toBeGreaterThan(0);
    expect(first.countedTokens).toBe(2000);
    expect(second.reasoningTokens).toBe(500);
    // The 2,000 of the request before and the 500 of its reply's reasoning are shared (OpenAI's cache
    // holds what the model generated, and the reasoning is sent back first): 1,024 + 11 x 128 hit.
    expect(second.cache.cacheReadTokens).toBe(1024 + 11 * 128);
    // A new user turn: the reasoning left. It came first in the reply, so the prefix shared with the
    // request before ends at the 2,000 tokens ahead of it: 1,024 + 7 x 128 again.
    expect(third.reasoningTokens).toBe(0);
    expect(third.countedTokens).toBe(2000 + 300 + callTokens + 700 + 10 + 300);
    expect(third.cache.cacheReadTokens).toBe(1024 + 7 * 128);
  });
});

describe("the cache's lifetime between calls", () => {
  const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1) + seconds * 1000).toISOString();
  const call = (seconds: number, recorded?: { promptTokens: number; cacheTtlSeconds?: number }): TrafficEvent =>
    ({ ...sized('assistant', 50), at: at(seconds), ...(recorded ? { recorded } : {}) }) as TrafficEvent;
  const reads = (scenario: Scenario) =>
    replayAsRecorded(scenario).steps.flatMap((s) => (s.request ? [s.request.cache.cacheReadTokens] : []));

  it('Anthropic: a call more than 5 minutes after the one before finds its prefix gone and writes it again', () => {
    const traffic = [sized('user', 2000), call(0), sized('user', 500), call(299), sized('user', 500), call(299 + 301)];
    // 299 s: within the lifetime, the previous request (2,000) is read; 301 s: expired, nothing read.
    expect(reads(scenarioOf(traffic))).toEqual([0, 2000, 0]);
    const t = replayAsRecorded(scenarioOf(traffic));
    expect(t.steps.at(-1)!.request!.cache).toMatchObject({
      cacheReadTokens: 0,
      cacheWriteTokens: 2000 + 50 + 500 + 50 + 500,
    });
    expect(t.steps.at(-1)!.request!.cache.rule).toContain('301 s since the previous call, over the 300 s lifetime');
  });

  it('Anthropic: the lifetime a record states (1 hour) holds from the next call on', () => {
    const traffic = [
      sized('user', 2000),
      call(0, { promptTokens: 2000, cacheTtlSeconds: 3600 }),
      sized('user', 500),
      call(1000),
      sized('user', 500),
      call(1000 + 3601),
    ];
    expect(reads(scenarioOf(traffic))).toEqual([0, 2000, 0]);
  });

  it('OpenAI: the prefix lives up to an hour; a scenario without times never expires it', () => {
    const traffic = [
      sized('user', 2000),
      call(0),
      sized('user', 500),
      call(3000),
      sized('user', 500),
      call(3000 + 3601),
    ];
    expect(reads(scenarioOf(traffic, 'gpt-5'))).toEqual([0, 1024 + 7 * 128, 0]);
    const untimed = traffic.map((e) => (e.type === 'assistant' ? { ...sized('assistant', 50) } : e));
    // Untimed, the third call shares the second request's 2,000 + 50 + 500 tokens: 1,024 + 11 x 128 hit.
    expect(reads(scenarioOf(untimed, 'gpt-5'))).toEqual([0, 1024 + 7 * 128, 1024 + 11 * 128]);
  });

  it('the time is an ISO 8601 instant in UTC: scenarios without it load, and anything else is refused', () => {
    const base = {
      version: 1,
      name: 'x',
      model: { id: 'claude-sonnet-4' },
      agent: { 'agent.leviath': '[context.regions]\nchat = { kind = "sliding_window" }\n' },
    };
    expect(ScenarioSchema.safeParse({ ...base, traffic: [sized('user', 10), sized('assistant', 10)] }).success).toBe(
      true,
    );
    expect(
      ScenarioSchema.safeParse({ ...base, traffic: [{ ...sized('assistant', 10), at: '2026-01-17T01:09:05.862Z' }] })
        .success,
    ).toBe(true);
    expect(
      ScenarioSchema.safeParse({ ...base, traffic: [{ ...sized('assistant', 10), at: 'yesterday' }] }).success,
    ).toBe(false);
  });
});
