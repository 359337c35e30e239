// run/agent-tools.ts: the agent's own context tools answer with the message the model reads, and
// change the region (or, refused, leave it as it was).
import { describe, expect, it } from 'vitest';
import { contextAppend, contextDelete, contextList, todo } from '../../../src/engine/run/agent-tools.ts';
import { held, spawn, words } from '../../builders.ts';

const NOTES =
  '[context.regions]\nnotes = { kind = "temporary", max_tokens = 100 }\nrules = { kind = "pinned" }\nfiles = { kind = "hashmap" }\ntodos = { kind = "checklist" }\n';

describe('context_append', () => {
  it('writes the entry under its key and says how full the region is', () => {
    const run = spawn(NOTES);
    expect(contextAppend(run, 'notes', words(40), 'plan')).toEqual({
      ok: true,
      message: 'appended 40 tokens to notes as "plan"; notes now holds 40 of 100 tokens',
    });
    expect(held(run, 'notes')).toEqual([['plan', 40]]);
    expect(run.ledger.byStage.main).toEqual({ notes: 40 });
  });

  it('reports what the region evicted to make room', () => {
    const run = spawn(NOTES);
    contextAppend(run, 'notes', words(60), 'a');
    expect(contextAppend(run, 'notes', words(60), 'b')).toEqual({
      ok: true,
      message: 'appended 60 tokens to notes as "b"; notes now holds 60 of 100 tokens',
    });
    expect(run.changes).toEqual([
      { type: 'evict', region: 'notes', tokens: 60, entries: ['a'], reason: 'over budget 100' },
    ]);
    expect(held(run, 'notes')).toEqual([['b', 60]]);
  });

  it('refuses an unkeyed write to a keyed region, naming the call that would work', () => {
    const run = spawn(NOTES);
    expect(contextAppend(run, 'files', 'src/a.ts', undefined)).toEqual({
      ok: false,
      message:
        'files is a hashmap region whose entries are keyed: give the entry a key (context_append { region: "files", key: "...", content })',
    });
    expect(held(run, 'files')).toEqual([]);
  });

  it('refuses a region the stage does not have, listing the ones it does', () => {
    const run = spawn(NOTES);
    expect(contextAppend(run, 'scratch', 'x', undefined)).toEqual({
      ok: false,
      message:
        'no region named "scratch" (stage main has: notes, rules, files, todos, conversation, tool_results, final_output)',
    });
  });

  it('a full reject region refuses with its fill, and keeps what it held', () => {
    const run = spawn('[context.regions]\nnotes = { kind = "temporary", max_tokens = 50, admission = "reject" }\n');
    contextAppend(run, 'notes', words(40), 'a');
    run.changes = [];
    expect(contextAppend(run, 'notes', words(20), 'b')).toEqual({
      ok: false,
      message:
        'notes is full: 40 of 50 tokens; release something with context_delete first (this write needs 20 tokens)',
    });
    expect(run.changes).toEqual([
      { type: 'reject', region: 'notes', tokens: 20, entries: ['b'], reason: 'admission = "reject"' },
    ]);
    expect(held(run, 'notes')).toEqual([['a', 40]]);
  });
});

describe('context_delete', () => {
  it('removes by key, records the delete, and says what is left', () => {
    const run = spawn(NOTES);
    contextAppend(run, 'notes', words(30), 'a');
    contextAppend(run, 'notes', words(20), 'b');
    run.changes = [];
    expect(contextDelete(run, { type: 'context_delete', region: 'notes', key: 'a' })).toEqual({
      ok: true,
      message: 'deleted 1 entry (30 tokens) from notes; notes now holds 20 of 100 tokens',
    });
    expect(run.changes).toEqual([
      { type: 'delete', region: 'notes', tokens: 30, entries: ['a'], reason: 'context_delete' },
    ]);
    expect(held(run, 'notes')).toEqual([['b', 20]]);
  });

  it('removes the oldest n', () => {
    const run = spawn(NOTES);
    for (const key of ['a', 'b', 'c']) contextAppend(run, 'notes', words(10), key);
    expect(contextDelete(run, { type: 'context_delete', region: 'notes', oldest: 2 })).toEqual({
      ok: true,
      message: 'deleted 2 entries (20 tokens) from notes; notes now holds 10 of 100 tokens',
    });
    expect(held(run, 'notes')).toEqual([['c', 10]]);
  });

  it('refuses pinned content and an index past the end, removing nothing', () => {
    const run = spawn(NOTES);
    contextAppend(run, 'rules', 'never push to main', 'r1');
    expect(contextDelete(run, { type: 'context_delete', region: 'rules', key: 'r1' })).toEqual({
      ok: false,
      message: 'rules is pinned: its entries are never removed',
    });
    expect(held(run, 'rules')).toEqual([['r1', 4]]);
    expect(contextDelete(run, { type: 'context_delete', region: 'notes', index: 0 })).toEqual({
      ok: false,
      message: 'notes has no entry at index 0 (0 entries; indexes start at 0)',
    });
  });
});

describe('context_list', () => {
  it('lists every entry with its index, label and size', () => {
    const run = spawn(NOTES);
    contextAppend(run, 'notes', words(40), 'plan');
    contextAppend(run, 'notes', 'call the owner\nthen the bank', undefined);
    expect(contextList(run, 'notes')).toEqual({
      ok: true,
      message:
        'notes (temporary): 2 entries; notes now holds 47 of 100 tokens\n0: plan (40 tokens)\n1: call the owner (7 tokens)',
    });
  });
});

describe('todo_*', () => {
  it("runs on the checklist, charges the ledger, and answers with the checklist's message", () => {
    const run = spawn(NOTES);
    expect(todo(run, 'todos', (checklist) => checklist.add('write the tests', run.ctx))).toEqual({
      ok: true,
      message: 'added #1 to todos',
    });
    const todos = run.regions.get('todos')!;
    expect(todos.entries.map((e) => e.todo)).toEqual([{ id: 1, item: 'write the tests', state: 'open', notes: [] }]);
    expect(run.ledger.byStage.main).toEqual({ todos: todos.tokens });
    expect(todo(run, 'todos', (checklist) => checklist.done(1, run.ctx))).toEqual({
      ok: true,
      message: '#1 done: write the tests',
    });
    expect(todos.entries.map((e) => e.todo!.state)).toEqual(['done']);
  });

  it('refuses a region that is not a checklist', () => {
    const run = spawn(NOTES);
    expect(todo(run, 'notes', (checklist) => checklist.add('x', run.ctx))).toEqual({
      ok: false,
      message: 'notes is a temporary region, not a checklist: todo tools only write to checklist regions',
    });
    expect(held(run, 'notes')).toEqual([]);
  });
});
