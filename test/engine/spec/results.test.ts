// Issue 32: what the model reads about a tool result is what happened to it: both caps of a file
// read are named, a cut is counted the same on the timeline as in the marker, a result its region
// cannot hold says it was dropped, and a hashmap shows the keys the model must name.
import { describe, expect, it } from 'vitest';
import type { TrafficEvent } from '../../../src/engine/scenario.ts';
import { countTokens, encode } from '../../../src/engine/tokens.ts';
import { assistant, detail, run } from '../../builders.ts';

const fmt = (n: number) => n.toLocaleString('en-US');

describe("3. read_file's byte cap under a per-tool token cap", () => {
  // spec: "`read_file` also has a hard byte cap of its own, independent of any of this, and says so
  // in the result when it applies." The per-tool cap is the setup the spec recommends:
  // "[stages.analyze.tool_routing.max_result_tokens_per_tool] read_file = 20000".
  const toml = `[context.regions]
codebase = { kind = "temporary", max_tokens = 50000 }
[stages.analyze.tool_routing.overrides]
read_file = "codebase"
[stages.analyze.tool_routing.max_result_tokens_per_tool]
read_file = 20000
`;
  const line = 'const answer = 42;\n';
  const file = line.repeat(Math.ceil(150_000 / line.length));
  const traffic: TrafficEvent[] = [
    assistant('', ['c1', 'read_file', { path: 'src/big.ts' }]),
    { type: 'tool_result', tool_call_id: 'c1', tool_name: 'read_file', content: file },
  ];

  it("keeps one marker that names both caps and the file's real size, in bytes", () => {
    const t = run(toml, traffic);
    const stored = detail(toml, [...traffic, assistant('ok')], 2)
      .request.system.find((b) => b.region === 'codebase')!
      .text.slice('[codebase]:\n'.length);
    const marker =
      /\n\[truncated: showing the first ([\d,]+) of ([\d,]+) bytes \(([\d,]+) tokens\); read_file's 100,000-byte cap and max_result_tokens = 20,000 cut the rest\]$/.exec(
        stored,
      )!;
    expect(marker).not.toBeNull();
    const head = stored.slice(0, marker.index);
    expect(file.startsWith(head)).toBe(true);
    expect(marker[1]).toBe(fmt(head.length)); // ASCII: a byte per character
    expect(marker[2]).toBe(fmt(file.length)); // the file's size, not the size of what the byte cap let through
    expect(marker[3]).toBe(fmt(encode(head).length));
    expect(t.steps[1]!.regions.codebase!.tokens).toBeLessThanOrEqual(20_000);
    expect(t.steps[1]!.regions.codebase!.tokens).toBe(countTokens(stored));
  });

  it("records both cuts, the token cap's by the tokens of what the byte cap let through", () => {
    const t = run(toml, traffic);
    const shown = file.slice(0, 99_997); // the last line break inside 100,000 bytes
    const notice = `[read_file: showing the first 99,997 of ${fmt(file.length)} bytes; the file is longer than read_file's 100,000-byte cap]`;
    const stored = detail(toml, [...traffic, assistant('ok')], 2).request.system.find(
      (b) => b.region === 'codebase',
    )!.text;
    const kept = Number(/\(([\d,]+) tokens\)/.exec(stored)![1]!.replace(/,/g, ''));
    expect(t.steps[1]!.changes).toEqual([
      { type: 'truncate', region: '(read_file)', tokens: 0, entries: ['c1'], reason: notice },
      {
        type: 'truncate',
        region: 'codebase',
        tokens: encode(shown).length - kept,
        entries: ['c1'],
        reason: 'max_result_tokens 20,000',
      },
    ]);
  });

  it("a read the token cap does not reach keeps the byte cap's notice whole", () => {
    const roomy = toml.replace('read_file = 20000', 'read_file = 60000');
    const stored = detail(roomy, [...traffic, assistant('ok')], 2).request.system.find(
      (b) => b.region === 'codebase',
    )!.text;
    expect(
      stored.endsWith(
        `\n[read_file: showing the first 99,997 of ${fmt(file.length)} bytes; the file is longer than read_file's 100,000-byte cap]`,
      ),
    ).toBe(true);
  });
});

