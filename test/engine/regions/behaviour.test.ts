import { describe, expect, it } from 'vitest';
import { append, detail, figures, run, user, words } from '../../builders.ts';
import type { TrafficEvent } from '../../../src/engine/scenario.ts';

/** Exactly `n` tokens: " alpha" is one token, and the pre-split keeps words apart. */

describe('temporary', () => {
  it('trims the oldest entries once over budget', () => {
    const t = run('[context.regions]\nnotes = { max_tokens = 100 }', [
      append('notes', words(40), 'a'),
      append('notes', words(40), 'b'),
      append('notes', words(40), 'c'),
    ]);
    expect(figures(t.steps[1]!, 'notes')).toEqual({ notes: [80, 2] });
    expect(t.steps[2]!.changes).toEqual([
      { type: 'evict', region: 'notes', tokens: 40, entries: ['a'], reason: 'over budget 100' },
    ]);
    expect(figures(t.steps[2]!, 'notes')).toEqual({ notes: [80, 2] });
    expect(t.regions.find((r) => r.name === 'notes')!.kind).toBe('temporary');
  });
});

describe('pinned', () => {
  it('is never evicted, even over its budget, and says so', () => {
    const t = run('[context.regions]\nrules = { kind = "pinned", max_tokens = 10 }', [
      append('rules', words(30), 'r1'),
      append('rules', words(5), 'r2'),
    ]);
    expect(figures(t.steps[1]!, 'rules')).toEqual({ rules: [35, 2] });
    expect(t.steps[1]!.changes).toEqual([]);
    expect(t.steps[0]!.warnings[0]).toBe(
      'rules is pinned and over its budget: 30 of 10 tokens (pinned content is never evicted)',
    );
  });

  it('refuses context_delete', () => {
    const t = run('[context.regions]\nrules = { kind = "pinned" }', [
      append('rules', 'x', 'k'),
      { type: 'context_delete', region: 'rules', key: 'k' },
    ]);
    expect(t.steps[1]!.result).toEqual({ ok: false, message: 'rules is pinned: its entries are never removed' });
    expect(figures(t.steps[1]!, 'rules')).toEqual({ rules: [1, 1] });
  });
});

describe('sliding_window', () => {
  const chat = (rest: string) => `[context.regions]\nconversation = { kind = "sliding_window", max_items = 3${rest} }`;
  const four: TrafficEvent[] = [
    user(words(5, 'one')),
    user(words(5, 'two')),
    user(words(5, 'three')),
    user(words(5, 'four')),
  ];

  it('per_item drops the oldest one at a time', () => {
    const t = run(chat(''), four);
    expect(t.steps[3]!.changes).toEqual([
      {
        type: 'evict',
        region: 'conversation',
        tokens: 5,
        entries: ['one one one one one'],
        reason: 'max_items 3 exceeded',
      },
    ]);
    expect(figures(t.steps[3]!, 'conversation')).toEqual({ conversation: [15, 3] });
  });

  it('bulk drops `overflow` at once', () => {
    const t = run(chat(', strategy = "bulk", overflow = 2'), four);
    expect(t.steps[3]!.changes).toEqual([
      {
        type: 'evict',
        region: 'conversation',
        tokens: 10,
        entries: ['one one one one one', 'two two two two two'],
        reason: 'max_items 3 exceeded: dropped 2 at a time',
      },
    ]);
    expect(figures(t.steps[3]!, 'conversation')).toEqual({ conversation: [10, 2] });
  });

  it('compact folds `compact_count` of the oldest into one summary entry', () => {
    const toml = chat(', strategy = "compact", compact_count = 2');
    const t = run(toml, four);
    const c = t.steps[3]!.changes[0]!;
    expect(c.type).toBe('compact');
    expect(c.entries).toEqual(['one one one one one', 'two two two two two']);
    expect(figures(t.steps[3]!, 'conversation').conversation![1]).toBe(3);
  });

  it('evicts by tokens as well as by count', () => {
    const t = run('[context.regions]\nconversation = { kind = "sliding_window", max_items = 10, max_tokens = 12 }', [
      user(words(5)),
      user(words(5)),
      user(words(5)),
    ]);
    expect(t.steps[2]!.changes).toEqual([
      { type: 'evict', region: 'conversation', tokens: 5, entries: [words(5)], reason: 'over budget 12' },
    ]);
  });
});

