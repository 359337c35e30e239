// What every kind shares: entry storage with running token totals, deletes, reject admission,
// rendering cached per version. Kinds override `enforce` (their own rule when over budget),
// `shed` (window-level cascade) and `tier`; what a kind can do (`keyed`, `removable`, `section`)
// comes from its definition (kind.ts), the one declarations are asked through too (capabilities.ts).
import type { RegionDecl, RegionKind } from '../blueprint/types.ts';
import type { ResolvedBudget } from '../budget.ts';
import { fmt } from '../format.ts';
import type { SummaryOptions } from '../summarize.ts';
import type { KindDefinition } from './kind.ts';
import type { CacheHint, Change, ChangeType, Section, ToolCall } from '../timeline.ts';
import type {
  Checklist,
  DeleteOutcome,
  DeleteSelector,
  Entry,
  Gone,
  Region,
  RegionContext,
  RegionRender,
  RenderedMessage,
  WriteOutcome,
} from './types.ts';
import { itemAt } from '../item-at.ts';

/** How an entry is named in a change: its key, else its first line (shortened). */
export function entryLabel(entry: Entry): string {
  if (entry.todo) return `#${entry.todo.id} ${entry.todo.item}`;
  if (entry.key !== undefined) return entry.key;
  const line = (entry.head ?? firstLine(entry.content)).trim();
  if (line.length === 0 && entry.toolCalls?.length)
    return `assistant: ${entry.toolCalls.map((c) => `${c.name}#${c.id}`).join(', ')}`;
  return line.length > 80 ? `${line.slice(0, 77)}...` : line;
}

function firstLine(text: string): string {
  const newline = text.indexOf('\n');
  return newline >= 0 ? text.slice(0, newline) : text.slice(0, 200);
}

export function change(type: ChangeType, region: string, entries: readonly Entry[], reason?: string): Change {
  const tokens = entries.reduce((sum, e) => sum + e.tokens, 0);
  const labels = entries.map(entryLabel);
  let toolResults: string[] | undefined;
  for (const e of entries)
    if (e.kind === 'tool_result' && e.toolCallId !== undefined) (toolResults ??= []).push(e.toolCallId);
  // Built whole (not `c.reason = ...` later), so the object keeps its fields inline.
  if (toolResults)
    return reason === undefined
      ? { type, region, tokens, entries: labels, toolResults }
      : { type, region, tokens, entries: labels, reason: sharedReason(reason), toolResults };
  return reason === undefined
    ? { type, region, tokens, entries: labels }
    : { type, region, tokens, entries: labels, reason: sharedReason(reason) };
}

// The same few reasons recur on thousands of changes ("max_items 20 exceeded"); a timeline keeps
// one copy of each instead of one per change.
const REASONS_KEPT = 1_000;
const reasons = new Map<string, string>();

function sharedReason(reason: string): string {
  const known = reasons.get(reason);
  if (known !== undefined) return known;
  if (reasons.size >= REASONS_KEPT) reasons.clear();
  reasons.set(reason, reason);
  return reason;
}

/**
 * A system render's entries in the order shown, and the tokens of the render through each of them
 * (its header included): what a provider whose cache matches a token prefix still shares with the
 * next render when only later entries changed (assemble.ts, `grownBlockTokens`).
 */
export interface RenderParts {
  entries: readonly Entry[];
  through: readonly number[];
}

const renderParts = new WeakMap<object, RenderParts>();

/** The parts of a system render made by renderSystem (or of a block made from it); undefined for a kind that renders its own way. */
export function partsOf(system: object): RenderParts | undefined {
  return renderParts.get(system);
}

/** `block` stands for the render `system` in a request: it has the render's parts. */
export function sharePartsOf(system: object, block: object): void {
  const parts = renderParts.get(system);
  if (parts) renderParts.set(block, parts);
}

/** Regions rendered into the message stream rather than the system section. */
export const MESSAGE_REGION_NAMES: ReadonlySet<string> = new Set(['conversation', 'tool_results']);

const renderedMessages = new WeakMap<Entry, RenderedMessage>();
/** The messages of stub entries: short results that stand for a result routed elsewhere. */
const stubMessages = new WeakSet<RenderedMessage>();

/**
 * Whether a message is a runtime stub answering a call whose result was routed away (so a
 * script's own answer to that call may take its place: assemble.ts).
 */
