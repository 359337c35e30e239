// Runtime tests' shortcuts: replay or inspect a scenario written in a few lines (test/builders.ts).
import { replay, Replay } from '../../src/engine/index.ts';
import { BUILT_IN_TRAFFIC } from '../../src/scenarios/generators.ts';
import { RHAI } from '../../src/engine/custom-script.ts';
import type { ScenarioInput, TrafficEvent } from '../../src/engine/scenario.ts';
import type { Timeline, TimelineStep } from '../../src/engine/timeline.ts';
import { scenario } from '../builders.ts';

export function run(toml: string, traffic: TrafficEvent[], extra: Partial<ScenarioInput> = {}): Timeline {
  const timeline = replay(scenario(toml, traffic, extra), { ...BUILT_IN_TRAFFIC, ...RHAI });
  const errors = timeline.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length)
    throw new Error(`scenario did not run: ${errors.map((d) => `${d.code}: ${d.message}`).join('; ')}`);
  return timeline;
}

export function detail(toml: string, traffic: TrafficEvent[], step: number, extra: Partial<ScenarioInput> = {}) {
  return new Replay(scenario(toml, traffic, extra), { ...BUILT_IN_TRAFFIC, ...RHAI }).inspect(step);
}

/** `name: tokens/entries` for the listed regions at a step. */
export function figures(step: TimelineStep, ...names: string[]): Record<string, [number, number]> {
  return Object.fromEntries(names.map((n) => [n, [step.regions[n]!.tokens, step.regions[n]!.entries]]));
}

export { append, assistant, call, result, scenario, user } from '../builders.ts';

/** A compacting codebase, a region that is not summarizable and a history of the codebase, across an edge whose transform is compact. */
export const COMPACT_EDGE = `[context.regions]
codebase = { kind = "compacting", max_tokens = 10000 }
keep = { kind = "temporary", summarizable = false }
history = { kind = "compact_history", source_region = "codebase" }

[stages.explore.transitions.build]
transform = "compact"
[stages.build]
`;