describe('compacting', () => {
  it('folds the oldest entries into a summary until under half its trigger', () => {
    const t = run('[context.regions]\ncodebase = { kind = "compacting", max_tokens = 100 }', [
      append('codebase', words(40), 'src/a.rs'),
      append('codebase', words(40), 'src/b.rs'),
      append('codebase', words(40), 'src/c.rs'),
    ]);
    const step = t.steps[2]!;
    // a+b fold first; summary + c (55 tokens) is still over half of 100, so they fold again.
    expect(step.changes.map((c) => [c.type, c.entries])).toEqual([
      ['compact', ['src/a.rs', 'src/b.rs']],
      ['compact', ['[summary of 2 entries from codebase] src/a.rs; src/b.rs', 'src/c.rs']],
    ]);
    expect(step.regions.codebase!.entries).toBe(1);
    expect(step.regions.codebase!.tokens).toBeLessThanOrEqual(50);
    const d = detail(
      '[context.regions]\ncodebase = { kind = "compacting", max_tokens = 100 }',
      [
        append('codebase', words(40), 'src/a.rs'),
        append('codebase', words(40), 'src/b.rs'),
        append('codebase', words(40), 'src/c.rs'),
      ],
      2,
    );
    const summary = d.regions.find((r) => r.name === 'codebase')!.entries[0]!;
    expect(summary.content).toBe('[summary of 3 entries from codebase] src/a.rs; src/b.rs; src/c.rs');
    expect(summary.folded).toEqual({ entries: 3, tokens: 120 });
  });

  it('honours compact_at and threshold_tokens, and never loses that content existed', () => {
    const traffic = Array.from({ length: 30 }, (_, i) => append('codebase', words(20), `file${i}`));
    const t = run(
      '[context.regions]\ncodebase = { kind = "compacting", max_tokens = 1000, compact_at = "50%", threshold_tokens = 300 }',
      traffic,
    );
    const meta = t.regions.find((r) => r.name === 'codebase')!;
    expect(meta.trigger).toBe(300);
    for (const step of t.steps) expect(step.regions.codebase!.tokens).toBeLessThanOrEqual(300);
    expect(t.steps[15]!.changes[0]!.reason).toBe('over threshold_tokens 300');
  });
});

describe('clearable', () => {
  it('is wiped in one shot when a write does not fit', () => {
    const t = run('[context.regions]\nscratch = { kind = "clearable", max_tokens = 100 }', [
      append('scratch', words(40), 'a'),
      append('scratch', words(40), 'b'),
      append('scratch', words(40), 'c'),
    ]);
    expect(t.steps[2]!.changes).toEqual([
      { type: 'clear', region: 'scratch', tokens: 80, entries: ['a', 'b'], reason: 'over budget 100' },
    ]);
    expect(figures(t.steps[2]!, 'scratch')).toEqual({ scratch: [40, 1] });
  });
});

describe('hashmap', () => {
  const toml = '[context.regions]\nfindings = { kind = "hashmap", max_entries = 2 }';
  it('replaces a key on write and evicts the least recently written past max_entries', () => {
    const t = run(toml, [
      append('findings', words(3), 'a'),
      append('findings', words(4), 'b'),
      append('findings', words(6), 'a'),
      append('findings', words(2), 'c'),
    ]);
    expect(t.steps[2]!.changes).toEqual([
      { type: 'replace', region: 'findings', tokens: 3, entries: ['a'], reason: 'key "a" rewritten' },
    ]);
    expect(figures(t.steps[2]!, 'findings')).toEqual({ findings: [10, 2] });
    expect(t.steps[3]!.changes).toEqual([
      { type: 'evict', region: 'findings', tokens: 4, entries: ['b'], reason: 'max_entries 2 exceeded' },
    ]);
    expect(figures(t.steps[3]!, 'findings')).toEqual({ findings: [8, 2] });
  });

  it('asks for a key', () => {
    const t = run(toml, [append('findings', 'loose')]);
    expect(t.steps[0]!.result!.ok).toBe(false);
    expect(t.steps[0]!.result!.message).toContain(
      'findings is a hashmap region whose entries are keyed: give the entry a key',
    );
  });
});

describe('checklist', () => {
  const toml = '[context.regions]\ntodos = { kind = "checklist" }';
  const traffic: TrafficEvent[] = [
    { type: 'todo_add', region: 'todos', item: 'write parser' },
    { type: 'todo_add', region: 'todos', item: 'fix lexer' },
    { type: 'todo_done', region: 'todos', id: 1 },
    { type: 'todo_note', region: 'todos', id: 2, note: 'blocked on tokens' },
    { type: 'todo_done', region: 'todos', id: 9 },
    { type: 'todo_add', region: 'todos', item: 'ship' },
    append('todos', 'free text'),
    { type: 'context_delete', region: 'todos', index: 0 },
  ];

  it('gives ids that are never reused, reads errors back, and renders open items first', () => {
    const t = run(toml, traffic);
    expect(t.steps.map((s) => s.result)).toEqual([
      { ok: true, message: 'added #1 to todos' },
      { ok: true, message: 'added #2 to todos' },
      { ok: true, message: '#1 done: write parser' },
      { ok: true, message: 'noted on #2 (still open)' },
      { ok: false, message: 'todos has no item #9 (ids run from 1 to 2; open: #2 fix lexer)' },
      { ok: true, message: 'added #3 to todos' },
      { ok: false, message: 'todos is a checklist: write to it with todo_add, todo_done and todo_note' },
      { ok: false, message: 'todos is a checklist: close items with todo_done rather than deleting them' },
    ]);
  });

  it('renders as one block, open items first', async () => {
    const { detail } = await import('../../builders.ts');
    const d = detail(toml, traffic, 7);
    expect(d.request.system.find((b) => b.region === 'todos')!.text).toBe(
      '[todos]:\n- [ ] #2 fix lexer\n  note: blocked on tokens\n- [ ] #3 ship\n- [x] #1 write parser',
    );
    expect(d.regions.find((r) => r.name === 'todos')!.entries.map((e) => e.checklist)).toEqual([
      { id: 2, state: 'open', notes: ['blocked on tokens'] },
      { id: 3, state: 'open', notes: [] },
      { id: 1, state: 'done', notes: [] },
    ]);
  });
});

