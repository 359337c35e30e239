// Anthropic Messages API: a request body ({ system, messages }), a response body
// ({ type: "message", role: "assistant", content }), or a bare JSON array of messages.
// Content is a string or blocks: text, tool_use { id, name, input }, tool_result { tool_use_id,
// content: string | blocks, is_error }; thinking blocks are the turn's reasoning (sent back within
// the turn), image and document blocks are counted as skipped.
import { arrayAt, at, found, objectAt, stringAt, type JsonObject } from '../json.ts';
import { partsText, type PartKinds } from './parts.ts';
import {
  countSkipped,
  emptyTranscript,
  ImportError,
  type AssistantTurn,
  type TraceCall,
  type TraceTurn,
  type Transcript,
  type Where,
} from '../trace.ts';

/** Blocks the scenario format cannot hold yet, by the name the import report uses. */
const SKIPPED_BLOCKS: Readonly<Record<string, string>> = {
  redacted_thinking: 'redacted thinking',
  image: 'image',
  document: 'document',
};

const RESULT_PARTS: PartKinds = { text: new Set(['text']), skipped: SKIPPED_BLOCKS };

export interface AnthropicContent {
  text: string;
  calls: TraceCall[];
  results: Extract<TraceTurn, { kind: 'tool_result' }>[];
  /** The text of the message's thinking blocks, in order. */
  thinking: string[];
}

/** One message's `content` (string or blocks) as text, calls and results in block order. */
export function readAnthropicContent(
  content: unknown,
  where: Where,
  transcript: Transcript,
  isHarnessText?: (text: string) => boolean,
): AnthropicContent {
  const out: AnthropicContent = { text: '', calls: [], results: [], thinking: [] };
  if (typeof content === 'string') return { ...out, text: content };
  const texts: string[] = [];
  arrayAt(content, where, 'a string or an array of content blocks').forEach((raw, i) => {
    const here = at(where, i);
    const block = objectAt(raw, here, 'a content block object with a "type"');
    const type = stringAt(block.type, at(here, 'type'), 'a block type such as "text", "tool_use" or "tool_result"');
    if (type === 'text') {
      const text = stringOrEmpty(block.text, at(here, 'text'));
      // Text the harness wrote into a user message (reminders): kept aside, as the system prompt is.
      if (isHarnessText?.(text)) transcript.notes.push(text);
      else texts.push(text);
    } else if (type === 'tool_use') out.calls.push(readToolUse(block, here));
    else if (type === 'tool_result') out.results.push(readToolResult(block, here, transcript));
    else if (type === 'thinking' && typeof block.thinking === 'string' && block.thinking.length > 0)
      out.thinking.push(block.thinking);
    else countSkipped(transcript, SKIPPED_BLOCKS[type] ?? type);
  });
  out.text = texts.join('\n');
  return out;
}

function stringOrEmpty(value: unknown, where: Where): string {
  if (typeof value !== 'string') throw new ImportError(where, found(value), "the block's text as a string");
  return value;
}

function readToolUse(block: JsonObject, where: Where): TraceCall {
  const input =
    block.input === undefined ? {} : objectAt(block.input, at(where, 'input'), 'the tool_use input as an object');
  return {
    id: stringAt(block.id, at(where, 'id'), 'the tool_use id (the tool_result names it in tool_use_id)'),
    name: stringAt(block.name, at(where, 'name'), "the tool's name"),
    arguments: input,
    where,
  };
}

function readToolResult(
  block: JsonObject,
  where: Where,
  transcript: Transcript,
): Extract<TraceTurn, { kind: 'tool_result' }> {
  const callId = stringAt(block.tool_use_id, at(where, 'tool_use_id'), 'the id of the tool_use this result answers');
  const content = partsText(block.content, at(where, 'content'), transcript, RESULT_PARTS);
  return { kind: 'tool_result', callId, content, isError: block.is_error === true, where };
}

/** Appends one message's turns: a user message's results (block order) then its text; an assistant message as one turn. */
export function pushAnthropicMessage(
  role: 'user' | 'assistant',
  content: AnthropicContent,
  where: Where,
  transcript: Transcript,
): void {
  if (role === 'assistant') {
    const turn: AssistantTurn = { kind: 'assistant', text: content.text, calls: content.calls, where };
    addThinking(turn, content);
    transcript.turns.push(turn);
    return;
  }
  transcript.turns.push(...content.results);
  if (content.text.length > 0) transcript.turns.push({ kind: 'user', text: content.text, where });
}

/**
 * A response's thinking blocks are its reasoning: the API keeps them in the prompt while the turn's
 * tool loop runs and drops them once a new user message starts the next turn (the as-sent replay
 * does the same with `reasoning`).
 */
export function addThinking(turn: AssistantTurn, content: AnthropicContent): void {
  if (content.thinking.length === 0) return;
  const text = content.thinking.join('\n');
  turn.reasoning = { text: turn.reasoning?.text ? `${turn.reasoning.text}\n${text}` : text };
}

/** `system` as a string or text blocks: harness text, kept as a note. */
function readSystem(system: unknown, where: Where, transcript: Transcript): void {
  if (system === undefined) return;
  const text = readAnthropicContent(system, where, transcript).text;
  if (text.length > 0) transcript.notes.push(text);
}

function readMessages(messages: unknown[], where: Where, transcript: Transcript): void {
  let last: 'user' | 'assistant' | undefined;
  messages.forEach((raw, i) => {
    const here = at(where, i);
    const message = objectAt(raw, here, 'a message object with "role" and "content"');
    const role = message.role;
    if (role !== 'user' && role !== 'assistant') {
      throw new ImportError(
        at(here, 'role'),
        `found role ${JSON.stringify(role)}`,
        '"user" or "assistant" (the system prompt goes in the top-level "system")',
      );
    }
    const content = readAnthropicContent(message.content, at(here, 'content'), transcript);
    // The API joins consecutive assistant messages into one turn; so does the import.
    const previous = transcript.turns.at(-1);
    if (role === 'assistant' && last === 'assistant' && previous?.kind === 'assistant') {
      previous.text = [previous.text, content.text].filter((t) => t.length > 0).join('\n');
      previous.calls.push(...content.calls);
      addThinking(previous, content);
    } else {
      pushAnthropicMessage(role, content, here, transcript);
    }
    last = role;
  });
}

/** A parsed JSON document in any of the three Anthropic shapes. */
export function parseAnthropic(json: unknown): Transcript {
  const transcript = emptyTranscript();
  const root: Where = { path: '' };
  if (Array.isArray(json)) {
    readMessages(json, root, transcript);
    return transcript;
  }
  const body = objectAt(
    json,
    root,
    'a Messages request ({ "messages": [...] }), a response ({ "type": "message", ... }) or an array of messages',
  );
  if (typeof body.model === 'string') transcript.model = body.model;
  if (body.type === 'message') {
    pushAnthropicMessage(
      'assistant',
      readAnthropicContent(body.content, at(root, 'content'), transcript),
      root,
      transcript,
    );
    return transcript;
  }
  readSystem(body.system, at(root, 'system'), transcript);
  readMessages(
    arrayAt(body.messages, at(root, 'messages'), 'the conversation as an array of messages'),
    at(root, 'messages'),
    transcript,
  );
  return transcript;
}
