// Issue 10, points 3 and 7: a keyed rewrite in a non-hashmap built-in is the newest entry; a custom
// region has no keyed upsert at all.
import { describe, expect, it } from 'vitest';
import type { TrafficEvent } from '../../src/engine/scenario.ts';
import { append, assistant, detail, run } from './helpers.ts';

const del = (region: string, key: string): TrafficEvent => ({ type: 'context_delete', region, key });

describe('3. a keyed rewrite in sliding_window and temporary is the newest entry', () => {
  it('sliding_window: the rewritten key moves to the newest position, so the next overflow evicts older content', () => {
    const toml = '[context.regions]\nnotes = { kind = "sliding_window", max_items = 3 }\n';
    const traffic = [append('notes', 'alpha one', 'a'), append('notes', 'beta two', 'b'), append('notes', 'gamma three', 'c'),
      append('notes', 'alpha rewritten', 'a'), append('notes', 'delta four', 'd'), assistant('ok')];
    const t = run(toml, traffic);
    expect(t.steps[3]!.changes).toEqual([{ type: 'replace', region: 'notes', tokens: 2, entries: ['a'], reason: 'key "a" rewritten' }]);
    expect(t.steps[4]!.changes).toEqual([{ type: 'evict', region: 'notes', tokens: 2, entries: ['b'], reason: 'max_items 3 exceeded' }]);
    const request = detail(toml, traffic, 5).request;
    expect(request.messages.map((m) => m.content)).toEqual(['gamma three', 'alpha rewritten', 'delta four']);
  });

  it('temporary: under budget pressure the oldest goes, not the freshly rewritten key', () => {
    const toml = '[context.regions]\nscratch = { kind = "temporary", max_tokens = 5 }\n';
    const traffic = [append('scratch', 'one two', 'x'), append('scratch', 'three four', 'y'), append('scratch', 'five six', 'x'),
      append('scratch', 'seven eight', 'z'), assistant('ok')];
    const t = run(toml, traffic);
    expect(t.steps[2]!.changes).toEqual([{ type: 'replace', region: 'scratch', tokens: 2, entries: ['x'], reason: 'key "x" rewritten' }]);
    expect(t.steps[3]!.changes).toEqual([{ type: 'evict', region: 'scratch', tokens: 2, entries: ['y'], reason: 'over budget 5' }]);
    expect(detail(toml, traffic, 4).request.system.map((b) => b.text)).toEqual(['[scratch]:\nfive six\nseven eight']);
  });

  it('the same content under the same key changes nothing (no change, the entry keeps its place)', () => {
    const toml = '[context.regions]\nnotes = { kind = "temporary" }\n';
    const t = run(toml, [append('notes', 'same', 'k'), append('notes', 'other', 'j'), append('notes', 'same', 'k')]);
    expect(t.steps[2]!.changes).toEqual([]);
    expect(detail(toml, [append('notes', 'same', 'k'), append('notes', 'other', 'j'), append('notes', 'same', 'k')], 2).request.system[0]!.text)
      .toBe('[notes]:\nsame\nother');
  });

  it('hashmap keeps its own upsert: every write to a key makes it the most recent', () => {
    const toml = '[context.regions]\nfacts = { kind = "hashmap", max_entries = 2 }\n';
    const t = run(toml, [append('facts', 'v1', 'a'), append('facts', 'w', 'b'), append('facts', 'v1', 'a'), append('facts', 'z', 'c')]);
    expect(t.steps[2]!.changes).toEqual([{ type: 'replace', region: 'facts', tokens: 2, entries: ['a'], reason: 'key "a" rewritten' }]);
    expect(t.steps[3]!.changes).toEqual([{ type: 'evict', region: 'facts', tokens: 1, entries: ['b'], reason: 'max_entries 2 exceeded' }]);
  });
});

describe('7. custom regions have no keyed upsert', () => {
  const toml = '[context.regions]\nbrain = { kind = "custom", script = "brain.rhai" }\n';
  const brain = { 'brain.rhai': 'fn render(ctx) { let out = []; for e in ctx.entries { out.push(`${e.key}=${e.content}`); } #{ system: out } }\n' };

  it('a keyed write is a new entry that keeps its key; context_delete by key removes every entry with it', () => {
    const traffic = [append('brain', 'first', 'k'), append('brain', 'second', 'k'), append('brain', 'other', 'j'), assistant('one'), del('brain', 'k'), assistant('two')];
    const extra = { agent: { 'agent.leviath': toml, ...brain } };
    const t = run(toml, traffic, extra);
    expect(t.steps[1]!.changes).toEqual([]);
    expect(t.steps[2]!.regions.brain).toMatchObject({ entries: 3 });
    expect(detail(toml, traffic, 3, extra).request.system.map((b) => b.text)).toEqual(['k=first\n\nk=second\n\nj=other']);
    expect(t.steps[4]!.changes).toEqual([{ type: 'delete', region: 'brain', tokens: 2, entries: ['k', 'k'], reason: 'context_delete' }]);
    expect(t.steps[4]!.result).toEqual({ ok: true, message: 'deleted 2 entries (2 tokens) from brain; brain now holds 1 of 5,000 tokens' });
    expect(detail(toml, traffic, 5, extra).request.system.map((b) => b.text)).toEqual(['j=other']);
  });
});
