// Prompt-cache prefix stability and what each provider's caching rules make of it.
//
// Block granularity: a request is a list of blocks (one per system region, one per message). The
// shared prefix of two requests is the sum of the tokens of their identical leading blocks. That is
// the granularity Anthropic caches at (`cache_control` breakpoints on block boundaries; an edit
// inside a block invalidates it whole), and it keeps replay linear: comparing two blocks is a
// reference check for unchanged regions (renders are reused while a region is unchanged), so a step
// that changes one region does no work proportional to the others' size. OpenAI and Google match a
// token prefix instead, wherever it ends, so for them the first block that differs still shares
// what it held before when it only grew (a region that appended an entry): `grownBlockTokens` in
// assemble.ts, asked when the rule's `prefixWithinBlocks` says so.
import type { Model, Provider } from './models.ts';
import { fmt } from './format.ts';
import type { ProviderView } from './timeline.ts';
import { itemAt } from './item-at.ts';

export interface PrefixBlock {
  readonly tokens: number;
}

/**
 * Tokens of the identical leading blocks of `prev` and `next` (0 when there is no previous
 * request), as `same` judges two blocks (the same object, or the same text).
 */
export function commonPrefixTokens<B extends PrefixBlock>(
  prev: readonly B[] | undefined,
  next: readonly B[],
  same: (a: B, b: B) => boolean,
  grown?: (a: B, b: B) => number,
): number {
  if (!prev) return 0;
  const n = Math.min(prev.length, next.length);
  let tokens = 0;
  for (let i = 0; i < n; i++) {
    const a = itemAt(prev, i);
    const b = itemAt(next, i);
    if (!same(a, b)) return grown ? tokens + grown(a, b) : tokens;
    tokens += b.tokens;
  }
  return tokens;
}

/**
 * Whether the provider's cache matches a token prefix that may end inside a block (OpenAI's and
 * Google's automatic prefix caching) rather than whole blocks up to a breakpoint (Anthropic's).
 */
export function matchesWithinBlocks(model: Model): boolean {
  return model.provider !== 'custom' && PROVIDER_RULES[model.provider].prefixWithinBlocks === true;
}

// ---- provider rules ----------------------------------------------------------------------------

export interface ModelCachePrice {
  /** USD per million input tokens (uncached). */
  inputPerMTok: number;
  /** Cache reads cost this multiple of the input price; undefined when the model has no prompt cache. */
  cacheReadMultiplier?: number;
  /** No cache hit below this many prefix tokens (and, for Anthropic, nothing is written either). */
  minCacheableTokens?: number;
  /** Prompts longer than `tokens` are billed at `inputPerMTok` instead (Gemini 2.5 Pro's long tier). */
  longPrompt?: { tokens: number; inputPerMTok: number };
}

export interface ProviderRule {
  mechanism: string;
  /** Anthropic: explicit breakpoints per request, and how many blocks each looks back for a hit. */
  maxBreakpoints?: number;
  lookbackBlocks?: number;
  /** Anthropic: cache writes cost this multiple of input (5-minute TTL; 1-hour is `writeMultiplier1h`). */
  writeMultiplier?: number;
  writeMultiplier1h?: number;
  /** OpenAI: hits grow in steps of this many tokens above the minimum. */
  hitIncrementTokens?: number;
  /**
   * The cache matches the longest token prefix, wherever it ends: a block that only grew since the
   * last request (a system region that appended an entry) is read from cache up to its old end.
   */
  prefixWithinBlocks?: boolean;
  models: Readonly<Record<string, ModelCachePrice>>;
  source: string;
  checked: string;
}

