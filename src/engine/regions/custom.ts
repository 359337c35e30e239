// custom: one region handed to a Rhai script (spec: custom-regions.md). `render(ctx)` decides what
// the model sees on every inference; `on_write(ctx)` may rewrite or drop each entry headed in;
// `on_overflow(ctx)` picks what to drop when the region must shrink, oldest-first making up any
// shortfall. `persistent = true` behaves pinned-like (never evicted, cache hint `always`), false
// temporary-like. A hook that throws, returns the wrong type or runs out of operations never breaks
// an inference: the region falls back to the built-in behaviour and warns with the script position.
import type { RegionDecl } from '../blueprint/types.ts';
import type { ResolvedBudget } from '../budget.ts';
import { describeFailure, NO_RHAI, type CustomHooks, type RegionFacts, type ScriptMessage } from '../rhai-host.ts';
import type { Change, ChangeType, ToolCall } from '../timeline.ts';
import { BaseRegion, change, entryMessage, renderedMessage } from './base.ts';
import type { Entry, RegionContext, RegionEnv, RegionRender, RenderedMessage, WriteOutcome } from './types.ts';
import { PLAIN, type KindDefinition } from './kind.ts';
import { temporaryKind } from './temporary.ts';
import { boolean, text } from '../blueprint/report.ts';
import { itemAt } from '../item-at.ts';

export const customKind: KindDefinition<'custom'> = {
  kind: 'custom',
  doc: 'Behaviour defined by a Rhai script (script = "...").',
  // The tier of temporary, which a custom region that is not persistent behaves like.
  tier: temporaryKind.tier,
  // The script decides per render whether it emits system text, messages, or both.
  section: 'system',
  abilities: { ...PLAIN, scripted: true },
  keys: {
    script: {
      meaning:
        'custom: the Rhai script with render (required), on_write and on_overflow, relative to the agent directory.',
    },
    persistent: { meaning: 'custom: true behaves pinned-like (never evicted, cache hint "always").', default: 'false' },
  },
  read: (r, raw, path, region) => {
    region.script = r.read(raw, 'script', path, text, 'a path relative to the agent directory');
    region.persistent = r.read(raw, 'persistent', path, boolean, 'true or false') ?? false;
  },
};

/** Above any real write order, with room for fractions: where messages standing for the whole region go. */
const END_OF_STREAM = 2 ** 40;

export class CustomRegion extends BaseRegion {
  readonly definition = customKind;
  /** Persistent behaves pinned-like: never shed. Otherwise temporary's tier (capabilities.ts). */
  protected override get tier(): number | undefined {
    return this.decl.persistent ? undefined : super.tier;
  }

  private hooks: CustomHooks;
  private readonly env: RegionEnv;
  private lastRender: { key: string; render: RegionRender } | undefined;

  /** Throws CustomScriptError when the script is missing, does not parse, or has no render(ctx). */
  constructor(decl: RegionDecl, budget: ResolvedBudget, env: RegionEnv) {
    super(decl, budget);
    this.env = env;
    this.hooks = this.loadHooks(decl);
  }

  /** With the interpreter the run was given (the engine imports none: rhai-host.ts). */
  private loadHooks(decl: RegionDecl): CustomHooks {
    const load = this.env.loadCustomHooks ?? NO_RHAI.loadCustomHooks;
    return load(decl.script ?? '', this.env.agent, decl.name);
  }

  override get cache() {
    return this.decl.persistent ? ('always' as const) : ('until-changed' as const);
  }

  private facts(): RegionFacts {
    return { name: this.name, budget: this.budget.budget, tokens: this.tokens, entryCount: this.entries.length };
  }

  private warnFailure(ctx: RegionContext, detail: string, fallback: string): void {
    ctx.warn(`custom region ${this.name}: ${detail}; ${fallback}`);
  }

  // ---- writes --------------------------------------------------------------------------------

  override write(entry: Entry, ctx: RegionContext): WriteOutcome {
    const admitted = this.onWrite(entry, ctx);
    if (!admitted.entry) return { ok: true, changes: admitted.changes, stored: 0, hookDropped: true };
    if (admitted.entry === entry) return super.write(entry, ctx);
    // Rewritten by on_write: what was stored is the new size, which the ledger and the result report.
    const outcome = super.write(admitted.entry, ctx);
    return outcome.ok ? { ...outcome, stored: admitted.entry.tokens } : outcome;
  }

  /**
   * No keyed upsert (custom-regions.md: "Keyed upsert is built-in only, because on_write cannot
   * modify an existing entry"): a keyed write is a new entry that keeps its key, so
   * `context_delete key` still finds it (and every other entry with that key).
   */
  override put(entry: Entry, ctx: RegionContext): WriteOutcome {
    return this.write(entry, ctx);
  }

