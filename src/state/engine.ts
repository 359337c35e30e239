// Connects the stores to the engine worker: every edit re-validates and re-replays (stale work is
// cancelled), and the scrubbed step is inspected. Results land in useResults.
import { EngineClient, CancelledError } from '../worker/client.ts';
import type { Scenario } from '../engine/scenario.ts';
import type { StepDetail, Timeline } from '../engine/timeline.ts';
import { useResults } from './results.ts';
import { useScenario } from './store.ts';
import { useUi } from './ui.ts';
import { onRunRequest } from '../ui/shortcuts.ts';
import { replayGuard } from './replayGuard.ts';

const EDIT_DEBOUNCE_MS = 200;
/** A replay slower than this switches the page from auto-run to explicit runs (Run, Ctrl+Enter). */
export const SLOW_REPLAY_MS = 1500;
const INSPECT_DEBOUNCE_MS = 40;

const spawnEngine = () => new Worker(new URL('../worker/engine.worker.ts', import.meta.url), { type: 'module' });
const spawnEdit = () => new Worker(new URL('../worker/edit.worker.ts', import.meta.url), { type: 'module' });

function lane(spawn: () => Worker, timeLimitMs: number, cancelGraceMs: number): EngineClient {
  return new EngineClient({
    spawn, timeLimitMs, cancelGraceMs,
    onRestart: (text) => useUi.getState().notify({ tone: 'error', text }),
  });
}

// Three lanes so a long replay never holds up diagnostics or the inspector. A replay that is
// superseded is abandoned quickly (restart); an inspection is cheap enough to let finish.
const editLane = lane(spawnEdit, 10_000, 1_000);
const replayLane = lane(spawnEngine, 20_000, 300);
const inspectLane = lane(spawnEngine, 20_000, 2_000);

/** The scenario the timeline on screen came from (the inspector must ask about that one). */
let timelineScenario: Scenario | null = null;
const rhaiChecked = new Map<string, string>();

function ignoreCancelled(error: unknown): string | null {
  if (error instanceof CancelledError) return null;
  return error instanceof Error ? error.message : String(error);
}

function validate(scenario: Scenario): void {
  editLane.request('validate', { agent: scenario.agent, workdir: scenario.workdir, commands: scenario.commands, inputs: scenario.inputs, model: scenario.model })
    .then((validation) => useResults.setState({ validation }))
    .catch((error: unknown) => {
      const message = ignoreCancelled(error);
      if (message) useUi.getState().notify({ tone: 'error', text: `Validation failed: ${message}` });
    });
}

function checkRhai(scenario: Scenario): void {
  const files = Object.keys(scenario.agent).filter((f) => f.endsWith('.rhai'));
  for (const file of [...rhaiChecked.keys()]) {
    if (!files.includes(file)) {
      rhaiChecked.delete(file);
      useResults.setState((s) => ({ rhai: Object.fromEntries(Object.entries(s.rhai).filter(([f]) => f !== file)) }));
    }
  }
  for (const file of files) {
    const source = scenario.agent[file];
    if (rhaiChecked.get(file) === source) continue;
    rhaiChecked.set(file, source);
    editLane.request('rhaiCheck', { file, source }, { key: `rhaiCheck:${file}` })
      .then((result) => useResults.setState((s) => ({ rhai: { ...s.rhai, [file]: result.diagnostics } })))
      .catch(() => rhaiChecked.delete(file));
  }
}