/** The one table of provider caching facts and input prices. Update `checked` when re-verifying. */
export const PROVIDER_RULES: Readonly<Record<Exclude<Provider, 'custom'>, ProviderRule>> = {
  anthropic: {
    mechanism:
      'explicit cache_control breakpoints; prefix order tools, system, messages; an edit invalidates the prefix from the edit onward',
    maxBreakpoints: 4,
    lookbackBlocks: 20,
    writeMultiplier: 1.25,
    writeMultiplier1h: 2,
    models: {
      'claude-sonnet-4': { inputPerMTok: 3, cacheReadMultiplier: 0.1, minCacheableTokens: 1024 },
      'claude-opus-4': { inputPerMTok: 15, cacheReadMultiplier: 0.1, minCacheableTokens: 1024 },
      'claude-3-5-haiku': { inputPerMTok: 0.8, cacheReadMultiplier: 0.1, minCacheableTokens: 2048 },
    },
    source: 'docs.anthropic.com/en/docs/build-with-claude/prompt-caching; anthropic.com/pricing',
    checked: '2026-12-02',
  },
  openai: {
    mechanism:
      'automatic prefix caching from 1,024 tokens, hits in 128-token increments; routed by a hash of about the first 256 tokens',
    hitIncrementTokens: 128,
    prefixWithinBlocks: true,
    models: {
      'gpt-4o': { inputPerMTok: 2.5, cacheReadMultiplier: 0.5, minCacheableTokens: 1024 },
      'gpt-4o-mini': { inputPerMTok: 0.15, cacheReadMultiplier: 0.5, minCacheableTokens: 1024 },
      'gpt-4.1': { inputPerMTok: 2, cacheReadMultiplier: 0.25, minCacheableTokens: 1024 },
      'gpt-5': { inputPerMTok: 1.25, cacheReadMultiplier: 0.1, minCacheableTokens: 1024 },
      o3: { inputPerMTok: 2, cacheReadMultiplier: 0.25, minCacheableTokens: 1024 },
      'o4-mini': { inputPerMTok: 1.1, cacheReadMultiplier: 0.25, minCacheableTokens: 1024 },
      // Older models predate prompt caching.
      'gpt-4-turbo': { inputPerMTok: 10 },
      'gpt-3.5-turbo': { inputPerMTok: 0.5 },
    },
    source: 'platform.openai.com/docs/guides/prompt-caching; openai.com/api/pricing',
    checked: '2026-12-02',
  },
  google: {
    mechanism:
      'implicit caching on Gemini 2.5 and newer; a shared prefix above the model minimum is read at the cached rate',
    prefixWithinBlocks: true,
    models: {
      // The docs have listed 1,024, 2,048 and 4,096 for these over 2025-2026; 2,048 is the current page.
      'gemini-2.5-pro': {
        inputPerMTok: 1.25,
        cacheReadMultiplier: 0.1,
        minCacheableTokens: 2048,
        longPrompt: { tokens: 200_000, inputPerMTok: 2.5 },
      },
      'gemini-2.5-flash': { inputPerMTok: 0.3, cacheReadMultiplier: 0.1, minCacheableTokens: 2048 },
    },
    source: 'ai.google.dev/gemini-api/docs/caching (updated 2026-10-13); ai.google.dev/gemini-api/docs/pricing',
    checked: '2026-12-02',
  },
};

const usd = (tokens: number, perMTok: number): number => (tokens * perMTok) / 1_000_000;

/**
 * What the provider would do with this request, given `prefixTokens` shared with the previous one
 * (from commonPrefixTokens). Reads are whole blocks; the request's own breakpoints are modelled as
 * the runtime places them (see anthropicView).
 */
export function providerView(model: Model, blocks: readonly PrefixBlock[], prefixTokens: number): ProviderView {
  const total = blocks.reduce((sum, b) => sum + b.tokens, 0);
  const prefix = Math.min(prefixTokens, total);
  if (model.provider === 'custom') {
    return {
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      uncachedTokens: total,
      inputCostUsd: 0,
      costWithoutCacheUsd: 0,
      rule: `${model.id}: a custom model has no provider cache rule or price`,
    };
  }
  const provider = PROVIDER_RULES[model.provider];
  const price = provider.models[model.id];
  if (!price) {
    return {
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      uncachedTokens: total,
      inputCostUsd: 0,
      costWithoutCacheUsd: 0,
      rule: `${model.id}: no ${model.provider} price or cache rule on record`,
    };
  }
  const split =
    model.provider === 'anthropic'
      ? anthropicSplit(provider, price, blocks, total, prefix)
      : model.provider === 'openai'
        ? openaiSplit(provider, price, total, prefix)
        : geminiSplit(price, total, prefix);
  const inputCostUsd = splitCostUsd(provider, price, split);
  const inputPerMTok =
    price.longPrompt && total > price.longPrompt.tokens ? price.longPrompt.inputPerMTok : price.inputPerMTok;
  return {
    cacheReadTokens: split.read,
    cacheWriteTokens: split.write,
    uncachedTokens: split.uncached,
    inputCostUsd,
    costWithoutCacheUsd: usd(total, inputPerMTok),
    // Joined, not a template: one flat string rather than a tree of its pieces, and the timeline keeps one per request.
    rule: [model.id, split.rule].join(': '),
  };
}

interface Split {
  read: number;
  write: number;
  uncached: number;
  rule: string;
}

/** A request's input cost under the price table: its cache reads, cache writes and uncached tokens. */
function splitCostUsd(provider: ProviderRule, price: ModelCachePrice, split: Omit<Split, 'rule'>): number {
  const total = split.read + split.write + split.uncached;
  const inputPerMTok =
    price.longPrompt && total > price.longPrompt.tokens ? price.longPrompt.inputPerMTok : price.inputPerMTok;
  return (
    usd(split.read, inputPerMTok * (price.cacheReadMultiplier ?? 1)) +
    usd(split.write, inputPerMTok * (provider.writeMultiplier ?? 1)) +
    usd(split.uncached, inputPerMTok)
  );
}

/**
 * What a request split into cache reads, writes and uncached tokens costs under the price table (a
 * split the provider recorded, or the as-sent replay's), and the table's source and date; null for
 * a model with no price on record.
 */
