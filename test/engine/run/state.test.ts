// run/state.ts: what a run holds between events — its regions and their metadata, the figures a
// step records, the ledger — and the two ways anything writes into a region (a runtime write that
// warns when refused, an agent's write whose refusal is its own result).
import { describe, expect, it } from 'vitest';
import { held, spawn, words } from '../../builders.ts';

const REGIONS = `[context.regions]
notes = { kind = "temporary", max_tokens = 100 }
inbox = { kind = "temporary", max_tokens = 50, admission = "reject" }
rules = { kind = "pinned", max_tokens = 10 }
`;

describe('run state', () => {
  it("keeps each region's metadata, declared or carried by the runtime", () => {
    const run = spawn(REGIONS);
    expect(run.meta.get('notes')).toEqual({
      name: 'notes',
      kind: 'temporary',
      budget: 100,
      trigger: 100,
      admission: 'evict',
      section: 'system',
      cache: 'until-changed',
      declared: true,
    });
    expect(run.meta.get('rules')).toMatchObject({ kind: 'pinned', cache: 'always', declared: true });
    expect(run.meta.get('conversation')).toMatchObject({
      kind: 'sliding_window',
      budget: 38_400,
      section: 'messages',
      declared: false,
    });
    // The pinned rules region holds the stage prompt, so no stage_instructions is carried.
    expect([...run.meta.keys()]).toEqual(['notes', 'inbox', 'rules', 'conversation', 'tool_results', 'final_output']);
  });

  it("figures: every region's tokens, budget, entries and whether the stage shows it", () => {
    const run = spawn(REGIONS);
    run.store('notes', run.textEntry(words(30), 'a'), false);
    expect(run.figures().notes).toEqual({ tokens: 30, budget: 100, entries: 1, visible: true });
    expect(run.figures().inbox).toEqual({ tokens: 0, budget: 50, entries: 0, visible: true });
  });

  it("store: charges what the region kept to the stage's ledger, and warns when pinned content outgrows its budget", () => {
    const run = spawn(REGIONS);
    expect(run.store('notes', run.textEntry(words(30), 'a'), false)).toMatchObject({ ok: true });
    expect(run.store('rules', run.textEntry(words(12), 'r'), true)).toMatchObject({ ok: true });
    expect(run.ledger.byStage.main).toEqual({ notes: 30, rules: 12 });
    expect(run.warnings).toEqual([
      'rules is pinned and over its budget: 12 of 10 tokens (pinned content is never evicted)',
    ]);
  });

  it('store: a refusal is returned to the caller, charged nothing, and warned about nowhere', () => {
    const run = spawn(REGIONS);
    run.store('inbox', run.textEntry(words(40), 'a'), false);
    const refused = run.store('inbox', run.textEntry(words(20), 'b'), false);
    expect(refused).toMatchObject({
      ok: false,
      message:
        'inbox is full: 40 of 50 tokens; release something with context_delete first (this write needs 20 tokens)',
    });
    expect(run.ledger.byStage.main).toEqual({ inbox: 40 });
    expect(run.warnings).toEqual([]);
  });

  it("writeTo: a runtime write a reject region refuses is a warning with its size and the region's fill", () => {
    const run = spawn(REGIONS);
    run.writeTo('inbox', run.textEntry(words(40), 'a'));
    expect(run.writeTo('inbox', run.textEntry(words(20), 'b')).ok).toBe(false);
    expect(run.warnings).toEqual([
      'inbox (admission = "reject") refused a text of 20 tokens: it holds 40 of 50 tokens in 1 entries',
    ]);
    expect(held(run, 'inbox')).toEqual([['a', 40]]);
  });

  it('visibleRegion: the region, or why the agent cannot use it', () => {
    const run = spawn(
      '[context.regions]\nscratch = {}\n[stages.a.transitions.b]\n[stages.b.context.regions]\nnotes = {}\n',
    );
    expect(run.visibleRegion('scratch')).toBe(run.regions.get('scratch'));
    expect(run.visibleRegion('notes')).toBe(
      "region notes is not part of stage a's layout (visible: scratch, conversation, tool_results, final_output, stage_instructions)",
    );
    expect(run.visibleRegion('nope')).toBe(
      'no region named "nope" (stage a has: scratch, conversation, tool_results, final_output, stage_instructions)',
    );
    expect([...run.visibleNames()]).toEqual([
      'scratch',
      'conversation',
      'tool_results',
      'final_output',
      'stage_instructions',
    ]);
  });

  it("entries take the next write order, and a summary counts every entry it folds, earlier summaries' too", () => {
    const run = spawn(REGIONS);
    const a = run.textEntry(words(7), 'a');
    const b = run.textEntry(words(5), undefined);
    expect([a.seq + 1, a.tokens, a.key, b.tokens, b.key]).toEqual([b.seq, 7, 'a', 5, undefined]);
    const earlier = run.summaryEntry([a, b], 'notes', a.seq);
    expect(earlier).toMatchObject({ seq: a.seq, kind: 'summary', folded: { entries: 2, tokens: 12 } });
    const c = run.textEntry(words(3), 'c');
    expect(run.summaryEntry([earlier, c], 'notes', earlier.seq).folded).toEqual({ entries: 3, tokens: 15 });
  });
});
