// A spawned Run from a blueprint written in the test, so each part of run/ can be called directly.
import { resolveModel } from '../../../src/engine/models.ts';
import { Run } from '../../../src/engine/run/run.ts';
import type { ScenarioInput, TrafficEvent } from '../../../src/engine/scenario.ts';
import { validateScenario } from '../../../src/engine/validate.ts';
import { scenario } from '../../runtime/helpers.ts';

/** Compiles `toml`, spawns its Run on gpt-4o (128,000 tokens, o200k_base), and clears the spawn's step. */
export function spawn(toml: string, extra: Partial<ScenarioInput> = {}, events: TrafficEvent[] = []): Run {
  const s = scenario(toml, events, extra);
  const compiled = validateScenario(s);
  const resolved = resolveModel(s.model);
  if (!compiled.blueprint || !resolved.ok)
    throw new Error(`does not compile: ${compiled.diagnostics.map((d) => d.message).join('; ')}`);
  const run = new Run(resolved.model, compiled.blueprint, events, s);
  const errors = run.spawn({});
  if (errors.length) throw new Error(`does not spawn: ${errors.map((d) => d.message).join('; ')}`);
  return run;
}

/** Exactly `n` tokens: " alpha" is one token, and the pre-split keeps words apart. */
export const words = (n: number, word = 'alpha') => Array.from({ length: n }, () => word).join(' ');

/** What a region holds, as `[key or content, tokens]` pairs. */
export function held(run: Run, name: string): [string, number][] {
  return run.regions.get(name)!.entries.map((e) => [e.key ?? e.content, e.tokens]);
}
