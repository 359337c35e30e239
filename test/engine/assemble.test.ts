import { describe, expect, it } from 'vitest';
import { append, assistant, call, detail, result, run, scenario, user, words } from '../builders.ts';
import { prepare, type Run } from '../../src/engine/replay.ts';
import type { TrafficEvent } from '../../src/engine/scenario.ts';
import { fillerText } from '../../src/engine/filler.ts';
import { countTokens } from '../../src/engine/tokens.ts';
import { BUILT_IN_TRAFFIC } from '../../src/scenarios/generators.ts';
import { RHAI } from '../../src/engine/custom-script.ts';

describe('assembly order', () => {
  it('pinned in declaration order, then stage_instructions, then other system regions, then messages', () => {
    const toml = `[context.regions]
notes = { kind = "temporary" }
todos = { kind = "checklist" }
stage_instructions = { kind = "pinned" }
task = { kind = "pinned" }
findings = { kind = "hashmap" }
rules = { kind = "pinned", seed = { literal = "Be brief." } }
[stages.s]
system_prompt = "Go."
`;
    const traffic: TrafficEvent[] = [
      append('notes', 'n'),
      { type: 'todo_add', region: 'todos', item: 'x' },
      append('findings', 'f', 'k'),
      user('hi'),
      assistant('yo'),
    ];
    const d = detail(toml, traffic, 4, { inputs: { task: 'Do it' } });
    expect(d.inference).toBe(true);
    expect(d.request.system.map((b) => b.region)).toEqual([
      'task',
      'rules',
      'stage_instructions',
      'notes',
      'todos',
      'findings',
    ]);
    expect(d.request.messages).toEqual([{ role: 'user', content: 'hi', region: 'conversation', tokens: 1 }]);
    // Block tokens are the stored entry counts plus the header, counted once.
    const task = d.request.system[0]!;
    expect(task).toEqual({
      region: 'task',
      text: '[task]:\nDo it',
      tokens: countTokens('[task]:\n') + 2,
      cache: 'always',
    });
    expect(d.request.tokens).toBe(d.request.system.reduce((s, b) => s + b.tokens, 0) + 1);
  });
});

describe('tool call pairing', () => {
  it('strips results whose call fell out of the conversation, and counts them', () => {
    const toml = '[context.regions]\nconversation = { kind = "sliding_window", max_items = 2 }';
    const traffic = [...call('c1', 'grep', 30), ...call('c2', 'grep', 40), user('next'), assistant('thinking')];
    const t = run(toml, traffic);
    const step = t.steps[5]!;
    // The window keeps the last two items (c2's call and "next"), so c1's result lost its call.
    expect(step.request!.strippedBlocks).toBe(1);
    expect(step.changes[0]).toEqual({
      type: 'strip',
      region: 'tool_results',
      tokens: 30,
      entries: ['c1'],
      reason: 'tool call and result must be paired',
    });
    // After the request, the reply joins the window and pushes c2's call out.
    expect(step.changes[1]).toMatchObject({ type: 'evict', region: 'conversation', entries: ['assistant: grep#c2'] });
    const d = detail(toml, traffic, 5);
    expect(d.request.stripped).toEqual({ toolCalls: [], toolResults: ['c1'] });
    expect(d.request.messages.map((m) => [m.role, m.tool_call_id ?? m.tool_calls?.[0]!.id ?? m.content])).toEqual([
      ['assistant', 'c2'],
      ['tool', 'c2'],
      ['user', 'next'],
    ]);
  });

  it('records a strip once, on the first request that leaves the block out, and counts it on every request', () => {
    const toml = '[context.regions]\nconversation = { kind = "sliding_window", max_items = 2 }';
    const t = run(toml, [...call('c1', 'grep', 30), user('a'), user('b'), assistant('one'), assistant('two')]);
    expect(t.steps[4]!.changes[0]).toMatchObject({ type: 'strip', entries: ['c1'], tokens: 30 });
    expect(t.steps[5]!.changes.filter((c) => c.type === 'strip')).toEqual([]);
    expect(t.steps[5]!.request!.strippedBlocks).toBe(1);
  });

  it('a copy made after a strip was recorded does not record it again, nor does the run it was copied from', () => {
    const toml = '[context.regions]\nconversation = { kind = "sliding_window", max_items = 2 }';
    const traffic = [
      ...call('c1', 'grep', 30),
      user('a'),
      user('b'),
      assistant('one'),
      assistant('two'),
      ...call('c2', 'grep', 40),
      user('c'),
      user('d'),
      assistant('three'),
    ];
    const prepared = prepare(scenario(toml, traffic), {});
    const original = prepared.run!;
    const strips = (r: Run, until: number) => {
      const seen: string[][] = [];
      while (r.position < until) for (const c of r.step().changes) if (c.type === 'strip') seen.push(c.entries);
      return seen;
    };
    expect(strips(original, 5)).toEqual([['c1']]);
    const copy = original.fork()!;
    // Both go on stripping c1 from every request without recording it again; each records c2 once.
    expect(strips(original, traffic.length)).toEqual([['c2']]);
    expect(strips(copy, traffic.length)).toEqual([['c2']]);
  });

  it('reports each strip once however long the run, and forgets the strips no request can meet again', () => {
    // Calls slide out of a two-item conversation at once; their results stay in tool_results for
    // 40 more calls, stripped from every request meanwhile.
    const toml =
      '[context.regions]\nconversation = { kind = "sliding_window", max_items = 2 }\ntool_results = { kind = "sliding_window", max_items = 40 }';
    const traffic = Array.from({ length: 600 }, (_, i) => [
      ...call(`c${i}`, 'grep', 5),
      assistant(`looked ${i}`),
    ]).flat();
    const r = prepare(scenario(toml, traffic), {}).run!;
    const reported: string[] = [];
    while (!r.done) for (const c of r.step().changes) if (c.type === 'strip') reported.push(...c.entries);
    // Each result is reported once, on the first request after its call left, while later
    // requests go on stripping it (the last call is still in the conversation when the run ends).
    expect(reported).toEqual(Array.from({ length: 599 }, (_, i) => `c${i}`));
    // Kept: at least the 39 results still in tool_results whose calls left, far from all 599.
    const remembered = [...r.reportedStrips.values()].reduce((n, bySeq) => n + bySeq.size, 0);
    expect(remembered).toBeGreaterThanOrEqual(39);
    expect(remembered).toBeLessThan(256);
  });

  it('strips a call that never got a result, keeping the assistant text', () => {
    const d = detail(
      '[context.regions]\nnotes = {}',
      [assistant('let me look', ['c1', 'grep']), user('well?'), assistant('sorry')],
      2,
    );
    expect(d.request.stripped).toEqual({ toolCalls: ['c1'], toolResults: [] });
    expect(d.request.messages.map((m) => [m.role, m.content, m.tool_calls])).toEqual([
      ['assistant', 'let me look', undefined],
      ['user', 'well?', undefined],
    ]);
    expect(d.request.messages[0]!.tokens).toBe(countTokens('let me look'));
  });
});