describe('a truncate change counts the cut the marker names', () => {
  // spec: max_result_tokens is a "ceiling for any tool without one of its own"; DESIGN.md: changes
  // carry "tokens" of what they cut. The model reads the marker; the timeline must say the same.
  const toml =
    '[context.regions]\nscratch = { kind = "temporary" }\n[stages.main.tool_routing]\ndefault_region = "scratch"\nmax_result_tokens = 40\n';
  it('500 tokens capped at 40: the change and the marker give the same number', () => {
    const traffic: TrafficEvent[] = [
      assistant('', ['c1', 'grep']),
      { type: 'tool_result', tool_call_id: 'c1', tool_name: 'grep', size_tokens: 500 },
    ];
    const t = run(toml, traffic);
    const stored = detail(toml, [...traffic, assistant('ok')], 2).request.system[0]!.text.slice('[scratch]:\n'.length);
    const marker = /\n\[truncated: ([\d,]+) of 500 tokens cut by max_result_tokens = 40\]$/.exec(stored)!;
    const cut = Number(marker[1]);
    expect(cut).toBe(500 - encode(stored.slice(0, marker.index)).length);
    expect(t.steps[1]!.changes).toEqual([
      { type: 'truncate', region: 'scratch', tokens: cut, entries: ['c1'], reason: 'max_result_tokens 40' },
    ]);
  });
});

describe('a result its region cannot hold is reported as dropped, never as routed', () => {
  // DESIGN.md: a result routed elsewhere "leaves a short stub result in the message stream
  // ([routed to codebase: 2,431 tokens]) so the call stays paired"; spec (custom-regions.md):
  // "Providers reject a request where a tool call has no matching result". The stub is what the
  // model reads of its call, so it must say what happened to the content.
  const toml = `[context.regions]
scratch = { kind = "temporary", max_tokens = 300 }
codebase = { kind = "compacting", max_tokens = 300 }
[stages.main.tool_routing]
default_region = "scratch"
[stages.main.tool_routing.overrides]
read_file = "codebase"
`;

  it('routed away: the stub says the region dropped it, and what the region held stays', () => {
    const traffic: TrafficEvent[] = [
      assistant('', ['c1', 'grep']),
      { type: 'tool_result', tool_call_id: 'c1', tool_name: 'grep', size_tokens: 100 },
      assistant('', ['c2', 'grep']),
      { type: 'tool_result', tool_call_id: 'c2', tool_name: 'grep', size_tokens: 500 },
      assistant('ok'),
    ];
    const t = run(toml, traffic);
    const said = "[routed to scratch, which dropped it: 500 tokens, larger than the region's whole budget of 300]";
    expect(t.steps[3]!.result).toEqual({ ok: true, message: said });
    expect(t.steps[3]!.regions.scratch).toMatchObject({ tokens: 100, entries: 1 });
    const request = detail(toml, traffic, 4).request;
    expect(request.messages.filter((m) => m.role === 'tool').map((m) => [m.tool_call_id, m.content])).toEqual([
      ['c1', '[routed to scratch: 100 tokens]'],
      ['c2', said],
    ]);
    expect(request.stripped).toEqual({ toolCalls: [], toolResults: [] });
    // Nothing stayed, so nothing is charged to scratch for it.
    expect(t.summary.ledger.main!.scratch).toBe(100);
  });

  it('routed into a compacting region: the stub says it was summarized at once', () => {
    const traffic: TrafficEvent[] = [
      assistant('', ['c1', 'read_file', { path: 'src/big.rs' }]),
      { type: 'tool_result', tool_call_id: 'c1', tool_name: 'read_file', size_tokens: 500 },
    ];
    const t = run(toml, traffic);
    expect(t.steps[1]!.result).toEqual({
      ok: true,
      message: '[routed to codebase, which summarized it at once: 500 tokens, over budget 300]',
    });
    expect(t.steps[1]!.changes).toEqual([
      expect.objectContaining({ type: 'compact', region: 'codebase', entries: ['src/big.rs'] }),
    ]);
  });

  it('into the message stream: a short answer takes its place, so the call is not stripped', () => {
    const small = '[context.regions]\ntool_results = { kind = "sliding_window", max_tokens = 40 }\n';
    const traffic: TrafficEvent[] = [
      assistant('', ['c1', 'grep']),
      { type: 'tool_result', tool_call_id: 'c1', tool_name: 'grep', size_tokens: 200 },
      assistant('ok'),
    ];
    const t = run(small, traffic);
    const said = "[tool_results dropped this result: 200 tokens, larger than the region's whole budget of 40]";
    expect(t.steps[1]!.result).toEqual({ ok: true, message: said });
    const request = detail(small, traffic, 2).request;
    expect(
      request.messages.map((m) => [m.role, m.tool_call_id ?? m.tool_calls?.map((c) => c.id).join(), m.content]),
    ).toEqual([
      ['assistant', 'c1', ''],
      ['tool', 'c1', said],
    ]);
    expect(request.stripped).toEqual({ toolCalls: [], toolResults: [] });
  });

  it('context_append: the answer says nothing was appended', () => {
    const traffic: TrafficEvent[] = [
      { type: 'context_append', region: 'scratch', content: Array.from({ length: 400 }, () => 'alpha').join(' ') },
    ];
    expect(run(toml, traffic).steps[0]!.result).toEqual({
      ok: true,
      message:
        "scratch dropped the entry: 400 tokens, larger than the region's whole budget of 300; scratch now holds 0 of 300 tokens",
    });
  });
});

