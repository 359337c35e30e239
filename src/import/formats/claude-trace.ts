// claude-trace logs (`.claude-trace/log-*.jsonl`): one line per HTTP exchange Claude Code made,
// `{ request: { url, body }, response: { body | body_raw } }`. Each request body is the exact
// Messages API body sent, so the conversation is read from the requests themselves: the main
// agent's requests (those declaring the most tools: title and quota checks declare none, a
// sub-agent fewer) grow one turn at a time, and each one's response usage is that call's record.
// A request whose first message differs from the one before starts a new context (a compaction).
import { isObject, objectAt, type JsonObject } from '../json.ts';
import { anthropicUsage, callInstant } from '../usage.ts';
import { emptyTranscript, type AssistantTurn, type Progress, type Transcript, type Where } from '../trace.ts';
import { pushAnthropicMessage, readAnthropicContent } from './anthropic.ts';
import { forEachJsonLine } from './jsonl.ts';

export function looksLikeClaudeTraceEntry(value: unknown): boolean {
  return (
    isObject(value) &&
    isObject(value.request) &&
    'response' in value &&
    (isObject(value.request.body) || typeof value.request.url === 'string')
  );
}

/** Claude Code's reminders inside user messages: harness text, not the user's words. */
const isReminder = (text: string) => text.trimStart().startsWith('<system-reminder>');

interface Exchange {
  body: JsonObject;
  response: { content: unknown[]; usage: unknown; model?: string };
  where: Where;
  /** When the request was sent. */
  time?: string;
}

export function parseClaudeTrace(text: string, progress?: Progress): Transcript {
  const exchanges: Exchange[] = [];
  const warnings = forEachJsonLine(
    text,
    (value, line) => {
      const where: Where = { line, path: 'request.body' };
      const entry = objectAt(value, { line, path: '' }, 'an exchange { request, response }');
      const request = isObject(entry.request) ? entry.request : {};
      if (!isObject(request.body) || !Array.isArray(request.body.messages)) return;
      const time = callInstant(request.timestamp);
      exchanges.push({ body: request.body, response: responseOf(entry.response), where, ...(time ? { time } : {}) });
    },
    progress,
  );
  const transcript = emptyTranscript();
  transcript.warnings.push(...warnings);
  const toolsOf = (e: Exchange) => (Array.isArray(e.body.tools) ? e.body.tools.length : 0);
  const most = Math.max(0, ...exchanges.map(toolsOf));
  const main = exchanges.filter((e) => toolsOf(e) === most);
  // Segments: runs of requests that share their first message (one context between compactions).
  const segments: Exchange[][] = [];
  for (const e of main) {
    const current = segments.at(-1);
    const first = current?.[0];
    if (current && first && firstMessageText(first) === firstMessageText(e)) current.push(e);
    else segments.push([e]);
  }
  segments.forEach((segment, s) => readSegment(segment, s > 0, transcript));
  return transcript;
}

/** One context: the last request's messages are every turn but the last reply, which is its response. */
function readSegment(segment: Exchange[], afterCompaction: boolean, transcript: Transcript): void {
  const last = segment.at(-1)!;
  if (typeof last.body.model === 'string') transcript.model ??= last.body.model;
  const system = last.body.system;
  if (!afterCompaction && system !== undefined) {
    const text = readAnthropicContent(system, { ...last.where, path: 'request.body.system' }, transcript).text;
    if (text.length > 0) transcript.notes.push(text);
  }
  const messages = last.body.messages as unknown[];
  const start = transcript.turns.length;
  messages.forEach((raw, i) => {
    const where = { ...last.where, path: `request.body.messages[${i}]` };
    const message = objectAt(raw, where, 'a message { role, content }');
    const content = readAnthropicContent(
      message.content,
      { ...where, path: `${where.path}.content` },
      transcript,
      message.role === 'user' ? isReminder : undefined,
    );
    if (afterCompaction && i === 0) {
      transcript.turns.push({ kind: 'compaction', summary: content.text, where });
      pushAnthropicMessage('user', { ...content, text: '' }, where, transcript);
      return;
    }
    pushAnthropicMessage(message.role === 'assistant' ? 'assistant' : 'user', content, where, transcript);
  });
  const reply = readAnthropicContent(last.response.content, { ...last.where, path: 'response' }, transcript);
  pushAnthropicMessage('assistant', reply, last.where, transcript);
  // The k-th reply of this context is the response to its k-th request.
  const replies = transcript.turns.slice(start).filter((t): t is AssistantTurn => t.kind === 'assistant');
  replies.forEach((turn, k) => {
    const exchange = segment[k];
    const recorded = exchange && anthropicUsage(exchange.response.usage, exchange.response.model);
    if (recorded) turn.recorded = recorded;
    if (exchange?.time !== undefined) turn.at = exchange.time;
  });
}

/** The response's content and usage: a JSON body, or the server-sent events of a streamed one. */
function responseOf(raw: unknown): Exchange['response'] {
  const response = isObject(raw) ? raw : {};
  if (isObject(response.body)) {
    return {
      content: Array.isArray(response.body.content) ? response.body.content : [],
      usage: response.body.usage,
      model: typeof response.body.model === 'string' ? response.body.model : undefined,
    };
  }
  const events = typeof response.body_raw === 'string' ? response.body_raw : '';
  const blocks: JsonObject[] = [];
  const partial: string[] = [];
  let usage: JsonObject = {};
  let model: string | undefined;
  for (const line of events.split('\n')) {
    if (!line.startsWith('data:')) continue;
    let event: unknown;
    try {
      event = JSON.parse(line.slice(5));
    } catch {
      continue;
    }
    if (!isObject(event)) continue;
    if (event.type === 'message_start' && isObject(event.message)) {
      usage = isObject(event.message.usage) ? { ...event.message.usage } : {};
      if (typeof event.message.model === 'string') model = event.message.model;
    } else if (event.type === 'message_delta' && isObject(event.usage)) usage = { ...usage, ...event.usage };
    else if (event.type === 'content_block_start' && isObject(event.content_block) && typeof event.index === 'number') {
      blocks[event.index] = { ...event.content_block };
      partial[event.index] = '';
    } else if (event.type === 'content_block_delta' && isObject(event.delta) && typeof event.index === 'number') {
      const block = blocks[event.index];
      if (!block) continue;
      if (event.delta.type === 'text_delta')
        block.text = `${String(block.text ?? '')}${String(event.delta.text ?? '')}`;
      if (event.delta.type === 'input_json_delta') partial[event.index] += String(event.delta.partial_json ?? '');
    }
  }
  blocks.forEach((block, i) => {
    const json = partial[i];
    if (block.type !== 'tool_use' || !json) return;
    try {
      block.input = JSON.parse(json);
    } catch {
      block.input = {};
    }
  });
  return { content: blocks.filter(Boolean), usage, ...(model ? { model } : {}) };
}

/** The first message's text: the harness moves its cache_control marks from request to request, so blocks differ where the words do not. */
function firstMessageText(e: Exchange): string {
  const first = (e.body.messages as unknown[])[0];
  const content = isObject(first) ? first.content : undefined;
  if (typeof content === 'string') return content;
  return Array.isArray(content)
    ? content
        .map((b) => (isObject(b) && typeof b.text === 'string' ? b.text : isObject(b) ? String(b.type) : ''))
        .join('\n')
    : '';
}
