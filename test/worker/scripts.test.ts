// What the engine worker tells the page about scripts: on the brain-custom example (one custom
// region with render and on_write, called 146 times), two announcements, and every call's time.
import { afterEach, describe, expect, it } from 'vitest';
import { watchScripts, type ScriptCall, replay } from '../../src/engine/index.ts';
import { BUILT_IN_TRAFFIC } from '../../src/scenarios/generators.ts';
import { RHAI } from '../../src/engine/custom-script.ts';
import { exampleContent } from '../../src/state/scenario.ts';
import { describeScript, scriptLog, type RunningScript } from '../../src/worker/scripts.ts';
import { scenario, user, assistant } from '../builders.ts';

afterEach(() => watchScripts(undefined));

/** Replays with a log watching, and a second watcher that records every call the log saw. */
function watched(s: Parameters<typeof replay>[0]) {
  const announced: RunningScript[] = [];
  const calls: ScriptCall[] = [];
  const log = scriptLog((running) => announced.push(running));
  watchScripts({
    started: (call) => {
      calls.push(call);
      log.started(call);
    },
    finished: (call, ms) => log.finished(call, ms),
  });
  replay(s, { ...BUILT_IN_TRAFFIC, ...RHAI });
  return { announced, calls, log };
}

describe('scriptLog', () => {
  it('announces a file once per hook it calls, however many calls there are, and times every call', () => {
    const { announced, calls, log } = watched(exampleContent('brain-custom')!);
    expect(calls.length).toBeGreaterThan(100);
    expect(new Set(calls.map((c) => c.file))).toEqual(new Set(['context_hooks/brain.rhai']));
    const order = [...new Set(calls.map((c) => c.hook))];
    expect(announced).toEqual(
      order.map((_, i) => ({ file: 'context_hooks/brain.rhai', hooks: order.slice(0, i + 1) })),
    );
    const slowest = log.slowest(5);
    expect(slowest).toHaveLength(order.length);
    const counted = slowest.map((line) => Number(/\((\d[\d,]*) calls?\)$/.exec(line)![1]!.replace(/,/g, '')));
    expect(counted.reduce((a, b) => a + b, 0)).toBe(calls.length);
    expect(log.totalMs).toBeGreaterThan(0);
  });

  it('announces again when another file comes in between, and names a seed as one', () => {
    const toml =
      '[context.regions]\na = { kind = "custom", script = "a.rhai" }\nb = { kind = "custom", script = "b.rhai" }\nfacts = { kind = "pinned", seed = { rhai = "facts.rhai" } }\n';
    const s = scenario(toml, [user('hi'), assistant('one'), assistant('two')], {
      agent: { 'agent.leviath': toml, 'a.rhai': 'fn render(ctx) { "a" }', 'b.rhai': 'fn render(ctx) { "b" }' },
      workdir: { 'facts.rhai': '"fact"' },
    });
    const { announced, calls } = watched(s);
    // The seed runs when the blueprint is checked and again when the run spawns.
    expect(calls.filter((c) => c.hook === 'seed').length).toBeGreaterThan(0);
    expect(new Set(calls.filter((c) => c.hook === 'seed').map((c) => c.file))).toEqual(new Set(['facts.rhai']));
    // Every change of file is announced: as many announcements as runs of one file in the calls.
    const runs = calls.filter((c, i) => i === 0 || calls[i - 1]!.file !== c.file).length;
    expect(announced).toHaveLength(runs);
    expect(announced.map(describeScript)).toContain('facts.rhai (a rhai seed)');
    expect(announced.map(describeScript)).toContain('a.rhai (render)');
  });
});
