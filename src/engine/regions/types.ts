// The Region interface every kind implements, built-in or custom. The run (../run/) only talks to
// regions through this, so a new kind plugs into the registry without touching the run.
import type { RegionDecl, RegionKind } from '../blueprint/types.ts';
import type { ResolvedBudget } from '../budget.ts';
import type { SummaryOptions } from '../summarize.ts';
import type { Encoding } from '../tokens.ts';
import type { HooksLoader } from '../rhai-host.ts';
import type { CacheHint, Change, EntryKind, Section, ToolCall } from '../timeline.ts';

export interface TodoState {
  id: number;
  item: string;
  state: 'open' | 'done';
  notes: string[];
}

export type TodoOutcome =
  { ok: true; message: string; changes: Change[]; id: number } | { ok: false; message: string; changes: Change[] };

/** What the todo tools and the stage gates ask of a checklist region. */
export interface Checklist {
  readonly openItems: readonly TodoState[];
  /** Open items as a gate's nudge names them. */
  describeOpen(): string;
  /** The highest id ever given out here (0 before the first item). */
  readonly lastId: number;
  /**
   * Ids given from now on continue after `lastId`: a region that was a checklist under this name
   * before a stage layout made it another kind gave those out, and an id is never reused.
   */
  continueIds(lastId: number): void;
  add(item: string, ctx: RegionContext): TodoOutcome;
  done(id: number, ctx: RegionContext): TodoOutcome;
  note(id: number, note: string, ctx: RegionContext): TodoOutcome;
}

/** One stored piece of a region. Immutable: a change makes a new Entry (same `seq` when in place). */
export interface Entry {
  /** Global write order. Message-section regions are merged by it into one message stream. */
  readonly seq: number;
  readonly content: string;
  /**
   * `content`'s first line, when the run generated the content (size_tokens filler) and so knows it
   * without reading the text. Generated text is a view over the shared filler pool; reading any of
   * it (for a label or a summary) makes V8 copy the whole text, a copy that lives as long as the entry.
   */
  readonly head?: string;
  /** Tokens of `content` (plus serialized tool calls), counted once when the entry was made. */
  readonly tokens: number;
  readonly kind: EntryKind;
  readonly key?: string;
  readonly toolCalls?: readonly ToolCall[];
  /** Tokens of each tool call's serialized form, so stripping one needs no recount. */
  readonly toolCallTokens?: readonly number[];
  readonly toolCallId?: string;
  readonly toolName?: string;
  readonly isError?: boolean;
  readonly todo?: TodoState;
  readonly folded?: { entries: number; tokens: number };
}

/** What the region needs from the run while it acts. */
export interface RegionContext {
  encoding: Encoding;
  /** Next global sequence number (for entries a region makes itself, like summaries). */
  nextSeq(): number;
  /** Deterministic summary of `entries` as one entry, placed at `seq` (`everyItem`: no `... and K more`). */
  summarize(entries: readonly Entry[], label: string, seq: number, options?: SummaryOptions): Entry;
  /** Tokens of a short runtime string (headers, stubs): cached, so counted once. */
  count(text: string): number;
  /** The stage running now and how many times it has been (re)entered. */
  stage: string;
  stageIterations: number;
  model: string;
  window: number;
  /** Tokens the stage's visible regions hold, set before each assembly (custom `ctx.window.total_tokens`). */
  windowTokens?: number;
  /** A runtime problem that must not break the inference (a failing hook, ...). */
  warn(message: string): void;
}

/**
 * Why an entry a region accepted is not in it once the write is done: the kind's own rule dropped
 * it (larger than the whole region), summarized it, or evicted it at once. `why` is the region's
 * words for the rule (`larger than the region's whole budget of 300`, `over compact_at 4,000`).
 */
export interface Gone {
  verb: 'dropped' | 'summarized' | 'evicted';
  why: string;
}

