// Regions -> the provider request. Order (DESIGN.md): pinned regions in declaration order, then
// stage_instructions, then the other system-section regions in declaration order, then the message
// stream (message-section regions merged by write order). Unpaired tool calls and results are
// stripped and counted, so no request is one a provider would refuse.
import type { PrefixBlock } from './cache.ts';
import type { Region, RegionContext, RenderedMessage } from './regions/types.ts';
import type { AssembledRequest, RequestMessage, SystemBlock } from './timeline.ts';

export const STAGE_INSTRUCTIONS = 'stage_instructions';

export interface StrippedBlock {
  region: string;
  /** The tool call id. */
  id: string;
  /** Write order of the message it was stripped from (with `id`, names the block across requests). */
  seq: number;
  tokens: number;
}

export interface Assembly {
  /** The request as sent; its message objects are built on first read (the replay only needs counts). */
  readonly request: AssembledRequest;
  tokens: number;
  stripped: AssembledRequest['stripped'];
  /** System blocks then messages, for the cache-prefix measure; unchanged parts keep identity. */
  blocks: PrefixBlock[];
  systemTokens: number;
  messageTokens: number;
  /** Each stripped call or result, for the timeline's `strip` changes. */
  strippedBlocks: StrippedBlock[];
}

/** Visible regions in the order their system blocks are sent. */
export function systemOrder(regions: readonly Region[]): Region[] {
  const system = regions.filter((r) => r.section === 'system');
  return [
    ...system.filter((r) => !r.removable && r.name !== STAGE_INSTRUCTIONS),
    ...system.filter((r) => r.name === STAGE_INSTRUCTIONS),
    ...system.filter((r) => r.removable && r.name !== STAGE_INSTRUCTIONS),
  ];
}

const systemBlocks = new WeakMap<object, SystemBlock>();
const messageBlocks = new WeakMap<RenderedMessage, PrefixBlock>();

function messageBlock(message: RenderedMessage): PrefixBlock {
  let block = messageBlocks.get(message);
  if (!block) {
    const calls = message.tool_calls?.length ? `\n${JSON.stringify(message.tool_calls)}` : '';
    block = { text: `${message.role}\u0000${message.tool_call_id ?? ''}\u0000${message.content}${calls}`, tokens: message.tokens };
    messageBlocks.set(message, block);
  }
  return block;
}

/** `regions`: the stage's visible regions in declaration order. Read-only: nothing is mutated. */
export function assemble(regions: readonly Region[], ctx: RegionContext): Assembly {
  const system: SystemBlock[] = [];
  const blocks: PrefixBlock[] = [];
  let systemTokens = 0;
  for (const region of systemOrder(regions)) {
    const rendered = region.render(ctx).system;
    if (!rendered || rendered.text.length === 0) continue;
    let block = systemBlocks.get(rendered);
    if (!block) {
      block = { region: region.name, text: rendered.text, tokens: rendered.tokens, cache: region.cache };
      systemBlocks.set(rendered, block);
    }
    system.push(block);
    blocks.push(block);
    systemTokens += block.tokens;
  }

  // The message stream: every message region's messages, merged by write order (a stable sort:
  // equal seqs keep region order). Two parallel lists, not an object per message.
  const messages: RenderedMessage[] = [];
  const owners: string[] = [];
  for (const region of regions) {
    const rendered = region.render(ctx).messages;
    if (rendered.length > 0) mergeBySeq(messages, owners, rendered, region.name);
  }
  const paired = pairToolBlocks(messages, owners);

  let messageTokens = 0;
  for (const message of paired.messages) {
    blocks.push(messageBlock(message));
    messageTokens += message.tokens;
  }
  const tokens = systemTokens + messageTokens;
  let request: AssembledRequest | undefined;
  return {
    get request() {
      return (request ??= { system, messages: requestMessages(paired.messages, paired.owners), tokens, stripped: paired.stripped });
    },
    tokens, stripped: paired.stripped, blocks, systemTokens, messageTokens, strippedBlocks: paired.strippedBlocks,
  };
}

