// SWE-agent trajectories (`<instance>.traj`, one per instance in every SWE-bench submission made with
// SWE-agent): `{ environment, trajectory, history, info }`. `history` is the message list the agent
// sent, in order: the system prompt, demonstrations (`is_demo`), the issue, then assistant turns and
// what came back. With function calling an assistant turn carries `tool_calls` and each result is a
// `tool` message naming its calls in `tool_call_ids` (a list); without it the turn's `action` is the
// command and the next user message is its output. `info.model_stats.api_calls` counts the calls.
import { argumentsFromText, arrayAt, at, isObject, objectAt, type JsonObject } from '../json.ts';
import { countSkipped, emptyTranscript, ImportError, type TraceCall, type Transcript, type Where } from '../trace.ts';
import { partsText, type PartKinds } from './parts.ts';

const PARTS: PartKinds = { text: new Set(['text']), skipped: { image_url: 'image' } };

export function looksLikeSweAgent(json: unknown): boolean {
  return isObject(json) && Array.isArray(json.history) && (Array.isArray(json.trajectory) || isObject(json.info));
}

export function parseSweAgent(json: unknown): Transcript {
  const transcript = emptyTranscript();
  const root: Where = { path: '' };
  const body = objectAt(json, root, 'a SWE-agent trajectory { history, trajectory, info }');
  const history = arrayAt(body.history, at(root, 'history'), 'the message list the agent sent');
  transcript.model = modelOf(body);
  // The command of the last turn that ran one without function calling: the next user message is its output.
  let pending: string | undefined;
  let n = 0;
  history.forEach((raw, i) => {
    const where = at(at(root, 'history'), i);
    const message = objectAt(raw, where, 'a message { role, content }');
    const text = partsText(message.content, at(where, 'content'), transcript, PARTS);
    if (message.is_demo === true || message.message_type === 'demonstration') {
      countSkipped(transcript, 'demonstration');
      return;
    }
    switch (message.role) {
      case 'system':
        if (text.length > 0) transcript.notes.push(text);
        return;
      case 'assistant': {
        const calls = readCalls(message, where);
        const action = typeof message.action === 'string' ? message.action.trim() : '';
        if (calls.length === 0 && action.length > 0) {
          const id = `swe-agent-${++n}`;
          calls.push({ id, name: commandName(action), arguments: { command: action }, where });
          pending = id;
        } else pending = undefined;
        transcript.turns.push({ kind: 'assistant', text, calls, where });
        return;
      }
      case 'tool': {
        const ids = Array.isArray(message.tool_call_ids) ? message.tool_call_ids : [message.tool_call_id];
        ids.forEach((id, k) => {
          if (typeof id !== 'string' || id.length === 0)
            throw new ImportError(at(where, 'tool_call_ids'), 'missing', 'the ids of the calls this output answers');
          // One output answers every call it names; the text goes with the first.
          transcript.turns.push({
            kind: 'tool_result',
            callId: id,
            content: k === 0 ? text : '',
            isError: false,
            where,
          });
        });
        pending = undefined;
        return;
      }
      case 'user':
        if (pending !== undefined) {
          transcript.turns.push({ kind: 'tool_result', callId: pending, content: text, isError: false, where });
          pending = undefined;
        } else if (text.length > 0) transcript.turns.push({ kind: 'user', text, where });
        return;
      default:
        throw new ImportError(
          at(where, 'role'),
          `found role ${JSON.stringify(message.role)}`,
          'one of "system", "user", "assistant" or "tool"',
        );
    }
  });
  readTrailingSteps(body, history, transcript, n);
  return transcript;
}

/**
 * SWE-agent appends to `history` after each observation, so a run that ended on its last call
 * (`submit`) has that call only in `trajectory`: the steps past the history's assistant messages
 * are read from there (thought, action and observation), so every API call is an inference.
 */
function readTrailingSteps(body: JsonObject, history: unknown[], transcript: Transcript, n: number): void {
  if (!Array.isArray(body.trajectory)) return;
  const inHistory = history.filter((m) => isObject(m) && m.role === 'assistant' && m.is_demo !== true).length;
  body.trajectory.slice(inHistory).forEach((raw, k) => {
    const where = at(at({ path: '' }, 'trajectory'), inHistory + k);
    const step = objectAt(raw, where, 'a trajectory step { thought, action, observation }');
    const action = typeof step.action === 'string' ? step.action.trim() : '';
    const thought =
      typeof step.thought === 'string' ? step.thought : typeof step.response === 'string' ? step.response : '';
    const id = `swe-agent-${++n}`;
    transcript.turns.push({
      kind: 'assistant',
      text: thought,
      calls: action ? [{ id, name: commandName(action), arguments: { command: action }, where }] : [],
      where,
    });
    if (action && typeof step.observation === 'string')
      transcript.turns.push({ kind: 'tool_result', callId: id, content: step.observation, isError: false, where });
  });
}

function readCalls(message: JsonObject, where: Where): TraceCall[] {
  if (!Array.isArray(message.tool_calls)) return [];
  return message.tool_calls.map((raw, i) => {
    const here = at(at(where, 'tool_calls'), i);
    const call = objectAt(raw, here, 'a tool call { id, function: { name, arguments } }');
    const fn = objectAt(call.function, at(here, 'function'), 'the called function { name, arguments }');
    if (typeof call.id !== 'string' || typeof fn.name !== 'string')
      throw new ImportError(
        here,
        'a call without an id or a name',
        'a tool call { id, function: { name, arguments } }',
      );
    return {
      id: call.id,
      name: fn.name,
      arguments: argumentsFromText(fn.arguments ?? '', at(at(here, 'function'), 'arguments')),
      where: here,
    };
  });
}

/** The command's first word names the tool (`open`, `edit`, `python`): SWE-agent's own commands route by it. */
function commandName(action: string): string {
  return /^[\w-]+/.exec(action)?.[0] ?? 'bash';
}

function modelOf(body: JsonObject): string | undefined {
  let config: unknown = body.replay_config;
  if (typeof config === 'string') {
    try {
      config = JSON.parse(config);
    } catch {
      return undefined;
    }
  }
  const agent = isObject(config) && isObject(config.agent) ? config.agent : undefined;
  const model = agent && isObject(agent.model) ? agent.model.name : undefined;
  return typeof model === 'string' ? model : undefined;
}
