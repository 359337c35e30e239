/// <reference lib="webworker" />
// The engine's home in the browser: replays and step inspection. Every number the page shows
// about a run is computed here.
import { replay, inspect } from '../engine/index.ts';
import { ScenarioSchema, type Scenario } from '../engine/scenario.ts';
import type { Diagnostic } from '../engine/diagnostics.ts';
import { serve } from './serve.ts';

const PROGRESS_INTERVAL_MS = 50;

function parseScenario(raw: unknown): { scenario?: Scenario; diagnostics: Diagnostic[] } {
  const parsed = ScenarioSchema.safeParse(raw);
  if (parsed.success) return { scenario: parsed.data, diagnostics: [] };
  return {
    diagnostics: parsed.error.issues.map((i) => ({
      code: 'scenario-invalid', severity: 'error' as const, message: `${i.path.join('.') || 'scenario'}: ${i.message}`,
      file: 'scenario.json', line: 1, column: 1, path: i.path.join('.'),
    })),
  };
}

serve({
  replay: (req, { post, signal }) => {
    const started = performance.now();
    const { scenario, diagnostics } = parseScenario(req.scenario);
    if (!scenario) {
      post({ type: 'replay', id: req.id, result: { diagnostics, timeline: null, ms: 0 } });
      return;
    }
    let lastProgress = 0;
    const timeline = replay(scenario, {
      signal,
      onProgress: (done, total) => {
        const now = performance.now();
        if (now - lastProgress < PROGRESS_INTERVAL_MS && done < total) return;
        lastProgress = now;
        post({ type: 'progress', id: req.id, done, total });
      },
    });
    if (signal.aborted) {
      post({ type: 'failed', id: req.id, message: 'cancelled', cancelled: true });
      return;
    }
    post({
      type: 'replay', id: req.id,
      result: { diagnostics: timeline.diagnostics, timeline: timeline as never, ms: performance.now() - started },
    });
  },
  inspect: (req, { post }) => {
    const { scenario, diagnostics } = parseScenario(req.scenario);
    if (!scenario) {
      post({ type: 'inspect', id: req.id, result: { detail: null, error: diagnostics.map((d) => d.message).join('; ') } });
      return;
    }
    post({ type: 'inspect', id: req.id, result: { detail: inspect(scenario, req.step) as never } });
  },
});
