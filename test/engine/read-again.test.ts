// "Read again later": entries the blueprint dropped, summarized or cut whose path or key the run
// names again. Expected counts come from the traffic itself: which file each call read, where the
// run names it afterwards, and, where a blueprint is built for it, which results it must drop.
import { describe, expect, it } from 'vitest';
import { lostInWords } from '../../src/engine/format.ts';
import { namesIn, needlesOf, RunNames } from '../../src/engine/read-again.ts';
import { ScenarioSchema, type TrafficEvent } from '../../src/engine/scenario.ts';
import type { Timeline } from '../../src/engine/timeline.ts';
import { replay } from '../../src/engine/index.ts';
import { BUILT_IN_TRAFFIC } from '../../src/scenarios/generators.ts';
import { RHAI } from '../../src/engine/custom-script.ts';
import { EXAMPLES } from '../../src/scenarios/examples.ts';
import { generateTraffic } from '../../src/scenarios/generators.ts';
import { IMPORTED_RUN_TRAFFIC } from '../../src/scenarios/imported-run.ts';
import { assistant, result, run, user } from '../builders.ts';

/** A regular expression for `name` standing alone: written here apart from the engine's scan, to check it. */
function standsAlone(name: string): RegExp {
  const escaped = name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  return new RegExp(`(?<![\\w.~/\\\\-])${escaped}(?![\\w~/\\\\-])(?!\\.[\\w~/\\\\-])`);
}

/** Every text an assistant event says or passes: its content and each string in its calls' arguments. */
function saidAt(event: TrafficEvent): string[] {
  if (event.type !== 'assistant') return [];
  const out = [event.content];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') out.push(v);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  for (const c of event.tool_calls ?? []) walk(c.arguments);
  return out;
}

describe('namesIn: a name counts where it stands whole', () => {
  it('matches a path in a sentence, before a line number and before a full stop that ends it', () => {
    expect(namesIn('Reading src/parser/lexer.rs.', 'src/parser/lexer.rs')).toBe(true);
    expect(namesIn('the check at src/parser/header.rs:366', 'src/parser/header.rs')).toBe(true);
    expect(namesIn('src/a.rs', 'src/a.rs')).toBe(true);
  });

  it('does not match inside a longer path or name', () => {
    expect(namesIn('lib/src/a.rs', 'src/a.rs')).toBe(false);
    expect(namesIn('src/a.rs.bak', 'src/a.rs')).toBe(false);
    expect(namesIn('src/a.rsx', 'src/a.rs')).toBe(false);
    expect(namesIn('tests/header.rs', 'header.rs')).toBe(false);
  });

  it('names an absolute path by its tails of two segments or more, never by its file name alone', () => {
    expect(needlesOf('/home/dev/parser/src/parser/header.rs')).toEqual([
      '/home/dev/parser/src/parser/header.rs',
      'parser/header.rs',
      'src/parser/header.rs',
      'parser/src/parser/header.rs',
      'dev/parser/src/parser/header.rs',
    ]);
    expect(needlesOf('src/a.rs')).toEqual(['src/a.rs']);
    expect(needlesOf('rfc-9110')).toEqual(['rfc-9110']);
  });
});

describe('read again later, on the imported Claude Code session', () => {
  const example = EXAMPLES.find((e) => e.id === 'imported-run')!;
  const timeline = replay(ScenarioSchema.parse(example.scenario), { ...BUILT_IN_TRAFFIC, ...RHAI });

  it('counts the one file the small codebase region folded and the run came back to', () => {
    // From the session: toolu_01 reads header.rs (7,032 tokens). codebase is 4% of claude-sonnet-4's
    // 200,000 tokens, compacting at 50% of that: 4,000 tokens, so that read is folded on arrival.
    const read = IMPORTED_RUN_TRAFFIC.findIndex((e) => e.type === 'tool_result' && e.tool_call_id === 'toolu_01');
    const sized = IMPORTED_RUN_TRAFFIC[read] as Extract<TrafficEvent, { type: 'tool_result' }>;
    expect(sized.size_tokens).toBeGreaterThan(200_000 * 0.04 * 0.5);
    // The model names it next in its own words (a relative path, step 5) and then edits it (step 9).
    const path = '/home/dev/parser/src/parser/header.rs';
    const namings = IMPORTED_RUN_TRAFFIC.flatMap((e, i) =>
      i > read && saidAt(e).some((t) => t.includes(path) || standsAlone('src/parser/header.rs').test(t)) ? [i] : [],
    );
    expect(namings).toEqual([5, 9]);
    // The other read (tests/header.rs, 59 tokens) fits and stays, so it is the only one.
    expect(timeline.summary.readAgain).toEqual({
      count: 1,
      items: [
        {
          key: path,
          lostAt: read,
          namedAt: namings[0],
          change: 'compact',
          region: 'codebase',
          losses: [{ step: read, change: 0 }],
        },
      ],
    });
    expect(timeline.steps[read]!.changes).toEqual([expect.objectContaining({ type: 'compact', entries: [path] })]);
  });
});