describe('a hashmap shows each value under its key', () => {
  // spec: "Name the entry by `key` if it was written with one" (context_delete), and hashmap is
  // "Keyed entries (alias `hash_map`); a write to a key replaces it". The model names a key it can
  // only know from the request.
  const toml = '[context.regions]\nfindings = { kind = "hashmap" }\n[context.file_tracking]\nregion = "findings"\n';

  it('renders key: value, counts the key, and leaves content that already names its key as it is', () => {
    const traffic: TrafficEvent[] = [
      { type: 'context_append', region: 'findings', key: 'cache-ttl', content: 'Anthropic caches for 5 minutes' },
      { type: 'context_append', region: 'findings', key: 'openai-min', content: 'OpenAI caches from 1,024 tokens' },
      assistant('', ['c1', 'read_file', { path: 'src/lib.rs' }]),
      { type: 'tool_result', tool_call_id: 'c1', tool_name: 'read_file', content: 'fn main() {}' },
      assistant('ok'),
    ];
    const block = detail(toml, traffic, 4).request.system.find((b) => b.region === 'findings')!;
    const read = `src/lib.rs: read (${countTokens('fn main() {}')} tokens)`;
    expect(block.text).toBe(
      `[findings]:\ncache-ttl: Anthropic caches for 5 minutes\nopenai-min: OpenAI caches from 1,024 tokens\n${read}`,
    );
    expect(block.tokens).toBe(
      countTokens('[findings]:\n') +
        2 +
        countTokens('cache-ttl: ') +
        countTokens('Anthropic caches for 5 minutes') +
        countTokens('openai-min: ') +
        countTokens('OpenAI caches from 1,024 tokens') +
        countTokens(read),
    );
  });

  it('so the key the model reads is the one context_delete takes', () => {
    const traffic: TrafficEvent[] = [
      { type: 'context_append', region: 'findings', key: 'cache-ttl', content: 'Anthropic caches for 5 minutes' },
      { type: 'context_delete', region: 'findings', key: 'cache-ttl' },
    ];
    expect(run(toml, traffic).steps[1]!.result).toEqual({
      ok: true,
      message: 'deleted 1 entry (7 tokens) from findings; findings now holds 0 of 5,000 tokens',
    });
  });
});

describe('a seed its region cannot hold', () => {
  // spec: "`seed` fills a region before the first inference"; one that does not land must not look
  // as if it did (support.md: seed warnings are timeline warnings).
  it('is a timeline warning saying what happened, and nothing is charged for it', () => {
    const toml =
      '[context.regions]\nnotes = { kind = "temporary", max_tokens = 5, seed = { literal = "one two three four five six seven" } }\n';
    const t = run(toml, [assistant('ok')]);
    expect(t.warnings).toContain(
      "seed literal into notes: notes dropped it: 7 tokens, larger than the region's whole budget of 5",
    );
    expect(t.summary.ledger.main?.notes).toBeUndefined();
  });
});
