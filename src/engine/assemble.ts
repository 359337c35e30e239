// Regions -> the provider request. Order (DESIGN.md): pinned regions in declaration order, then
// stage_instructions, then the other system-section regions in declaration order, then the message
// stream (message-section regions merged by write order). Unpaired tool calls and results are
// stripped and counted, so no request is one a provider would refuse.
import { STAGE_INSTRUCTIONS } from './implicit-regions.ts';
import { isStubMessage, partsOf, renderedMessage, sharePartsOf } from './regions/base.ts';
import type { Entry, Region, RegionContext, RenderedMessage } from './regions/types.ts';
import type { AssembledRequest, RequestMessage, SystemBlock } from './timeline.ts';
import { itemAt } from './item-at.ts';

export { STAGE_INSTRUCTIONS };

export interface StrippedBlock {
  region: string;
  /** A call (true) or a result (false). */
  call: boolean;
  /** The tool call id. */
  id: string;
  /** Write order of the message it was stripped from (with `id`, names the block across requests). */
  seq: number;
  tokens: number;
}

/** A block of the request, as the cache-prefix measure sees it: a system region's block, or a message as sent. */
export type RequestBlock = SystemBlock | RenderedMessage;

export interface Assembly {
  /** The request as sent; its message objects are built on first read (the replay only needs counts). */
  readonly request: AssembledRequest;
  tokens: number;
  /** The stripped calls' and results' ids (made from strippedBlocks on first read). */
  readonly stripped: AssembledRequest['stripped'];
  /** System blocks then the messages as sent, for the cache-prefix measure; unchanged parts keep identity. */
  blocks: RequestBlock[];
  systemTokens: number;
  messageTokens: number;
  /** Each stripped call or result, for the timeline's `strip` changes. */
  strippedBlocks: StrippedBlock[];
}

/**
 * Whether two blocks are the same for the prompt cache: the same object, or the same text
 * (blockText). A text's length is known without building it, unless a message carries calls, and
 * texts of different lengths differ: the common case, a message against the one after it.
 */
export function sameBlock(a: RequestBlock, b: RequestBlock): boolean {
  if (a === b) return true;
  // Two renders of one region, compared entry by entry: only an entry that is not the same object
  // has its text read (a region's whole text, hundreds of KB, is never flattened to be compared).
  if (!('role' in a) && !('role' in b) && a.region === b.region) {
    const before = partsOf(a);
    const after = partsOf(b);
    if (before && after) return sameEntries(before.entries, after.entries);
  }
  const lengthA = knownTextLength(a);
  const lengthB = knownTextLength(b);
  if (lengthA !== undefined && lengthB !== undefined && lengthA !== lengthB) return false;
  return blockText(a) === blockText(b);
}

/**
 * The tokens a system block `b` shares with `a`, the block it follows in the previous request, for
 * a provider whose cache matches a token prefix that may end inside a block: the region's header
 * and its leading entries that are the same objects in both (a region that appended an entry, or
 * replaced a later one), one token less for the last shared entry, whose last token may merge with
 * what follows it. 0 when the blocks are not two renders of one region, or for a message.
 */
export function grownBlockTokens(a: RequestBlock, b: RequestBlock): number {
  if ('role' in a || 'role' in b || a.region !== b.region) return 0;
  const before = partsOf(a);
  const after = partsOf(b);
  if (!before || !after) return 0;
  const n = Math.min(before.entries.length, after.entries.length);
  let shared = 0;
  while (shared < n && before.entries[shared] === after.entries[shared]) shared++;
  return shared === 0 ? 0 : Math.max(0, itemAt(before.through, shared - 1) - 1);
}

function sameEntries(a: readonly Entry[], b: readonly Entry[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = itemAt(a, i);
    const y = itemAt(b, i);
    if (x !== y && (x.key !== y.key || x.content !== y.content)) return false;
  }
  return true;
}

function knownTextLength(block: RequestBlock): number | undefined {
  if (!('role' in block)) return block.text.length;
  if (block.tool_calls?.length) return undefined;
  return block.role.length + (block.tool_call_id?.length ?? 0) + block.content.length + 2;
}

