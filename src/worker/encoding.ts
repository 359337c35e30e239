// The engine worker loads only the encoding its scenario's text is counted with (0.70 MB gzip for
// o200k_base); the other is fetched the first time a scenario asks for it.
import { type Scenario, isEncodingLoaded, loadEncoding } from '../engine/index.ts';
import { scenarioEncoding } from '../share/shrink.ts';

/**
 * The load of the encoding the scenario's text is counted with, resolving to the milliseconds it
 * took, or undefined when it is loaded already, so a handler awaits only when it must and otherwise
 * answers in the same task. A model the replay will report as unknown still has one: the share
 * transforms count its text with o200k_base (scenarioEncoding).
 */
export function loadingEncodingOf(scenario: Scenario): Promise<number> | undefined {
  const encoding = scenarioEncoding(scenario);
  if (isEncodingLoaded(encoding)) return undefined;
  const started = performance.now();
  return loadEncoding(encoding).then(() => performance.now() - started);
}
