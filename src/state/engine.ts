// Connects the stores to the workers: every edit re-validates and re-replays (stale work is
// cancelled), and the scrubbed step is inspected in the run the engine worker kept from that
// replay (a lookup; the scenario is sent again only if the worker was restarted). Results land in
// useResults.
import { EngineClient, CancelledError } from '../worker/client.ts';
import { ENGINE_TIME_LIMIT_MS, type Transform } from '../worker/protocol.ts';
import type { Scenario } from '../engine/scenario.ts';
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

// Diagnostics have their own light worker, so a long replay never holds them up. The engine
// worker replays and keeps each run for the inspector; a superseded replay is abandoned quickly
// (restart), and a run lost that way is opened again when the inspector next asks about it.
const editLane = lane(spawnEdit, 10_000, 1_000);
const engineLane = lane(spawnEngine, ENGINE_TIME_LIMIT_MS, 300);

let nextRevision = 1;
/** The run the timeline on screen came from (the inspector must ask about that one). */
let onScreen: { revision: number; scenario: Scenario } | null = null;
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

/**
 * How many buckets the worker downsamples the series to: half the charts' width, since a bucket
 * draws up to two points (its peak and its first change), so about a point per pixel. A chart's
 * draw takes time in proportion to its points.
 */
function chartPoints(): number {
  const width = document.querySelector('[data-testid="charts"]')?.clientWidth || window.innerWidth / 2;
  return Math.round(Math.min(1_000, Math.max(100, width / 2)));
}

function replay(scenario: Scenario): void {
  useUi.getState().setRunPending(false);
  useResults.setState({ replaying: { done: 0, total: 0 }, replayError: null, replayHeld: null });
  replayGuard.started(scenario);
  const revision = nextRevision++;
  engineLane.request('replay', { revision, scenario, points: chartPoints() }, {
    onProgress: (done, total) => useResults.setState({ replaying: { done, total } }),
    // The replay's own compile answers the validation: one compile per edit.
    onValidated: (validation) => { editLane.cancel('validate'); useResults.setState({ validation }); },
  })
    .then((result) => {
      replayGuard.finished(scenario);
      const run = result.view;
      const broken = !run || result.diagnostics.some((d) => d.severity === 'error');
      if (broken) {
        useResults.setState({ replaying: null, replayDiagnostics: result.diagnostics, timelineStale: useResults.getState().run !== null });
        return;
      }
      onScreen = { revision, scenario };
      const ui = useUi.getState();
      if (ui.step >= run.steps.count) ui.setStep(Math.max(0, run.steps.count - 1));
      useResults.setState({
        run, replayDiagnostics: result.diagnostics, timelineStale: false,
        replaying: null, replayMs: result.ms,
      });
      switchToExplicitRunsIfSlow(result.ms);
      inspectSoon();
    })
    .catch((error: unknown) => {
      const message = ignoreCancelled(error);
      if (message) replayGuard.failed(scenario, message);
      else replayGuard.finished(scenario);
      if (message) useResults.setState({ replaying: null, replayError: message, timelineStale: useResults.getState().run !== null });
    });
}

function switchToExplicitRunsIfSlow(ms: number): void {
  const ui = useUi.getState();
  if (ms <= SLOW_REPLAY_MS || !ui.autoRun) return;
  const reason = `the last replay took ${(ms / 1000).toFixed(1)} s`;
  ui.setAutoRun(false, reason);
  ui.notify({ tone: 'info', text: `Auto-run is off because ${reason}: edits now wait for Run (Ctrl+Enter). Turn it back on beside Run.` });
}

/** A share option that counts tokens, done where the tokenizer is (the engine worker). */
export function transformScenario(scenario: Scenario, transform: Transform): Promise<Scenario> {
  return engineLane.request('transform', { transform, scenario }, { key: `transform:${transform}`, restartIfStuck: false })
    .then((result) => result.scenario);
}

/** Stops the replay in progress; the charts keep the last finished timeline, marked out of date. */
export function cancelReplay(): void {
  engineLane.cancel('replay');
  useResults.setState((s) => ({ replaying: null, timelineStale: s.run !== null }));
  useUi.getState().setRunPending(true);
}

let inspectTimer: ReturnType<typeof setTimeout> | undefined;
function inspectSoon(): void {
  clearTimeout(inspectTimer);
  inspectTimer = setTimeout(() => {
    const count = useResults.getState().run?.steps.count ?? 0;
    if (!onScreen || count === 0) {
      useResults.setState({ detail: null, figures: null });
      return;
    }
    const step = Math.min(useUi.getState().step, count - 1);
    const run = onScreen;
    // A scrub queued behind a long replay must not restart the worker (and the replay) when the next scrub supersedes it.
    engineLane.request('inspect', { revision: run.revision, step }, { restartIfStuck: false })
      .then((result) => {
        // A replay on its way will bring a run the worker holds; only a run lost for good is opened again.
        if (result.missing && useResults.getState().replaying === null) reopen(run);
        else useResults.setState({ detail: result.detail, figures: result.figures ?? null, detailError: result.error ?? null });
      })
      .catch(showInspectError);
  }, INSPECT_DEBOUNCE_MS);
}

function showInspectError(error: unknown): void {
  const message = ignoreCancelled(error);
  if (message) useResults.setState({ detailError: message });
}

/** Revisions already opened again once: a run that keeps getting lost is not reopened forever. */
const reopened = new Set<number>();

/** The worker restarted and lost the run on screen: it replays that scenario once more, then the step is asked again. */
function reopen(run: { revision: number; scenario: Scenario }): void {
  if (reopened.has(run.revision)) {
    useResults.setState({ detailError: 'The engine worker keeps losing this run; press Run to replay it.' });
    return;
  }
  reopened.add(run.revision);
  engineLane.request('open', { revision: run.revision, scenario: run.scenario }, { restartIfStuck: false })
    .then(() => { if (onScreen === run) inspectSoon(); })
    .catch(showInspectError);
}

/** Checks and replays what is on screen; the replay's compile answers the validation. */
function runAll(): void {
  const { scenario } = useScenario.getState();
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
    if (useResults.getState().run) useResults.setState({ timelineStale: true });
  }, EDIT_DEBOUNCE_MS);
}

let started = false;

/**
 * A scenario was opened (an example, a link, a file, a library entry): it is replayed at once,
 * even with auto-run off, which holds back edits, not a different scenario. Before the engine
 * starts, startEngine decides (it holds a replay that failed last time).
 */
export function replayOpened(): void {
  if (!started) return;
  clearTimeout(editTimer);
  runAll();
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
  started = true;
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
  // No timeline yet: the held banner is the whole story (not "stale", which means a broken blueprint).
  useResults.setState({ replayHeld: held });
}
