// The seam other region behaviour plugs into (ReplayOptions.regionFactories), and the inspect API the Worker calls.
import { describe, expect, it } from 'vitest';
import { replay, Replay, type RegionFactories } from '../../src/engine/index.ts';
import { BUILT_IN_TRAFFIC } from '../../src/scenarios/generators.ts';
import { RHAI } from '../../src/engine/custom-script.ts';
import { prepare, replayPrepared } from '../../src/engine/replay.ts';
import { TemporaryRegion } from '../../src/engine/regions/temporary.ts';
import { append, assistant, call, scenario, user } from '../builders.ts';
import { checkCustomScript } from '../../src/engine/custom-script.ts';

describe('region registry', () => {
  it('a custom factory that throws gives the plain fallback and a warning, not a crash', () => {
    const regionFactories: RegionFactories = {
      custom: () => {
        throw new Error('brain.rhai: no fn render(ctx)');
      },
    };
    const s = scenario('[context.regions]\nbrain = { kind = "custom", script = "brain.rhai", max_tokens = 100 }', [
      append('brain', 'x'),
      assistant(''),
    ]);
    // The script passes the Rhai check, so the factory itself is what fails.
    const withScript = { ...s, agent: { ...s.agent, 'brain.rhai': 'fn render(ctx) { "" }' } };
    const t = replayPrepared(withScript, prepare(withScript, { regionFactories, checkScript: checkCustomScript }), {});
    expect(t.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(t.warnings).toContain(
      'custom region brain: its script could not be loaded (brain.rhai: no fn render(ctx)), so it behaves as temporary (persistent = false) and renders its entries plainly',
    );
    expect(t.steps[0]!.result!.ok).toBe(true);
    expect(t.steps[1]!.request!.requestTokens).toBeGreaterThan(0);
  });
});

describe('inspect', () => {
  const s = scenario('[context.regions]\nnotes = { max_tokens = 50 }', [
    append('notes', 'one', 'a'),
    user('hi'),
    assistant('first'),
    append('notes', 'two', 'b'),
    assistant('second'),
  ]);

  it('gives the same detail going forward, backward and from a fresh run', () => {
    const r = new Replay(s, { ...BUILT_IN_TRAFFIC, ...RHAI });
    const late = r.inspect(4);
    const early = r.inspect(2);
    expect(r.inspect(4)).toEqual(late);
    expect(new Replay(s, { ...BUILT_IN_TRAFFIC, ...RHAI }).inspect(2)).toEqual(early);
    const kept = new Replay(s, { ...BUILT_IN_TRAFFIC, ...RHAI });
    // The page's worker: one replay that keeps every step, then inspects are lookups of the same detail.
    expect(kept.timeline()).toEqual(replay(s, { ...BUILT_IN_TRAFFIC, ...RHAI }));
    expect(kept.inspect(4)).toEqual(late);
    expect(kept.inspect(2)).toEqual(early);
    expect(early.inference).toBe(true);
    expect(early.request.system.map((b) => b.text)).toEqual(['[notes]:\none']);
    expect(early.requestRegions!.conversation).toEqual({ tokens: 1, budget: 38400, entries: 1, visible: true });
    expect(late.request.system.map((b) => b.text)).toEqual(['[notes]:\none\ntwo']);
    expect(late.ledger).toEqual({ main: { notes: 2, conversation: 3 } });
  });

  it('previews the next request on a step that is not an inference', () => {
    const d = new Replay(s, { ...BUILT_IN_TRAFFIC, ...RHAI }).inspect(3);
    expect(d.inference).toBe(false);
    expect(d.result).toEqual({
      ok: true,
      message: 'appended 1 tokens to notes as "b"; notes now holds 2 of 50 tokens',
    });
    expect(d.request.system[0]!.text).toBe('[notes]:\none\ntwo');
    expect(
      d.regions.find((r) => r.name === 'notes')!.entries.map((e) => [e.index, e.key, e.content, e.tokens, e.kind]),
    ).toEqual([
      [0, 'a', 'one', 1, 'text'],
      [1, 'b', 'two', 1, 'text'],
    ]);
  });

  it('names the range when a step does not exist', () => {
    expect(() => new Replay(s, { ...BUILT_IN_TRAFFIC, ...RHAI }).inspect(9)).toThrow(
      'no step 9: the scenario has 5 events (numbered from 0)',
    );
  });
});

describe('what a region can do', () => {
  it('is asked of the region, never read off its kind: a temporary that says it is keyed is treated as keyed', () => {
    const routed =
      '[context.regions]\nnotes = { kind = "temporary", max_tokens = 500 }\n\n[stages.main.tool_routing]\ndefault_region = "notes"';
    const traffic = [
      append('notes', 'unkeyed'),
      ...call('c1', 'grep', 20, { pattern: 'TODO' }),
      append('notes', 'keyed', 'k'),
    ];
    const plain = replay(scenario(routed, traffic), { ...BUILT_IN_TRAFFIC, ...RHAI });
    expect(plain.steps[0]!.result).toMatchObject({ ok: true });
    const regionFactories: RegionFactories = {
      temporary: (decl, budget) =>
        new (class extends TemporaryRegion {
          override get keyed(): boolean {
            return true;
          }
        })(decl, budget),
    };
    const run = new Replay(scenario(routed, traffic), { ...BUILT_IN_TRAFFIC, ...RHAI, regionFactories });
    run.timeline();
    const steps = run.inspect(3);
    expect(steps.regions.find((r) => r.name === 'notes')!.entries.map((e) => e.key)).toEqual([
      'grep {"pattern":"TODO"}',
      'k',
    ]);
    expect(run.inspect(0).result).toEqual({
      ok: false,
      message:
        'notes is a temporary region whose entries are keyed: give the entry a key (context_append { region: "notes", key: "...", content })',
    });
    // Only that replay: another one made without the option has the built-in behaviour.
    expect(new Replay(scenario(routed, traffic), BUILT_IN_TRAFFIC).inspect(0).result).toMatchObject({ ok: true });
  });
});

describe('replay options', () => {
  it('reports progress and stops between events when cancelled', async () => {
    const { replay } = await import('../../src/engine/index.ts');
    const traffic = Array.from({ length: 250 }, (_, i) => user(`turn ${i}`));
    const s = scenario('[context.regions]\nnotes = {}', traffic);
    const seen: [number, number][] = [];
    const signal = { cancelled: false };
    const t = replay(s, {
      ...BUILT_IN_TRAFFIC,
      ...RHAI,
      signal,
      onProgress: (done, total) => {
        seen.push([done, total]);
        if (done >= 200) signal.cancelled = true;
      },
    });
    expect(seen).toEqual([
      [100, 250],
      [200, 250],
    ]);
    expect(t.cancelled).toBe(true);
    expect(t.steps).toHaveLength(200);
    const full = replay(s, { ...BUILT_IN_TRAFFIC, ...RHAI, signal: { aborted: false } });
    expect(full.cancelled).toBe(false);
    expect(full.steps).toHaveLength(250);
  });
});
