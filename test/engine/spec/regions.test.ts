// Issue 10, points 3, 7, 8 and 9: keyed rewrites, custom regions without upsert, reject regions that
// never refuse silently, and what summarizable = false does.
import { describe, expect, it } from 'vitest';
import type { TrafficEvent } from '../../../src/engine/scenario.ts';
import { countTokens } from '../../../src/engine/tokens.ts';
import { validateScenario } from '../../../src/engine/validate.ts';
import { append, assistant, detail, result, run, scenario, user } from '../../builders.ts';
import { RHAI } from '../../../src/engine/custom-script.ts';

const del = (region: string, key: string): TrafficEvent => ({ type: 'context_delete', region, key });

describe('3. a keyed rewrite in sliding_window and temporary is the newest entry', () => {
  it('sliding_window: the rewritten key moves to the newest position, so the next overflow evicts older content', () => {
    const toml = '[context.regions]\nnotes = { kind = "sliding_window", max_items = 3 }\n';
    const traffic = [
      append('notes', 'alpha one', 'a'),
      append('notes', 'beta two', 'b'),
      append('notes', 'gamma three', 'c'),
      append('notes', 'alpha rewritten', 'a'),
      append('notes', 'delta four', 'd'),
      assistant('ok'),
    ];
    const t = run(toml, traffic);
    expect(t.steps[3]!.changes).toEqual([
      { type: 'replace', region: 'notes', tokens: 2, entries: ['a'], reason: 'key "a" rewritten' },
    ]);
    expect(t.steps[4]!.changes).toEqual([
      { type: 'evict', region: 'notes', tokens: 2, entries: ['b'], reason: 'max_items 3 exceeded' },
    ]);
    const request = detail(toml, traffic, 5).request;
    expect(request.messages.map((m) => m.content)).toEqual(['gamma three', 'alpha rewritten', 'delta four']);
  });

  it('temporary: under budget pressure the oldest goes, not the freshly rewritten key', () => {
    const toml = '[context.regions]\nscratch = { kind = "temporary", max_tokens = 5 }\n';
    const traffic = [
      append('scratch', 'one two', 'x'),
      append('scratch', 'three four', 'y'),
      append('scratch', 'five six', 'x'),
      append('scratch', 'seven eight', 'z'),
      assistant('ok'),
    ];
    const t = run(toml, traffic);
    expect(t.steps[2]!.changes).toEqual([
      { type: 'replace', region: 'scratch', tokens: 2, entries: ['x'], reason: 'key "x" rewritten' },
    ]);
    expect(t.steps[3]!.changes).toEqual([
      { type: 'evict', region: 'scratch', tokens: 2, entries: ['y'], reason: 'over budget 5' },
    ]);
    expect(detail(toml, traffic, 4).request.system.map((b) => b.text)).toEqual(['[scratch]:\nfive six\nseven eight']);
  });

  it('the same content under the same key changes nothing (no change, the entry keeps its place)', () => {
    const toml = '[context.regions]\nnotes = { kind = "temporary" }\n';
    const t = run(toml, [append('notes', 'same', 'k'), append('notes', 'other', 'j'), append('notes', 'same', 'k')]);
    expect(t.steps[2]!.changes).toEqual([]);
    expect(
      detail(toml, [append('notes', 'same', 'k'), append('notes', 'other', 'j'), append('notes', 'same', 'k')], 2)
        .request.system[0]!.text,
    ).toBe('[notes]:\nsame\nother');
  });

  it('hashmap keeps its own upsert: every write to a key makes it the most recent', () => {
    const toml = '[context.regions]\nfacts = { kind = "hashmap", max_entries = 2 }\n';
    const t = run(toml, [
      append('facts', 'v1', 'a'),
      append('facts', 'w', 'b'),
      append('facts', 'v1', 'a'),
      append('facts', 'z', 'c'),
    ]);
    expect(t.steps[2]!.changes).toEqual([
      { type: 'replace', region: 'facts', tokens: 2, entries: ['a'], reason: 'key "a" rewritten' },
    ]);
    expect(t.steps[3]!.changes).toEqual([
      { type: 'evict', region: 'facts', tokens: 1, entries: ['b'], reason: 'max_entries 2 exceeded' },
    ]);
  });
});

