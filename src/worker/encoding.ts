// The engine worker loads only the encoding its scenario's model counts with (each is about 1 MB
// gzip); the other is fetched the first time a scenario asks for it.
import { resolveModel } from '../engine/models.ts';
import type { Scenario } from '../engine/scenario.ts';
import { isEncodingLoaded, loadEncoding } from '../engine/tokens.ts';

/**
 * The load of the scenario's encoding, resolving to the milliseconds it took, or undefined when
 * there is nothing to wait for (loaded already, or a model the replay will report as unknown), so a
 * handler awaits only when it must and otherwise answers in the same task.
 */
export function loadingEncodingOf(scenario: Scenario): Promise<number> | undefined {
  const resolved = resolveModel(scenario.model);
  if (!resolved.ok || isEncodingLoaded(resolved.model.encoding)) return undefined;
  const started = performance.now();
  return loadEncoding(resolved.model.encoding).then(() => performance.now() - started);
}