export function isStubMessage(message: RenderedMessage): boolean {
  return stubMessages.has(message);
}

/**
 * A message as a region renders it, made only here: its fields always in one order and only those
 * it has, so the code that walks a request's stream (pairing, prefix blocks) meets four object
 * shapes, not the six that literals in several places made (a field read on more than four shapes
 * is a slow lookup in V8). Fields set to undefined instead would cost every message their room.
 * A message carries calls (assistant) or a call id (tool), never both: scripts are held to that too.
 * An empty list of calls is no calls.
 */
export function renderedMessage(
  seq: number,
  role: RenderedMessage['role'],
  content: string,
  tokens: number,
  toolCalls?: readonly ToolCall[],
  toolCallTokens?: readonly number[],
  toolCallId?: string,
  isError?: true,
): RenderedMessage {
  if (toolCalls?.length) return { seq, role, content, tokens, tool_calls: toolCalls, toolCallTokens };
  if (toolCallId === undefined) return { seq, role, content, tokens };
  return isError
    ? { seq, role, content, tokens, tool_call_id: toolCallId, is_error: true }
    : { seq, role, content, tokens, tool_call_id: toolCallId };
}

/** An entry as a message; the object is reused so unchanged messages compare by identity. */
export function entryMessage(entry: Entry): RenderedMessage {
  let message = renderedMessages.get(entry);
  if (message) return message;
  const { seq, content, tokens } = entry;
  switch (entry.kind) {
    case 'assistant_turn':
      message = renderedMessage(seq, 'assistant', content, tokens, entry.toolCalls, entry.toolCallTokens);
      break;
    case 'tool_result':
    case 'stub':
      message =
        entry.toolCallId === undefined
          ? renderedMessage(seq, 'user', content, tokens)
          : renderedMessage(
              seq,
              'tool',
              content,
              tokens,
              undefined,
              undefined,
              entry.toolCallId,
              entry.isError && entry.kind === 'tool_result' ? true : undefined,
            );
      if (entry.kind === 'stub' && entry.toolCallId !== undefined) stubMessages.add(message);
      break;
    default:
      message = renderedMessage(seq, 'user', content, tokens);
  }
  renderedMessages.set(entry, message);
  return message;
}

export abstract class BaseRegion implements Region {
  readonly name: string;
  /** The kind's definition (regions/<kind>.ts): its tier, section and abilities. */
  abstract readonly definition: KindDefinition;
  decl: RegionDecl;
  budget: ResolvedBudget;
  entries: Entry[] = [];
  tokens = 0;
  version = 0;
  get kind(): RegionKind {
    return this.definition.kind;
  }
  /** Cascade tier when admission is "evict" (the kind's definition); undefined = never shed by the cascade. */
  protected get tier(): number | undefined {
    return this.definition.tier ?? undefined;
  }
  private rendered: { version: number; render: RegionRender } | undefined;
  /** The last system render and the entries appended since (undefined once anything else changed). */
  private lastSystem: RegionRender | undefined;
  private appendedSince: Entry[] | undefined = [];
  /**
   * A message-section region's entries as messages (entryMessage), kept in step with `entries`
   * from its first render on, so a render after a write maps only the new entry. Undefined before
   * the first render and after an in-place reorder.
   */
  private entryMessages: RenderedMessage[] | undefined;

  constructor(decl: RegionDecl, budget: ResolvedBudget) {
    this.name = decl.name;
    this.decl = decl;
    this.budget = budget;
  }

  get section(): Section {
    const rule = this.definition.section;
    return rule === 'messages' || (rule === 'by-name' && MESSAGE_REGION_NAMES.has(this.name)) ? 'messages' : 'system';
  }

  get cache(): CacheHint {
    return 'until-changed';
  }

  get keyed(): boolean {
    return this.definition.abilities.keyed;
  }

  get removable(): boolean {
    return this.definition.abilities.removable;
  }

  get messagesAreEntries(): boolean {
    return !this.definition.abilities.scripted;
  }

  get checklist(): Checklist | undefined {
    return undefined;
  }

  get historySource(): string | undefined {
    return undefined;
  }

  get cascadeTier(): number | undefined {
    return this.decl.admission === 'reject' ? undefined : this.tier;
  }

