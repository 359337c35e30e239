// Gemini CLI chat sessions (`~/.gemini/tmp/<project>/chats/session-*.json`, or the newer `.jsonl`
// whose first line is the session's header): `{ sessionId, projectHash, messages }`, each message
// `{ type: "user" | "gemini" | "info" | "error" | "warning", content, toolCalls?, tokens?, model? }`.
// A `gemini` message is one model response: its text, its calls (`toolCalls[]`: id, name, args, and
// the `result` parts the CLI sent back, `functionResponse.response`), and the call's `tokens`.
import { arrayAt, at, isObject, objectAt, type JsonObject } from '../json.ts';
import { callInstant, geminiUsage } from '../usage.ts';
import { itemAt } from '../../engine/page.ts';
import {
  countSkipped,
  emptyTranscript,
  type AssistantTurn,
  type Progress,
  type Transcript,
  type Where,
} from '../trace.ts';
import { forEachJsonLine } from './jsonl.ts';

export function looksLikeGeminiSession(json: unknown): boolean {
  return (
    isObject(json) && typeof json.sessionId === 'string' && ('projectHash' in json || Array.isArray(json.messages))
  );
}

/** The whole-document form. */
export function parseGeminiSession(json: unknown): Transcript {
  const transcript = emptyTranscript();
  const root: Where = { path: '' };
  const body = objectAt(json, root, 'a Gemini CLI session { sessionId, messages }');
  arrayAt(body.messages, at(root, 'messages'), "the session's messages").forEach((m, i) =>
    readMessage(m, at(at(root, 'messages'), i), transcript),
  );
  return transcript;
}

/** The JSON Lines form: a header line, then one message a line (`$set` lines update the header). */
export function parseGeminiJsonl(text: string, progress?: Progress): Transcript {
  const transcript = emptyTranscript();
  const warnings = forEachJsonLine(
    text,
    (value, line) => {
      if (isObject(value) && typeof value.type === 'string') readMessage(value, { line, path: '' }, transcript);
    },
    progress,
  );
  transcript.warnings.push(...warnings);
  return transcript;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((p) => (isObject(p) && typeof p.text === 'string' ? p.text : ''))
    .filter((t) => t.length > 0)
    .join('\n');
}

function readMessage(raw: unknown, where: Where, transcript: Transcript): void {
  const message = objectAt(raw, where, 'a message { type, content }');
  const text = textOf(message.content);
  if (message.type === 'user') {
    if (text.length > 0) transcript.turns.push({ kind: 'user', text, where });
    return;
  }
  if (message.type !== 'gemini') {
    countSkipped(transcript, `${String(message.type)} message`);
    return;
  }
  const model = typeof message.model === 'string' ? message.model : undefined;
  if (model) transcript.model ??= model;
  const calls = Array.isArray(message.toolCalls) ? message.toolCalls.filter(isObject) : [];
  const turn: AssistantTurn = {
    kind: 'assistant',
    text,
    where,
    calls: calls.map((c, i) => ({
      id: String(c.id ?? `gemini-${i}`),
      name: String(c.name ?? 'tool'),
      arguments: isObject(c.args) ? c.args : {},
      where: at(at(where, 'toolCalls'), i),
    })),
  };
  const recorded = geminiUsage(message.tokens, model);
  if (recorded) turn.recorded = recorded;
  const time = callInstant(message.timestamp);
  if (time !== undefined) turn.at = time;
  transcript.turns.push(turn);
  turn.calls.forEach((call, i) =>
    transcript.turns.push({
      kind: 'tool_result',
      callId: call.id,
      content: resultText(itemAt(calls, i)),
      isError: itemAt(calls, i).status === 'error',
      where: at(at(where, 'toolCalls'), i),
    }),
  );
}

/** What the CLI sent back for a call: the function response's output (or error), as text. */
function resultText(call: JsonObject): string {
  const parts = Array.isArray(call.result) ? call.result : [];
  const texts = parts
    .map((p) => {
      const response =
        isObject(p) && isObject(p.functionResponse) && isObject(p.functionResponse.response)
          ? p.functionResponse.response
          : undefined;
      if (!response) return '';
      const value = response.output ?? response.error ?? response;
      return typeof value === 'string' ? value : JSON.stringify(value);
    })
    .filter((t) => t.length > 0);
  if (texts.length > 0) return texts.join('\n');
  return typeof call.resultDisplay === 'string' ? call.resultDisplay : '';
}
