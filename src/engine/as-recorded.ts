// An imported run replayed the way its harness sent it ("as sent", `lev replay --as-recorded`):
// one flat message list in the harness's order, the harness's own overhead that the log does not
// hold (system prompt, tool definitions) as a row of its own, the harness's compactions where they
// happened, and the provider's caching as that harness uses it. Counts are made the provider's by a
// calibration that learns only from the recorded usage of the run's first calls (at most the first
// 10%): the overhead (tokens every request carries) and a factor between this tokenizer's counts
// and the provider's. Every other call's recorded usage is only compared against, never used.
//
// The blueprint replay (replay.ts) is the "what if"; this one must agree with what happened.
import { priceSplit, PROVIDER_RULES } from './cache.ts';
import { fmt } from './format.ts';
import { resolveModel, type Model } from './models.ts';
import type { RunNames } from './read-again.ts';
import type { RecordedUsage, Scenario, TrafficEvent } from './scenario.ts';
import { countTokens } from './tokens.ts';

/** The share of a run's first calls a calibration may learn from. */
export const CALIBRATION_SHARE = 0.1;

/** How the harness's provider caches its prompts. */
export type Caching = 'anthropic-breakpoints' | 'openai-prefix' | 'gemini-implicit' | 'none';

export interface AsRecordedCache {
  cacheReadTokens: number;
  cacheWriteTokens: number;
  uncachedTokens: number;
  /** Which rule applied, in words. */
  rule: string;
}

/** What the provider recorded for this call, as the issue's JSON names it. */
export interface RecordedFigures {
  promptTokens: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  outputTokens?: number;
}

export interface AsRecordedRequest {
  /** 0-based inference number. */
  inference: number;
  /** Prompt tokens as the provider counts them (the calibrated estimate). */
  requestTokens: number;
  /** The rows of the request, in provider tokens: the harness overhead, the message list, reasoning kept within the turn. */
  harnessTokens: number;
  messageTokens: number;
  reasoningTokens: number;
  /** This tokenizer's count of the message list and reasoning, before calibration. */
  countedTokens: number;
  cache: AsRecordedCache;
  /** The provider's own record, where the trace kept one. */
  recorded?: RecordedFigures;
  /** (requestTokens - recorded) / recorded, for calls the calibration did not learn from. */
  error?: number;
  /** True for the calls the calibration learned from. */
  calibration?: true;
}

export interface AsRecordedStep {
  index: number;
  event: TrafficEvent;
  request?: AsRecordedRequest;
}

export interface Calibration {
  /** The inferences it learned from (0-based), all among the run's first 10%. */
  calls: number[];
  /** Provider tokens per token of this tokenizer. */
  factor: number;
  /**
   * Where the factor comes from: `learned` from this run's calibration calls; `prior`, the model
   * family's factor measured on the project's own fixtures (PRIOR_FACTORS), when the run's first
   * calls cannot fit one; `tokenizer` when this tokenizer is the provider's own (no factor needed);
   * `none` when nothing is calibrated or the family has no prior.
   */
  factorSource: 'learned' | 'prior' | 'tokenizer' | 'none';
  /** Provider tokens each message adds beyond its text (the chat template's framing, a call's wrapping). */
  perMessageTokens: number;
  /** Tokens every request carries that the log does not hold (system prompt, tool definitions). */
  overheadTokens: number;
  /**
   * What the run's first call read from the cache before the run had written any (capped at the
   * overhead): the part of the harness's prefix its other requests keep cached (Claude Code's system
   * prompt). A call whose cache has expired reads it again. 0 when the first call is not calibrated.
   */
  warmPrefixTokens: number;
  /**
   * The size given to each reasoning item the trace held encrypted without recording its size (a
   * call past the calibration's, its usage not used): the mean recorded reasoning tokens of the
   * calibration calls that carry reasoning (0 included). 0 when they carry none.
   */
  reasoningItemTokens: number;
  /** In words, for the CLI and the page. */
  description: string;
}

export interface CompactionFigures {
  /** The event index of the compaction. */
  index: number;
  /** The prompt size the harness recorded just before compacting, when it did. */
  preTokens?: number;
  /** The as-sent request just before and just after. */
  before?: number;
  after?: number;
  /** The recorded prompt tokens of the calls just before and just after, when recorded. */
  recordedBefore?: number;
  recordedAfter?: number;
}