  write(entry: Entry, ctx: RegionContext): WriteOutcome {
    const refused = this.refuse(entry, 0);
    if (refused) return refused;
    if (this.evictsOversized && entry.tokens > this.budget.trigger) {
      // Nothing that fitted is lost to make room for something that never will.
      const gone: Gone = {
        verb: 'dropped',
        why: `larger than the region's whole budget of ${fmt(this.budget.trigger)}`,
      };
      return {
        ok: true,
        changes: [
          change(
            'evict',
            this.name,
            [entry],
            `larger than the whole budget of ${fmt(this.budget.trigger)}: dropped alone`,
          ),
        ],
        gone,
      };
    }
    this.insertAt(this.entries.length, entry);
    return this.admitted(entry, this.enforce(ctx));
  }

  /**
   * A write's outcome once the kind's rule has run: when that rule took the new entry itself out
   * again (summarized it, evicted it), the outcome says so, so no result claims it was kept. Only
   * a write that changed something else can have, so the entries are searched only then.
   */
  protected admitted(entry: Entry, changes: Change[]): WriteOutcome {
    // Appended last, a kept entry is usually still last: the scan runs only when it is not.
    if (changes.length === 0 || this.entries[this.entries.length - 1] === entry || this.entries.includes(entry))
      return { ok: true, changes };
    const label = entryLabel(entry);
    const took = changes.findLast((c) => c.entries.includes(label)) ?? itemAt(changes, changes.length - 1);
    const verb = took.type === 'compact' ? 'summarized' : 'evicted';
    return { ok: true, changes, gone: { verb, why: took.reason ?? this.overReason() } };
  }

  /** Kinds that evict to make room drop an entry bigger than the whole region alone, on arrival. */
  protected get evictsOversized(): boolean {
    return false;
  }

  /** A keyed write: a key already present is rewritten (unchanged content changes nothing). */
  put(entry: Entry, ctx: RegionContext): WriteOutcome {
    const at = entry.key === undefined ? -1 : this.entries.findIndex((e) => e.key === entry.key);
    const old = this.entries[at];
    if (old === undefined) return this.write(entry, ctx);
    if (old.content === entry.content) return { ok: true, changes: [] };
    return this.rewrite(at, entry, ctx);
  }

  /**
   * The entry at `at` is replaced by `entry` as the newest entry, so the kind's rule sees fresh
   * content as fresh (a sliding window "keeps the most recent entries"); shown as a `replace`.
   */
  protected rewrite(at: number, entry: Entry, ctx: RegionContext): WriteOutcome {
    const old = itemAt(this.entries, at);
    const refused = this.refuse(entry, old.tokens, 0);
    if (refused) return refused;
    this.removeRange(at, 1);
    this.insertAt(this.entries.length, entry);
    const outcome = this.admitted(entry, this.enforce(ctx));
    outcome.changes.unshift(change('replace', this.name, [old], `key "${entry.key}" rewritten`));
    return outcome;
  }

  /**
   * admission = "reject": a write that would make the region act (over its trigger, or past an
   * item limit) fails and names how full the region is, so nothing already there is displaced.
   */
  protected refuse(entry: Entry, freed: number, added = 1): WriteOutcome | undefined {
    if (this.decl.admission !== 'reject') return undefined;
    const items = this.itemLimit();
    let full: string | undefined;
    if (this.tokens - freed + entry.tokens > this.budget.trigger)
      full = `${fmt(this.tokens)} of ${fmt(this.budget.trigger)} tokens`;
    else if (items !== undefined && this.entries.length + added > items)
      full = `${fmt(this.entries.length)} of ${fmt(items)} entries`;
    if (full === undefined) return undefined;
    const message = `${this.name} is full: ${full}; release something with context_delete first (this write needs ${fmt(entry.tokens)} tokens)`;
    return { ok: false, message, changes: [change('reject', this.name, [entry], 'admission = "reject"')] };
  }

  /** A cap on the number of entries, for kinds that have one. */
  protected itemLimit(): number | undefined {
    return undefined;
  }