export type WriteOutcome =
  /**
   * `stored`: the tokens the region kept when a hook changed the entry (0 when on_write dropped it;
   * `hookDropped` then says so, where 0 with the entry kept is on_write's empty string).
   * `gone`: set when the region's own rule took the entry out again in the same write.
   */
  | { ok: true; changes: Change[]; stored?: number; hookDropped?: true; gone?: Gone }
  | { ok: false; message: string; changes: Change[] };

export type DeleteSelector = { key: string } | { index: number } | { oldest: number };

export type DeleteOutcome = { ok: true; change: Change } | { ok: false; message: string };

/** A message a region contributes to the request's message stream. */
export interface RenderedMessage {
  seq: number;
  role: 'user' | 'assistant' | 'tool';
  content: string;
  tool_calls?: readonly ToolCall[];
  toolCallTokens?: readonly number[];
  tool_call_id?: string;
  /** A tool result that reported a failure (Anthropic sends it as `is_error`). */
  is_error?: true;
  tokens: number;
}

/** What a region puts in the request. Objects are reused while the region is unchanged. */
export interface RegionRender {
  system?: { text: string; tokens: number };
  messages: readonly RenderedMessage[];
}

export interface Region {
  readonly name: string;
  readonly kind: RegionKind;
  readonly decl: RegionDecl;
  readonly budget: ResolvedBudget;
  readonly section: Section;
  readonly cache: CacheHint;
  /** Entries in `context_list` order. */
  readonly entries: readonly Entry[];
  readonly tokens: number;
  /** Bumped on every mutation; renders are cached against it. */
  readonly version: number;
  /**
   * Window-level cascade tier (lower sheds first); undefined = exempt (pinned, checklist, reject).
   */
  readonly cascadeTier: number | undefined;
  /** Admits an entry, applying the kind's own rule when it no longer fits. */
  write(entry: Entry, ctx: RegionContext): WriteOutcome;
  /** Replaces the entry with `key` in place, or appends it (stage prompts). */
  put(entry: Entry, ctx: RegionContext): WriteOutcome;
  remove(selector: DeleteSelector): DeleteOutcome;
  /** Frees at least `needed` tokens if the kind allows; returns what it shed (type `cascade`). */
  shed(needed: number, ctx: RegionContext): Change[];
  /** Folds everything into one summary (edge transform = "compact"). */
  compactAll(ctx: RegionContext, reason: string): Change[];
  /** A new decl (a stage's own layout) on the same content; returns what re-fitting it changed. */
  redeclare(decl: RegionDecl, budget: ResolvedBudget, ctx: RegionContext): Change[];
  render(ctx: RegionContext): RegionRender;
  /** An independent copy with the same entries (entries are immutable, so they are shared); undefined when the kind keeps state it cannot copy. */
  fork(): Region | undefined;

  // What the kind can do. The run asks these; it never checks a kind's name or class, so a new
  // kind needs no change to the run.
  /** Every entry carries a key and a keyed write upserts (hashmap): unkeyed writes are given or refused a key, and an edge compact leaves it whole. */
  readonly keyed: boolean;
  /** False when entries are never removed, by a delete or by the kind's rule (pinned): over budget is then a warning, and its blocks lead the system prompt. */
  readonly removable: boolean;
  /** The todo tools' and the gates' view of a checklist region; undefined for every other kind. */
  readonly checklist: Checklist | undefined;
  /** The region whose summary this one takes as each stage ends (compact_history's `source_region`). */
  readonly historySource: string | undefined;
  /**
   * True when every rendered message with a tool call or result is one of its entries' own, so it
   * is gone for good once that entry left; false for a script's messages, which are its own.
   */
  readonly messagesAreEntries: boolean;
}

/** What a kind's factory may need beyond its declaration (custom regions read their script). */
export interface RegionEnv {
  /** The blueprint's directory: `agent.leviath` and scripts, keyed by relative path. */
  agent: Readonly<Record<string, string>>;
  encoding: Encoding;
  /** Makes a custom region's hooks: the run's Rhai interpreter (ReplayOptions.loadCustomHooks). */
  loadCustomHooks?: HooksLoader;
}

export type RegionFactory = (decl: RegionDecl, budget: ResolvedBudget, env: RegionEnv) => Region;