describe('7. custom regions have no keyed upsert', () => {
  const toml = '[context.regions]\nbrain = { kind = "custom", script = "brain.rhai" }\n';
  const brain = {
    'brain.rhai':
      'fn render(ctx) { let out = []; for e in ctx.entries { out.push(`${e.key}=${e.content}`); } #{ system: out } }\n',
  };

  it('a keyed write is a new entry that keeps its key; context_delete by key removes every entry with it', () => {
    const traffic = [
      append('brain', 'first', 'k'),
      append('brain', 'second', 'k'),
      append('brain', 'other', 'j'),
      assistant('one'),
      del('brain', 'k'),
      assistant('two'),
    ];
    const extra = { agent: { 'agent.leviath': toml, ...brain } };
    const t = run(toml, traffic, extra);
    expect(t.steps[1]!.changes).toEqual([]);
    expect(t.steps[2]!.regions.brain).toMatchObject({ entries: 3 });
    expect(detail(toml, traffic, 3, extra).request.system.map((b) => b.text)).toEqual([
      'k=first\n\nk=second\n\nj=other',
    ]);
    expect(t.steps[4]!.changes).toEqual([
      { type: 'delete', region: 'brain', tokens: 2, entries: ['k', 'k'], reason: 'context_delete' },
    ]);
    expect(t.steps[4]!.result).toEqual({
      ok: true,
      message: 'deleted 2 entries (2 tokens) from brain; brain now holds 1 of 5,000 tokens',
    });
    expect(detail(toml, traffic, 5, extra).request.system.map((b) => b.text)).toEqual(['j=other']);
  });
});

describe('8. a reject region never refuses silently', () => {
  const toml =
    '[context.regions]\ntask = { kind = "pinned" }\nconversation = { kind = "sliding_window", max_tokens = 6, admission = "reject" }\n';

  it('validate warns that runtime writes can be refused unseen', () => {
    const d = validateScenario(scenario(toml, []), RHAI).diagnostics.filter((x) => x.code === 'reject-runtime-writes');
    expect(d.map((x) => [x.severity, x.line, x.column, x.path])).toEqual([
      ['warning', 3, 71, 'context.regions.conversation.admission'],
    ]);
    expect(d[0]!.message).toBe(
      'Region "conversation" has admission = "reject" and receives every user turn, assistant reply and gate nudge, which the runtime writes without an agent asking. ' +
        'One that does not fit is refused: the timeline shows a warning with its size and the region\'s fill, but nothing tells the model. Use admission = "evict" here, or give the region room.',
    );
  });

  it("each refused runtime write is a timeline warning (and in the inspector) with its size and the region's fill", () => {
    const traffic = [user('one two three'), user('four five six seven'), assistant('ok')];
    const t = run(toml, traffic);
    expect(t.steps[1]!.changes).toEqual([
      {
        type: 'reject',
        region: 'conversation',
        tokens: 4,
        entries: ['four five six seven'],
        reason: 'admission = "reject"',
      },
    ]);
    expect(t.steps[1]!.warnings).toEqual([
      'conversation (admission = "reject") refused a user message of 4 tokens: it holds 3 of 6 tokens in 1 entries',
    ]);
    expect(detail(toml, traffic, 1).warnings).toEqual(t.steps[1]!.warnings);
    expect(t.steps[1]!.regions.conversation).toMatchObject({ tokens: 3, entries: 1 });
  });

  it("a tool-result region set to reject is warned about too; an agent's own context_append refusal is its result, not a warning", () => {
    const routed =
      '[context.regions]\ntask = { kind = "pinned" }\nsources = { kind = "sliding_window", max_tokens = 4, admission = "reject" }\n[stages.main.tool_routing]\ndefault_region = "sources"\n';
    expect(
      validateScenario(scenario(routed, []), RHAI)
        .diagnostics.filter((x) => x.code === 'reject-runtime-writes')
        .map((x) => x.message.slice(0, 80)),
    ).toEqual(['Region "sources" has admission = "reject" and receives tool results, which the r']);
    // Routed into a system-section region, a refused result comes back as the call's result: no warning.
    const curated = routed.replace('"sliding_window"', '"temporary"');
    expect(
      validateScenario(scenario(curated, []), RHAI).diagnostics.filter((x) => x.code === 'reject-runtime-writes'),
    ).toEqual([]);
    const fetched = run(curated, [assistant('', ['c1', 'fetch']), result('c1', 'fetch', 9)]);
    expect(fetched.steps[1]!.result).toEqual({
      ok: false,
      message:
        'sources is full: 0 of 4 tokens; release something with context_delete first (this write needs 9 tokens)',
    });
    expect(fetched.steps[1]!.warnings).toEqual([]);
    const t = run(routed, [append('sources', 'one two three four five')]);
    expect(t.steps[0]!.result).toEqual({
      ok: false,
      message:
        'sources is full: 0 of 4 tokens; release something with context_delete first (this write needs 5 tokens)',
    });
    expect(t.steps[0]!.warnings).toEqual([]);
  });
});