describe('window-level cascade', () => {
  const toml = `[context.regions]
task = { kind = "pinned" }
sources = { kind = "temporary", max_tokens = 5000, admission = "reject" }
scratch = { kind = "temporary", max_tokens = 5000 }
wipe = { kind = "clearable", max_tokens = 5000 }
codebase = { kind = "compacting", max_tokens = 5000 }
conversation = { kind = "sliding_window", max_items = 50, max_tokens = 5000 }
`;
  const model = { window: 1000 };

  it('sheds temporary first, then clearable, then the sliding window, never pinned or reject regions', () => {
    const traffic: TrafficEvent[] = [
      append('sources', words(300), 'src'),
      append('scratch', words(200), 's1'),
      append('scratch', words(200), 's2'),
      append('wipe', words(150), 'w'),
      append('codebase', words(100), 'file.rs'),
      user(words(100)),
      assistant('ok'),
    ];
    const t = run(toml, traffic, { model, inputs: { task: 'Fix it' } });
    const step = t.steps[6]!;
    // 2+300+400+150+100+100 plus headers is over 1,000 by less than 200: shedding s1 is enough.
    expect(step.changes.filter((c) => c.type === 'cascade').map((c) => [c.region, c.entries])).toEqual([
      ['scratch', ['s1']],
    ]);
    expect(step.regions.wipe).toMatchObject({ tokens: 150, entries: 1 });
    expect(step.request!.requestTokens).toBeLessThanOrEqual(1000);
    expect(step.regions.sources).toMatchObject({ tokens: 300, entries: 1 });
    expect(step.regions.task).toMatchObject({ tokens: 2, entries: 1 });
  });

  it('goes on to the sliding window and compacting when temporary is not enough', () => {
    const traffic: TrafficEvent[] = [
      append('sources', words(400), 'src'),
      append('scratch', words(100), 's1'),
      append('wipe', words(100), 'w'),
      append('codebase', words(200), 'file.rs'),
      user(words(150)),
      user(words(150)),
      assistant('ok'),
    ];
    const t = run(toml, traffic, { model, inputs: { task: 'Fix it' } });
    const step = t.steps[6]!;
    const regions = step.changes.filter((c) => c.type === 'cascade').map((c) => c.region);
    expect(regions.slice(0, 2)).toEqual(['scratch', 'wipe']);
    expect(regions).not.toContain('sources');
    expect(regions).not.toContain('task');
    expect(step.request!.requestTokens).toBeLessThanOrEqual(1000);
    expect(step.request!.overWindow).toBe(false);
  });

  it('says so when only unsheddable regions are left over the window', () => {
    const t = run(
      '[context.regions]\ntask = { kind = "pinned", max_tokens = 5000 }',
      [append('task', words(1200), 'big'), assistant('')],
      { model },
    );
    expect(t.steps[1]!.request!.overWindow).toBe(true);
    expect(t.steps[1]!.warnings[0]).toMatch(/over the 1,000-token window even after the cascade/);
  });
});