export function priceSplit(
  model: Model,
  split: { read: number; write: number; uncached: number },
): { usd: number; source: string; checked: string } | null {
  if (model.provider === 'custom') return null;
  const provider = PROVIDER_RULES[model.provider];
  const price = provider.models[model.id];
  if (!price) return null;
  return { usd: splitCostUsd(provider, price, split), source: provider.source, checked: provider.checked };
}

/**
 * Anthropic, as the runtime places breakpoints: one on the last block and one every `lookbackBlocks`
 * before it, up to `maxBreakpoints`, so a hit is found when the shared prefix ends within
 * 4 x 20 = 80 blocks of the end. The last breakpoint writes everything after the read (5-minute
 * TTL). Below the model minimum nothing is read or written, and no error is raised.
 */
function anthropicSplit(
  rule: ProviderRule,
  price: ModelCachePrice,
  blocks: readonly PrefixBlock[],
  total: number,
  prefix: number,
): Split {
  const min = price.minCacheableTokens ?? 0;
  if (total < min)
    return {
      read: 0,
      write: 0,
      uncached: total,
      rule: `request below the ${fmt(min)}-token minimum cacheable prefix: nothing cached`,
    };
  const reach = (rule.maxBreakpoints ?? 4) * (rule.lookbackBlocks ?? 20);
  const blocksAfter = blocks.length - sharedBlockCount(blocks, prefix);
  let read = prefix >= min ? prefix : 0;
  let why =
    read > 0
      ? `${fmt(read)} shared tokens read at ${price.cacheReadMultiplier ?? 1}x`
      : prefix > 0
        ? `${fmt(prefix)} shared tokens, under the ${fmt(min)}-token minimum: no read`
        : 'no shared prefix: no read';
  if (read > 0 && blocksAfter > reach) {
    read = 0;
    why = `shared prefix ends ${blocksAfter} blocks before the end, beyond ${rule.maxBreakpoints} breakpoints x ${rule.lookbackBlocks}-block lookback: no read`;
  }
  const write = total - read;
  return {
    read,
    write,
    uncached: 0,
    rule: `${why}; ${fmt(write)} written at ${rule.writeMultiplier}x (breakpoint on the last block, 5-minute TTL)`,
  };
}

/**
 * Where the runtime puts Anthropic `cache_control` breakpoints in a request of `blockCount` blocks
 * (system blocks, then one per message): on the last block and every `lookbackBlocks` before it,
 * at most `maxBreakpoints`, in ascending order. anthropicSplit prices exactly this placement.
 */
export function anthropicBreakpoints(blockCount: number): number[] {
  const { maxBreakpoints = 4, lookbackBlocks = 20 } = PROVIDER_RULES.anthropic;
  const out: number[] = [];
  for (let i = blockCount - 1; i >= 0 && out.length < maxBreakpoints; i -= lookbackBlocks) out.unshift(i);
  return out;
}

/** How many leading blocks `prefix` tokens cover (prefixes are whole blocks). */
function sharedBlockCount(blocks: readonly PrefixBlock[], prefix: number): number {
  let sum = 0;
  let i = 0;
  for (const block of blocks) {
    if (sum + block.tokens > prefix) break;
    sum += block.tokens;
    i++;
  }
  return i;
}

function openaiSplit(rule: ProviderRule, price: ModelCachePrice, total: number, prefix: number): Split {
  if (price.cacheReadMultiplier === undefined)
    return { read: 0, write: 0, uncached: total, rule: 'no prompt caching on this model' };
  const min = price.minCacheableTokens ?? 1024;
  const step = rule.hitIncrementTokens ?? 128;
  if (prefix < min)
    return {
      read: 0,
      write: 0,
      uncached: total,
      rule: `${fmt(prefix)} shared tokens, under the ${fmt(min)}-token minimum: no cache hit`,
    };
  const read = min + Math.floor((prefix - min) / step) * step;
  const off = Math.round((1 - price.cacheReadMultiplier) * 100);
  return {
    read,
    write: 0,
    uncached: total - read,
    rule: `automatic caching: ${fmt(read)} of ${fmt(prefix)} shared tokens hit (${fmt(min)} + ${step}-token increments), ${off}% off`,
  };
}

function geminiSplit(price: ModelCachePrice, total: number, prefix: number): Split {
  const min = price.minCacheableTokens ?? 0;
  if (prefix < min)
    return {
      read: 0,
      write: 0,
      uncached: total,
      rule: `${fmt(prefix)} shared tokens, under the ${fmt(min)}-token minimum: no implicit cache hit`,
    };
  const off = Math.round((1 - (price.cacheReadMultiplier ?? 1)) * 100);
  return {
    read: prefix,
    write: 0,
    uncached: total - prefix,
    rule: `implicit caching: ${fmt(prefix)} shared tokens hit, ${off}% off`,
  };
}