export interface RecordedSummary {
  /** Calls with recorded usage, and how many of them were compared (the calibration's are not). */
  calls: number;
  compared: number;
  /** Of |requestTokens - recorded| / recorded over the compared calls. */
  medianError: number;
  p90Error: number;
  /** Mean |replayed cache-read share - recorded cache-read share| over compared calls that recorded cache reads. */
  cacheReadShareError?: number;
  calibration: Calibration;
  /** Calls whose cached prefix had expired (longer than the cache's lifetime since the call before). */
  cacheExpiries: number;
}

export interface AsRecordedTimeline {
  scenario: string;
  model: { id: string; window: number; encoding: Model['encoding']; approximate: boolean };
  caching: Caching;
  /** The model the trace recorded, when it is not the scenario's built-in one. */
  traceModel?: string;
  steps: AsRecordedStep[];
  summary: {
    steps: number;
    inferences: number;
    peakRequestTokens: number;
    compactions: CompactionFigures[];
    /** The comparison with the provider's records; null when the scenario carries none. */
    recorded: RecordedSummary | null;
    /** Said when there is nothing to compare or calibrate with. */
    note?: string;
  };
  /** Why it could not run (an unknown model); no steps then. */
  error?: string;
}

/**
 * The caching the run's provider applied. The model the trace recorded decides when it names a
 * known family (a run through a model the playground has no built-in for is imported on a stand-in
 * model, whose provider caching would be invented); otherwise the scenario model's provider.
 */
