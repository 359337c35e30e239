// The conversation's turns. A user message joins the conversation. An assistant event is an
// inference: the request is assembled from the visible regions (shedding by the cascade while it is
// over the window), measured against the cache and the flat-list baseline, and only then does the
// model's reply join the conversation.
import { assemble, grownBlockTokens, sameBlock, type Assembly } from '../assemble.ts';
import { commonPrefixTokens, matchesWithinBlocks, providerView } from '../cache.ts';
import { filler } from '../filler.ts';
import { fmt } from '../format.ts';
import { capabilitiesOf } from '../regions/capabilities.ts';
import type { Entry, Region } from '../regions/types.ts';
import type { TrafficEvent } from '../scenario.ts';
import type { RequestFigures } from '../timeline.ts';
import { countTokens } from '../tokens.ts';
import type { RunState } from './state.ts';

export function userMessage(run: RunState, { text: content, head, tokens }: MessageText): void {
  const entry: Entry = {
    seq: run.seq++,
    content,
    head,
    tokens: tokens ?? run.ctx.count(content),
    kind: 'user_message',
  };
  run.writeTo('conversation', entry);
  run.baseline.add(entry.tokens);
}

/** A message's text; when the run generated it, its first line (Entry.head) and its tokens, known without reading it. */
export interface MessageText {
  text: string;
  head?: string;
  tokens?: number;
}

/** A user or assistant message's text: its content, or filler of its `size_tokens`. */
export function messageText(
  run: RunState,
  event: { type: 'user' | 'assistant'; content: string; size_tokens?: number },
  index: number,
): MessageText {
  if (event.size_tokens === undefined) return { text: event.content };
  const made = filler(event.size_tokens, event.type, `${event.type}:${index}`, countTokens, run.model.encoding);
  return { text: made.text(), head: made.head, tokens: event.size_tokens };
}

export function infer(
  run: RunState,
  event: Extract<TrafficEvent, { type: 'assistant' }>,
  index: number,
): RequestFigures {
  const assembly = assembleWithCascade(run);
  // The request told the model what the runtime owed it; the next one does not repeat it.
  run.notices = [];
  const prefixTokens = commonPrefixTokens(
    run.prevBlocks,
    assembly.blocks,
    sameBlock,
    matchesWithinBlocks(run.model) ? grownBlockTokens : undefined,
  );
  run.prevBlocks = assembly.blocks;
  run.lastAssembly = assembly;
  run.lastRequestRegions = run.figures();
  const tokens = assembly.tokens;
  recordNewStrips(run, assembly);
  const request: RequestFigures = {
    inference: run.inferences++,
    requestTokens: tokens,
    systemTokens: assembly.systemTokens,
    messageTokens: assembly.messageTokens,
    prefixTokens,
    prefixShare: tokens === 0 ? 0 : prefixTokens / tokens,
    cache: providerView(run.model, assembly.blocks, prefixTokens),
    strippedBlocks: assembly.strippedBlocks.length,
    baselineTokens: run.baseline.tokens,
    taskInBaselineWindow: run.baseline.taskInWindow,
    taskInWindow: taskInWindow(run),
    overWindow: tokens > run.model.window,
  };
  if (request.overWindow) {
    run.warnings.push(
      `request is ${fmt(tokens)} tokens, over the ${fmt(run.model.window)}-token window even after the cascade; still in it: ${leftAfterCascade(run)}`,
    );
  }
  // The model's reply joins the conversation after the request that produced it.
  const { text, head, tokens: textTokens } = messageText(run, event, index);
  const calls = event.tool_calls ?? [];
  const counted = run.shared.replyTokensOf(event, () => ({
    text: textTokens ?? run.ctx.count(text),
    calls: calls.map((c) => run.ctx.count(JSON.stringify({ name: c.name, arguments: c.arguments }))),
  }));
  const callTokens = counted.calls;
  const seq = run.seq++;
  const turnTokens = counted.text + callTokens.reduce((a, b) => a + b, 0);
  // One literal per shape: a spread of optional fields takes a slow path in V8.
  const entry: Entry = calls.length
    ? {
        seq,
        content: text,
        head,
        kind: 'assistant_turn',
        tokens: turnTokens,
        toolCalls: calls,
        toolCallTokens: callTokens,
      }
    : { seq, content: text, head, kind: 'assistant_turn', tokens: turnTokens };
  for (const call of calls) run.shared.recordCall(run.position, call);
  run.writeTo('conversation', entry);
  run.baseline.add(entry.tokens);
  return request;
}

