// A transcript -> scenario traffic. The first user text (before any assistant turn) is the task;
// each assistant turn is one `assistant` event (one inference); each tool result names the tool its
// call named (after the tool map) and answers a call made before it, or the import stops.
import { MAX_RESULT_SIZE_TOKENS, type TrafficEvent } from '../engine/page.ts';
import { mapToolName, normalizeArguments, type ToolMap } from './tool-map.ts';
import { ImportError, type AssistantTurn, type Transcript } from './trace.ts';

export interface MappedTraffic {
  task?: string;
  traffic: TrafficEvent[];
  /** Calls no result answers (the trace ended, or the harness dropped them); the replay strips them. */
  unansweredCalls: string[];
  /** Each trace tool name: what it became and how often it was called. */
  tools: { name: string; mappedTo: string; calls: number }[];
}

export function toTraffic(transcript: Transcript, toolMap: ToolMap): MappedTraffic {
  const traffic: TrafficEvent[] = [];
  const calls = new Map<string, { name: string; answered: boolean }>();
  const tools = new Map<string, { name: string; mappedTo: string; calls: number }>();
  let task: string | undefined;
  let started = false;
  for (const turn of transcript.turns) {
    if (turn.kind === 'user') {
      if (!started && task === undefined) task = turn.text;
      else traffic.push({ type: 'user', content: turn.text });
      continue;
    }
    started = true;
    if (turn.kind === 'compaction') {
      traffic.push({
        type: 'compaction',
        summary: turn.summary,
        ...(isCount(turn.preTokens) ? { pre_tokens: turn.preTokens } : {}),
        ...(turn.trigger === undefined ? {} : { trigger: turn.trigger }),
      });
      continue;
    }
    if (turn.kind === 'assistant') {
      const toolCalls = turn.calls.map((call) => {
        if (call.id === '' || call.name === '') {
          throw new ImportError(
            call.where,
            `a tool call without ${call.id === '' ? 'an id' : 'a name'}`,
            "each tool call with its id and its tool's name",
          );
        }
        const name = mapToolName(toolMap, call.name);
        const seen = tools.get(call.name) ?? { name: call.name, mappedTo: name, calls: 0 };
        seen.calls++;
        tools.set(call.name, seen);
        calls.set(call.id, { name, answered: false });
        return { id: call.id, name, arguments: normalizeArguments(call.arguments) };
      });
      const event: Extract<TrafficEvent, { type: 'assistant' }> = { type: 'assistant', content: turn.text };
      if (toolCalls.length) event.tool_calls = toolCalls;
      if (turn.recorded) event.recorded = turn.recorded;
      if (turn.at !== undefined) event.at = turn.at;
      const reasoning = reasoningOf(turn);
      if (reasoning) event.reasoning = reasoning;
      traffic.push(event);
      continue;
    }
    const call = calls.get(turn.callId);
    if (!call) {
      throw new ImportError(
        turn.where,
        `a tool result for call "${turn.callId}", but no earlier tool call has that id`,
        `the assistant turn that made call "${turn.callId}" before its result (was the trace cut at the start, or an id mistyped?)`,
      );
    }
    if (call.answered) {
      throw new ImportError(turn.where, `a second tool result for call "${turn.callId}"`, 'one result per tool call');
    }
    call.answered = true;
    traffic.push({
      type: 'tool_result',
      tool_call_id: turn.callId,
      tool_name: call.name,
      content: turn.content,
      ...(turn.isError ? { is_error: true } : {}),
    });
  }
  const unansweredCalls = [...calls].filter(([, c]) => !c.answered).map(([id]) => id);
  return { ...(task === undefined ? {} : { task }), traffic, unansweredCalls, tools: [...tools.values()] };
}

/**
 * Reasoning as the scenario holds it: its text, or its size when the trace holds it encrypted (the
 * size given, else the call's recorded reasoning tokens: it goes back to the model as the tokens it
 * was generated as). Encrypted without a recorded size, it is marked so (with its summary, if any):
 * the as-sent replay then sizes it from the calibration calls' records.
 */
function reasoningOf(turn: AssistantTurn): Extract<TrafficEvent, { type: 'assistant' }>['reasoning'] {
  const r = turn.reasoning;
  if (!r) return undefined;
  const tokens = r.tokens ?? (r.encrypted ? turn.recorded?.reasoningTokens : undefined);
  if (isCount(tokens) && tokens <= MAX_RESULT_SIZE_TOKENS) return { size_tokens: tokens };
  const text = r.text !== undefined && r.text.length > 0 ? { content: r.text } : {};
  if (r.encrypted) return { ...text, encrypted: true };
  return r.text ? { content: r.text } : undefined;
}

/** A token count the scenario can hold: a whole number, not negative. */
function isCount(value: number | undefined): value is number {
  return value !== undefined && Number.isInteger(value) && value >= 0;
}
