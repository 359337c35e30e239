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

  const stream: { message: RenderedMessage; region: string }[] = [];
  for (const region of regions) {
    for (const message of region.render(ctx).messages) stream.push({ message, region: region.name });
  }
  stream.sort((a, b) => a.message.seq - b.message.seq);
  const paired = pairToolBlocks(stream);

  let messageTokens = 0;
  for (const { message } of paired.kept) {
    blocks.push(messageBlock(message));
    messageTokens += message.tokens;
  }
  const tokens = systemTokens + messageTokens;
  let request: AssembledRequest | undefined;
  return {
    get request() {
      return (request ??= { system, messages: requestMessages(paired.kept), tokens, stripped: paired.stripped });
    },
    tokens, stripped: paired.stripped, blocks, systemTokens, messageTokens, strippedBlocks: paired.strippedBlocks,
  };
}

function requestMessages(kept: readonly Streamed[]): RequestMessage[] {
  return kept.map(({ message, region }) => {
    const out: RequestMessage = { role: message.role, content: message.content, region, tokens: message.tokens };
    if (message.tool_calls?.length) out.tool_calls = [...message.tool_calls];
    if (message.tool_call_id !== undefined) out.tool_call_id = message.tool_call_id;
    if (message.is_error) out.is_error = true;
    return out;
  });
}

type Streamed = { message: RenderedMessage; region: string };

const partialMessages = new WeakMap<RenderedMessage, Map<string, RenderedMessage>>();

/** The assistant message with only the calls in `keep`, reused across requests while it holds. */
function withCalls(message: RenderedMessage, keep: boolean[]): RenderedMessage {
  const signature = keep.map((k) => (k ? '1' : '0')).join('');
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
 * A tool call stays only when a result for it follows; a result stays only when it answers a call
 * before it. Each result answers the earliest unanswered call with its id, so a result that arrives
 * before its call, or a second result for one call, is stripped along with the call it leaves
 * unpaired. An assistant turn that loses every call and has no text is left out whole.
 */
function pairToolBlocks(stream: readonly Streamed[]) {
  const callKept = new Map<number, boolean[]>();
  const resultKept = new Set<number>();
  const waiting = new Map<string, { at: number; call: number }[]>();
  stream.forEach(({ message }, at) => {
    if (message.role === 'assistant' && message.tool_calls?.length) {
      callKept.set(at, message.tool_calls.map(() => false));
      message.tool_calls.forEach((c, call) => {
        const queue = waiting.get(c.id) ?? [];
        queue.push({ at, call });
        waiting.set(c.id, queue);
      });
    } else if (message.role === 'tool' && message.tool_call_id !== undefined) {
      const answered = waiting.get(message.tool_call_id)?.shift();
      if (answered) {
        callKept.get(answered.at)![answered.call] = true;
        resultKept.add(at);
      }
    }
  });

  const kept: Streamed[] = [];
  const stripped = { toolCalls: [] as string[], toolResults: [] as string[] };
  const strippedBlocks: StrippedBlock[] = [];
  const note = (region: string, id: string, seq: number, tokens: number) => { strippedBlocks.push({ region, id, seq, tokens }); };
  stream.forEach((item, at) => {
    const { message, region } = item;
    const keep = callKept.get(at);
    if (keep) {
      message.tool_calls!.forEach((c, i) => {
        if (!keep[i]) { stripped.toolCalls.push(c.id); note(region, c.id, message.seq, message.toolCallTokens?.[i] ?? 0); }
      });
      if (keep.every(Boolean)) { kept.push(item); return; }
      const partial = withCalls(message, keep);
      if (partial.tool_calls?.length || partial.content.length > 0) kept.push({ message: partial, region });
      return;
    }
    if (message.role === 'tool' && !resultKept.has(at)) {
      const id = message.tool_call_id ?? '';
      stripped.toolResults.push(id);
      note(region, id, message.seq, message.tokens);
      return;
    }
    kept.push(item);
  });
  return { kept, stripped, strippedBlocks };
}