/**
 * Merges one region's messages into the stream by seq, as a stable sort of the regions' messages
 * one after another would place them: on equal seqs, the stream's (earlier regions') first. A
 * region's messages are in write order unless a custom region says otherwise; then it all sorts.
 */
function mergeBySeq(messages: RenderedMessage[], owners: string[], rendered: readonly RenderedMessage[], region: string): void {
  const before = messages.length;
  for (let i = 1; i < rendered.length; i++) {
    if (rendered[i]!.seq < rendered[i - 1]!.seq) {
      for (const message of rendered) { messages.push(message); owners.push(region); }
      const order = messages.map((_, at) => at).sort((a, b) => messages[a]!.seq - messages[b]!.seq || a - b);
      const m = order.map((at) => messages[at]!);
      const o = order.map((at) => owners[at]!);
      for (let at = 0; at < order.length; at++) { messages[at] = m[at]!; owners[at] = o[at]!; }
      return;
    }
  }
  // Both sorted: the common case is appending (nothing in the stream comes after the region's first).
  if (before === 0 || messages[before - 1]!.seq <= rendered[0]!.seq) {
    for (const message of rendered) { messages.push(message); owners.push(region); }
    return;
  }
  const m = messages.slice();
  const o = owners.slice();
  messages.length = 0;
  owners.length = 0;
  let a = 0;
  let b = 0;
  while (a < before || b < rendered.length) {
    if (b >= rendered.length || (a < before && m[a]!.seq <= rendered[b]!.seq)) { messages.push(m[a]!); owners.push(o[a++]!); } else { messages.push(rendered[b++]!); owners.push(region); }
  }
}

function requestMessages(messages: readonly RenderedMessage[], owners: readonly string[]): RequestMessage[] {
  return messages.map((message, i) => {
    const out: RequestMessage = { role: message.role, content: message.content, region: owners[i]!, tokens: message.tokens };
    if (message.tool_calls?.length) out.tool_calls = [...message.tool_calls];
    if (message.tool_call_id !== undefined) out.tool_call_id = message.tool_call_id;
    if (message.is_error) out.is_error = true;
    return out;
  });
}

const partialMessages = new WeakMap<RenderedMessage, Map<number | string, RenderedMessage>>();

/** The assistant message with only the calls in `keep`, reused across requests while it holds. */
function withCalls(message: RenderedMessage, keep: boolean[]): RenderedMessage {
  // Which calls stay, as bits while they fit in a number (turns rarely make 31 calls).
  let signature: number | string = 0;
  if (keep.length <= 30) for (let i = 0; i < keep.length; i++) signature |= keep[i] ? 1 << i : 0;
  else signature = keep.map((k) => (k ? '1' : '0')).join('');
  let byKeep = partialMessages.get(message);
  if (!byKeep) partialMessages.set(message, (byKeep = new Map()));
  let partial = byKeep.get(signature);
  if (!partial) {
    const calls = message.tool_calls!.filter((_, i) => keep[i]);
    const costs = message.toolCallTokens?.filter((_, i) => keep[i]);
    const dropped = (message.toolCallTokens ?? []).reduce((sum, t, i) => sum + (keep[i] ? 0 : t), 0);
    partial = { seq: message.seq, role: 'assistant', content: message.content, tokens: message.tokens - dropped };
    if (calls.length) { partial.tool_calls = calls; partial.toolCallTokens = costs; }
    byKeep.set(signature, partial);
  }
  return partial;
}

/**
 * Calls waiting for their result while a stream is paired, by call id: `base + slot` of the
 * earliest waiting call with that id (a slot is the call's place among the stream's calls). The
 * map outlives each pairing and each pairing has a base above every code of the ones before, so a
 * code below the base is an earlier pairing's and means nothing waits: nothing is cleared, and
 * since consecutive requests hold mostly the same calls, the map keeps its keys instead of growing
 * from empty every request (that was half of pairing's time). Codes stay small integers, which V8
 * stores without allocating.
 */
const waitingFirst = new Map<string, number>();
/** The next pairing's base. */
let nextBase = 1;
const MAX_CODE = 2 ** 30;

