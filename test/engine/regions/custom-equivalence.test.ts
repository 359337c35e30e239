// The spec's "Recreating the built-ins": each example script under src/scenarios/hooks/, run on the
// same traffic as the built-in kind it recreates, gives the same regions and the same request.
import { describe, expect, it } from 'vitest';
import type { RegionDecl } from '../../../src/engine/blueprint/types.ts';
import { Replay, replay } from '../../../src/engine/index.ts';
import { BUILT_IN_TRAFFIC } from '../../../src/scenarios/generators.ts';
import { RHAI, loadCustomHooks } from '../../../src/engine/custom-script.ts';
import { ClearableRegion } from '../../../src/engine/regions/clearable.ts';
import { CustomRegion } from '../../../src/engine/regions/custom.ts';
import { PinnedRegion } from '../../../src/engine/regions/pinned.ts';
import { SlidingWindowRegion } from '../../../src/engine/regions/sliding-window.ts';
import { TemporaryRegion } from '../../../src/engine/regions/temporary.ts';
import type { Entry, Region, RegionRender } from '../../../src/engine/regions/types.ts';
import type { TrafficEvent } from '../../../src/engine/scenario.ts';
import { countTokens } from '../../../src/engine/tokens.ts';
import { scenario, CUSTOM_TEST, budgetOf, decl, hookScript, testContext } from '../../builders.ts';

// ---- region level: the same entries written to both ------------------------------------------

function entriesFor(kindMix: 'text' | 'conversation'): Entry[] {
  const out: Entry[] = [];
  for (let i = 0; i < 30; i++) {
    const body = `item ${i}: ${'word '.repeat(((i * 11) % 37) + 3)}`.trim();
    if (kindMix === 'text') {
      out.push({
        seq: i,
        content: body,
        tokens: countTokens(body),
        kind: i % 2 ? 'tool_result' : 'text',
        ...(i % 5 === 0 ? { key: `k${i}` } : {}),
      });
      continue;
    }
    const n = Math.floor(i / 3);
    if (i % 3 === 0) out.push({ seq: i, content: `ask ${n}`, tokens: countTokens(`ask ${n}`), kind: 'user_message' });
    if (i % 3 === 1) {
      const calls = [{ id: `c${n}`, name: 'shell', arguments: { cmd: `run ${n}` } }];
      const callTokens = [countTokens(JSON.stringify({ name: 'shell', arguments: calls[0]!.arguments }))];
      out.push({
        seq: i,
        content: `running ${n}`,
        tokens: countTokens(`running ${n}`) + callTokens[0]!,
        kind: 'assistant_turn',
        toolCalls: calls,
        toolCallTokens: callTokens,
      });
    }
    if (i % 3 === 2)
      out.push({
        seq: i,
        content: body,
        tokens: countTokens(body),
        kind: 'tool_result',
        toolCallId: `c${n}`,
        toolName: 'shell',
      });
  }
  return out;
}

const view = (r: RegionRender) => ({
  system: r.system && { text: r.system.text, tokens: r.system.tokens },
  messages: r.messages.map((m) => ({
    seq: m.seq,
    role: m.role,
    content: m.content,
    tool_calls: m.tool_calls,
    tool_call_id: m.tool_call_id,
    tokens: m.tokens,
  })),
});

function custom(script: string, d: RegionDecl, budget: number): CustomRegion {
  return new CustomRegion(d, budgetOf(budget), {
    agent: { 'agent.leviath': '', [`hooks/${script}.rhai`]: hookScript(script) },
    encoding: 'o200k_base',
    loadCustomHooks,
  });
}

function assertSame(builtIn: Region, recreated: Region, entries: readonly Entry[]): number {
  const ctx = testContext();
  let evictions = 0;
  for (const entry of entries) {
    const a = builtIn.write(entry, ctx);
    const b = recreated.write(entry, ctx);
    expect(b.ok).toBe(a.ok);
    evictions += a.changes.length;
    expect(recreated.entries).toEqual(builtIn.entries);
    expect(recreated.tokens).toBe(builtIn.tokens);
    expect(view(recreated.render(ctx))).toEqual(view(builtIn.render(ctx)));
  }
  expect(ctx.warnings).toEqual([]);
  return evictions;
}

describe('recreating the built-ins, region by region', () => {
  it('pinned: persistent = true with a render that joins entries', () => {
    const d = decl('notes', { kind: 'pinned' });
    const evictions = assertSame(
      new PinnedRegion(d, budgetOf(300)),
      custom('pinned', decl('notes', { kind: 'custom', script: 'hooks/pinned.rhai', persistent: true }), 300),
      entriesFor('text'),
    );
    expect(evictions).toBe(0);
  });

  it('temporary: the defaults plus a [name]: render', () => {
    const d = decl('notes', { kind: 'temporary' });
    const evictions = assertSame(
      new TemporaryRegion(d, budgetOf(300)),
      custom('temporary', decl('notes', { kind: 'custom', script: 'hooks/temporary.rhai' }), 300),
      entriesFor('text'),
    );
    expect(evictions).toBeGreaterThan(5);
  });

  it('clearable: on_overflow dropping all but the newest', () => {
    const d = decl('notes', { kind: 'clearable' });
    const evictions = assertSame(
      new ClearableRegion(d, budgetOf(300)),
      custom('clearable', decl('notes', { kind: 'custom', script: 'hooks/clearable.rhai' }), 300),
      entriesFor('text'),
    );
    expect(evictions).toBeGreaterThanOrEqual(2);
  });

  it('sliding_window: on_overflow as the retention window, typed messages', () => {
    const d = decl('conversation', { kind: 'sliding_window', maxItems: 1000 });
    const evictions = assertSame(
      new SlidingWindowRegion(d, budgetOf(250)),
      custom('sliding_window', decl('conversation', { kind: 'custom', script: 'hooks/sliding_window.rhai' }), 250),
      entriesFor('conversation'),
    );
    expect(evictions).toBeGreaterThan(5);
  });
});