  remove(selector: DeleteSelector): DeleteOutcome {
    const list = `${this.entries.length} entr${this.entries.length === 1 ? 'y' : 'ies'}`;
    let removed: Entry[];
    if ('key' in selector) {
      // Every entry with the key: only a custom region holds more than one (it has no keyed upsert).
      removed = [];
      for (let at = this.entries.length - 1; at >= 0; at--)
        if (itemAt(this.entries, at).key === selector.key) removed.unshift(...this.removeRange(at, 1));
      if (removed.length === 0)
        return {
          ok: false,
          message: `${this.name} has no entry with key "${selector.key}" (${list}; see context_list)`,
        };
    } else if ('index' in selector) {
      if (selector.index >= this.entries.length) {
        return {
          ok: false,
          message: `${this.name} has no entry at index ${selector.index} (${list}; indexes start at 0)`,
        };
      }
      removed = this.removeRange(selector.index, 1);
    } else {
      if (this.entries.length === 0) return { ok: false, message: `${this.name} is empty: nothing to delete` };
      removed = this.removeRange(0, Math.min(selector.oldest, this.entries.length));
    }
    return { ok: true, change: change('delete', this.name, removed, 'context_delete') };
  }

  /** Default cascade: oldest first until `needed` tokens are freed. */
  shed(needed: number, _ctx: RegionContext): Change[] {
    let count = 0;
    let freed = 0;
    while (count < this.entries.length && freed < needed) freed += itemAt(this.entries, count++).tokens;
    if (count === 0) return [];
    return [change('cascade', this.name, this.removeRange(0, count), 'request exceeded the model window')];
  }

  compactAll(ctx: RegionContext, reason: string): Change[] {
    const [first] = this.entries;
    if (!this.decl.summarizable || first === undefined) return [];
    if (this.entries.length === 1 && first.kind === 'summary') return [];
    // A summary no smaller than what it folds (a few short entries under its header) would only
    // grow the region, past its own bound for an evicting kind: the entries stay as they are.
    const summary = ctx.summarize(this.entries, this.name, first.seq, this.summaryOptions);
    if (summary.tokens >= this.tokens) return [];
    return [this.fold(0, this.entries.length, ctx, reason, summary)];
  }

  redeclare(decl: RegionDecl, budget: ResolvedBudget, ctx: RegionContext): Change[] {
    this.decl = decl;
    this.budget = budget;
    this.version++;
    // A reject region is never trimmed by the runtime, even when a stage gives it less room.
    return decl.admission === 'reject' ? [] : this.enforce(ctx);
  }

  /**
   * A copy with the same entries (immutable, so shared). It renders afresh: a kept copy holding
   * this region's last render would keep a large region's whole text per copy.
   */
  fork(): Region | undefined {
    const copy = Object.assign(Object.create(Object.getPrototypeOf(this) as object) as this, this);
    copy.entries = this.entries.slice();
    copy.rendered = undefined;
    copy.lastSystem = undefined;
    copy.appendedSince = undefined;
    copy.entryMessages = undefined;
    return copy;
  }

  render(ctx: RegionContext): RegionRender {
    if (this.rendered?.version === this.version) return this.rendered.render;
    const render =
      this.section === 'messages'
        ? { messages: (this.entryMessages ??= this.entries.map(entryMessage)).slice() }
        : this.renderSystem(ctx);
    this.rendered = { version: this.version, render };
    return render;
  }

  /**
   * `[name]:` then one entry per line. Tokens add up the stored counts; the header is cached.
   * When entries were only appended since the last render, the text grows by the new lines
   * (a rope append) instead of being joined again, so a big region costs nothing per small write.
   */
  protected renderSystem(ctx: RegionContext): RegionRender {
    const previous = this.lastSystem?.system;
    const appended = this.appendedSince;
    this.appendedSince = [];
    if (previous && appended && this.renderOrder === BaseRegion.prototype.renderOrder) {
      if (appended.length === 0) return this.lastSystem!;
      const before = renderParts.get(previous);
      const entries = before ? [...before.entries] : undefined;
      const through = before ? [...before.through] : undefined;
      const newline = ctx.count('\n');
      let tokens = previous.tokens;
      let text = previous.text;
      for (const e of appended) {
        const prefix = this.linePrefix(e);
        text += `\n${prefix}${e.content}`;
        tokens += newline + e.tokens + ctx.count(prefix);
        entries?.push(e);
        through?.push(tokens);
      }
      const system = { text, tokens };
      if (entries && through) renderParts.set(system, { entries, through });
      return (this.lastSystem = { system, messages: [] });
    }
    const shown = this.renderOrder();
    if (shown.length === 0) return (this.lastSystem = { messages: [] });
    const header = `[${this.name}]:\n`;
    const newline = ctx.count('\n');
    let tokens = ctx.count(header) - newline;
    // Built by appends, not joined: a join copies every entry's text (a large region's hundreds of
    // KB) on each re-render, where appending links the texts without copying them.
    let text = header;
    let separator = '';
    const through: number[] = [];
    for (const e of shown) {
      const prefix = this.linePrefix(e);
      text += `${separator}${prefix}${e.content}`;
      separator = '\n';
      tokens += newline + e.tokens + ctx.count(prefix);
      through.push(tokens);
    }
    const system = { text, tokens };
    renderParts.set(system, { entries: [...shown], through });
    return (this.lastSystem = { system, messages: [] });
  }