  /** on_write: a string replaces the content (re-counted, kind kept), true/() accepts, false drops. */
  private onWrite(entry: Entry, ctx: RegionContext): { entry?: Entry; changes: Change[] } {
    if (!this.hooks.has('on_write')) return { entry, changes: [] };
    const called = this.hooks.call('on_write', this.hooks.io.writeCtx(this.facts(), entry));
    if (!called.ok) {
      this.warnFailure(ctx, describeFailure(called.failure), 'the entry was accepted unchanged');
      return { entry, changes: [] };
    }
    const answer = this.hooks.io.readOnWrite(called.value);
    if (!answer.ok) {
      this.warnFailure(ctx, `${answer.error} (${this.hooks.file})`, 'the entry was accepted unchanged');
      return { entry, changes: [] };
    }
    switch (answer.value.action) {
      case 'accept':
        return { entry, changes: [] };
      case 'drop':
        return { changes: [change('evict', this.name, [entry], 'on_write returned false')] };
      case 'replace': {
        const content = answer.value.content;
        if (content === entry.content) return { entry, changes: [] };
        const callTokens = (entry.toolCallTokens ?? []).reduce((a, b) => a + b, 0);
        // The generated text's first line (head) no longer describes the new content.
        return { entry: { ...entry, content, head: undefined, tokens: ctx.count(content) + callTokens }, changes: [] };
      }
    }
  }

  // ---- shrinking -----------------------------------------------------------------------------

  protected enforce(ctx: RegionContext): Change[] {
    if (this.decl.persistent || !this.over()) return [];
    const reason = this.overReason();
    return this.shrink(this.tokens - this.budget.trigger, ctx, 'evict', reason);
  }

  override shed(needed: number, ctx: RegionContext): Change[] {
    if (this.decl.persistent || this.entries.length === 0) return [];
    return this.shrink(needed, ctx, 'cascade', 'request exceeded the model window');
  }

  override compactAll(ctx: RegionContext, reason: string): Change[] {
    return this.decl.persistent ? [] : super.compactAll(ctx, reason);
  }

  /** on_overflow's picks first; oldest-first makes up whatever they leave short of `needed`. */
  private shrink(needed: number, ctx: RegionContext, type: ChangeType, reason: string): Change[] {
    const changes: Change[] = [];
    let freed = 0;
    const picked = this.overflowPicks(needed, ctx);
    if (picked.length) {
      const dropped: Entry[] = [];
      for (const at of picked.toReversed()) dropped.unshift(...this.removeRange(at, 1));
      freed = dropped.reduce((sum, e) => sum + e.tokens, 0);
      changes.push(change(type, this.name, dropped, `${reason}: chosen by on_overflow`));
    }
    const rest: Entry[] = [];
    while (freed < needed && this.entries.length > 0) {
      const [oldest] = this.removeRange(0, 1);
      rest.push(oldest!);
      freed += oldest!.tokens;
    }
    if (rest.length)
      changes.push(
        change(type, this.name, rest, picked.length ? `${reason}: oldest-first made up the difference` : reason),
      );
    return changes;
  }

  private overflowPicks(needed: number, ctx: RegionContext): number[] {
    if (!this.hooks.has('on_overflow')) return [];
    const called = this.hooks.call('on_overflow', this.hooks.io.overflowCtx(this.facts(), this.entries, needed));
    if (!called.ok) {
      this.warnFailure(ctx, describeFailure(called.failure), 'evicted oldest-first instead');
      return [];
    }
    const answer = this.hooks.io.readOnOverflow(called.value, this.entries.length);
    if (!answer.ok) {
      this.warnFailure(ctx, `${answer.error} (${this.hooks.file})`, 'evicted oldest-first instead');
      return [];
    }
    return answer.value;
  }

  // ---- per-stage layouts -----------------------------------------------------------------------

  override redeclare(decl: RegionDecl, budget: ResolvedBudget, ctx: RegionContext): Change[] {
    if (decl.script !== this.decl.script) this.hooks = this.loadHooks(decl);
    return super.redeclare(decl, budget, ctx);
  }

  /** Not copied: the script's hooks keep their own state (runaway strikes) through the run. */
  override fork(): undefined {
    return undefined;
  }

  // ---- rendering -------------------------------------------------------------------------------

  /**
   * render(ctx) runs on every inference, even when the region is empty. The answer is reused only
   * for a ctx identical in every field the script can see (assembly asks twice per request).
   */
  override render(ctx: RegionContext): RegionRender {
    const windowTokens = ctx.windowTokens ?? this.tokens;
    const key = `${this.version}\u0000${ctx.stage}\u0000${ctx.stageIterations}\u0000${ctx.model}\u0000${ctx.window}\u0000${windowTokens}`;
    if (this.lastRender?.key === key) return this.lastRender.render;
    const render = this.runRender(ctx, windowTokens);
    this.lastRender = { key, render };
    return render;
  }

  private runRender(ctx: RegionContext, windowTokens: number): RegionRender {
    const called = this.hooks.call(
      'render',
      this.hooks.io.renderCtx({
        region: this.facts(),
        entries: this.entries,
        stage: ctx.stage,
        stageIterations: ctx.stageIterations,
        model: ctx.model,
        windowTokens,
        windowMax: ctx.window,
      }),
    );
    if (!called.ok) return this.fallback(ctx, describeFailure(called.failure));
    const answer = this.hooks.io.readRender(called.value);
    if (!answer.ok) return this.fallback(ctx, `${answer.error} (${this.hooks.file})`);
    for (const note of answer.value.notes) ctx.warn(`custom region ${this.name}: ${note} (${this.hooks.file})`);
    return {
      system: this.systemBlock(answer.value.system, ctx),
      messages: this.placeMessages(answer.value.messages, ctx),
    };
  }