function replay(scenario: Scenario): void {
  useUi.getState().setRunPending(false);
  useResults.setState({ replaying: { done: 0, total: 0 }, replayError: null, replayHeld: null });
  replayGuard.started(scenario);
  replayLane.request('replay', { scenario }, { onProgress: (done, total) => useResults.setState({ replaying: { done, total } }) })
    .then((result) => {
      replayGuard.finished(scenario);
      const timeline = result.timeline as unknown as Timeline | null;
      const broken = !timeline || result.diagnostics.some((d) => d.severity === 'error');
      if (broken) {
        useResults.setState({ replaying: null, replayDiagnostics: result.diagnostics, timelineStale: useResults.getState().timeline !== null });
        return;
      }
      timelineScenario = scenario;
      const ui = useUi.getState();
      if (ui.step >= timeline.steps.length) ui.setStep(Math.max(0, timeline.steps.length - 1));
      useResults.setState({
        timeline, replayDiagnostics: result.diagnostics, timelineStale: false,
        replaying: null, replayMs: result.ms,
      });
      switchToExplicitRunsIfSlow(result.ms);
      inspectSoon();
    })
    .catch((error: unknown) => {
      const message = ignoreCancelled(error);
      if (message) replayGuard.failed(scenario, message);
      else replayGuard.finished(scenario);
      if (message) useResults.setState({ replaying: null, replayError: message, timelineStale: useResults.getState().timeline !== null });
    });
}

function switchToExplicitRunsIfSlow(ms: number): void {
  const ui = useUi.getState();
  if (ms <= SLOW_REPLAY_MS || !ui.autoRun) return;
  const reason = `the last replay took ${(ms / 1000).toFixed(1)} s`;
  ui.setAutoRun(false, reason);
  ui.notify({ tone: 'info', text: `Auto-run is off because ${reason}: edits now wait for Run (Ctrl+Enter). Turn it back on beside Run.` });
}

/** Stops the replay in progress; the charts keep the last finished timeline, marked out of date. */
export function cancelReplay(): void {
  replayLane.cancel('replay');
  useResults.setState((s) => ({ replaying: null, timelineStale: s.timeline !== null }));
  useUi.getState().setRunPending(true);
}

let inspectTimer: ReturnType<typeof setTimeout> | undefined;
function inspectSoon(): void {
  clearTimeout(inspectTimer);
  inspectTimer = setTimeout(() => {
    const timeline = useResults.getState().timeline;
    if (!timeline || !timelineScenario || timeline.steps.length === 0) {
      useResults.setState({ detail: null });
      return;
    }
    const step = Math.min(useUi.getState().step, timeline.steps.length - 1);
    inspectLane.request('inspect', { scenario: timelineScenario, step })
      .then((result) => useResults.setState({ detail: result.detail as unknown as StepDetail | null, detailError: result.error ?? null }))
      .catch((error: unknown) => {
        const message = ignoreCancelled(error);
        if (message) useResults.setState({ detailError: message });
      });
  }, INSPECT_DEBOUNCE_MS);
}

function runAll(): void {
  const { scenario } = useScenario.getState();
  validate(scenario);
  checkRhai(scenario);
  replay(scenario);
}

let editTimer: ReturnType<typeof setTimeout> | undefined;
function onEdit(): void {
  clearTimeout(editTimer);
  editTimer = setTimeout(() => {
    if (useUi.getState().autoRun) { runAll(); return; }
    // Explicit runs: diagnostics stay live; the replay waits for Run.
    const { scenario } = useScenario.getState();
    validate(scenario);
    checkRhai(scenario);
    useUi.getState().setRunPending(true);
    if (useResults.getState().timeline) useResults.setState({ timelineStale: true });
  }, EDIT_DEBOUNCE_MS);
}

/** The Run button of a scenario whose last replay failed: replays it once more, on request. */
export function replayNow(): void {
  replay(useScenario.getState().scenario);
}

/**
 * Starts the engine: one run for what is on screen now, then one per edit. A scenario whose last
 * replay failed, timed out or never finished is checked but not replayed until Run is pressed.
 */
export function startEngine(): void {
  useScenario.subscribe((s, prev) => {
    if (s.revision !== prev.revision) onEdit();
  });
  useUi.subscribe((s, prev) => {
    if (s.step !== prev.step) inspectSoon();
  });
  window.addEventListener('pagehide', replayGuard.leaving);
  onRunRequest(runAll);
  const { scenario } = useScenario.getState();
  const held = replayGuard.heldReason(scenario);
  if (held === null) {
    runAll();
    return;
  }
  validate(scenario);
  checkRhai(scenario);
  useResults.setState({ replayHeld: held, timelineStale: true });
}