describe('read again later, on generated traffic through a region that keeps no file', () => {
  // Every read_file result goes to a 1-token temporary region, larger than its whole budget, so it
  // is dropped the moment it arrives: the count then follows from the traffic alone.
  const TOML = `[context.regions]
task = { kind = "pinned", budget = "10%", seed = "task_input" }
dump = { kind = "temporary", max_tokens = 1 }

[stages.work.tool_routing.overrides]
read_file = "dump"
`;
  for (const seed of [3, 9]) {
    it(`counts each read file the run names again after its result, once per naming (coding-agent seed ${seed})`, () => {
      const events = generateTraffic({
        kind: 'coding-agent',
        seed,
        steps: 600,
        params: { todos: null, transitionTo: null },
      });
      const expected = new Set<string>();
      events.forEach((event, at) => {
        if (event.type !== 'tool_result' || event.tool_name !== 'read_file') return;
        const caller = events
          .slice(0, at)
          .reverse()
          .find((e) => e.type === 'assistant' && e.tool_calls?.some((c) => c.id === event.tool_call_id));
        const path = (caller as Extract<TrafficEvent, { type: 'assistant' }>).tool_calls!.find(
          (c) => c.id === event.tool_call_id,
        )!.arguments.path as string;
        const next = events.findIndex((e, i) => i > at && saidAt(e).some((t) => standsAlone(path).test(t)));
        if (next >= 0) expected.add(`${path} @${next}`);
      });
      expect(expected.size).toBeGreaterThan(20);
      const t = run(TOML, events, { inputs: { task: 'Fix the parser.' } });
      expect(new Set(t.summary.readAgain.items.map((i) => `${i.key} @${i.namedAt}`))).toEqual(expected);
      expect(t.summary.readAgain.count).toBe(expected.size);
      expect(t.summary.readAgain.items.every((i) => i.region === 'dump' && i.change === 'evict')).toBe(true);
    });
  }
});

/**
 * The count rebuilt from a timeline's changes and its events, apart from the engine's counter: each
 * lost entry whose label is a file a file tool was called with (or a context_append key), or the
 * file of a result a cap cut, named again by a later assistant event, once per key and naming.
 */
function recount(t: Timeline, events: readonly TrafficEvent[]): number {
  const files = new Set<string>();
  const fileOfCall = new Map<string, string>();
  for (const e of events) {
    if (e.type === 'context_append' && e.key !== undefined) files.add(e.key);
    if (e.type !== 'assistant') continue;
    for (const c of e.tool_calls ?? []) {
      if (!/^(read_file|write_file|edit_file)$/.test(c.name) || typeof c.arguments.path !== 'string') continue;
      files.add(c.arguments.path);
      fileOfCall.set(c.id, c.arguments.path);
    }
  }
  const counted = new Set<string>();
  for (const step of t.steps) {
    for (const c of step.changes) {
      const results = c.type === 'strip' && c.region !== 'conversation';
      if (!['evict', 'compact', 'clear', 'cascade', 'truncate'].includes(c.type) && !results) continue;
      if (c.region === '(read_file)') continue;
      for (const entry of c.entries) {
        // A stripped result was in the stream unless its result step said it was routed elsewhere.
        const streamed =
          results &&
          t.steps.some(
            (s) =>
              s.index < step.index &&
              s.event.type === 'tool_result' &&
              s.event.tool_call_id === entry &&
              s.result?.ok &&
              !s.result.message.startsWith('[routed to'),
          );
        const label = c.type === 'truncate' || streamed ? fileOfCall.get(entry) : results ? undefined : entry;
        if (label === undefined || !files.has(label)) continue;
        const from = c.type === 'cascade' || c.type === 'strip' ? step.index : step.index + 1;
        const next = events.findIndex((e, i) => i >= from && saidAt(e).some((text) => standsAlone(label).test(text)));
        if (next >= 0) counted.add(`${label} @${next}`);
      }
    }
  }
  return counted.size;
}