describe('cache prefix and baseline', () => {
  it('measures the prefix shared with the previous request and the flat-list baseline', () => {
    const toml =
      '[context.regions]\ntask = { kind = "pinned" }\nconversation = { kind = "sliding_window", max_items = 50, max_tokens = 5000 }';
    const traffic: TrafficEvent[] = [
      user(words(300)),
      assistant('a'),
      user(words(300)),
      assistant('b'),
      user(words(300)),
      assistant('c'),
    ];
    const t = run(toml, traffic, { model: { window: 700 }, inputs: { task: 'Fix the failing test' } });
    const [r0, r1, r2] = t.steps.filter((s) => s.request).map((s) => s.request!);
    expect(r0!.prefixTokens).toBe(0);
    // The task block and the first user turn are unchanged in the second request.
    expect(r1!.prefixTokens).toBe(countTokens('[task]:\n') + 4 + 300);
    // The third request is over 700: the conversation sheds its oldest turn, the task stays.
    expect(r2!.prefixTokens).toBe(countTokens('[task]:\n') + 4);
    expect(r0!.baselineTokens).toBe(4 + 300);
    expect(r2!.baselineTokens).toBe(300 + 1 + 300 + 1);
    expect(r1!.taskInBaselineWindow).toBe(true);
    expect(r2!.taskInBaselineWindow).toBe(false);
    expect(r2!.taskInWindow).toBe(true);
    expect(t.summary.baselineLosesTaskAt).toBe(2);
    expect(t.summary.taskLostAt).toBe(null);
  });
});

describe('filler text', () => {
  it('has exactly size_tokens tokens in both encodings', () => {
    for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
      for (const n of [1, 2, 3, 5, 12, 13, 14, 25, 26, 27, 99, 1000, 4321, 8192 * 13 + 12, 8192 * 13 * 2 + 25]) {
        for (const tool of ['read_file', 'web-fetch', 'x', 'user', 'assistant']) {
          expect(countTokens(fillerText(n, tool, `${tool}${n}`, countTokens, encoding), encoding)).toBe(n);
        }
      }
    }
  });

  it('is deterministic per call id and differs between calls', () => {
    const a = fillerText(50, 'grep', 'c1', countTokens, 'o200k_base');
    expect(fillerText(50, 'grep', 'c1', countTokens, 'o200k_base')).toBe(a);
    expect(fillerText(50, 'grep', 'c2', countTokens, 'o200k_base')).not.toBe(a);
    expect(a.split('\n')[0]).toBe('grep output');
  });

  it('feeds tool results of the stated size', () => {
    const t = run('[context.regions]\nnotes = {}', [assistant('', ['c1', 'grep']), result('c1', 'grep', 777)]);
    expect(t.steps[1]!.regions.tool_results).toMatchObject({ tokens: 777, entries: 1 });
  });
});

describe('runtime regions', () => {
  it('supplies conversation, tool_results and final_output when not declared', () => {
    const t = run('[context.regions]\nnotes = {}', [user('hi')]);
    const byName = Object.fromEntries(t.regions.map((r) => [r.name, [r.kind, r.budget, r.declared, r.section]]));
    expect(byName.conversation).toEqual(['sliding_window', 38400, false, 'messages']);
    expect(byName.tool_results).toEqual(['sliding_window', 38400, false, 'messages']);
    expect(byName.final_output).toEqual(['temporary', 5000, false, 'system']);
    expect(byName.notes).toEqual(['temporary', 5000, true, 'system']);
  });

  it('never throws on a broken blueprint: diagnostics and no steps', async () => {
    const { replay } = await import('../../src/engine/index.ts');
    const { scenario } = await import('../builders.ts');
    const t = replay(scenario('[context.regions]\nx = { kind = "nonsense" }', [user('hi')]), {
      ...BUILT_IN_TRAFFIC,
      ...RHAI,
    });
    expect(t.steps).toEqual([]);
    expect(t.diagnostics.map((d) => d.code)).toContain('unknown-region-kind');
  });
});