export function cachingOf(model: Model, traceModel?: string): Caching {
  const id = traceModel?.toLowerCase().replace(/^.*\//, '');
  if (id !== undefined) {
    if (id.startsWith('claude')) return 'anthropic-breakpoints';
    if (/^(gpt-(4o|4\.1|5)|o\d)/.test(id)) return 'openai-prefix';
    if (id.startsWith('gemini-2.5') || id.startsWith('gemini-3')) return 'gemini-implicit';
    if (!/^(gpt|gemini)/.test(id)) return 'none';
  }
  if (model.provider === 'anthropic') return 'anthropic-breakpoints';
  if (model.provider === 'openai')
    return PROVIDER_RULES.openai.models[model.id]?.cacheReadMultiplier === undefined ? 'none' : 'openai-prefix';
  if (model.provider === 'google') return 'gemini-implicit';
  return 'none';
}

/** One message of the flat list: its counted tokens, and whether it is reasoning (dropped when the turn ends). */
interface Item {
  tokens: number;
  reasoning: boolean;
}

/**
 * The flat list as the harness holds it. Requests are measured before each assistant event; its
 * reply (and reasoning) joins after. A user message ends the OpenAI turn: the reasoning of the turn
 * before leaves the prompt, and the cached prefix ends where the first of it was.
 */
class FlatList {
  items: Item[] = [];
  total = 0;
  reasoning = 0;
  /** Where the prefix shared with the previous request ends at the latest (counted tokens, messages). */
  private stableUntil = Number.POSITIVE_INFINITY;
  private stableMessages = Number.POSITIVE_INFINITY;

  push(tokens: number, reasoning = false): void {
    this.items.push({ tokens, reasoning });
    this.total += tokens;
    if (reasoning) this.reasoning += tokens;
  }

  /** Whether the provider keeps earlier turns' reasoning in the prompt (Claude Opus 4.5 and later, Sonnet 4.6 and later). */
  constructor(private readonly keepsReasoning = false) {}

  /** A new user turn: reasoning from the turn before is no longer sent (unless the model keeps it). */
  endTurn(): void {
    if (this.reasoning === 0 || this.keepsReasoning) return;
    let before = 0;
    let first = -1;
    for (let i = 0; i < this.items.length; i++) {
      if (this.items[i]!.reasoning) {
        first = i;
        break;
      }
      before += this.items[i]!.tokens;
    }
    if (first >= 0) {
      this.stableUntil = Math.min(this.stableUntil, before);
      this.stableMessages = Math.min(this.stableMessages, first);
    }
    this.items = this.items.filter((m) => !m.reasoning);
    this.total -= this.reasoning;
    this.reasoning = 0;
  }

  /** The harness replaced its context: only the summary is left, and no prefix survives but the overhead. */
  compact(summaryTokens: number): void {
    this.items = [];
    this.total = 0;
    this.reasoning = 0;
    this.stableUntil = 0;
    this.stableMessages = 0;
    if (summaryTokens > 0) this.push(summaryTokens);
  }

  /** What this request shares with the previous one (counted tokens and messages), and a fresh start for the next. */
  takeShared(previous: { tokens: number; messages: number } | undefined): { tokens: number; messages: number } {
    const shared =
      previous === undefined
        ? { tokens: 0, messages: 0 }
        : {
            tokens: Math.min(previous.tokens, this.stableUntil, this.total),
            messages: Math.min(previous.messages, this.stableMessages, this.items.length),
          };
    this.stableUntil = Number.POSITIVE_INFINITY;
    this.stableMessages = Number.POSITIVE_INFINITY;
    return shared;
  }
}

/** Counted tokens of one event as it joins the list (its text, and its calls as their JSON). */
function eventTokens(event: TrafficEvent, count: (text: string) => number): number {
  switch (event.type) {
    case 'user':
      return event.size_tokens ?? count(event.content);
    case 'assistant': {
      const text = event.size_tokens ?? count(event.content);
      const calls = (event.tool_calls ?? []).reduce(
        (sum, c) => sum + count(JSON.stringify({ name: c.name, arguments: c.arguments })),
        0,
      );
      return text + calls;
    }
    case 'tool_result':
      return event.size_tokens ?? count(event.content ?? '');
    default:
      return 0;
  }
}

/** Counted tokens of the reply's reasoning; one held encrypted without a recorded size is at least `unrecorded`. */
function reasoningTokens(
  event: Extract<TrafficEvent, { type: 'assistant' }>,
  count: (text: string) => number,
  unrecorded: number,
): number {
  const r = event.reasoning;
  if (!r) return 0;
  const given = r.size_tokens ?? count(r.content ?? '');
  return r.encrypted ? Math.max(given, unrecorded) : given;
}

/**
 * What a reasoning item of unrecorded size is taken to be: the mean recorded reasoning tokens of the
 * calibration calls (the run's first 10%) whose reply carries reasoning (a record of 0 included).
 * Encrypted reasoning goes back to the model as the tokens it was generated as; only the calls'
 * records say how many.
 */
function unrecordedReasoningTokens(events: readonly TrafficEvent[]): number {
  const replies = events.filter((e): e is Extract<TrafficEvent, { type: 'assistant' }> => e.type === 'assistant');
  const sizes = replies
    .slice(0, Math.floor(replies.length * CALIBRATION_SHARE))
    .flatMap((e) => (e.reasoning && e.recorded?.reasoningTokens !== undefined ? [e.recorded.reasoningTokens] : []));
  return sizes.length === 0 ? 0 : Math.round(mean(sizes));
}

interface Measured {
  index: number;
  /** When the call was made (ms since the epoch), when the trace recorded it. */
  at?: number;
  /** The cache lifetime in force when the call was made: the latest earlier record's that says it, else the provider's default. */
  ttlSeconds: number;
  counted: number;
  shared: number;
  reasoning: number;
  /** Messages in the list, and in the prefix shared with the previous request. */
  messages: number;
  sharedMessages: number;
  recorded?: RecordedUsage;
}

/**
 * Learns, from the recorded usage of at most the first 10% of calls, the provider's count of a
 * request as `overhead + factor x counted + perMessage x messages`: the harness's own text every
 * request carries, the ratio of the provider's tokenizer to this one, and each message's framing.
 * One call gives the overhead alone; two or more the framing too; the factor only from calls that
 * differ enough in size for it to be told from noise (2,000 counted tokens; within 0.8-1.5): from
 * four or more with the framing when both fit, else alone (two or three calls, the factor alone).
 */
export function calibrate(
  measured: readonly Measured[],
  approximate: boolean,
  prior?: PriorFactor,
  reasoningItemTokens = 0,
): Calibration {
  const limit = Math.floor(measured.length * CALIBRATION_SHARE);
  const used = measured
    .slice(0, limit)
    .map((m, inference) => ({ ...m, inference }))
    .filter((m) => m.recorded !== undefined);
  if (used.length === 0) {
    const why = measured.some((m) => m.recorded)
      ? `no recorded usage among the first ${fmt(limit)} calls (10% of ${fmt(measured.length)})`
      : 'no recorded usage';
    return {
      calls: [],
      factor: 1,
      factorSource: approximate ? 'none' : 'tokenizer',
      perMessageTokens: 0,
      overheadTokens: 0,
      warmPrefixTokens: 0,
      reasoningItemTokens: 0,
      description: `not calibrated: ${why}; counts are this tokenizer's${approximate ? ' (approximate for this model)' : ''}, without the harness's system prompt and tool definitions`,
    };
  }
  const ys = used.map((m) => m.recorded!.promptTokens);
  const xs = used.map((m) => m.counted);
  const ms = used.map((m) => m.messages);
  const spread = (v: number[]) => Math.max(...v) - Math.min(...v);
  // Until the calls teach one, the factor is the family's prior for an approximate tokenizer (1 without one).
  const base = approximate && prior ? prior.factor : 1;
  let source: Calibration['factorSource'] = !approximate ? 'tokenizer' : prior ? 'prior' : 'none';
  let fit = { overhead: mean(ys) - base * mean(xs), factor: base, perMessage: 0 };
  if (used.length >= 2 && spread(ms) > 0) {
    // Framing first, at that factor: the calls' remainder against their message count.
    const line = leastSquares(
      ms.map((m) => [1, m]),
      ys.map((y, i) => y - base * xs[i]!),
    );
    if (line && line[1]! >= 0 && line[1]! <= MAX_PER_MESSAGE)
      fit = { overhead: line[0]!, factor: base, perMessage: line[1]! };
  }
  // This tokenizer is the provider's own for the model (o200k_base for GPT-4o and GPT-5): its
  // counts need no factor, and a factor fitted from a few calls would only trade off against the framing.
  if (approximate && used.length >= 2 && spread(xs) >= MIN_SPREAD_FOR_FACTOR) {
    // Sizes far enough apart: from four calls the factor and the framing together, else the factor alone (a
    // tokenizer's ratio moves a long run's requests more than any framing does).
    const plane = leastSquares(
      used.map((_, i) => [1, xs[i]!, ms[i]!]),
      ys,
    );
    const line = leastSquares(
      xs.map((x) => [1, x]),
      ys,
    );
    const factorOk = (f: number | undefined) => f !== undefined && f >= MIN_FACTOR && f <= MAX_FACTOR;
    if (used.length >= 4 && plane && factorOk(plane[1]) && plane[2]! >= 0 && plane[2]! <= MAX_PER_MESSAGE) {
      fit = { overhead: plane[0]!, factor: plane[1]!, perMessage: plane[2]! };
      source = 'learned';
    } else if (line && factorOk(line[1])) {
      fit = { overhead: line[0]!, factor: line[1]!, perMessage: 0 };
      source = 'learned';
    }
  }
  const overheadTokens = Math.max(0, Math.round(fit.overhead));
  const calls = used.map((m) => m.inference);
  const first = used[0]!.inference === 0 ? used[0]!.recorded!.cacheReadTokens : undefined;
  const warmPrefixTokens = Math.min(first ?? 0, overheadTokens);
  const range = calls.length === 1 ? `call ${calls[0]}` : `calls ${calls[0]}-${calls.at(-1)}`;
  const factorWords =
    source === 'prior'
      ? ` (the ${prior!.family} prior: the first calls cannot fit one)`
      : source === 'learned'
        ? ' (learned)'
        : source === 'tokenizer'
          ? " (this tokenizer is the provider's)"
          : ' (none learned, no prior for this model)';
  return {
    calls,
    factor: fit.factor,
    factorSource: source,
    perMessageTokens: fit.perMessage,
    overheadTokens,
    warmPrefixTokens,
    reasoningItemTokens,
    description:
      `calibrated on the recorded usage of ${range} (${fmt(calls.length)} of the first 10% of ${fmt(measured.length)} calls): ` +
      `harness overhead ${fmt(overheadTokens)} tokens, ${fit.factor.toFixed(3)} provider tokens per counted token${factorWords}, ${fit.perMessage.toFixed(1)} per message` +
      (warmPrefixTokens > 0 ? `, ${fmt(warmPrefixTokens)} of it found cached at the first call` : '') +
      (reasoningItemTokens > 0
        ? `; reasoning of unrecorded size (encrypted) taken as ${fmt(reasoningItemTokens)} tokens a reply, the calibration calls' mean`
        : ''),
  };
}

const mean = (v: readonly number[]) => v.reduce((a, b) => a + b, 0) / v.length;

/** Least-squares coefficients for rows of `x` against `y` (normal equations); undefined when they do not determine it. */
function leastSquares(x: number[][], y: number[]): number[] | undefined {
  const k = x[0]!.length;
  const a = Array.from({ length: k }, (_, i) =>
    Array.from({ length: k + 1 }, (_, j) => x.reduce((s, row, r) => s + row[i]! * (j < k ? row[j]! : y[r]!), 0)),
  );
  for (let c = 0; c < k; c++) {
    let pivot = c;
    for (let r = c + 1; r < k; r++) if (Math.abs(a[r]![c]!) > Math.abs(a[pivot]![c]!)) pivot = r;
    if (Math.abs(a[pivot]![c]!) < 1e-9) return undefined;
    [a[c], a[pivot]] = [a[pivot]!, a[c]!];
    for (let r = 0; r < k; r++) {
      if (r === c) continue;
      const f = a[r]![c]! / a[c]![c]!;
      for (let j = c; j <= k; j++) a[r]![j]! -= f * a[c]![j]!;
    }
  }
  return a.map((row, i) => row[k]! / row[i]!);
}

/**
 * Whether a Claude model keeps earlier turns' thinking blocks in its prompt. Anthropic's extended
 * thinking documentation: Claude Opus 4.5 and later Opus models, and Claude Sonnet 4.6 and later
 * Sonnet models, keep all prior thinking blocks; earlier models (and Haiku through 4.5) drop the
 * thinking of turns before the last, so a new user message ends it.
 */
export function keepsEarlierThinking(modelId: string): boolean {
  const id = modelId.toLowerCase().replace(/^.*\//, '');
  const m = /^claude-(opus|sonnet)-(\d+)(?:-(\d{1,2}))?(?:-|$)/.exec(id);
  if (!m) return false;
  const version = Number(m[2]) + Number(m[3] ?? 0) / 10;
  return m[1] === 'opus' ? version >= 4.5 : version >= 4.6;
}

/** A model family's factor between the provider's tokenizer and this one, used when a run's first calls cannot fit one. */
export interface PriorFactor {
  family: string;
  factor: number;
  /** What it was measured on. */
  source: string;
}

/**
 * Each model family's prior factor, measured on the project's own committed real fixtures with
 * recorded usage (never on the runs the goals are measured on): the common slope of recorded
 * prompt tokens against counted tokens over every fixture whose calls span 2,000 counted tokens or
 * more (the calibration's own minimum for a factor), each fixture with its own overhead. The test
 * (test/import/prior-factor.test.ts) measures it again from those files. Claude: the Claude Code
 * 2.0.72 excerpt (10 calls, 1.169 alone) and the Claude Code 2.1 session of moredip/session-share
 * (11 calls, 1.249 alone). Gemini has no fixture with recorded usage: no prior.
 */
export const PRIOR_FACTORS: Readonly<Record<string, PriorFactor>> = {
  claude: {
    family: 'Claude',
    factor: 1.175,
    source:
      'test/import/fixtures/real/claude-code-2.0.72-cache-expiry.jsonl, test/import/fixtures/real/claude-code-2.1-session-share.jsonl',
  },
};

/** The prior for the run's model family: the model the trace recorded, else the scenario's. */
function priorFactorOf(model: Model, traceModel?: string): PriorFactor | undefined {
  const id = (traceModel ?? model.id).toLowerCase().replace(/^.*\//, '');
  return id.startsWith('claude') ? PRIOR_FACTORS.claude : undefined;
}

const MAX_PER_MESSAGE = 60;
const MIN_SPREAD_FOR_FACTOR = 2_000;
const MIN_FACTOR = 0.8;
const MAX_FACTOR = 1.5;

/**
 * The cache lifetime each provider gives a prefix when the record does not say: Anthropic's default
 * 5 minutes (Claude Code's records say 5m or 1h per call); OpenAI's "up to one hour" of inactivity
 * off-peak (the records show hits after gaps of up to 42 minutes); Gemini's implicit caching
 * publishes none, so it never expires here. A read refreshes the lifetime, so it runs from the call before.
 */
const DEFAULT_TTL_SECONDS: Record<Caching, number> = {
  'anthropic-breakpoints': 300,
  'openai-prefix': 3_600,
  'gemini-implicit': Number.POSITIVE_INFINITY,
  none: Number.POSITIVE_INFINITY,
};

/**
 * `shared`: provider tokens this request shares with what the cache holds (the previous request's
 * prefix, or after an expiry only the prefix the harness keeps warm). `fresh`: nothing of this run
 * is cached yet (the first call, or the cache expired), said in the rule.
 */
function cacheOf(caching: Caching, model: Model, total: number, shared: number, fresh?: string): AsRecordedCache {
  const none = (rule: string): AsRecordedCache => ({
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    uncachedTokens: total,
    rule,
  });
  if (caching === 'none') return none('no prompt caching on this model');
  if (caching === 'anthropic-breakpoints') {
    const min = PROVIDER_RULES.anthropic.models[model.id]?.minCacheableTokens ?? 1024;
    if (total < min) return none(`request below the ${fmt(min)}-token minimum cacheable prefix: nothing cached`);
    // The harness marks the end of each request; the next finds that prefix unless the context was rebuilt.
    const read = shared >= min ? shared : 0;
    return {
      cacheReadTokens: read,
      cacheWriteTokens: total - read,
      uncachedTokens: 0,
      rule: fresh
        ? `${fresh}: ${read > 0 ? `${fmt(read)} read (the prefix kept warm), ` : ''}${fmt(total - read)} written`
        : read > 0
          ? `breakpoint at the end of the previous request: ${fmt(read)} read, ${fmt(total - read)} written`
          : `no cached prefix: ${fmt(total)} written`,
    };
  }
  const price =
    caching === 'openai-prefix' ? PROVIDER_RULES.openai.models[model.id] : PROVIDER_RULES.google.models[model.id];
  const min = price?.minCacheableTokens ?? 1024;
  if (shared < min)
    return none(
      `${fresh ? `${fresh}; ` : ''}${fmt(shared)} shared tokens, under the ${fmt(min)}-token minimum: no cache hit`,
    );
  if (caching === 'gemini-implicit')
    return {
      cacheReadTokens: shared,
      cacheWriteTokens: 0,
      uncachedTokens: total - shared,
      rule: `${fresh ? `${fresh}; ` : ''}implicit caching: ${fmt(shared)} shared tokens hit`,
    };
  const step = PROVIDER_RULES.openai.hitIncrementTokens ?? 128;
  const read = min + Math.floor((shared - min) / step) * step;
  return {
    cacheReadTokens: read,
    cacheWriteTokens: 0,
    uncachedTokens: total - read,
    rule: `${fresh ? `${fresh}; ` : ''}automatic prefix caching: ${fmt(read)} of ${fmt(shared)} shared tokens hit (${fmt(min)} + ${step}-token steps)`,
  };
}

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}

function recordedFigures(r: RecordedUsage): RecordedFigures {
  const out: RecordedFigures = { promptTokens: r.promptTokens };
  if (r.cacheReadTokens !== undefined) out.cacheReadTokens = r.cacheReadTokens;
  if (r.cacheWriteTokens !== undefined) out.cacheWriteTokens = r.cacheWriteTokens;
  if (r.outputTokens !== undefined) out.outputTokens = r.outputTokens;
  return out;
}

export interface AsRecordedOptions {
  signal?: { cancelled?: boolean; aborted?: boolean };
}

/** The run as its harness sent it. Deterministic; needs the scenario model's encoding loaded. */
export function replayAsRecorded(scenario: Scenario, options: AsRecordedOptions = {}): AsRecordedTimeline {
  const resolved = resolveModel(scenario.model);
  const empty = (error?: string): AsRecordedTimeline => ({
    scenario: scenario.name,
    model: { id: 'unknown', window: 0, encoding: 'o200k_base', approximate: true },
    caching: 'none',
    steps: [],
    summary: { steps: 0, inferences: 0, peakRequestTokens: 0, compactions: [], recorded: null },
    ...(error ? { error } : {}),
  });
  if (!resolved.ok) return empty(resolved.error);
  const model = resolved.model;
  const count = (text: string) => countTokens(text, model.encoding);
  const events = scenario.traffic;
  const traceModel = events.find(
    (e): e is Extract<TrafficEvent, { type: 'assistant' }> => e.type === 'assistant' && e.recorded?.model !== undefined,
  )?.recorded?.model;
  const caching = cachingOf(model, traceModel);
  const unrecorded = unrecordedReasoningTokens(events);

  // First pass: the flat list's counted size and shared prefix at each inference.
  const list = new FlatList(keepsEarlierThinking(traceModel ?? model.id));
  const task = scenario.inputs.task;
  if (typeof task === 'string' && task.length > 0) list.push(count(task));
  const measured: Measured[] = [];
  const inferenceAt: number[] = [];
  let previous: { tokens: number; messages: number } | undefined;
  let ttlSeconds = DEFAULT_TTL_SECONDS[caching];
  for (let i = 0; i < events.length; i++) {
    if (options.signal?.cancelled || options.signal?.aborted) break;
    const event = events[i]!;
    switch (event.type) {
      case 'user':
        list.endTurn();
        list.push(eventTokens(event, count));
        break;
      case 'assistant': {
        const { tokens: shared, messages: sharedMessages } = list.takeShared(previous);
        const at = event.at === undefined ? undefined : Date.parse(event.at);
        measured.push({
          index: i,
          ...(at === undefined ? {} : { at }),
          ttlSeconds,
          counted: list.total,
          shared,
          reasoning: list.reasoning,
          messages: list.items.length,
          sharedMessages,
          ...(event.recorded ? { recorded: event.recorded } : {}),
        });
        inferenceAt.push(i);
        previous = { tokens: list.total, messages: list.items.length };
        // The lifetime this call's writes were given holds from the next call on.
        if (event.recorded?.cacheTtlSeconds !== undefined) ttlSeconds = event.recorded.cacheTtlSeconds;
        // The reasoning comes first in the reply (a thinking block, a reasoning item) and stays for the rest of the turn.
        const reasoning = reasoningTokens(event, count, unrecorded);
        if (reasoning > 0) list.push(reasoning, true);
        // OpenAI's prefix cache holds what the model generated too: the reasoning item, which the
        // harness sends back first after this request's input, is found cached by the next call.
        if (reasoning > 0 && caching === 'openai-prefix')
          previous = { tokens: list.total, messages: list.items.length };
        list.push(eventTokens(event, count));
        break;
      }
      case 'tool_result':
        list.push(eventTokens(event, count));
        break;
      case 'compaction':
        list.compact(event.size_tokens ?? count(event.summary));
        break;
      default:
      // The runtime's own tools (context_append, todo_*) and stage transitions are a blueprint's, not a harness's.
    }
  }

  const calibration = calibrate(measured, model.approximate, priorFactorOf(model, traceModel), unrecorded);
  const { factor, overheadTokens: overhead, perMessageTokens: perMessage } = calibration;
  const calibrated = new Set(calibration.calls);
  const warm = calibration.warmPrefixTokens;
  let cacheExpiries = 0;
  const steps: AsRecordedStep[] = [];
  const errors: number[] = [];
  const shareErrors: number[] = [];
  let peak = 0;
  let k = 0;
  for (let i = 0; i < events.length; i++) {
    const event = events[i]!;
    if (inferenceAt[k] !== i) {
      steps.push({ index: i, event });
      continue;
    }
    const m = measured[k]!;
    const requestTokens = overhead + Math.round(factor * m.counted + perMessage * m.messages);
    const reasoning = Math.round(factor * m.reasoning);
    const before = k === 0 ? undefined : measured[k - 1]!;
    const gapSeconds = before?.at !== undefined && m.at !== undefined ? (m.at - before.at) / 1000 : undefined;
    const expired = gapSeconds !== undefined && gapSeconds > m.ttlSeconds;
    if (expired) cacheExpiries++;
    const fresh =
      k === 0
        ? 'first call'
        : expired
          ? `cache expired (${fmt(Math.round(gapSeconds))} s since the previous call, over the ${fmt(m.ttlSeconds)} s lifetime)`
          : undefined;
    const sharedTokens =
      fresh !== undefined ? warm : overhead + Math.round(factor * m.shared + perMessage * m.sharedMessages);
    const cache = cacheOf(caching, model, requestTokens, Math.min(sharedTokens, requestTokens), fresh);
    const request: AsRecordedRequest = {
      inference: k,
      requestTokens,
      harnessTokens: overhead,
      messageTokens: requestTokens - overhead - reasoning,
      reasoningTokens: reasoning,
      countedTokens: m.counted,
      cache,
    };
    if (m.recorded) {
      request.recorded = recordedFigures(m.recorded);
      if (calibrated.has(k)) request.calibration = true;
      else if (m.recorded.promptTokens > 0) {
        request.error = (requestTokens - m.recorded.promptTokens) / m.recorded.promptTokens;
        errors.push(Math.abs(request.error));
        if (m.recorded.cacheReadTokens !== undefined && requestTokens > 0) {
          shareErrors.push(
            Math.abs(cache.cacheReadTokens / requestTokens - m.recorded.cacheReadTokens / m.recorded.promptTokens),
          );
        }
      }
    }
    peak = Math.max(peak, requestTokens);
    steps.push({ index: i, event, request });
    k++;
  }

  const compactions = compactionFigures(steps);
  const recordedCalls = measured.filter((m) => m.recorded).length;
  const sorted = errors.slice().sort((a, b) => a - b);
  const recorded: RecordedSummary | null =
    recordedCalls === 0
      ? null
      : {
          calls: recordedCalls,
          compared: errors.length,
          medianError: quantile(sorted, 0.5),
          p90Error: quantile(sorted, 0.9),
          ...(shareErrors.length
            ? { cacheReadShareError: shareErrors.reduce((a, b) => a + b, 0) / shareErrors.length }
            : {}),
          calibration,
          cacheExpiries,
        };
  return {
    scenario: scenario.name,
    model: { id: model.id, window: model.window, encoding: model.encoding, approximate: model.approximate },
    caching,
    ...(traceModel && traceModel !== model.id ? { traceModel } : {}),
    steps,
    summary: {
      steps: steps.length,
      inferences: measured.length,
      peakRequestTokens: peak,
      compactions,
      recorded,
      ...(recorded === null
        ? {
            note: `this scenario carries no recorded usage, so nothing is compared or calibrated: the requests are this tokenizer's counts${model.approximate ? ' (approximate for this model)' : ''} of the flat list, without the harness's system prompt and tool definitions`,
          }
        : {}),
    },
  };
}

/** Each compaction with the requests and records on either side of it: the drop it was. */
function compactionFigures(steps: readonly AsRecordedStep[]): CompactionFigures[] {
  const out: CompactionFigures[] = [];
  for (let i = 0; i < steps.length; i++) {
    const event = steps[i]!.event;
    if (event.type !== 'compaction') continue;
    let before: AsRecordedRequest | undefined;
    for (let j = i - 1; j >= 0 && !before; j--) before = steps[j]!.request;
    let after: AsRecordedRequest | undefined;
    for (let j = i + 1; j < steps.length && !after; j++) after = steps[j]!.request;
    out.push({
      index: steps[i]!.index,
      ...(event.pre_tokens === undefined ? {} : { preTokens: event.pre_tokens }),
      ...(before ? { before: before.requestTokens } : {}),
      ...(after ? { after: after.requestTokens } : {}),
      ...(before?.recorded ? { recordedBefore: before.recorded.promptTokens } : {}),
      ...(after?.recorded ? { recordedAfter: after.recorded.promptTokens } : {}),
    });
  }
  return out;
}

/** Whether the scenario carries the provider's records of its calls (an imported run): then it has a run as it was sent. */
export const recordsItsRun = (scenario: Scenario): boolean =>
  scenario.traffic.some((e) => e.type === 'assistant' && e.recorded !== undefined);

/** The as-sent run in the three measures a blueprint's replay is judged by (the advisor's reference). */
export interface AsSentFigures {
  inferences: number;
  peakRequestTokens: number;
  /** Every request under the price table, as the harness's provider cached it; null when the model has no price. */
  inputCostUsd: number | null;
  /**
   * Files the run names again after a compaction let their results go: distinct (path, first naming
   * after the compaction) pairs, as read-again.ts counts a blueprint's losses. 0 without a compaction:
   * the flat list drops nothing else.
   */
  readAgain: number;
  /** False when a request follows a compaction: the summary stands in for the task, whose own text is gone. */
  taskKept: boolean;
  /** The harness overhead (system prompt, tool definitions) every as-sent request carries, as calibrated. */
  harnessTokens: number;
}

/** The as-sent run's input cost under the price table (cache.ts); null when the model has no price. */
export function asSentCostUsd(t: AsRecordedTimeline, model: Model): number | null {
  let cost: number | null = 0;
  for (const { request } of t.steps) {
    if (!request) continue;
    const { cacheReadTokens: read, cacheWriteTokens: write, uncachedTokens: uncached } = request.cache;
    const priced = priceSplit(model, { read, write, uncached });
    cost = cost === null || priced === null ? null : cost + priced.usd;
  }
  return cost;
}

export function asSentFigures(t: AsRecordedTimeline, model: Model, names: RunNames, hasTask: boolean): AsSentFigures {
  let harnessTokens = 0;
  let compacted = false;
  let taskKept = true;
  // Files whose results are in the flat list now, by path.
  let held = new Set<string>();
  const namings = new Set<string>();
  for (const step of t.steps) {
    const { event, request } = step;
    if (request) {
      harnessTokens = request.harnessTokens;
      if (compacted && hasTask) taskKept = false;
    }
    if (event.type === 'tool_result') {
      for (const path of names.pathsOfCall(event.tool_call_id, step.index)) held.add(path);
    } else if (event.type === 'compaction') {
      compacted = true;
      for (const path of held) {
        const at = names.nextNaming(path, step.index, false);
        if (at !== undefined) namings.add(`${at}\u0000${path}`);
      }
      held = new Set();
    }
  }
  return {
    inferences: t.summary.inferences,
    peakRequestTokens: t.summary.peakRequestTokens,
    inputCostUsd: asSentCostUsd(t, model),
    readAgain: namings.size,
    taskKept,
    harnessTokens,
  };
}
