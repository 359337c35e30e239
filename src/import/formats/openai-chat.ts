// OpenAI Chat Completions: a request body ({ messages }), a bare array of messages, or a response
// ({ object: "chat.completion", choices: [{ message }] }). Roles system/developer are the harness's
// (notes); user, assistant (content plus tool_calls with JSON `arguments`) and tool (tool_call_id)
// are the conversation.
import { argumentsFromText, arrayAt, at, objectAt, stringAt, type JsonObject } from '../json.ts';
import { emptyTranscript, ImportError, type TraceCall, type Transcript, type Where } from '../trace.ts';
import { partsText, type PartKinds } from './parts.ts';

const CHAT_PARTS: PartKinds = {
  text: new Set(['text', 'refusal']),
  skipped: { image_url: 'image', input_audio: 'audio', file: 'document' },
};

function readToolCalls(message: JsonObject, where: Where): TraceCall[] {
  if (message.tool_calls === undefined || message.tool_calls === null) return [];
  return arrayAt(message.tool_calls, at(where, 'tool_calls'), 'an array of tool calls').map((raw, i) => {
    const here = at(at(where, 'tool_calls'), i);
    const call = objectAt(raw, here, 'a tool call { id, type: "function", function: { name, arguments } }');
    const fn = objectAt(call.function, at(here, 'function'), 'the called function { name, arguments }');
    return {
      id: stringAt(call.id, at(here, 'id'), 'the tool call id (the tool message names it in tool_call_id)'),
      name: stringAt(fn.name, at(at(here, 'function'), 'name'), "the function's name"),
      arguments: argumentsFromText(fn.arguments, at(at(here, 'function'), 'arguments')),
      where: here,
    };
  });
}

function readMessage(raw: unknown, where: Where, transcript: Transcript): void {
  const message = objectAt(raw, where, 'a message object with a "role"');
  const content = () => partsText(message.content, at(where, 'content'), transcript, CHAT_PARTS);
  switch (message.role) {
    case 'system':
    case 'developer': {
      const text = content();
      if (text.length > 0) transcript.notes.push(text);
      return;
    }
    case 'user': {
      const text = content();
      if (text.length > 0) transcript.turns.push({ kind: 'user', text, where });
      return;
    }
    case 'assistant':
      transcript.turns.push({ kind: 'assistant', text: content(), calls: readToolCalls(message, where), where });
      return;
    case 'tool':
      transcript.turns.push({
        kind: 'tool_result',
        callId: stringAt(
          message.tool_call_id,
          at(where, 'tool_call_id'),
          'the id of the assistant tool call this message answers',
        ),
        content: content(),
        isError: false,
        where,
      });
      return;
    default:
      throw new ImportError(
        at(where, 'role'),
        `found role ${JSON.stringify(message.role)}`,
        'one of "system", "developer", "user", "assistant" or "tool"',
      );
  }
}

export function parseOpenAIChat(json: unknown): Transcript {
  const transcript = emptyTranscript();
  const root: Where = { path: '' };
  if (Array.isArray(json)) {
    json.forEach((m, i) => readMessage(m, at(root, i), transcript));
    return transcript;
  }
  const body = objectAt(
    json,
    root,
    'a Chat Completions request ({ "messages": [...] }), a response ({ "choices": [...] }) or an array of messages',
  );
  if (typeof body.model === 'string') transcript.model = body.model;
  if (body.messages === undefined && Array.isArray(body.choices)) {
    const choice = objectAt(body.choices[0], at(at(root, 'choices'), 0), 'a choice with a "message"');
    readMessage(choice.message, at(at(at(root, 'choices'), 0), 'message'), transcript);
    return transcript;
  }
  const messages = arrayAt(body.messages, at(root, 'messages'), 'the conversation as an array of messages');
  messages.forEach((m, i) => readMessage(m, at(at(root, 'messages'), i), transcript));
  return transcript;
}
