// Traffic events: one-line summaries and sensible new events for the "add" menu.
import { type EventType, type TrafficEvent, fmt } from '../engine/page.ts';
import { firstLine } from './format.ts';

export const EVENT_TYPES: { type: EventType; label: string }[] = [
  { type: 'user', label: 'user message' },
  { type: 'assistant', label: 'assistant turn (an inference)' },
  { type: 'tool_result', label: 'tool result' },
  { type: 'context_append', label: 'context_append' },
  { type: 'context_delete', label: 'context_delete' },
  { type: 'context_list', label: 'context_list' },
  { type: 'todo_add', label: 'todo_add' },
  { type: 'todo_done', label: 'todo_done' },
  { type: 'todo_note', label: 'todo_note' },
  { type: 'transition', label: 'stage transition' },
];

export function summarize(e: TrafficEvent): string {
  switch (e.type) {
    case 'user':
      return firstLine(e.content, 70);
    case 'assistant': {
      const calls = e.tool_calls?.map((c) => c.name).join(', ');
      return [firstLine(e.content, 50), calls ? `→ ${calls}` : ''].filter(Boolean).join(' ');
    }
    case 'tool_result':
      return `${e.tool_name}${e.is_error ? ' (error)' : ''}: ${e.size_tokens !== undefined ? `${fmt(e.size_tokens)} tokens` : firstLine(e.content ?? '', 50)}`;
    case 'context_append':
      return `${e.region}${e.key ? `[${e.key}]` : ''}: ${firstLine(e.content, 50)}`;
    case 'context_delete':
      return `${e.region}: ${e.key !== undefined ? `key ${e.key}` : e.index !== undefined ? `index ${e.index}` : `oldest ${e.oldest}`}`;
    case 'context_list':
      return e.region;
    case 'todo_add':
      return `${e.region}: ${firstLine(e.item, 60)}`;
    case 'todo_done':
      return `${e.region} #${e.id}`;
    case 'todo_note':
      return `${e.region} #${e.id}: ${firstLine(e.note, 50)}`;
    case 'transition':
      return `→ ${e.to}`;
    case 'compaction':
      return `harness compaction${e.pre_tokens !== undefined ? ` at ${fmt(e.pre_tokens)} tokens` : ''}: ${firstLine(e.summary, 50)}`;
  }
}

/** The id of the most recent tool call before `at`, so a new tool_result pairs with it. */
function lastToolCall(traffic: TrafficEvent[], at: number): { id: string; name: string } | undefined {
  for (let i = Math.min(at, traffic.length) - 1; i >= 0; i--) {
    const e = traffic[i];
    if (e?.type === 'assistant' && e.tool_calls?.length) return e.tool_calls[e.tool_calls.length - 1];
  }
  return undefined;
}

export function newEvent(type: EventType, traffic: TrafficEvent[], at: number): TrafficEvent {
  switch (type) {
    case 'user':
      return { type, content: 'Please also update the docs.' };
    case 'assistant':
      return {
        type,
        content: 'Reading the file.',
        tool_calls: [{ id: `call_${at + 1}`, name: 'read_file', arguments: { path: 'README.md' } }],
      };
    case 'tool_result': {
      const call = lastToolCall(traffic, at);
      return { type, tool_call_id: call?.id ?? 'call_1', tool_name: call?.name ?? 'read_file', size_tokens: 800 };
    }
    case 'context_append':
      return { type, region: 'notes', key: 'finding-1', content: 'What I learned.' };
    case 'context_delete':
      return { type, region: 'notes', oldest: 1 };
    case 'context_list':
      return { type, region: 'notes' };
    case 'todo_add':
      return { type, region: 'todos', item: 'Write the test' };
    case 'todo_done':
      return { type, region: 'todos', id: 1 };
    case 'todo_note':
      return { type, region: 'todos', id: 1, note: 'Blocked on review' };
    case 'transition':
      return { type, to: 'review' };
    case 'compaction':
      return { type, summary: 'Summary of the conversation so far.' };
  }
}
