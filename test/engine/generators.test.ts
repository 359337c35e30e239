// The engine makes no traffic of its own: a scenario's generator runs only when the caller brings it
// (BUILT_IN_TRAFFIC brings the built-in ones), and one it did not bring is a diagnostic.
import { describe, expect, it } from 'vitest';
import { replay, Replay } from '../../src/engine/index.ts';
import type { TrafficEvent } from '../../src/engine/scenario.ts';
import type { Timeline } from '../../src/engine/timeline.ts';
import { generateTraffic, BUILT_IN_TRAFFIC } from '../../src/scenarios/generators.ts';
import { RHAI } from '../../src/engine/custom-script.ts';
import { scenario, user } from '../builders.ts';

const generated = (extra: TrafficEvent[] = []) =>
  scenario('[context.regions]\nnotes = {}', extra, {
    generator: { kind: 'long-chat', seed: 3, steps: 12 },
  });

const errors = (timeline: Timeline) => timeline.diagnostics.filter((d) => d.severity === 'error');

describe('traffic generators as a dependency', () => {
  it('a generator the caller did not bring is a diagnostic naming it, and no steps', () => {
    const timeline = replay(generated());
    expect(timeline.steps).toEqual([]);
    expect(errors(timeline)).toEqual([
      expect.objectContaining({
        code: 'generator-unavailable',
        severity: 'error',
        file: 'scenario.json',
        path: 'generator',
        message:
          'scenario.generator names the long-chat generator, which this replay was not given (given: none); pass it in ReplayOptions.generators (BUILT_IN_TRAFFIC in src/scenarios/generators.ts has the built-in ones)',
      }),
    ]);
  });

  it('says which generators were brought when the named one is not among them', () => {
    const timeline = replay(generated(), { generators: { 'coding-agent': generateTraffic } });
    expect(errors(timeline).map((d) => d.message)).toEqual([
      'scenario.generator names the long-chat generator, which this replay was not given (given: coding-agent); pass it in ReplayOptions.generators (BUILT_IN_TRAFFIC in src/scenarios/generators.ts has the built-in ones)',
    ]);
  });

  it('inspecting a run the caller gave no generator is an error that names the generator, not a crash', () => {
    expect(() => new Replay(generated()).inspect(0)).toThrow(
      /^the scenario cannot run: scenario\.generator names the long-chat generator/,
    );
  });

  it("runs the generator the caller brings, its events before the scenario's own traffic", () => {
    const brought = (spec: { seed: number }): TrafficEvent[] => [user(`generated with seed ${spec.seed}`)];
    const timeline = replay(generated([user('written')]), { generators: { 'long-chat': brought } });
    expect(timeline.steps.map((s) => s.event)).toEqual([user('generated with seed 3'), user('written')]);
  });

  it('BUILT_IN_TRAFFIC brings the built-in generators to replay and to Replay', () => {
    const events = generateTraffic({ kind: 'long-chat', seed: 3, steps: 12 });
    const timeline = replay(generated(), { ...BUILT_IN_TRAFFIC, ...RHAI });
    expect(errors(timeline)).toEqual([]);
    expect(timeline.steps.map((s) => s.event)).toEqual(events);
    expect(new Replay(generated(), { ...BUILT_IN_TRAFFIC, ...RHAI }).inspect(events.length - 1).event).toEqual(
      events.at(-1),
    );
  });
});
