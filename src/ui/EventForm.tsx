// A form per event type. The draft is checked against the scenario schema on every change and
// saved only when valid, so the traffic never holds an event the engine would refuse.
import { useState } from 'react';
import { EventSchema, type TrafficEvent } from '../engine/page.ts';
import { describeIssues } from '../worker/protocol.ts';

type Draft = Record<string, unknown>;

function Text({
  label,
  value,
  onChange,
  multiline,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  multiline?: boolean;
}) {
  return (
    <>
      <label>{label}</label>
      {multiline ? (
        <textarea rows={3} aria-label={label} value={value} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <input aria-label={label} value={value} onChange={(e) => onChange(e.target.value)} />
      )}
    </>
  );
}

function Num({
  label,
  value,
  onChange,
}: {
  label: string;
  value: number | undefined;
  onChange: (v: number | undefined) => void;
}) {
  return (
    <>
      <label>{label}</label>
      <input
        type="number"
        aria-label={label}
        value={value ?? ''}
        onChange={(e) => onChange(e.target.value === '' ? undefined : Number(e.target.value))}
      />
    </>
  );
}

function JsonField({ label, value, onChange }: { label: string; value: unknown; onChange: (v: unknown) => void }) {
  const [text, setText] = useState(() => JSON.stringify(value ?? [], null, 1));
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      <label>{label}</label>
      <div>
        <textarea
          rows={4}
          aria-label={label}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            try {
              onChange(JSON.parse(e.target.value));
              setError(null);
            } catch (err) {
              setError(err instanceof Error ? err.message : String(err));
            }
          }}
        />
        {error && <div className="error-text">Not JSON yet: {error}</div>}
      </div>
    </>
  );
}

function fields(draft: Draft, set: (patch: Draft) => void) {
  const str = (k: string) => (typeof draft[k] === 'string' ? (draft[k] as string) : '');
  const num = (k: string) => (typeof draft[k] === 'number' ? (draft[k] as number) : undefined);
  const optStr = (k: string) => (v: string) => set({ [k]: v === '' ? undefined : v });
  switch (draft.type) {
    case 'user':
      return <Text label="content" value={str('content')} onChange={(v) => set({ content: v })} multiline />;
    case 'assistant':
      return (
        <>
          <Text label="content" value={str('content')} onChange={(v) => set({ content: v })} multiline />
          <JsonField
            label="tool_calls"
            value={draft.tool_calls ?? []}
            onChange={(v) => set({ tool_calls: Array.isArray(v) && v.length === 0 ? undefined : v })}
          />
        </>
      );
    case 'tool_result': {
      const bySize = draft.size_tokens !== undefined;
      return (
        <>
          <Text label="tool_call_id" value={str('tool_call_id')} onChange={(v) => set({ tool_call_id: v })} />
          <Text label="tool_name" value={str('tool_name')} onChange={(v) => set({ tool_name: v })} />
          <label>body</label>
          <select
            aria-label="body"
            value={bySize ? 'size' : 'content'}
            onChange={(e) =>
              set(
                e.target.value === 'size'
                  ? { size_tokens: 500, content: undefined }
                  : { content: '', size_tokens: undefined },
              )
            }
          >
            <option value="size">filler of N tokens</option>
            <option value="content">literal content</option>
          </select>
          {bySize ? (
            <Num label="size_tokens" value={num('size_tokens')} onChange={(v) => set({ size_tokens: v })} />
          ) : (
            <Text label="content" value={str('content')} onChange={(v) => set({ content: v })} multiline />
          )}
          <label>is_error</label>
          <input
            type="checkbox"
            aria-label="is_error"
            checked={draft.is_error === true}
            onChange={(e) => set({ is_error: e.target.checked || undefined })}
          />
        </>
      );
    }
    case 'context_append':
      return (
        <>
          <Text label="region" value={str('region')} onChange={(v) => set({ region: v })} />
          <Text label="key" value={str('key')} onChange={optStr('key')} />
          <Text label="content" value={str('content')} onChange={(v) => set({ content: v })} multiline />
        </>
      );
    case 'context_delete': {
      const by = draft.key !== undefined ? 'key' : draft.index !== undefined ? 'index' : 'oldest';
      return (
        <>
          <Text label="region" value={str('region')} onChange={(v) => set({ region: v })} />
          <label>by</label>
          <select
            aria-label="delete by"
            value={by}
            onChange={(e) =>
              set({
                key: undefined,
                index: undefined,
                oldest: undefined,
                ...(e.target.value === 'key' ? { key: '' } : { [e.target.value]: e.target.value === 'oldest' ? 1 : 0 }),
              })
            }
          >
            <option value="key">key</option>
            <option value="index">index</option>
            <option value="oldest">oldest</option>
          </select>
          {by === 'key' ? (
            <Text label="key" value={str('key')} onChange={(v) => set({ key: v })} />
          ) : (
            <Num label={by} value={num(by)} onChange={(v) => set({ [by]: v })} />
          )}
        </>
      );
    }
    case 'context_list':
      return <Text label="region" value={str('region')} onChange={(v) => set({ region: v })} />;
    case 'todo_add':
      return (
        <>
          <Text label="region" value={str('region')} onChange={(v) => set({ region: v })} />
          <Text label="item" value={str('item')} onChange={(v) => set({ item: v })} />
        </>
      );
    case 'todo_done':
    case 'todo_note':
      return (
        <>
          <Text label="region" value={str('region')} onChange={(v) => set({ region: v })} />
          <Num label="id" value={num('id')} onChange={(v) => set({ id: v })} />
          {draft.type === 'todo_note' && <Text label="note" value={str('note')} onChange={(v) => set({ note: v })} />}
        </>
      );
    case 'transition':
      return <Text label="to (stage)" value={str('to')} onChange={(v) => set({ to: v })} />;
    default:
      return null;
  }
}

export function EventForm({ event, onChange }: { event: TrafficEvent; onChange: (e: TrafficEvent) => void }) {
  const [draft, setDraft] = useState<Draft>(() => ({ ...event }));
  const [error, setError] = useState<string | null>(null);
  const set = (patch: Draft) => {
    const next: Draft = { ...draft, ...patch };
    for (const k of Object.keys(next)) if (next[k] === undefined) delete next[k];
    setDraft(next);
    const parsed = EventSchema.safeParse(next);
    if (parsed.success) {
      setError(null);
      onChange(parsed.data);
    } else {
      setError(describeIssues(parsed.error));
    }
  };
  return (
    <div className="event-form" data-testid="event-form">
      {fields(draft, set)}
      {error && <div className="full error-text">Not saved yet: {error}</div>}
    </div>
  );
}
