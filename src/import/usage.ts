// The provider's per-call usage records, in each format's words, -> one normalized shape
// (RecordedUsage): promptTokens is all input the call was billed for, cached or not; cache reads and
// writes are parts of it. Each reader takes untrusted JSON and returns undefined when the record is
// not there or not numbers, so a trace without usage imports as before.
import type { RecordedUsage } from '../engine/page.ts';
import { isObject, type JsonObject } from './json.ts';

// A count is a whole number of tokens a scenario can hold exactly: past 2^53 a JSON number is no longer
// the figure the provider wrote, so it reads as no record at all.
const num = (value: unknown): number | undefined => {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return undefined;
  const count = Math.round(value);
  return Number.isSafeInteger(count) ? count : undefined;
};

/**
 * The record, with the optional figures the trace has; undefined when a sum of its parts (the prompt
 * is input plus cache reads and writes) is past what a count can hold.
 */
function withOptional(
  base: RecordedUsage,
  extra: Partial<Record<keyof RecordedUsage, number | string | undefined>>,
): RecordedUsage | undefined {
  if (!Object.values(base).every((n) => typeof n !== 'number' || Number.isSafeInteger(n))) return undefined;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(extra)) if (value !== undefined) out[key] = value;
  // A window is a whole number of tokens above 0; anything else a trace wrote is left out.
  if (out.window !== undefined && !(Number.isSafeInteger(out.window) && (out.window as number) > 0)) delete out.window;
  return out as RecordedUsage;
}

/**
 * Anthropic Messages `usage`: `input_tokens` is only the uncached part; the prompt is that plus
 * `cache_read_input_tokens` and `cache_creation_input_tokens`.
 */
export function anthropicUsage(usage: unknown, model?: string): RecordedUsage | undefined {
  if (!isObject(usage)) return undefined;
  const input = num(usage.input_tokens);
  if (input === undefined) return undefined;
  const read = num(usage.cache_read_input_tokens) ?? 0;
  const write = num(usage.cache_creation_input_tokens) ?? 0;
  return withOptional(
    { promptTokens: input + read + write, cacheReadTokens: read, cacheWriteTokens: write },
    {
      outputTokens: num(usage.output_tokens),
      cacheTtlSeconds: anthropicCacheTtl(usage.cache_creation),
      model,
    },
  );
}

/**
 * The lifetime of the cache entries a call wrote, from `cache_creation`'s split of its writes:
 * any 1-hour writes make it 3,600 s (the harness asked for the longer lifetime), 5-minute writes
 * alone 300 s; no writes say nothing.
 */
function anthropicCacheTtl(creation: unknown): number | undefined {
  if (!isObject(creation)) return undefined;
  if ((num(creation.ephemeral_1h_input_tokens) ?? 0) > 0) return 3_600;
  if ((num(creation.ephemeral_5m_input_tokens) ?? 0) > 0) return 300;
  return undefined;
}

/**
 * When a call was made, from a trace's timestamp: an ISO 8601 instant in UTC (the scenario's form),
 * or undefined when the value is not a date and time (a trace's timestamps are untrusted). Text
 * without a zone (OpenHands writes none) is read as UTC, so the result never depends on the
 * machine's zone; a number is seconds since the epoch (claude-trace's).
 */
export function callInstant(value: unknown): string | undefined {
  let ms: number;
  if (typeof value === 'number') ms = value * 1000;
  else if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value))
    ms = Date.parse(/(Z|[+-]\d{2}:?\d{2})$/.test(value) ? value : `${value}Z`);
  else return undefined;
  // Years 0000-9999: the scenario's ISO form has four digits.
  return Number.isFinite(ms) && ms >= -62_167_219_200_000 && ms < 253_402_300_800_000
    ? new Date(ms).toISOString()
    : undefined;
}

/**
 * OpenAI Chat Completions `usage` (and LiteLLM's, which OpenHands records): `prompt_tokens` is the
 * whole prompt, `prompt_tokens_details.cached_tokens` the cached part. LiteLLM adds Anthropic's
 * `cache_read_input_tokens` / `cache_creation_input_tokens` for Claude models.
 */
export function chatUsage(usage: unknown, model?: string): RecordedUsage | undefined {
  if (!isObject(usage)) return undefined;
  const prompt = num(usage.prompt_tokens);
  if (prompt === undefined) return undefined;
  const details = isObject(usage.prompt_tokens_details) ? usage.prompt_tokens_details : {};
  const completion = isObject(usage.completion_tokens_details) ? usage.completion_tokens_details : {};
  const read = num(usage.cache_read_input_tokens) ?? num(details.cached_tokens) ?? 0;
  const write = num(usage.cache_creation_input_tokens) ?? 0;
  // LiteLLM's Anthropic figures: prompt_tokens counts the uncached input and the cache writes, and
  // sometimes not the reads; the prompt is never smaller than its parts.
  return withOptional(
    { promptTokens: Math.max(prompt, read + write), cacheReadTokens: read, cacheWriteTokens: write },
    {
      outputTokens: num(usage.completion_tokens),
      reasoningTokens: num(completion.reasoning_tokens),
      model,
    },
  );
}

/** OpenAI Responses `usage` and Codex's `token_count` figures: `input_tokens` includes the cached part. */
export function responsesUsage(usage: unknown, model?: string, window?: number): RecordedUsage | undefined {
  if (!isObject(usage)) return undefined;
  const input = num(usage.input_tokens);
  if (input === undefined) return undefined;
  const details = isObject(usage.input_tokens_details) ? usage.input_tokens_details : {};
  const outDetails = isObject(usage.output_tokens_details) ? usage.output_tokens_details : {};
  return withOptional(
    { promptTokens: input, cacheReadTokens: num(usage.cached_input_tokens) ?? num(details.cached_tokens) ?? 0 },
    {
      outputTokens: num(usage.output_tokens),
      reasoningTokens: num(usage.reasoning_output_tokens) ?? num(outDetails.reasoning_tokens),
      model,
      window,
    },
  );
}

/**
 * Gemini CLI's per-message `tokens` ({ input, output, cached, thoughts, tool, total }): `input` is
 * the API's promptTokenCount, which includes the cached part.
 */
export function geminiUsage(tokens: unknown, model?: string): RecordedUsage | undefined {
  if (!isObject(tokens)) return undefined;
  const input = num(tokens.input);
  if (input === undefined) return undefined;
  return withOptional(
    { promptTokens: input, cacheReadTokens: num(tokens.cached) ?? 0 },
    {
      outputTokens: num(tokens.output),
      reasoningTokens: num(tokens.thoughts),
      model,
    },
  );
}

/** The usage object of a response body in any of the three API shapes, normalized. */
export function responseBodyUsage(body: JsonObject): RecordedUsage | undefined {
  const model = typeof body.model === 'string' ? body.model : undefined;
  if (!isObject(body.usage)) return undefined;
  if (body.usage.prompt_tokens !== undefined) return chatUsage(body.usage, model);
  if (body.usage.cache_read_input_tokens !== undefined || body.type === 'message')
    return anthropicUsage(body.usage, model);
  return responsesUsage(body.usage, model);
}