/** Assembles; while over the window, sheds by kind (lowest tier first, declaration order). */
function assembleWithCascade(run: RunState): Assembly {
  run.ctx.windowTokens = run.layout.reduce((sum, r) => sum + r.tokens, 0);
  let assembly = assemble(run.assembly, run.layout, run.ctx, run.notices);
  const window = run.model.window;
  if (assembly.tokens <= window) return assembly;
  const tiers = [...new Set(run.layout.map((r) => r.cascadeTier).filter((t): t is number => t !== undefined))].sort(
    (a, b) => a - b,
  );
  for (const tier of tiers) {
    for (const region of run.layout) {
      if (region.cascadeTier !== tier || region.entries.length === 0) continue;
      const needed = assembly.tokens - window;
      if (needed <= 0) return assembly;
      const shed = region.shed(needed, run.ctx);
      if (shed.length === 0) continue;
      run.changes.push(...shed);
      assembly = assemble(run.assembly, run.layout, run.ctx, run.notices);
    }
  }
  return assembly;
}

/**
 * What a request over the window still holds once the cascade has shed all it may, region by
 * region, and why each stayed: the regions the cascade never sheds say what exempts them, the
 * others how far their kind let them shrink.
 */
function leftAfterCascade(run: RunState): string {
  const left = run.layout.filter((r) => r.tokens > 0).map((r) => `${r.name} ${fmt(r.tokens)} tokens (${whyKept(r)})`);
  return left.length ? left.join(', ') : 'no region holds anything, so the rendered blocks alone are over it';
}

function whyKept(region: Region): string {
  if (region.cascadeTier !== undefined) {
    const what =
      region.entries.length === 1 && region.entries[0]?.kind === 'summary'
        ? 'one summary, nothing left to fold'
        : 'all its kind sheds';
    return `${region.kind}: shed ${what}`;
  }
  if (capabilitiesOf(region.kind).cascadeTier === undefined) return `${region.kind}: never shed`;
  if (region.decl.admission === 'reject') return 'admission = "reject": never shed';
  return `${region.kind} with persistent = true: never shed`;
}

/**
 * A block is stripped from every request after it lost its partner; the timeline records the
 * strip once, on the first request it is left out of (each request still counts all of them).
 */
function recordNewStrips(run: RunState, assembly: Assembly): void {
  // Made for the first new strip only: most requests strip just the blocks the ones before did.
  let byRegion: Map<string, { tokens: number; ids: string[] }> | undefined;
  for (const block of assembly.strippedBlocks) {
    if (run.reportedBlocks.has(block)) continue;
    run.reportedBlocks.add(block);
    const ids = run.reportedStripIds(block.region, block.seq);
    if (ids.has(block.id)) continue;
    ids.add(block.id);
    byRegion ??= new Map();
    let strip = byRegion.get(block.region);
    if (!strip) byRegion.set(block.region, (strip = { tokens: 0, ids: [] }));
    strip.tokens += block.tokens;
    strip.ids.push(block.id);
  }
  run.forgetGoneStripsWhenDue();
  if (!byRegion) return;
  for (const [region, { tokens, ids }] of byRegion) {
    // A copy holds exactly the ids; the list pushed into has spare room the timeline would keep.
    run.changes.push({
      type: 'strip',
      region,
      tokens,
      entries: ids.slice(),
      reason: 'tool call and result must be paired',
    });
  }
}

/** The task is in the window while every entry it was seeded as is still in a visible region. */
function taskInWindow(run: RunState): boolean {
  if (run.taskEntries.length === 0) return false;
  const visible = run.visibleNames();
  return run.taskEntries.every(
    ({ region, entry }) => visible.has(region) && run.regions.get(region)!.entries.includes(entry),
  );
}
