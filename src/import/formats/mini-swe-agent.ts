// mini-swe-agent trajectories (`*.traj.json`): the message list the agent sent, either as a bare
// array of `{ role, content }` or as `{ info, messages }` (with `trajectory_format`). The agent runs
// one shell command per turn, written in a fenced block (```bash or ```mswea_bash_command); the
// next user message is its output (`<returncode>`, `<output>`). Newer versions keep each call's
// provider response, with its usage, in `extra.response`, and may use tool calls.
import { argumentsFromText, at, isObject, objectAt, type JsonObject } from '../json.ts';
import { chatUsage } from '../usage.ts';
import {
  countSkipped,
  emptyTranscript,
  ImportError,
  type AssistantTurn,
  type Transcript,
  type Where,
} from '../trace.ts';
import { partsText, type PartKinds } from './parts.ts';

const PARTS: PartKinds = { text: new Set(['text']), skipped: { image_url: 'image' } };
const COMMAND = /```(?:mswea_bash_command|bash|sh)\s*\n([\s\S]*?)\n?```/;

export function looksLikeMiniSweAgent(json: unknown): boolean {
  if (isObject(json))
    return Array.isArray(json.messages) && (isObject(json.info) || typeof json.trajectory_format === 'string');
  if (!Array.isArray(json) || json.length < 2) return false;
  const texts = json.map((m) => (isObject(m) && typeof m.content === 'string' ? m.content : ''));
  return texts.some((t) => COMMAND.test(t)) && texts.some((t) => t.trimStart().startsWith('<returncode>'));
}

export function parseMiniSweAgent(json: unknown): Transcript {
  const transcript = emptyTranscript();
  const root: Where = { path: '' };
  const wrapped = isObject(json);
  const base = wrapped ? at(root, 'messages') : root;
  const messages = wrapped ? (json.messages as unknown[]) : (json as unknown[]);
  if (wrapped && isObject(json.info) && isObject(json.info.config) && isObject(json.info.config.model)) {
    const name = json.info.config.model.model_name;
    if (typeof name === 'string') transcript.model = name;
  }
  let pending: string | undefined;
  let n = 0;
  messages.forEach((raw, i) => {
    const where = at(base, i);
    const message = objectAt(raw, where, 'a message { role, content }');
    const text = partsText(message.content, at(where, 'content'), transcript, PARTS);
    switch (message.role) {
      case 'system':
        if (text.length > 0) transcript.notes.push(text);
        return;
      case 'assistant': {
        const turn: AssistantTurn = { kind: 'assistant', text, calls: [], where };
        if (Array.isArray(message.tool_calls)) {
          message.tool_calls.forEach((c, k) => {
            const here = at(at(where, 'tool_calls'), k);
            const call = objectAt(c, here, 'a tool call { id, function }');
            const fn = objectAt(call.function, at(here, 'function'), 'the called function { name, arguments }');
            turn.calls.push({
              id: String(call.id),
              name: String(fn.name),
              arguments: argumentsFromText(fn.arguments ?? '', at(at(here, 'function'), 'arguments')),
              where: here,
            });
          });
          pending = undefined;
        } else {
          const command = COMMAND.exec(text)?.[1];
          pending = command === undefined ? undefined : `mini-swe-agent-${++n}`;
          if (pending !== undefined)
            turn.calls.push({ id: pending, name: 'bash', arguments: { command: command! }, where });
        }
        const recorded = usageOf(message);
        if (recorded) turn.recorded = recorded;
        if (recorded?.model) transcript.model ??= recorded.model;
        transcript.turns.push(turn);
        return;
      }
      case 'tool':
        if (typeof message.tool_call_id !== 'string')
          throw new ImportError(at(where, 'tool_call_id'), 'missing', 'the id of the call this output answers');
        transcript.turns.push({
          kind: 'tool_result',
          callId: message.tool_call_id,
          content: text,
          isError: false,
          where,
        });
        return;
      case 'user':
        if (pending !== undefined) {
          const code = /<returncode>\s*(-?\d+)\s*<\/returncode>/.exec(text);
          transcript.turns.push({
            kind: 'tool_result',
            callId: pending,
            content: text,
            isError: code !== null && Number(code[1]) !== 0,
            where,
          });
          pending = undefined;
        } else if (text.length > 0) transcript.turns.push({ kind: 'user', text, where });
        return;
      default:
        // The run's end (`exit`) and other bookkeeping the model never saw.
        countSkipped(transcript, `${String(message.role)} message`);
    }
  });
  return transcript;
}

function usageOf(message: JsonObject) {
  const extra = isObject(message.extra) ? message.extra : undefined;
  const response = extra && isObject(extra.response) ? extra.response : undefined;
  if (!response) return undefined;
  return chatUsage(response.usage, typeof response.model === 'string' ? response.model : undefined);
}
