// OpenHands trajectories: the event stream as a JSON array (or `{ trajectory: [...] }`, or an
// evaluation output's `{ instance_id, history: [...], metrics }`). Actions
// (`action`) and observations (`observation`) from `source` user, agent or environment. An action
// the model chose carries `tool_call_metadata`: the call's id and function and the whole
// `model_response` (a Chat Completions response with its `usage`); one response with several calls
// becomes several actions sharing `model_response.id`, so they are joined back into one turn. An
// observation answers the call its metadata names. A plain agent `message` is a reply without calls.
import { argumentsFromText, arrayAt, at, isObject, objectAt, type JsonObject } from '../json.ts';
import { callInstant, chatUsage } from '../usage.ts';
import { countSkipped, emptyTranscript, type AssistantTurn, type Transcript, type Where } from '../trace.ts';

/** The key an object form keeps its events under. */
function eventsKey(json: unknown): 'trajectory' | 'history' | undefined {
  if (!isObject(json)) return undefined;
  if (Array.isArray(json.trajectory)) return 'trajectory';
  return Array.isArray(json.history) ? 'history' : undefined;
}

export function looksLikeOpenHands(json: unknown): boolean {
  const key = eventsKey(json);
  const list = key ? (json as JsonObject)[key] : json;
  return (
    Array.isArray(list) &&
    list.some(
      (e) =>
        isObject(e) &&
        (typeof e.action === 'string' || typeof e.observation === 'string') &&
        typeof e.source === 'string',
    )
  );
}

export function parseOpenHands(json: unknown): Transcript {
  const transcript = emptyTranscript();
  const root: Where = { path: '' };
  const key = eventsKey(json);
  const base = key ? at(root, key) : root;
  const events = arrayAt(key ? (json as JsonObject)[key] : json, base, 'the event list');
  const byResponse = new Map<string, AssistantTurn>();
  events.forEach((raw, i) => {
    const where = at(base, i);
    const event = objectAt(raw, where, 'an event { source, action | observation }');
    const meta = isObject(event.tool_call_metadata) ? event.tool_call_metadata : undefined;
    if (typeof event.observation === 'string') {
      if (meta && typeof meta.tool_call_id === 'string') {
        transcript.turns.push({
          kind: 'tool_result',
          callId: meta.tool_call_id,
          content: String(event.content ?? ''),
          isError: event.observation === 'error' || event.success === false,
          where,
        });
      } else countSkipped(transcript, `${event.observation} observation`);
      return;
    }
    if (typeof event.action !== 'string') return;
    const args = isObject(event.args) ? event.args : {};
    if (event.action === 'system') {
      if (typeof args.content === 'string') transcript.notes.push(args.content);
      return;
    }
    if (meta) return readCall(event, meta, where, transcript, byResponse);
    if (event.action === 'message' && typeof args.content === 'string') {
      if (event.source === 'user') transcript.turns.push({ kind: 'user', text: args.content, where });
      else if (event.source === 'agent')
        transcript.turns.push({ kind: 'assistant', text: args.content, calls: [], where });
      return;
    }
    // Agent state changes, recalls and other runtime bookkeeping the model never saw as a turn.
    countSkipped(transcript, `${event.action} action`);
  });
  return transcript;
}

function readCall(
  event: JsonObject,
  meta: JsonObject,
  where: Where,
  transcript: Transcript,
  byResponse: Map<string, AssistantTurn>,
): void {
  const response = isObject(meta.model_response) ? meta.model_response : {};
  const responseId = typeof response.id === 'string' ? response.id : undefined;
  const choice = Array.isArray(response.choices) && isObject(response.choices[0]) ? response.choices[0] : {};
  const message = isObject(choice.message) ? choice.message : {};
  const id = String(meta.tool_call_id);
  const name = String(meta.function_name ?? event.action);
  const listed = Array.isArray(message.tool_calls)
    ? message.tool_calls.find((c) => isObject(c) && c.id === id)
    : undefined;
  const fn = isObject(listed) && isObject(listed.function) ? listed.function : undefined;
  const args = fn ? argumentsFromText(fn.arguments ?? '', at(where, 'tool_call_metadata')) : {};
  let turn = responseId === undefined ? undefined : byResponse.get(responseId);
  if (!turn) {
    const model = typeof response.model === 'string' ? response.model : undefined;
    if (model) transcript.model ??= model;
    turn = { kind: 'assistant', text: typeof message.content === 'string' ? message.content : '', calls: [], where };
    const recorded = chatUsage(response.usage, model);
    if (recorded) turn.recorded = recorded;
    const time = callInstant(event.timestamp);
    if (time !== undefined) turn.at = time;
    transcript.turns.push(turn);
    if (responseId !== undefined) byResponse.set(responseId, turn);
  }
  turn.calls.push({ id, name, arguments: args, where });
}
