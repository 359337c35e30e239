// The engine wired with the built-in traffic generators: the one module that brings src/scenarios
// to src/engine, which imports nothing outside itself but src/rhai. The CLI, the Worker, bench and
// the tests import the engine from here; `replay` and `Replay` below stand in for the engine's own,
// which make no traffic unless given generators.
import { preflight as enginePreflight, Replay as EngineReplay, replay as engineReplay, type ReplayOptions, type Timeline } from '../engine/index.ts';
import type { Diagnostic } from '../engine/diagnostics.ts';
import type { Scenario } from '../engine/scenario.ts';
import { TRAFFIC_GENERATORS } from './generators.ts';

export * from '../engine/index.ts';

const withBuiltInGenerators = (options: ReplayOptions): ReplayOptions => ({ generators: TRAFFIC_GENERATORS, ...options });

/** The whole timeline. A blueprint with errors gives diagnostics and no steps, never a throw. */
export function replay(scenario: Scenario, options: ReplayOptions = {}): Timeline {
  return engineReplay(scenario, withBuiltInGenerators(options));
}

/** The engine's Replay (one run, its snapshots, inspect) with the built-in generators. */
export class Replay extends EngineReplay {
  constructor(scenario: Scenario, options: ReplayOptions = {}) {
    super(scenario, withBuiltInGenerators(options));
  }
}

/** What a replay of the scenario would refuse or warn about, without running it (engine preflight). */
export function preflight(scenario: Scenario, options: ReplayOptions = {}): Diagnostic[] {
  return enginePreflight(scenario, withBuiltInGenerators(options));
}
