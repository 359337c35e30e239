// The readers and ctx builders for custom-region hooks, over hand-built Rhai values.
import { describe, expect, it } from 'vitest';
import {
  entryMap,
  jsToRhai,
  overflowCtx,
  readOnOverflow,
  readOnWrite,
  readRender,
  renderCtx,
  rhaiToJs,
  writeCtx,
} from '../../src/engine/custom-hooks.ts';
import type { Entry } from '../../src/engine/regions/types.ts';
import { RhaiChar, RhaiFloat, type RhaiValue } from '../../src/rhai/values.ts';

const map = (o: Record<string, RhaiValue>): Map<string, RhaiValue> => new Map(Object.entries(o));
const facts = { name: 'brain', budget: 80000, tokens: 1234, entryCount: 7 };

describe('ctx builders', () => {
  const turn: Entry = {
    seq: 4,
    content: 'reading',
    tokens: 9,
    kind: 'assistant_turn',
    toolCalls: [
      {
        id: 'c1',
        name: 'read_file',
        arguments: { path: 'a.rs', limit: 10, ratio: 0.5, opts: { deep: true }, none: null },
      },
    ],
    toolCallTokens: [7],
  };
  const result: Entry = {
    seq: 5,
    content: 'ERROR: boom',
    tokens: 3,
    kind: 'tool_result',
    toolCallId: 'c1',
    toolName: 'read_file',
    isError: true,
    key: 'a.rs',
  };

  it('entries carry the spec fields, kind-specific ones only where they belong', () => {
    expect(entryMap({ seq: 1, content: 'hi', tokens: 1, kind: 'text' })).toEqual(
      map({ content: 'hi', tokens: 1, timestamp: 1, key: undefined, kind: 'text' }),
    );
    expect(entryMap(turn)).toEqual(
      map({
        content: 'reading',
        tokens: 9,
        timestamp: 4,
        key: undefined,
        kind: 'assistant_turn',
        tool_calls: [
          map({
            id: 'c1',
            name: 'read_file',
            arguments: map({
              path: 'a.rs',
              limit: 10,
              ratio: new RhaiFloat(0.5),
              opts: map({ deep: true }),
              none: undefined,
            }),
          }),
        ],
      }),
    );
    expect(entryMap(result)).toEqual(
      map({
        content: 'ERROR: boom',
        tokens: 3,
        timestamp: 5,
        key: 'a.rs',
        kind: 'tool_result',
        tool_call_id: 'c1',
        tool_name: 'read_file',
        is_error: true,
      }),
    );
  });

  it('render, on_write and on_overflow ctx shapes', () => {
    const ctx = renderCtx({
      region: facts,
      entries: [result],
      stage: 'plan',
      stageIterations: 2,
      model: 'claude-sonnet-4',
      windowTokens: 9000,
      windowMax: 200000,
    });
    expect([...ctx.keys()]).toEqual(['region', 'entries', 'stage_name', 'stage_iterations', 'model', 'window']);
    expect(ctx.get('region')).toEqual(map({ name: 'brain', budget: 80000, current_tokens: 1234, entry_count: 7 }));
    expect(ctx.get('window')).toEqual(map({ total_tokens: 9000, max_tokens: 200000 }));
    expect(ctx.get('stage_name')).toBe('plan');
    expect(ctx.get('stage_iterations')).toBe(2);
    expect(writeCtx(facts, result).get('entry')).toEqual(
      map({ content: 'ERROR: boom', kind: 'tool_result', tokens: 3 }),
    );
    expect(overflowCtx(facts, [result], 120).get('needed_tokens')).toBe(120);
  });

  it('JSON-like values round-trip', () => {
    const args = { a: 1, b: [1, 'x', null], c: { d: 2.5 } };
    expect(rhaiToJs(jsToRhai(args))).toEqual(args);
    expect(rhaiToJs(new RhaiChar('z'))).toBe('z');
  });
});