/**
 * The text a block is compared by when it is not the same object as the other request's: a
 * system block's text, or a message's role, call id, content and calls. Built only when asked
 * (once or twice per request), so a message needs no block object of its own.
 */
function blockText(block: RequestBlock): string {
  if (!('role' in block)) return block.text;
  const calls = block.tool_calls?.length ? `\n${JSON.stringify(block.tool_calls)}` : '';
  return `${block.role}\u0000${block.tool_call_id ?? ''}\u0000${block.content}${calls}`;
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

/**
 * What assembling keeps from one request to the next of a run (each run has its own, so two runs
 * never share one): objects made once and reused while what they were made from holds, and the
 * pairing's buffers.
 */
export class AssemblyState {
  /**
   * What a request needs of its layout, kept per layout array (layouts are replaced, never changed,
   * and a region's section and removability never change): its system order, and its region names,
   * read per message without a property lookup on regions of every kind.
   */
  readonly layouts = new WeakMap<readonly Region[], { systemOrder: Region[]; names: string[] }>();
  readonly systemBlocks = new WeakMap<object, SystemBlock>();
  readonly partialMessages = new WeakMap<RenderedMessage, Map<number | string, RenderedMessage>>();
  // A result whose call has left the window is stripped from every request until it leaves too: its
  // block is made once (per region it is sent from), and a run reports it once by identity.
  readonly resultStrips = new WeakMap<RenderedMessage, StrippedBlock>();
  /** Likewise a call whose result has left: its block, by its message and its place among the message's calls. */
  readonly callStrips = new WeakMap<RenderedMessage, StrippedBlock[]>();
  /**
   * Calls waiting for their result while a stream is paired, by call id: `base + slot` of the
   * earliest waiting call with that id (a slot is the call's place among the stream's calls). The
   * map outlives each pairing and each pairing has a base above every code of the ones before, so a
   * code below the base is an earlier pairing's and means nothing waits: nothing is cleared, and
   * since consecutive requests hold mostly the same calls, the map keeps its keys instead of growing
   * from empty every request (half of pairing's time otherwise). Codes stay small integers, which
   * V8 stores without allocating.
   */
  readonly waitingFirst = new Map<string, number>();
  /** The next pairing's base. */
  nextBase = 1;
  answeredScratch = new Uint8Array(64);
  slotScratch = new Int32Array(256);
}

function layoutOf(state: AssemblyState, regions: readonly Region[]): { systemOrder: Region[]; names: string[] } {
  let layout = state.layouts.get(regions);
  if (!layout)
    state.layouts.set(regions, (layout = { systemOrder: systemOrder(regions), names: regions.map((r) => r.name) }));
  return layout;
}

/** Where the runtime's own notices to the model are said to come from in a request. */
export const RUNTIME_NOTICE_REGION = '(runtime)';

/**
 * `regions`: the stage's visible regions in declaration order. Read-only: nothing is mutated.
 * `notices`: messages the runtime owes the model once (a write it refused), sent after the stream.
 */
export function assemble(
  state: AssemblyState,
  regions: readonly Region[],
  ctx: RegionContext,
  notices: readonly RenderedMessage[] = [],
): Assembly {
  const layout = layoutOf(state, regions);
  const blocks: RequestBlock[] = [];
  let systemTokens = 0;
  for (const region of layout.systemOrder) {
    const rendered = region.render(ctx).system;
    if (!rendered || rendered.text.length === 0) continue;
    let block = state.systemBlocks.get(rendered);
    if (!block) {
      block = { region: region.name, text: rendered.text, tokens: rendered.tokens, cache: region.cache };
      state.systemBlocks.set(rendered, block);
      sharePartsOf(rendered, block);
    }
    blocks.push(block);
    systemTokens += block.tokens;
  }
  const systemCount = blocks.length;
  const stream = messageStream(regions, layout.names, ctx);
  for (const notice of notices) {
    stream.messages.push(notice);
    stream.owners.push(RUNTIME_NOTICE_REGION);
  }
  const paired = pairToolBlocks(state, stream, blocks);
  const messageTokens = paired.tokens;
  const tokens = systemTokens + messageTokens;
  let request: AssembledRequest | undefined;
  let stripped: AssembledRequest['stripped'] | undefined;
  return {
    get request() {
      return (request ??= {
        system: blocks.slice(0, systemCount) as SystemBlock[],
        messages: requestMessages(blocks, systemCount, paired.owners),
        tokens,
        stripped: this.stripped,
      });
    },
    get stripped() {
      return (stripped ??= strippedIds(paired.strippedBlocks));
    },
    tokens,
    blocks,
    systemTokens,
    messageTokens,
    strippedBlocks: paired.strippedBlocks,
  };
}

/** The message stream: each message with the name of the region it came from. */
interface MessageStream {
  messages: RenderedMessage[];
  owners: string[];
}

/**
 * Every message region's messages, merged by seq as a stable sort of their concatenation (in
 * region order) would order them: on equal seqs, the earlier region's first. A region's messages
 * are in write order unless a custom region says otherwise; then the whole stream is sorted.
 */
function messageStream(regions: readonly Region[], names: readonly string[], ctx: RegionContext): MessageStream {
  const lists: { list: readonly RenderedMessage[]; owner: string }[] = [];
  let total = 0;
  let sorted = true;
  // Tool messages a script emits, by call id: each may answer a call in place of its stub.
  let answers: Map<string, RenderedMessage> | undefined;
  for (const [r, region] of regions.entries()) {
    const list = region.render(ctx).messages;
    if (list.length === 0) continue;
    lists.push({ list, owner: itemAt(names, r) });
    total += list.length;
    for (let i = 1; sorted && i < list.length; i++) if (itemAt(list, i).seq < itemAt(list, i - 1).seq) sorted = false;
    if (!region.messagesAreEntries) {
      for (const message of list) {
        const id = message.tool_call_id;
        if (id !== undefined && !(answers ??= new Map()).has(id)) answers.set(id, message);
      }
    }
  }
  // Sized once and filled in place: pushing grew (and copied) the stream's arrays every request.
  const messages = new Array<RenderedMessage>(total);
  const owners = new Array<string>(total);
  let length = 0;
  for (const { list, owner } of lists) {
    if (sorted) {
      // Merged from the back into the room after the stream so far; on equal seqs the later list's goes last.
      let i = length - 1;
      for (let j = list.length - 1, at = length + list.length - 1; j >= 0; at--) {
        if (i >= 0 && itemAt(messages, i).seq > itemAt(list, j).seq) {
          messages[at] = itemAt(messages, i);
          owners[at] = itemAt(owners, i--);
        } else {
          messages[at] = itemAt(list, j--);
          owners[at] = owner;
        }
      }
    } else {
      for (const [j, message] of list.entries()) {
        messages[length + j] = message;
        owners[length + j] = owner;
      }
    }
    length += list.length;
  }
  if (!sorted) sortBySeq(messages, owners);
  return answers ? answerInPlaceOfStubs(messages, owners, answers) : { messages, owners };
}

/**
 * A script's own tool message for a call whose result was routed into its region answers the call
 * where the runtime's stub stood (right after the call), and the stub is left out: otherwise the
 * stub, written first, would answer it and the script's message would be stripped as a second
 * result. A script's message with no stub to replace stays where its region placed it.
 */
function answerInPlaceOfStubs(
  messages: RenderedMessage[],
  owners: string[],
  answers: ReadonlyMap<string, RenderedMessage>,
): MessageStream {
  const at = new Map<RenderedMessage, number>();
  for (const [i, message] of messages.entries())
    if (message.tool_call_id !== undefined && answers.get(message.tool_call_id) === message) at.set(message, i);
  const moved = new Set<number>();
  for (const [i, stub] of messages.entries()) {
    if (stub.tool_call_id === undefined || !isStubMessage(stub)) continue;
    const answer = answers.get(stub.tool_call_id);
    const from = answer && at.get(answer);
    if (from === undefined || moved.has(from)) continue;
    messages[i] = answer!;
    owners[i] = itemAt(owners, from);
    moved.add(from);
  }
  if (moved.size === 0) return { messages, owners };
  return { messages: messages.filter((_, i) => !moved.has(i)), owners: owners.filter((_, i) => !moved.has(i)) };
}

/** A stable sort of the stream by seq (ties keep their order). */
function sortBySeq(messages: RenderedMessage[], owners: string[]): void {
  const order = messages
    .map((message, at) => ({ message, owner: itemAt(owners, at), at }))
    .sort((a, b) => a.message.seq - b.message.seq || a.at - b.at);
  order.forEach(({ message, owner }, at) => {
    messages[at] = message;
    owners[at] = owner;
  });
}

/** The request's messages: `blocks` after the system ones, each with the name of its region. */
function requestMessages(
  blocks: readonly RequestBlock[],
  systemCount: number,
  owners: readonly string[],
): RequestMessage[] {
  const out: RequestMessage[] = [];
  for (let at = systemCount; at < blocks.length; at++) {
    const message = blocks[at] as RenderedMessage;
    const sent: RequestMessage = {
      role: message.role,
      content: message.content,
      region: itemAt(owners, at - systemCount),
      tokens: message.tokens,
    };
    if (message.tool_calls?.length) sent.tool_calls = [...message.tool_calls];
    if (message.tool_call_id !== undefined) sent.tool_call_id = message.tool_call_id;
    if (message.is_error) sent.is_error = true;
    out.push(sent);
  }
  return out;
}

/** The ids of the stripped calls and of the stripped results, each in stream order. */
function strippedIds(blocks: readonly StrippedBlock[]): AssembledRequest['stripped'] {
  const out = { toolCalls: [] as string[], toolResults: [] as string[] };
  for (const block of blocks) (block.call ? out.toolCalls : out.toolResults).push(block.id);
  return out;
}

function resultStrip(state: AssemblyState, message: RenderedMessage, region: string): StrippedBlock {
  let block = state.resultStrips.get(message);
  if (block?.region !== region)
    state.resultStrips.set(
      message,
      (block = { region, call: false, id: message.tool_call_id ?? '', seq: message.seq, tokens: message.tokens }),
    );
  return block;
}

function callStrip(state: AssemblyState, message: RenderedMessage, call: number, region: string): StrippedBlock {
  let blocks = state.callStrips.get(message);
  if (!blocks) state.callStrips.set(message, (blocks = []));
  let block = blocks[call];
  if (block?.region !== region)
    blocks[call] = block = {
      region,
      call: true,
      id: itemAt(message.tool_calls ?? [], call).id,
      seq: message.seq,
      tokens: message.toolCallTokens?.[call] ?? 0,
    };
  return block;
}

/** The assistant message with only its answered calls (`answered[first + i]` for call i), reused across requests while it holds. */
function withCalls(
  state: AssemblyState,
  message: RenderedMessage,
  answered: Uint8Array,
  first: number,
): RenderedMessage {
  const count = message.tool_calls!.length;
  // Which calls stay, as bits while they fit in a number (turns rarely make 31 calls). No closure
  // here: this runs for every partly answered turn of every request.
  let signature: number | string = 0;
  if (count <= 30) for (let i = 0; i < count; i++) signature |= answered[first + i] === 1 ? 1 << i : 0;
  else {
    signature = '';
    for (let i = 0; i < count; i++) signature += answered[first + i] === 1 ? '1' : '0';
  }
  let byKeep = state.partialMessages.get(message);
  if (!byKeep) state.partialMessages.set(message, (byKeep = new Map()));
  let partial = byKeep.get(signature);
  if (!partial) {
    const keep = (i: number) => answered[first + i] === 1;
    const calls = message.tool_calls!.filter((_, i) => keep(i));
    const costs = message.toolCallTokens?.filter((_, i) => keep(i));
    const dropped = (message.toolCallTokens ?? []).reduce((sum, t, i) => sum + (keep(i) ? 0 : t), 0);
    partial = renderedMessage(message.seq, 'assistant', message.content, message.tokens - dropped, calls, costs);
    byKeep.set(signature, partial);
  }
  return partial;
}

const MAX_CODE = 2 ** 30;

/** The paired stream: kept messages are pushed onto the caller's blocks; `owners[i]` is the region of the i-th kept one. */
interface Paired {
  owners: string[];
  tokens: number;
  /** Each stripped call or result, in stream order. */
  strippedBlocks: StrippedBlock[];
}

/**
 * A tool call stays only when a result for it follows; a result stays only when it answers a call
 * before it. Each result answers the earliest unanswered call with its id, so a result that arrives
 * before its call, or a second result for one call, is stripped along with the call it leaves
 * unpaired. An assistant turn that loses every call and has no text is left out whole. The kept
 * messages are pushed onto `out`.
 */
function pairToolBlocks(state: AssemblyState, { messages, owners }: MessageStream, out: RequestBlock[]): Paired {
  let calls = 0;
  for (const message of messages) calls += message.tool_calls?.length ?? 0;
  // Ids of long-gone calls are dropped now and then, so the map stays near the regions' size.
  const { waitingFirst } = state;
  if (state.nextBase + calls >= MAX_CODE || waitingFirst.size > 4 * calls + 4_096) {
    waitingFirst.clear();
    state.nextBase = 1;
  }
  // A stream of more calls than codes can number (never met) pairs with a map of its own.
  const first = calls < MAX_CODE ? waitingFirst : new Map<string, number>();
  const base = state.nextBase;
  state.nextBase = base + calls + 1;
  // Later calls with an id that already has one waiting, in order (ids rarely repeat).
  let more: Map<string, number[]> | undefined;
  // Every call of the stream has a slot, answered (1) or not. slotOf[at]: an assistant message's
  // first slot; a result's answered slot, or -1 when it answers nothing. Both live only during the
  // pairing, so they are buffers kept between requests (a typed array costs a runtime call to make).
  if (state.answeredScratch.length < calls) state.answeredScratch = new Uint8Array(2 * calls);
  if (state.slotScratch.length < messages.length) state.slotScratch = new Int32Array(2 * messages.length);
  const answered = state.answeredScratch.fill(0, 0, calls);
  const slotOf = state.slotScratch;
  let slots = 0;
  for (const [at, message] of messages.entries()) {
    const toolCalls = message.tool_calls;
    if (message.role === 'assistant' && toolCalls?.length) {
      slotOf[at] = slots;
      for (const { id } of toolCalls) {
        const slot = slots++;
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
        slotOf[at] = -1;
        continue;
      }
      const slot = code - base;
      answered[slot] = 1;
      slotOf[at] = slot;
      // The next waiting call with this id, if any, is now the earliest.
      const next = more?.get(id)?.shift();
      first.set(id, next === undefined ? base - 1 : base + next);
    } else {
      slotOf[at] = -1;
    }
  }

  const keptOwners: string[] = [];
  let tokens = 0;
  const strippedBlocks: StrippedBlock[] = [];
  for (const [at, message] of messages.entries()) {
    const owner = itemAt(owners, at);
    const calls = message.tool_calls;
    if (message.role === 'assistant' && calls?.length) {
      const firstSlot = itemAt(slotOf, at);
      let all = true;
      for (let i = 0; i < calls.length; i++) {
        if (answered[firstSlot + i]) continue;
        all = false;
        strippedBlocks.push(callStrip(state, message, i, owner));
      }
      const sent = all ? message : withCalls(state, message, answered, firstSlot);
      if (all || sent.tool_calls?.length || sent.content.length > 0) {
        out.push(sent);
        keptOwners.push(owner);
        tokens += sent.tokens;
      }
      continue;
    }
    if (message.role === 'tool' && slotOf[at] === -1) {
      const block = resultStrip(state, message, owner);
      strippedBlocks.push(block);
      continue;
    }
    out.push(message);
    keptOwners.push(owner);
    tokens += message.tokens;
  }
  return { owners: keptOwners, tokens, strippedBlocks };
}