  private fallback(ctx: RegionContext, detail: string): RegionRender {
    this.warnFailure(ctx, detail, `rendered its entries plainly as [${this.name}]: instead`);
    return this.plainRender(ctx);
  }

  /** The built-in `[name]:` rendering, cached per version like every kind's. */
  private plain: { version: number; render: RegionRender } | undefined;
  private plainRender(ctx: RegionContext): RegionRender {
    if (this.plain?.version !== this.version) this.plain = { version: this.version, render: this.renderSystem(ctx) };
    return this.plain.render;
  }

  /** Several system strings become one block joined by blank lines. Text identical to the plain render reuses its counts. */
  private systemBlock(parts: readonly string[], ctx: RegionContext): RegionRender['system'] {
    if (parts.length === 0) return undefined;
    const text = parts.join('\n\n');
    const plain = this.plainRender(ctx).system;
    if (plain && plain.text === text) return plain;
    const previous = this.lastRender?.render.system;
    if (previous && previous.text === text) return previous;
    return { text, tokens: ctx.count(text) };
  }

  /**
   * Places the script's messages in the run's message stream, keeping the script's order. A message
   * that is one of the region's entries unchanged is that entry's own message (same position, same
   * counts); any other sits between its neighbours in the script's list. When none is an entry (one
   * message standing for the whole region, as brain.rhai renders), they go at the end of the stream,
   * after every call and its result, so they never split a tool call from its result.
   */
  private placeMessages(messages: readonly ScriptMessage[], ctx: RegionContext): RenderedMessage[] {
    const out: (RenderedMessage | ScriptMessage)[] = [];
    let cursor = 0;
    for (const message of messages) {
      const at = this.findEntry(message, cursor);
      if (at >= 0) {
        out.push(entryMessage(itemAt(this.entries, at)));
        cursor = at + 1;
      } else out.push(message);
    }
    const placed: RenderedMessage[] = [];
    for (let i = 0; i < out.length; i++) {
      const item = itemAt(out, i);
      if ('seq' in item) {
        placed.push(item);
        continue;
      }
      // A run of unmatched messages shares the gap after the previous placed seq.
      let runEnd = i;
      while (runEnd + 1 < out.length && !('seq' in itemAt(out, runEnd + 1))) runEnd++;
      const before = placed.at(-1)?.seq;
      const after = runEnd + 1 < out.length ? (out[runEnd + 1] as RenderedMessage).seq : undefined;
      const low = before ?? (after !== undefined ? after - 1 : END_OF_STREAM);
      const high = after ?? low + 1;
      const count = runEnd - i + 1;
      for (let k = 0; k < count; k++)
        placed.push(this.scriptMessage(out[i + k] as ScriptMessage, low + ((high - low) * (k + 1)) / (count + 1), ctx));
      i = runEnd;
    }
    return placed;
  }

  private findEntry(message: ScriptMessage, from: number): number {
    for (let i = from; i < this.entries.length; i++) {
      const entry = itemAt(this.entries, i);
      if (entry.content !== message.content) continue;
      const m = entryMessage(entry);
      if (
        m.role === message.role &&
        m.content === message.content &&
        m.tool_call_id === message.tool_call_id &&
        sameCalls(m.tool_calls, message.tool_calls)
      )
        return i;
    }
    return -1;
  }

  private messageCache = new Map<string, RenderedMessage>();

  /** A message the script made up; counted once per distinct (position, content). */
  private scriptMessage(message: ScriptMessage, seq: number, ctx: RegionContext): RenderedMessage {
    const id = `${seq}\u0000${message.role}\u0000${message.tool_call_id ?? ''}\u0000${message.content}\u0000${message.tool_calls ? JSON.stringify(message.tool_calls) : ''}`;
    const cached = this.messageCache.get(id);
    if (cached) return cached;
    const callTokens = (message.tool_calls ?? []).map((c) =>
      ctx.count(JSON.stringify({ name: c.name, arguments: c.arguments })),
    );
    const tokens = ctx.count(message.content) + callTokens.reduce((a, b) => a + b, 0);
    const rendered = renderedMessage(
      seq,
      message.role,
      message.content,
      tokens,
      message.tool_calls,
      callTokens,
      message.tool_call_id,
    );
    if (this.messageCache.size > 1000) this.messageCache.clear();
    this.messageCache.set(id, rendered);
    return rendered;
  }
}

function sameCalls(a: readonly ToolCall[] | undefined, b: readonly ToolCall[] | undefined): boolean {
  const x = a ?? [];
  const y = b ?? [];
  if (x.length !== y.length) return false;
  return x.every((c, i) => {
    const d = itemAt(y, i);
    return c.id === d.id && c.name === d.name && canonical(c.arguments) === canonical(d.arguments);
  });
}

/** JSON with object keys sorted: Rhai hands maps back in its own key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}
