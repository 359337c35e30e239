// The advisor's worker: the engine's advise() over a scenario, with its progress through both
// phases and cancel. A worker of its own (advise.worker.ts), started on the first Advise: the engine
// worker is part of the page's first load and most visits never ask for advice, and a search in the
// engine worker would hold every replay and scrub behind it.
import { advise, compile } from '../engine/index.ts';
import { withRhai } from './rhai.ts';
import { BUILT_IN_TRAFFIC } from '../scenarios/generators.ts';
import { loadingEncodingOf } from './encoding.ts';
import { parseScenario, PROGRESS_INTERVAL_MS } from './engine-handlers.ts';
import type { Handlers } from './serve.ts';

export function adviseHandlers(): Handlers {
  return {
    advise: async (req, { post, signal }) => {
      const { scenario, diagnostics } = parseScenario(req.scenario);
      if (!scenario) throw new Error(diagnostics.map((d) => d.message).join('; '));
      const loading = loadingEncodingOf(scenario);
      if (loading) await loading;
      // The interpreter when the scenario needs it (a compile asks whenever its runs would: rhai.ts);
      // the search starts from that compile rather than compiling the blueprint again.
      const { host, compiled } = await withRhai((rhai) => ({ host: rhai, compiled: compile(scenario, rhai) }));
      let lastProgress = 0;
      const advice = advise(scenario, {
        ...BUILT_IN_TRAFFIC,
        ...host,
        compiled,
        signal,
        ...(req.candidates ? { candidates: req.candidates } : {}),
        ...(req.seed !== undefined ? { seed: req.seed } : {}),
        onProgress: ({ phase, done, total, front }) => {
          const now = performance.now();
          if (now - lastProgress < PROGRESS_INTERVAL_MS && done < total) return;
          lastProgress = now;
          post({ type: 'progress', id: req.id, done, total, phase, front });
        },
      });
      // Cancel stops the search and the page hears no answer: the front so far is not the advice it asked for.
      if (signal.aborted) {
        post({ type: 'failed', id: req.id, message: 'cancelled', cancelled: true });
        return;
      }
      post({ type: 'advise', id: req.id, result: advice });
    },
  };
}