describe('read again later, on every example, and on tool results kept in the message stream', () => {
  it('agrees with a count rebuilt from the timeline on generated traffic whose results stream (coding-agent seed 5)', () => {
    const events = generateTraffic({
      kind: 'coding-agent',
      seed: 5,
      steps: 500,
      params: { todos: null, transitionTo: null },
    });
    const toml =
      '[context.regions]\ntask = { kind = "pinned", seed = "task_input" }\nconversation = { kind = "sliding_window", max_items = 8 }\n';
    const t = run(toml, events, { inputs: { task: 'Fix the parser.' } });
    expect(t.summary.changes.strip.count).toBeGreaterThan(10);
    expect(t.summary.readAgain.items.some((i) => i.change === 'strip')).toBe(true);
    expect(t.summary.readAgain.count).toBe(recount(t, events));
  });

  for (const example of EXAMPLES.filter((e) => e.id !== 'brain-custom')) {
    it(`agrees with a count rebuilt from the timeline's changes and the events (${example.id})`, () => {
      const scenario = ScenarioSchema.parse(example.scenario);
      const events = scenario.generator ? generateTraffic(scenario.generator) : scenario.traffic;
      // Call ids are unique in these runs, so a cut result's file is its id's.
      expect(
        new Set(events.flatMap((e) => (e.type === 'assistant' ? (e.tool_calls ?? []) : []).map((c) => c.id))).size,
      ).toBe(events.reduce((n, e) => n + (e.type === 'assistant' ? (e.tool_calls?.length ?? 0) : 0), 0));
      const t = replay({ ...scenario, generator: undefined, traffic: events }, { ...BUILT_IN_TRAFFIC, ...RHAI });
      expect(t.summary.readAgain.count).toBe(recount(t, events));
    });
  }
});