describe('readRender', () => {
  it('a string is one system block; empty means nothing', () => {
    expect(readRender('hello')).toEqual({ ok: true, value: { system: ['hello'], messages: [], notes: [] } });
    expect(readRender('')).toEqual({ ok: true, value: { system: [], messages: [], notes: [] } });
  });

  it('a map with system (string or array) and typed messages', () => {
    const value = map({
      system: ['a', '', 'b'],
      messages: [
        map({ role: 'user', content: 'hi' }),
        map({
          role: 'assistant',
          content: '',
          tool_calls: [map({ id: 'c1', name: 'grep', arguments: map({ q: 'x' }) })],
        }),
        map({ role: 'tool', content: 'found', tool_call_id: 'c1' }),
        map({ role: 'user', content: 'next', tool_results: [map({ tool_call_id: 'c2', content: 'r2' })] }),
      ],
      extra: 1,
    });
    expect(readRender(value)).toEqual({
      ok: true,
      value: {
        system: ['a', 'b'],
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: '', tool_calls: [{ id: 'c1', name: 'grep', arguments: { q: 'x' } }] },
          { role: 'tool', content: 'found', tool_call_id: 'c1' },
          { role: 'tool', content: 'r2', tool_call_id: 'c2' },
          { role: 'user', content: 'next' },
        ],
        notes: ['render returned an unknown key "extra" (only system and messages are read)'],
      },
    });
    expect(readRender(map({ system: 'only' }))).toEqual({
      ok: true,
      value: { system: ['only'], messages: [], notes: [] },
    });
  });

  it('an answer of the wrong shape as a whole says where, and falls back', () => {
    const err = (v: RhaiValue) => {
      const r = readRender(v);
      return r.ok ? 'ok' : r.error;
    };
    expect(err(undefined)).toBe('render must return a string or a map with system / messages, got ()');
    expect(err(42)).toBe('render must return a string or a map with system / messages, got i64');
    expect(err(map({ system: 3 }))).toBe("render's system must be a string or an array of strings, got i64");
    expect(err(map({ messages: 'x' }))).toBe("render's messages must be an array of maps, got string");
  });

  it('one part that cannot be used is left out with a note that says where; the rest is kept', () => {
    const kept = { role: 'user', content: 'kept' };
    const notes = (part: RhaiValue) => {
      const r = readRender(map({ system: ['sys'], messages: [map(kept), part] }));
      if (!r.ok) throw new Error(r.error);
      expect(r.value.system).toEqual(['sys']);
      expect(r.value.messages).toEqual([kept]);
      return r.value.notes;
    };
    expect(notes(map({ role: 'system', content: 'x' }))).toEqual([
      'render\'s messages[1].role must be "user", "assistant" or "tool", got "system"; that message was left out',
    ]);
    expect(notes(map({ role: 'user', content: 5 }))).toEqual([
      "render's messages[1].content must be a string, got i64; that message was left out",
    ]);
    expect(notes(map({ role: 'tool', content: 'x' }))).toEqual([
      'render\'s messages[1] has role "tool" but no tool_call_id; that message was left out',
    ]);
    expect(notes(map({ role: 'user', content: 'x', tool_calls: [] }))).toEqual([
      'render\'s messages[1] carries tool_calls but its role is "user"; only assistant messages call tools; that message was left out',
    ]);
    expect(notes(map({ role: 'assistant', content: '', tool_calls: [map({ id: '', name: 'x' })] }))).toEqual([
      "render's messages[1].tool_calls[0].id must be a non-empty string; that message was left out",
    ]);
    const system = readRender(map({ system: ['a', 1, 'b'] }));
    expect(system).toEqual({
      ok: true,
      value: {
        system: ['a', 'b'],
        messages: [],
        notes: ["render's system[1] must be a string, got i64; that part was left out"],
      },
    });
  });
});

describe('readOnWrite and readOnOverflow', () => {
  it('on_write outcomes', () => {
    expect(readOnWrite(undefined)).toEqual({ ok: true, value: { action: 'accept' } });
    expect(readOnWrite(true)).toEqual({ ok: true, value: { action: 'accept' } });
    expect(readOnWrite(false)).toEqual({ ok: true, value: { action: 'drop' } });
    expect(readOnWrite('short')).toEqual({ ok: true, value: { action: 'replace', content: 'short' } });
    expect(readOnWrite(1)).toEqual({ ok: false, error: 'on_write must return a string, true, false or (), got i64' });
  });

  it('on_overflow: sorted unique indices in range', () => {
    expect(readOnOverflow([3, 1, 1], 4)).toEqual({ ok: true, value: [1, 3] });
    expect(readOnOverflow([], 4)).toEqual({ ok: true, value: [] });
    expect(readOnOverflow(undefined, 4)).toEqual({
      ok: false,
      error: 'on_overflow must return an array of entry indices, got ()',
    });
    expect(readOnOverflow([0, 'x'], 4)).toEqual({
      ok: false,
      error: "on_overflow's result[1] must be an integer index, got string",
    });
    expect(readOnOverflow([4], 4)).toEqual({ ok: false, error: "on_overflow's result[0] is 4, outside 0..3" });
  });
});