describe("9. summarizable = false is the spec's rule, and validate says what it does not stop", () => {
  it('an info on a kind whose own rule summarizes; none on a kind that evicts', () => {
    const toml =
      '[context.regions]\ntask = { kind = "pinned" }\ncode = { kind = "compacting", summarizable = false }\nchat = { kind = "sliding_window", strategy = "compact", summarizable = false }\nnotes = { kind = "temporary", summarizable = false }\n';
    const d = validateScenario(scenario(toml, []), RHAI).diagnostics.filter(
      (x) => x.code === 'summarizable-kind-still-summarizes',
    );
    expect(d.map((x) => [x.severity, x.path])).toEqual([
      ['info', 'context.regions.code.summarizable'],
      ['info', 'context.regions.chat.summarizable'],
    ]);
    expect(d[0]!.message).toBe(
      'summarizable = false keeps an edge transform = "compact" from paraphrasing region "code"; it does not stop the region\'s own kind: ' +
        'a compacting region still summarizes its oldest entries when it fills. To keep its content verbatim, use a kind that evicts instead (temporary, sliding_window).',
    );
  });

  it('a compacting region with summarizable = false still compacts itself, and an edge compact leaves it alone', () => {
    const toml = `[context.regions]\ntask = { kind = "pinned" }\ncode = { kind = "compacting", max_tokens = 8, summarizable = false }\nnotes = { kind = "temporary" }\n[stages.a.transitions.b]\ntransform = "compact"\n[stages.b]\n`;
    const t = run(toml, [
      append('code', 'alpha beta gamma delta'),
      // Notes long enough that their summary (each one's first line) is smaller than they are.
      append('notes', `first note\n${'the reasons behind the first note, at length '.repeat(4)}`),
      append('notes', `second note\n${'the reasons behind the second note, at length '.repeat(4)}`),
      append('code', 'epsilon zeta eta theta'),
      { type: 'transition', to: 'b' },
    ]);
    expect(t.steps[3]!.changes.map((c) => [c.type, c.region])).toEqual([['compact', 'code']]);
    expect(t.steps[4]!.changes.map((c) => [c.type, c.region])).toEqual([['compact', 'notes']]);
  });
});

describe('also seen: a tool result larger than its whole region', () => {
  it('is dropped alone on arrival; the earlier entry that fitted stays', () => {
    const toml =
      '[context.regions]\ntask = { kind = "pinned" }\ntool_results = { kind = "sliding_window", max_tokens = 40 }\n';
    const traffic = [
      assistant('', ['c1', 'grep']),
      result('c1', 'grep', 12),
      assistant('', ['c2', 'read_file']),
      result('c2', 'read_file', 200),
      assistant('ok'),
    ];
    const t = run(toml, traffic);
    expect(t.steps[3]!.changes).toEqual([
      {
        type: 'evict',
        region: 'tool_results',
        tokens: 200,
        entries: ['read_file output'],
        reason: 'larger than the whole budget of 40: dropped alone',
        toolResults: ['c2'],
      },
    ]);
    // The model reads what happened in place of the result (issue 32), so the call stays answered.
    const said = "[tool_results dropped this result: 200 tokens, larger than the region's whole budget of 40]";
    expect(t.steps[3]!.result).toEqual({ ok: true, message: said });
    expect(t.steps[3]!.regions.tool_results).toMatchObject({ tokens: 12 + countTokens(said), entries: 2 });
  });
});