  /**
   * What a system block shows in front of an entry's content ('' for most kinds; a hashmap shows
   * its key, which the model needs to name the entry). Counted as its own piece, like the header.
   */
  protected linePrefix(_entry: Entry): string {
    return '';
  }

  protected renderOrder(): readonly Entry[] {
    return this.entries;
  }

  /** The kind's own rule, run after every write; returns what it dropped or folded. */
  protected abstract enforce(ctx: RegionContext): Change[];

  protected over(): boolean {
    return this.tokens > this.budget.trigger;
  }

  /** Drops oldest entries while `stillOver()`; one change for all of them. */
  protected evictOldestWhile(stillOver: () => boolean, reason: string): Change[] {
    const dropped: Entry[] = [];
    while (this.entries.length > 0 && stillOver()) dropped.push(...this.removeRange(0, 1));
    return dropped.length ? [change('evict', this.name, dropped, reason)] : [];
  }

  /** Whether this kind's summaries list every item they fold (compact_history keeps every key and path). */
  protected get summaryOptions(): SummaryOptions | undefined {
    return undefined;
  }

  /** Folds entries [from, from+count) into one summary entry (`made` when already summarized) in their place. */
  protected fold(from: number, count: number, ctx: RegionContext, reason: string, made?: Entry): Change {
    const folded = this.entries.slice(from, from + count);
    const summary = made ?? ctx.summarize(folded, this.name, itemAt(folded, 0).seq, this.summaryOptions);
    this.removeRange(from, count);
    this.insertAt(from, summary);
    const c = change('compact', this.name, folded, reason);
    c.tokens -= summary.tokens; // what the fold actually freed
    return c;
  }

  protected overReason(): string {
    const b = this.budget;
    if (b.threshold !== undefined && b.trigger === b.threshold && b.threshold < b.budget)
      return `over threshold_tokens ${fmt(b.threshold)}`;
    if (b.compactAt !== undefined && b.trigger === b.compactAt && b.compactAt < b.budget)
      return `over compact_at ${fmt(b.compactAt)}`;
    return `over budget ${fmt(b.budget)}`;
  }

  /** For kinds that reorder `entries` in place: the next render re-joins instead of appending. */
  protected reordered(): void {
    this.appendedSince = undefined;
    this.entryMessages = undefined;
    this.version++;
  }

  protected insertAt(at: number, entry: Entry): void {
    if (at === this.entries.length) this.appendedSince?.push(entry);
    else this.appendedSince = undefined;
    if (at === this.entries.length) this.entries.push(entry);
    else this.entries.splice(at, 0, entry);
    if (this.entryMessages) {
      if (at === this.entryMessages.length) this.entryMessages.push(entryMessage(entry));
      else this.entryMessages.splice(at, 0, entryMessage(entry));
    }
    this.tokens += entry.tokens;
    this.version++;
  }

  protected replaceAt(at: number, entry: Entry): void {
    this.appendedSince = undefined;
    this.tokens += entry.tokens - itemAt(this.entries, at).tokens;
    this.entries[at] = entry;
    if (this.entryMessages) this.entryMessages[at] = entryMessage(entry);
    this.version++;
  }

  protected removeRange(at: number, count: number): Entry[] {
    const removed = this.entries.splice(at, count);
    if (removed.length) this.appendedSince = undefined;
    if (removed.length) this.entryMessages?.splice(at, count);
    for (const e of removed) this.tokens -= e.tokens;
    if (removed.length) this.version++;
    return removed;
  }
}
