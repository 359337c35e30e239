// Small scenarios for runtime tests: a blueprint, traffic and a model in a few lines.
import { replay, Replay } from '../../src/scenarios/engine.ts';
import { ScenarioSchema, type Scenario, type ScenarioInput, type TrafficEvent } from '../../src/engine/scenario.ts';
import type { Timeline, TimelineStep } from '../../src/engine/timeline.ts';

export function scenario(toml: string, traffic: TrafficEvent[], extra: Partial<ScenarioInput> = {}): Scenario {
  return ScenarioSchema.parse({
    version: 1, name: 'test', model: { id: 'gpt-4o' }, agent: { 'agent.leviath': toml }, traffic, ...extra,
  });
}

export function run(toml: string, traffic: TrafficEvent[], extra: Partial<ScenarioInput> = {}): Timeline {
  const timeline = replay(scenario(toml, traffic, extra));
  const errors = timeline.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length) throw new Error(`scenario did not run: ${errors.map((d) => `${d.code}: ${d.message}`).join('; ')}`);
  return timeline;
}

export function detail(toml: string, traffic: TrafficEvent[], step: number, extra: Partial<ScenarioInput> = {}) {
  return new Replay(scenario(toml, traffic, extra)).inspect(step);
}

/** `name: tokens/entries` for the listed regions at a step. */
export function figures(step: TimelineStep, ...names: string[]): Record<string, [number, number]> {
  return Object.fromEntries(names.map((n) => [n, [step.regions[n]!.tokens, step.regions[n]!.entries]]));
}

export const user = (content: string): TrafficEvent => ({ type: 'user', content });
export const assistant = (content: string, ...calls: [id: string, name: string, args?: Record<string, unknown>][]): TrafficEvent =>
  calls.length
    ? { type: 'assistant', content, tool_calls: calls.map(([id, name, args]) => ({ id, name, arguments: args ?? {} })) }
    : { type: 'assistant', content };
export const result = (id: string, name: string, size: number): TrafficEvent => ({ type: 'tool_result', tool_call_id: id, tool_name: name, size_tokens: size });
export const append = (region: string, content: string, key?: string): TrafficEvent =>
  key === undefined ? { type: 'context_append', region, content } : { type: 'context_append', region, content, key };
/** An assistant turn calling `name`, then its result of `size` tokens. */
export const call = (id: string, name: string, size: number, args: Record<string, unknown> = {}): TrafficEvent[] =>
  [assistant('', [id, name, args]), result(id, name, size)];

/** A compacting codebase, a region that is not summarizable and a history of the codebase, across an edge whose transform is compact. */
export const COMPACT_EDGE = `[context.regions]
codebase = { kind = "compacting", max_tokens = 10000 }
keep = { kind = "temporary", summarizable = false }
history = { kind = "compact_history", source_region = "codebase" }

[stages.explore.transitions.build]
transform = "compact"
[stages.build]
`;