// ---- scenario level: the whole run and the request sent at every inference -------------------

function traffic(target: string): TrafficEvent[] {
  const events: TrafficEvent[] = [{ type: 'user', content: 'Fix the failing header test.' }];
  for (let i = 0; i < 24; i++) {
    const read = i % 3 === 0;
    const name = read ? 'read_file' : 'shell';
    events.push({
      type: 'assistant',
      content: `step ${i}`,
      tool_calls: [{ id: `c${i}`, name, arguments: read ? { path: `src/f${i}.rs` } : { cmd: `cargo test ${i}` } }],
    });
    events.push({
      type: 'tool_result',
      tool_call_id: `c${i}`,
      tool_name: name,
      content: `output ${i}\n${'line of output '.repeat(((i * 13) % 29) + 2)}`,
      is_error: i % 7 === 3,
    });
    if (i % 5 === 2) events.push({ type: 'context_append', region: target, content: `note ${i}` });
  }
  events.push({ type: 'assistant', content: 'done' });
  return events;
}

function blueprint(target: string, declaration: string, routeTo = target): string {
  return `[context.regions]
task = { kind = "pinned", seed = "task_input" }
${target} = ${declaration}

[stages.work]
[stages.work.tool_routing]
default_region = "${routeTo}"
`;
}

function requests(toml: string, target: string) {
  const hooks = Object.fromEntries(
    ['pinned', 'temporary', 'clearable', 'sliding_window'].map((n) => [`hooks/${n}.rhai`, hookScript(n)]),
  );
  const sc = scenario({ 'agent.leviath': toml, ...hooks }, traffic(target), {
    ...CUSTOM_TEST,
    inputs: { task: 'Fix the failing header test.' },
  });
  const run = new Replay(sc, { ...BUILT_IN_TRAFFIC, ...RHAI });
  const inferences = sc.traffic.filter((e) => e.type === 'assistant').length;
  const shrinks = replay(sc, { ...BUILT_IN_TRAFFIC, ...RHAI })
    .steps.flatMap((s) => s.changes)
    .filter((c) => c.region === target && ['evict', 'clear'].includes(c.type)).length;
  const perInference = Array.from({ length: inferences }, (_, n) => {
    const detail = run.inspectInference(n);
    const region = detail.regions.find((r) => r.name === target)!;
    return {
      request: detail.request,
      entries: region.entries.map((e) => ({ content: e.content, tokens: e.tokens, key: e.key, kind: e.kind })),
      warnings: detail.warnings,
    };
  });
  return { perInference, shrinks };
}

describe('recreating the built-ins, whole runs', () => {
  const cases: [string, string, string, string, boolean][] = [
    [
      'pinned',
      'notes',
      '{ kind = "pinned", max_tokens = 100000 }',
      '{ kind = "custom", script = "hooks/pinned.rhai", persistent = true, max_tokens = 100000 }',
      false,
    ],
    [
      'temporary',
      'notes',
      '{ kind = "temporary", max_tokens = 400 }',
      '{ kind = "custom", script = "hooks/temporary.rhai", max_tokens = 400 }',
      true,
    ],
    [
      'clearable',
      'notes',
      '{ kind = "clearable", max_tokens = 400 }',
      '{ kind = "custom", script = "hooks/clearable.rhai", max_tokens = 400 }',
      true,
    ],
    [
      'sliding_window',
      'conversation',
      '{ kind = "sliding_window", max_tokens = 700, max_items = 1000 }',
      '{ kind = "custom", script = "hooks/sliding_window.rhai", max_tokens = 700 }',
      true,
    ],
  ];
  for (const [name, target, builtIn, recreated, sheds] of cases) {
    it(`${name}: same regions and same request at every inference`, () => {
      const { perInference: a, shrinks } = requests(blueprint(target, builtIn), target);
      const { perInference: b, shrinks: recreatedShrinks } = requests(blueprint(target, recreated), target);
      // The traffic made the region shed (or, pinned, never shed) in both runs.
      expect(shrinks > 0).toBe(sheds);
      expect(recreatedShrinks > 0).toBe(sheds);
      expect(b.length).toBe(a.length);
      for (let n = 0; n < a.length; n++) {
        expect(b[n]!.entries, `inference ${n}: ${target} entries`).toEqual(a[n]!.entries);
        expect(b[n]!.request, `inference ${n}: request`).toEqual(a[n]!.request);
        expect(b[n]!.warnings.filter((w) => w.startsWith('custom region'))).toEqual([]);
      }
      // The run exercised the region: it holds something at the end and saw traffic on the way.
      expect(a[a.length - 1]!.entries.length).toBeGreaterThan(0);
    });
  }
});