/**
 * A tool call stays only when a result for it follows; a result stays only when it answers a call
 * before it. Each result answers the earliest unanswered call with its id, so a result that arrives
 * before its call, or a second result for one call, is stripped along with the call it leaves
 * unpaired. An assistant turn that loses every call and has no text is left out whole.
 */
function pairToolBlocks(messages: readonly RenderedMessage[], owners: readonly string[]) {
  let calls = 0;
  for (let at = 0; at < messages.length; at++) calls += messages[at]!.tool_calls?.length ?? 0;
  // Ids of long-gone calls are dropped now and then, so the map stays near the regions' size.
  if (nextBase + calls >= MAX_CODE || waitingFirst.size > 4 * calls + 4_096) {
    waitingFirst.clear();
    nextBase = 1;
  }
  // A stream of more calls than codes can number (never met) pairs with a map of its own.
  const first = calls < MAX_CODE ? waitingFirst : new Map<string, number>();
  const base = nextBase;
  nextBase = base + calls + 1;
  // Later calls with an id that already has one waiting, in order (ids rarely repeat).
  let more: Map<string, number[]> | undefined;
  // Every call of the stream has a slot, answered or not. slotOf[at]: an assistant message's first
  // slot; a result's answered slot, or -1 when it answers nothing.
  const answered: boolean[] = [];
  const slotOf: number[] = [];
  for (let at = 0; at < messages.length; at++) {
    const message = messages[at]!;
    const toolCalls = message.tool_calls;
    if (message.role === 'assistant' && toolCalls?.length) {
      slotOf.push(answered.length);
      for (let call = 0; call < toolCalls.length; call++) {
        const slot = answered.length;
        answered.push(false);
        const id = toolCalls[call]!.id;
        const code = first.get(id);
        if (code === undefined || code < base) {
          first.set(id, base + slot);
        } else {
          more ??= new Map();
          const queue = more.get(id);
          if (queue) queue.push(slot);
          else more.set(id, [slot]);
        }
      }
    } else if (message.role === 'tool' && message.tool_call_id !== undefined) {
      const id = message.tool_call_id;
      const code = first.get(id);
      if (code === undefined || code < base) {
        slotOf.push(-1);
        continue;
      }
      const slot = code - base;
      answered[slot] = true;
      slotOf.push(slot);
      // The next waiting call with this id, if any, is now the earliest.
      const next = more?.get(id)?.shift();
      first.set(id, next === undefined ? base - 1 : base + next);
    } else {
      slotOf.push(-1);
    }
  }

  const keptMessages: RenderedMessage[] = [];
  const keptOwners: string[] = [];
  const stripped = { toolCalls: [] as string[], toolResults: [] as string[] };
  const strippedBlocks: StrippedBlock[] = [];
  for (let at = 0; at < messages.length; at++) {
    const message = messages[at]!;
    const region = owners[at]!;
    const calls = message.tool_calls;
    if (message.role === 'assistant' && calls?.length) {
      const first = slotOf[at]!;
      let all = true;
      for (let i = 0; i < calls.length; i++) {
        if (answered[first + i]) continue;
        all = false;
        const id = calls[i]!.id;
        stripped.toolCalls.push(id);
        strippedBlocks.push({ region, id, seq: message.seq, tokens: message.toolCallTokens?.[i] ?? 0 });
      }
      if (all) { keptMessages.push(message); keptOwners.push(region); continue; }
      const partial = withCalls(message, answered.slice(first, first + calls.length));
      if (partial.tool_calls?.length || partial.content.length > 0) { keptMessages.push(partial); keptOwners.push(region); }
      continue;
    }
    if (message.role === 'tool' && slotOf[at] === -1) {
      const id = message.tool_call_id ?? '';
      stripped.toolResults.push(id);
      strippedBlocks.push({ region, id, seq: message.seq, tokens: message.tokens });
      continue;
    }
    keptMessages.push(message);
    keptOwners.push(region);
  }
  return { messages: keptMessages, owners: keptOwners, stripped, strippedBlocks };
}
