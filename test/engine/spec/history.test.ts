// Issue 32, point 1: compact_history carries what it exists to carry. Each transition adds only
// what is new in the source, and when the history compacts itself it keeps every key and path it
// carried, merged and counted.
import { describe, expect, it } from 'vitest';
import type { TrafficEvent } from '../../../src/engine/scenario.ts';
import { detail, run, transition } from '../../builders.ts';

// spec: compact_history "Carries summaries from earlier stages forward, so a later stage skips the
// raw content"; "Rolls forward, compacted"; a compacted region "never loses the fact that content
// existed" (docs: the summary names each folded entry, its key or its first line).

let calls = 0;
/** The model reads `path` (routed to codebase, keyed by the path), `size` tokens of it. */
const read = (path: string, size = 50): TrafficEvent[] => {
  const id = `r${calls++}`;
  return [
    { type: 'assistant', content: '', tool_calls: [{ id, name: 'read_file', arguments: { path } }] },
    { type: 'tool_result', tool_call_id: id, tool_name: 'read_file', size_tokens: size },
  ];
};
const historyOf = (toml: string, traffic: TrafficEvent[]) =>
  detail(toml, [...traffic, { type: 'assistant', content: 'ok' }], traffic.length).request.system.find(
    (b) => b.region === 'history',
  )?.text;

const FOUR_STAGES = (historyTokens: number) => `[context.regions]
codebase = { kind = "compacting", max_tokens = 5000 }
history = { kind = "compact_history", source_region = "codebase", max_tokens = ${historyTokens} }

[stages.s1.tool_routing.overrides]
read_file = "codebase"
[stages.s1.transitions.s2]
[stages.s2.tool_routing.overrides]
read_file = "codebase"
[stages.s2.transitions.s3]
[stages.s3.context.regions]
history = { kind = "compact_history", source_region = "codebase", max_tokens = ${historyTokens} }
[stages.s3.transitions.s4]
[stages.s4]
`;

describe('each transition carries only what is new in the source', () => {
  const traffic = [
    ...read('src/a.rs'),
    ...read('src/b.rs'),
    transition('s2'),
    ...read('src/c.rs'),
    transition('s3'),
    transition('s4'),
  ];

  it('s1 carries a and b, s2 only c, and s3 (which cannot see the source) nothing', () => {
    const t = run(FOUR_STAGES(5000), traffic);
    expect(historyOf(FOUR_STAGES(5000), traffic)).toBe(
      '[history]:\n' +
        '[summary of 2 entries from codebase in stage s1] src/a.rs; src/b.rs\n' +
        '[summary of 1 entry from codebase in stage s2] src/c.rs',
    );
    expect(t.steps.at(-1)!.regions.history).toMatchObject({ entries: 2 });
  });

  it('a read the source compacted since the last carry is not carried again', () => {
    const small = FOUR_STAGES(5000).replace(
      'codebase = { kind = "compacting", max_tokens = 5000 }',
      'codebase = { kind = "compacting", max_tokens = 1000 }',
    );
    // a and b are carried at s1 -> s2; in s2, c and d push the codebase over 1,000 and it folds a, b and c into one summary.
    const folding = [
      ...read('src/a.rs', 300),
      ...read('src/b.rs', 300),
      transition('s2'),
      ...read('src/c.rs', 300),
      ...read('src/d.rs', 300),
      transition('s3'),
    ];
    const t = run(small, folding);
    expect(
      t.steps
        .find((s) => s.changes.some((c) => c.type === 'compact' && c.region === 'codebase'))!
        .changes.find((c) => c.type === 'compact')!.entries,
    ).toEqual(['src/a.rs', 'src/b.rs', 'src/c.rs']);
    expect(historyOf(small, folding)).toBe(
      '[history]:\n' +
        '[summary of 2 entries from codebase in stage s1] src/a.rs; src/b.rs\n' +
        '[summary of 2 entries from codebase in stage s2] src/c.rs; src/d.rs',
    );
  });

  it('a file read again is new: the carry counts it again', () => {
    const again = [...read('src/a.rs'), transition('s2'), ...read('src/a.rs'), transition('s3')];
    expect(historyOf(FOUR_STAGES(5000), again)).toBe(
      '[history]:\n' +
        '[summary of 1 entry from codebase in stage s1] src/a.rs\n' +
        '[summary of 1 entry from codebase in stage s2] src/a.rs',
    );
  });
});

describe('a stage left again', () => {
  it('merges what is new into its earlier carry, which is never lost to the rewrite of its key', () => {
    const loop = `[context.regions]
codebase = { kind = "compacting", max_tokens = 5000 }
history = { kind = "compact_history", source_region = "codebase" }
[stages.s1.tool_routing.overrides]
read_file = "codebase"
[stages.s1.transitions.s2]
[stages.s2.transitions.s1]
`;
    const traffic = [...read('src/a.rs'), transition('s2'), transition('s1'), ...read('src/b.rs'), transition('s2')];
    const t = run(loop, traffic);
    expect(t.steps[3]!.changes).toEqual([]); // s2 read nothing: nothing new to carry
    expect(historyOf(loop, traffic)).toBe(
      '[history]:\n[summary of 2 entries from codebase in stage s1] src/a.rs; src/b.rs',
    );
  });
});

describe('when the history compacts, it keeps every key and path it carried, merged and counted', () => {
  it("the fold lists the paths, not the carries' keys", () => {
    const traffic = [
      ...read('src/a.rs'),
      ...read('src/b.rs'),
      transition('s2'),
      ...read('src/c.rs'),
      ...read('src/a.rs'),
      transition('s3'),
      transition('s4'),
    ];
    const t = run(FOUR_STAGES(40), traffic);
    const fold = t.steps.flatMap((s) => s.changes).find((c) => c.type === 'compact' && c.region === 'history')!;
    expect(fold.entries).toEqual(['s1: codebase', 's2: codebase']);
    expect(historyOf(FOUR_STAGES(40), traffic)).toBe(
      '[history]:\n[summary of 4 entries from history] src/a.rs (x2); src/b.rs; src/c.rs',
    );
  });

  it('however many there are: no "... and K more"', () => {
    const paths = Array.from({ length: 30 }, (_, i) => `src/file${i}.rs`);
    const traffic = [
      ...paths.slice(0, 15).flatMap((p) => read(p, 5)),
      transition('s2'),
      ...paths.slice(15).flatMap((p) => read(p, 5)),
      transition('s3'),
    ];
    const text = historyOf(FOUR_STAGES(100), traffic)!;
    expect(text).toBe(`[history]:\n[summary of 30 entries from history] ${paths.join('; ')}`);
  });
});