describe('read again later: what counts', () => {
  const TOML = `[context.regions]
task = { kind = "pinned", seed = "task_input" }
scratch = { kind = "temporary", max_tokens = 150 }

[stages.work.tool_routing]
default_region = "scratch"

[stages.work.tool_routing.overrides]
read_file = { region = "scratch", max_result_tokens = 100 }
`;

  it('a result cut by max_result_tokens and then dropped, named once afterwards, is one entry', () => {
    const t = run(
      TOML,
      [
        user('go'),
        assistant('', ['c1', 'read_file', { path: 'src/a.rs' }]),
        result('c1', 'read_file', 400),
        assistant('', ['c2', 'read_file', { path: 'src/b.rs' }]),
        result('c2', 'read_file', 400),
        assistant('Back to src/a.rs now.'),
      ],
      { inputs: { task: 'x' } },
    );
    expect(t.steps[2]!.changes.map((c) => c.type)).toEqual(['truncate']);
    expect(t.steps[4]!.changes.map((c) => [c.type, c.entries])).toEqual([
      ['truncate', ['c2']],
      ['evict', ['src/a.rs']],
    ]);
    // One item for the cut at step 2 and the drop at step 4 (the step's second change), both answered by step 5.
    expect(t.summary.readAgain.items).toEqual([
      {
        key: 'src/a.rs',
        lostAt: 2,
        namedAt: 5,
        change: 'truncate',
        region: 'scratch',
        losses: [
          { step: 2, change: 0 },
          { step: 4, change: 1 },
        ],
      },
    ]);
  });

  it('a search keyed by its directory is not a name, and a context_append key is', () => {
    const t = run(
      TOML,
      [
        assistant('', ['g1', 'grep', { pattern: 'a', path: 'src' }]),
        result('g1', 'grep', 200),
        { type: 'context_append', region: 'scratch', key: 'plan-v1', content: 'alpha '.repeat(200) },
        assistant('', ['g2', 'grep', { pattern: 'b', path: 'src' }]),
        assistant('Following plan-v1.'),
      ],
      { inputs: { task: 'x' } },
    );
    expect(t.steps[1]!.changes).toEqual([expect.objectContaining({ type: 'evict', entries: ['src'] })]);
    expect(t.summary.readAgain.items).toEqual([
      { key: 'plan-v1', lostAt: 2, namedAt: 4, change: 'evict', region: 'scratch', losses: [{ step: 2, change: 0 }] },
    ]);
  });

  it('a shell result holds the files its command read: named again by a later command, it is read again', () => {
    // The commands are Codex's own, from test/import/fixtures/real/codex-0.34-first-calls.jsonl.
    const t = run(
      TOML,
      [
        assistant('', ['s1', 'shell', { command: ['bash', '-lc', "sed -n '1,200p' plan.md"] }]),
        result('s1', 'shell', 100),
        assistant('', [
          's2',
          'shell',
          { command: ['bash', '-lc', 'ls -la opk && rg -n "TODO|FIXME|@draft|@todo" -S opk || true'] },
        ]),
        result('s2', 'shell', 100),
        assistant('', ['s3', 'shell', { command: ['bash', '-lc', "sed -n '200,400p' plan.md"] }]),
        result('s3', 'shell', 100),
        assistant('', ['s4', 'shell', { command: ['bash', '-lc', 'rg -n draft opk'] }]),
      ],
      { inputs: { task: 'x' } },
    );
    // Each result pushes the one before out of the 150-token scratch: s1's at step 3, s2's at step 5.
    expect(t.steps[3]!.changes).toEqual([expect.objectContaining({ type: 'evict', toolResults: ['s1'] })]);
    expect(t.steps[5]!.changes).toEqual([expect.objectContaining({ type: 'evict', toolResults: ['s2'] })]);
    // plan.md, read by s1's sed, is named by s3's; opk is a directory rg searched, never a file read.
    expect(t.summary.readAgain.items).toEqual([
      { key: 'plan.md', lostAt: 3, namedAt: 4, change: 'evict', region: 'scratch', losses: [{ step: 3, change: 0 }] },
    ]);
    expect(t.summary.lost).toEqual({ toolResults: 2, toolResultsReadAgain: 1, otherEntries: 0 });
  });

  it('a cascade sheds before its own request, so the reply of that step names it later', () => {
    const small = `[context.regions]
task = { kind = "pinned", seed = "task_input" }
notes = { kind = "temporary", max_tokens = 5000 }
conversation = { kind = "sliding_window", budget = "90%" }
`;
    const t = run(
      small,
      [
        { type: 'context_append', region: 'notes', key: 'src/big.rs', content: 'alpha '.repeat(900) },
        user('beta '.repeat(400)),
        assistant('I need src/big.rs again.'),
      ],
      { inputs: { task: 'x' }, model: { window: 1200 } },
    );
    expect(t.steps[2]!.changes).toEqual([
      expect.objectContaining({ type: 'cascade', region: 'notes', entries: ['src/big.rs'] }),
    ]);
    expect(t.summary.readAgain.items).toEqual([
      {
        key: 'src/big.rs',
        lostAt: 2,
        namedAt: 2,
        change: 'cascade',
        region: 'notes',
        losses: [{ step: 2, change: 0 }],
      },
    ]);
  });

  it("a result left out because its call left the conversation is lost; a routed result's stub is not", () => {
    const toml = (route: string) => `[context.regions]
task = { kind = "pinned", seed = "task_input" }
codebase = { kind = "compacting", max_tokens = 10000 }
conversation = { kind = "sliding_window", max_items = 2 }
${route}`;
    const traffic = [
      assistant('', ['c1', 'read_file', { path: 'src/a.rs' }]),
      result('c1', 'read_file', 300),
      user('ok'),
      assistant('next'),
      user('more'),
      assistant('Back to src/a.rs.'),
    ];
    // The call's turn leaves the two-item conversation at step 3; the request of step 5 strips the result.
    const streamed = run(toml(''), traffic, { inputs: { task: 'x' } });
    expect(streamed.steps[5]!.changes).toContainEqual(
      expect.objectContaining({ type: 'strip', region: 'tool_results', entries: ['c1'] }),
    );
    expect(streamed.summary.readAgain.items).toEqual([
      expect.objectContaining({ key: 'src/a.rs', lostAt: 5, namedAt: 5, change: 'strip', region: 'tool_results' }),
    ]);
    const { losses } = streamed.summary.readAgain.items[0]!;
    expect(losses.map((l) => streamed.steps[l.step]!.changes[l.change]!.type)).toEqual(['strip']);
    // Routed to codebase, the result is still there: the stripped block was its stub.
    const routed = run(toml('[stages.s.tool_routing.overrides]\nread_file = "codebase"\n'), traffic, {
      inputs: { task: 'x' },
    });
    expect(routed.steps[5]!.changes).toContainEqual(
      expect.objectContaining({ type: 'strip', region: 'tool_results', entries: ['c1'] }),
    );
    expect(routed.summary.readAgain.count).toBe(0);
  });

  it('knows the file each call named, by its id, at the step it was made', () => {
    const names = new RunNames([
      assistant('', ['c1', 'read_file', { path: 'a.rs' }]),
      result('c1', 'read_file', 1),
      assistant('', ['c1', 'Read', { path: 'b.rs' }]),
      result('c1', 'Read', 1),
    ]);
    expect(names.pathsOfCall('c1', 1)).toEqual(['a.rs']);
    expect(names.pathsOfCall('c1', 3)).toEqual([]); // Read is not one of routing's names for read_file
    expect(names.isName('a.rs')).toBe(true);
  });
});