describe('admission = "reject"', () => {
  const toml = '[context.regions]\nsources = { kind = "temporary", max_tokens = 100, admission = "reject" }';
  it('refuses a write that does not fit, naming the region and how full it is, and loses nothing', () => {
    const t = run(toml, [
      append('sources', words(60), 'rfc-9110'),
      append('sources', words(60), 'rfc-9111'),
      { type: 'context_delete', region: 'sources', key: 'rfc-9110' },
      append('sources', words(60), 'rfc-9111'),
    ]);
    expect(t.steps[1]!.result).toEqual({
      ok: false,
      message:
        'sources is full: 60 of 100 tokens; release something with context_delete first (this write needs 60 tokens)',
    });
    expect(t.steps[1]!.changes).toEqual([
      { type: 'reject', region: 'sources', tokens: 60, entries: ['rfc-9111'], reason: 'admission = "reject"' },
    ]);
    expect(figures(t.steps[1]!, 'sources')).toEqual({ sources: [60, 1] });
    expect(t.steps[2]!.result).toEqual({
      ok: true,
      message: 'deleted 1 entry (60 tokens) from sources; sources now holds 0 of 100 tokens',
    });
    expect(figures(t.steps[2]!, 'sources')).toEqual({ sources: [0, 0] });
    expect(t.steps[3]!.result!.ok).toBe(true);
  });
});

describe('admission = "reject" with item limits and compact_at', () => {
  it('refuses past max_items instead of sliding', () => {
    const t = run(
      '[context.regions]\nconversation = { kind = "sliding_window", max_items = 2, admission = "reject" }',
      [user('a'), user('b'), user('c')],
    );
    expect(t.steps[2]!.changes).toEqual([
      { type: 'reject', region: 'conversation', tokens: 1, entries: ['c'], reason: 'admission = "reject"' },
    ]);
    expect(t.steps[2]!.regions.conversation).toMatchObject({ entries: 2, tokens: 2 });
  });

  it('refuses at compact_at instead of compacting', () => {
    const t = run(
      '[context.regions]\nnotes = { kind = "compacting", max_tokens = 100, compact_at = "50%", admission = "reject" }',
      [append('notes', words(40), 'a'), append('notes', words(20), 'b')],
    );
    expect(t.steps[1]!.result).toEqual({
      ok: false,
      message:
        'notes is full: 40 of 50 tokens; release something with context_delete first (this write needs 20 tokens)',
    });
  });
});

describe('context_delete and context_list', () => {
  const toml = '[context.regions]\nnotes = { max_tokens = 1000 }';
  it('deletes by key, index and oldest, freeing tokens at once', () => {
    const t = run(toml, [
      append('notes', words(1), 'a'),
      append('notes', words(2), 'b'),
      append('notes', words(3), 'c'),
      append('notes', words(4), 'd'),
      append('notes', words(5)),
      { type: 'context_list', region: 'notes' },
      { type: 'context_delete', region: 'notes', index: 1 },
      { type: 'context_delete', region: 'notes', oldest: 2 },
      { type: 'context_delete', region: 'notes', key: 'zzz' },
      { type: 'context_delete', region: 'notes', index: 7 },
    ]);
    expect(t.steps[5]!.result!.message).toBe(
      [
        'notes (temporary): 5 entries; notes now holds 15 of 1,000 tokens',
        '0: a (1 tokens)',
        '1: b (2 tokens)',
        '2: c (3 tokens)',
        '3: d (4 tokens)',
        `4: ${words(5)} (5 tokens)`,
      ].join('\n'),
    );
    expect(t.steps[6]!.changes).toEqual([
      { type: 'delete', region: 'notes', tokens: 2, entries: ['b'], reason: 'context_delete' },
    ]);
    expect(t.steps[7]!.changes).toEqual([
      { type: 'delete', region: 'notes', tokens: 4, entries: ['a', 'c'], reason: 'context_delete' },
    ]);
    expect(figures(t.steps[7]!, 'notes')).toEqual({ notes: [9, 2] });
    expect(t.steps[8]!.result).toEqual({
      ok: false,
      message: 'notes has no entry with key "zzz" (2 entries; see context_list)',
    });
    expect(t.steps[9]!.result).toEqual({
      ok: false,
      message: 'notes has no entry at index 7 (2 entries; indexes start at 0)',
    });
  });

  it('names the regions a stage has when one is unknown', () => {
    const t = run(toml, [append('nope', 'x')]);
    expect(t.steps[0]!.result).toEqual({
      ok: false,
      message:
        'no region named "nope" (stage main has: notes, conversation, tool_results, final_output, stage_instructions)',
    });
  });
});
