import { describe, expect, it } from 'vitest';
import { PROVIDER_RULES, commonPrefixTokens, providerView, type PrefixBlock } from '../../src/engine/cache.ts';
import { MODELS, findModel } from '../../src/engine/models.ts';

interface Block extends PrefixBlock {
  text: string;
}
const block = (text: string, tokens: number): Block => ({ text, tokens });
const same = (a: Block, b: Block) => a === b || a.text === b.text;
const model = (id: string) => findModel(id)!;

describe('commonPrefixTokens', () => {
  const a = block('task', 10);
  const b = block('rules', 20);
  const c = block('chat 1', 5);

  it('sums identical leading blocks, by reference or by text', () => {
    expect(commonPrefixTokens(undefined, [a, b], same)).toBe(0);
    expect(commonPrefixTokens([a, b, c], [a, b, block('chat 2', 7)], same)).toBe(30);
    expect(commonPrefixTokens([a, b], [block('task', 10), block('rules', 20), c], same)).toBe(30);
    expect(commonPrefixTokens([a, b, c], [a, b], same)).toBe(30);
    expect(commonPrefixTokens([a, b], [block('task!', 11), b], same)).toBe(0);
    expect(commonPrefixTokens([], [a], same)).toBe(0);
  });

  it('an edit invalidates everything after it, even identical later blocks', () => {
    expect(commonPrefixTokens([a, b, c], [a, block('rules v2', 21), c], same)).toBe(10);
  });
});

describe('PROVIDER_RULES', () => {
  it('prices every built-in model, with a source and a date per provider', () => {
    for (const m of MODELS) {
      const rule = PROVIDER_RULES[m.provider as 'openai' | 'anthropic' | 'google'];
      expect(rule.models[m.id], m.id).toBeDefined();
      expect(rule.source.length).toBeGreaterThan(10);
      expect(rule.checked).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
    expect(PROVIDER_RULES.anthropic).toMatchObject({
      maxBreakpoints: 4,
      lookbackBlocks: 20,
      writeMultiplier: 1.25,
      writeMultiplier1h: 2,
    });
    expect(PROVIDER_RULES.openai.hitIncrementTokens).toBe(128);
  });
});

describe('providerView', () => {
  const blocks = [block('system', 3000), block('chat', 1000)];

  it('anthropic: shared prefix read at 0.1x, the rest written at 1.25x', () => {
    const view = providerView(model('claude-sonnet-4'), blocks, 3000);
    expect(view).toEqual({
      cacheReadTokens: 3000,
      cacheWriteTokens: 1000,
      uncachedTokens: 0,
      inputCostUsd: (3000 * 0.3 + 1000 * 3.75) / 1e6,
      costWithoutCacheUsd: (4000 * 3) / 1e6,
      rule: 'claude-sonnet-4: 3,000 shared tokens read at 0.1x; 1,000 written at 1.25x (breakpoint on the last block, 5-minute TTL)',
    });
  });

  it('anthropic: first request writes everything; below the minimum nothing is cached', () => {
    expect(providerView(model('claude-opus-4'), blocks, 0)).toMatchObject({
      cacheReadTokens: 0,
      cacheWriteTokens: 4000,
      uncachedTokens: 0,
      inputCostUsd: (4000 * 15 * 1.25) / 1e6,
    });
    const small = providerView(model('claude-3-5-haiku'), [block('x', 2000)], 2000);
    expect(small).toMatchObject({
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      uncachedTokens: 2000,
      inputCostUsd: (2000 * 0.8) / 1e6,
    });
    expect(small.rule).toBe('claude-3-5-haiku: request below the 2,048-token minimum cacheable prefix: nothing cached');
    const shortPrefix = providerView(model('claude-sonnet-4'), blocks, 1000);
    expect(shortPrefix).toMatchObject({ cacheReadTokens: 0, cacheWriteTokens: 4000 });
    expect(shortPrefix.rule).toContain('1,000 shared tokens, under the 1,024-token minimum: no read');
  });

  it('anthropic: a prefix ending more than 4 x 20 blocks before the end is out of lookback reach', () => {
    const many = [block('system', 2000), ...Array.from({ length: 81 }, (_, i) => block(`m${i}`, 10))];
    const far = providerView(model('claude-sonnet-4'), many, 2000);
    expect(far.cacheReadTokens).toBe(0);
    expect(far.rule).toContain('shared prefix ends 81 blocks before the end, beyond 4 breakpoints x 20-block lookback');
    const near = providerView(model('claude-sonnet-4'), many.slice(0, 81), 2000);
    expect(near.cacheReadTokens).toBe(2000);
  });

  it('openai: from 1,024 tokens in 128-token increments at the model discount', () => {
    const view = providerView(model('gpt-4o'), blocks, 3000);
    expect(view.cacheReadTokens).toBe(1024 + 15 * 128);
    expect(view).toMatchObject({ cacheWriteTokens: 0, uncachedTokens: 4000 - 2944 });
    expect(view.inputCostUsd).toBeCloseTo((2944 * 1.25 + 1056 * 2.5) / 1e6, 12);
    expect(view.rule).toBe(
      'gpt-4o: automatic caching: 2,944 of 3,000 shared tokens hit (1,024 + 128-token increments), 50% off',
    );
    expect(providerView(model('gpt-5'), blocks, 1023)).toMatchObject({ cacheReadTokens: 0, uncachedTokens: 4000 });
    expect(providerView(model('gpt-5'), blocks, 1024).cacheReadTokens).toBe(1024);
    expect(providerView(model('gpt-4.1'), blocks, 1200).inputCostUsd).toBeCloseTo((1152 * 0.5 + 2848 * 2) / 1e6, 12);
    const old = providerView(model('gpt-4-turbo'), blocks, 3000);
    expect(old).toMatchObject({
      cacheReadTokens: 0,
      uncachedTokens: 4000,
      rule: 'gpt-4-turbo: no prompt caching on this model',
    });
  });

  it('gemini: implicit hit above the minimum; the long-prompt tier above 200k', () => {
    const view = providerView(model('gemini-2.5-flash'), blocks, 3000);
    expect(view).toMatchObject({ cacheReadTokens: 3000, cacheWriteTokens: 0, uncachedTokens: 1000 });
    expect(view.inputCostUsd).toBeCloseTo((3000 * 0.03 + 1000 * 0.3) / 1e6, 12);
    expect(providerView(model('gemini-2.5-pro'), blocks, 2047).cacheReadTokens).toBe(0);
    const long = providerView(model('gemini-2.5-pro'), [block('big', 250_000)], 0);
    expect(long.costWithoutCacheUsd).toBeCloseTo((250_000 * 2.5) / 1e6, 12);
  });

  it('custom models: no rule, no price', () => {
    const custom = {
      id: 'mine',
      label: 'Mine',
      provider: 'custom' as const,
      window: 8000,
      encoding: 'o200k_base' as const,
      approximate: false,
    };
    expect(providerView(custom, blocks, 3000)).toEqual({
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      uncachedTokens: 4000,
      inputCostUsd: 0,
      costWithoutCacheUsd: 0,
      rule: 'mine: a custom model has no provider cache rule or price',
    });
  });
});
