// The Rhai interpreter in the page's workers: a chunk of its own, fetched the first time a scenario
// needs it (a custom region, a `rhai` seed), so a first load of a scenario without scripts never
// fetches it. Whether one does is the engine's own answer, not a guess from the text: the work
// runs first with a probe (rhai-host.ts), and again with the interpreter when the probe was asked.
import { rhaiProbe, type RhaiHost } from '../engine/index.ts';

let loaded: RhaiHost | undefined;
let loading: Promise<RhaiHost> | undefined;

/** The interpreter, loaded once per worker. */
export function loadRhai(): Promise<RhaiHost> {
  loading ??= import('../engine/custom-script.ts').then((module) => (loaded = module.RHAI));
  return loading;
}

/** The interpreter when this worker has loaded it already. */
export function loadedRhai(): RhaiHost | undefined {
  return loaded;
}

/**
 * `work` with the interpreter: at once when it is loaded; otherwise with a probe, and when the
 * engine asked the probe for Rhai, again once the interpreter has loaded (the probe's answer is
 * dropped; `onLoad` hears how long the load was waited for). A promise only when it waits for the
 * load, so a scenario without scripts is answered in the same task, as before the interpreter was
 * split off. `work` must be a function of its host and input only, as the engine's compile is. A
 * compile asks for Rhai whenever its scenario's run would (it checks every custom region's script
 * and runs every `rhai` seed), so the host a compile leaves (the probe when it never asked) is the
 * one to replay with.
 */
export function withRhai<T>(work: (rhai: RhaiHost) => T, onLoad?: (ms: number) => void): T | Promise<T> {
  if (loaded) return work(loaded);
  const probe = rhaiProbe();
  const answer = work(probe.host);
  if (!probe.asked) return answer;
  const started = performance.now();
  return loadRhai().then((rhai) => {
    onLoad?.(performance.now() - started);
    return work(rhai);
  });
}