describe('what the blueprint let go: tool results evicted, and other entries', () => {
  // scratch keeps two entries and takes every tool result; the writes, in order: a.rs, b.rs, the
  // shell output, the note, d.rs, e.rs. Each write past two drops the oldest: a.rs, b.rs, the shell
  // output and the note go (three tool results and one other entry); the run names only src/a.rs again.
  const TOML = `[context.regions]
task = { kind = "pinned", seed = "task_input" }
scratch = { kind = "sliding_window", max_items = 2 }

[stages.work.tool_routing]
default_region = "scratch"
`;
  it('counts each tool result once, the ones among them read again, and the other entries apart', () => {
    const t = run(
      TOML,
      [
        user('go'),
        assistant('', ['c1', 'read_file', { path: 'src/a.rs' }]),
        result('c1', 'read_file', 50),
        assistant('', ['c2', 'read_file', { path: 'src/b.rs' }]),
        result('c2', 'read_file', 50),
        assistant('', ['c3', 'shell', { command: 'cargo test' }]),
        result('c3', 'shell', 50),
        { type: 'context_append', region: 'scratch', key: 'plan', content: 'the plan' },
        assistant('', ['c4', 'read_file', { path: 'src/d.rs' }]),
        result('c4', 'read_file', 50),
        assistant('', ['c5', 'read_file', { path: 'src/e.rs' }]),
        result('c5', 'read_file', 50),
        assistant('Back to src/a.rs now.'),
      ],
      { inputs: { task: 'x' } },
    );
    const evicted = t.steps.flatMap((s) =>
      s.changes.filter((c) => c.type === 'evict').flatMap((c) => c.toolResults ?? []),
    );
    expect(evicted).toEqual(['c1', 'c2', 'c3']);
    expect(t.summary.lost).toEqual({ toolResults: 3, toolResultsReadAgain: 1, otherEntries: 1 });
    expect(t.summary.readAgain.items.map((i) => i.key)).toEqual(['src/a.rs']);
    expect(lostInWords(t.summary.lost)).toBe(
      '3 tool results evicted (1 of them read again later), 1 other entry let go',
    );
  });
});
