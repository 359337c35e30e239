// The scenario on screen, replayed: every edit re-validates and replays (stale work is cancelled),
// an opened scenario replays at once, and the scrubbed step is inspected in the replay the engine
// worker kept (a lookup; the scenario is sent again only if the worker was restarted). What the
// workers answer lands in the results store, with the one status the page renders (status.ts).
import { hasErrors, type Scenario, type Encoding } from '../engine/page.ts';
import type { StoreApi } from 'zustand';
import { CancelledError, type WorkerClient } from '../worker/client.ts';
import type { ResultOf, Transform } from '../worker/protocol.ts';
import type { TimelineView } from '../worker/timeline-view.ts';
import type { ReplayGuard } from './replayGuard.ts';
import type { ResultsStore } from './results.ts';
import { replayStarted } from './status.ts';
import type { UiStore } from './ui.ts';

/** A replay slower than this (the page load's aside) switches the page from auto-run to explicit runs (Run, Ctrl+Enter). */
export const SLOW_REPLAY_MS = 1500;

export interface ReplaysOptions {
  /** Replays, keeps each replay for inspecting, and counts tokens (share transforms). */
  engine: WorkerClient;
  /** Validates an edit that waits for Run, and checks Rhai files as they are typed. */
  edit: WorkerClient;
  results: StoreApi<ResultsStore>;
  ui: StoreApi<UiStore>;
  /** The scenario on screen. */
  scenario: () => Scenario;
  guard: ReplayGuard;
  /** The charts' width in pixels. */
  chartWidth: () => number;
  /**
   * Quiet time after an edit before it is replayed, and after a scrub before the step is inspected;
   * the replay time past which auto-run turns off.
   */
  delays: { edit: number; inspect: number; slowReplay: number };
  /** The step a replayed scenario should open at (an example's lesson, a link's step); null: where it is. */
  landing?: (scenario: Scenario, timeline: TimelineView) => number | null;
}

function ignoreCancelled(error: unknown): string | null {
  if (error instanceof CancelledError) return null;
  return error instanceof Error ? error.message : String(error);
}

export class Replays {
  private nextReplayId = 1;
  /** The replay the timeline on screen came from (the inspector must ask about that one). */
  private onScreen: { replayId: number; scenario: Scenario } | null = null;
  /** Each Rhai file's text as last sent for checking. */
  private readonly rhaiChecked = new Map<string, string>();
  /** Replays already opened again once: one that keeps getting lost is not reopened forever. */
  private readonly reopened = new Set<number>();
  /** Edits held back (auto-run off) or cancelled since the last replay started: Run replays them. */
  private editsWaiting = false;
  private started = false;
  private editTimer: ReturnType<typeof setTimeout> | undefined;
  private inspectTimer: ReturnType<typeof setTimeout> | undefined;
  /** An inspect is on its way to the worker and back. */
  private inspecting = false;
  /** The step (or the replay on screen) moved while it was: ask again when it answers. */
  private inspectAgain = false;

  constructor(private readonly options: ReplaysOptions) {}

  /**
   * One replay for what is on screen now; after this every edit and every open replays. A scenario
   * whose last replay failed, timed out or never finished is checked but not replayed until Run.
   */
  start(): void {
    this.started = true;
    const scenario = this.options.scenario();
    const held = this.options.guard.heldReason(scenario);
    if (held === null) {
      // The page load's replay shares the machine with the page's own start (its code parsed, the
      // first draw, the editor loading), so its time does not say what an edit will cost.
      this.replayNow({ judgeSpeed: false });
      return;
    }
    this.validate(scenario);
    this.checkRhai(scenario);
    this.options.results.setState({ status: { kind: 'held', reason: held } });
  }

  /**
   * A scenario was opened (an example, a link, a file, a library entry): it is replayed at once,
   * even with auto-run off, which holds back edits, not a different scenario. Before start, start
   * decides.
   */
  opened(): void {
    if (!this.started) return;
    clearTimeout(this.editTimer);
    this.replayNow();
  }

  /** An edit: replayed once the typing pauses, or (auto-run off) validated and left waiting for Run. */
  edited(): void {
    clearTimeout(this.editTimer);
    this.editTimer = setTimeout(() => {
      const { results } = this.options;
      if (results.getState().autoRun) {
        this.replayNow();
        return;
      }
      const scenario = this.options.scenario();
      this.validate(scenario);
      this.checkRhai(scenario);
      this.editsWaiting = true;
      if (results.getState().status.kind !== 'replaying') results.setState({ status: { kind: 'waiting' } });
    }, this.options.delays.edit);
  }

  /**
   * Checks and replays what is on screen (Run, Ctrl+Enter); the replay's compile answers the
   * validation. With `judgeSpeed: false` its time does not turn auto-run off.
   */
  replayNow(options: { judgeSpeed?: boolean } = {}): void {
    const scenario = this.options.scenario();
    this.checkRhai(scenario);
    this.replay(scenario, options);
  }

  /** Stops the replay in progress; the charts keep the last finished timeline, marked out of date. */
  cancel(): void {
    this.options.engine.cancel('replay');
    this.editsWaiting = true;
    this.options.results.setState({ status: { kind: 'waiting' } });
  }

  setAutoRun(on: boolean, reason?: string): void {
    this.options.results.setState({ autoRun: on, autoRunOffReason: on ? null : (reason ?? null) });
  }

  /**
   * The scrubbed step moved: it is inspected once the scrubbing pauses. Play moves one step at a
   * time on a clock and never pauses, so its steps are asked at once (one inspect at a time still).
   */
  stepChanged(playing = false): void {
    clearTimeout(this.inspectTimer);
    if (playing) this.inspect();
    else this.inspectTimer = setTimeout(() => this.inspect(), this.options.delays.inspect);
  }

  /** A share option that counts tokens, done where the tokenizer is (the engine worker). */
  transform(scenario: Scenario, transform: Transform): Promise<Scenario> {
    return this.options.engine
      .request('transform', { transform, scenario }, { key: `transform:${transform}`, restartIfStuck: false })
      .then((result) => result.scenario);
  }

  /**
   * One page of a text's tokens (the token view), cut where the tokenizer is (the engine worker).
   * `view` names the view asking: a newer page for the same view supersedes the one on its way.
   */
  tokens(view: string, text: string, encoding: Encoding, from: number, limit: number): Promise<ResultOf['tokens']> {
    return this.options.engine.request(
      'tokens',
      { text, encoding, from, limit },
      { key: `tokens:${view}`, restartIfStuck: false },
    );
  }

  /** The tab is going away normally: a replay still running is not one that hung the page. */
  leaving(): void {
    this.options.guard.leaving();
  }

  private validate(scenario: Scenario): void {
    const { edit, results, ui } = this.options;
    edit
      .request('validate', {
        agent: scenario.agent,
        workdir: scenario.workdir,
        commands: scenario.commands,
        inputs: scenario.inputs,
        model: scenario.model,
      })
      .then((validation) => {
        results.setState({ validation });
        // Edits waiting for Run that break the blueprint are said as broken: Run cannot replay them.
        if (hasErrors(validation.diagnostics) && results.getState().status.kind === 'waiting')
          results.setState({ status: { kind: 'broken' } });
      })
      .catch((error: unknown) => {
        const message = ignoreCancelled(error);
        if (message) ui.getState().notify({ tone: 'error', text: `Validation failed: ${message}` });
      });
  }

  private checkRhai(scenario: Scenario): void {
    const { edit, results } = this.options;
    const scripts = Object.entries(scenario.agent).filter(([f]) => f.endsWith('.rhai'));
    const files = scripts.map(([f]) => f);
    for (const file of [...this.rhaiChecked.keys()]) {
      if (!files.includes(file)) {
        this.rhaiChecked.delete(file);
        results.setState((s) => ({ rhai: Object.fromEntries(Object.entries(s.rhai).filter(([f]) => f !== file)) }));
      }
    }
    for (const [file, source] of scripts) {
      if (this.rhaiChecked.get(file) === source) continue;
      this.rhaiChecked.set(file, source);
      edit
        .request('rhaiCheck', { file, source }, { key: `rhaiCheck:${file}` })
        .then((result) => results.setState((s) => ({ rhai: { ...s.rhai, [file]: result.diagnostics } })))
        .catch(() => this.rhaiChecked.delete(file));
    }
  }

  /**
   * How many buckets the worker downsamples the series to: half the charts' width, since a bucket
   * draws up to two points (its peak and its first change), so about a point per pixel. A chart's
   * draw takes time in proportion to its points.
   */
  private chartPoints(): number {
    return Math.round(Math.min(1_000, Math.max(100, this.options.chartWidth() / 2)));
  }

  private replay(scenario: Scenario, { judgeSpeed = true } = {}): void {
    const { engine, edit, results, guard } = this.options;
    this.editsWaiting = false;
    results.setState((s) => ({ status: replayStarted(s.status) }));
    guard.started(scenario);
    const replayId = this.nextReplayId++;
    const progress = (done: number, total: number) =>
      results.setState((s) => (s.status.kind === 'replaying' ? { status: { ...s.status, done, total } } : s));
    engine
      .request(
        'replay',
        { replayId, scenario, points: this.chartPoints() },
        {
          onProgress: progress,
          // The replay's own compile answers the validation: one compile per edit.
          onValidated: (validation) => {
            edit.cancel('validate');
            results.setState({ validation });
          },
        },
      )
      .then((result) => {
        guard.finished(scenario);
        const timeline = result.view;
        if (!timeline || hasErrors(result.diagnostics)) {
          results.setState({
            status: this.editsWaiting ? { kind: 'waiting' } : { kind: 'broken' },
            replayDiagnostics: result.diagnostics,
          });
          return;
        }
        this.onScreen = { replayId, scenario };
        const ui = this.options.ui.getState();
        const landing = this.options.landing?.(scenario, timeline) ?? null;
        if (landing !== null) ui.setStep(landing);
        else if (ui.step >= timeline.steps.count) ui.setStep(Math.max(0, timeline.steps.count - 1));
        results.setState({
          timeline,
          replayDiagnostics: result.diagnostics,
          replayMs: result.ms,
          status: this.editsWaiting ? { kind: 'waiting' } : { kind: 'current' },
        });
        if (judgeSpeed) this.switchToExplicitRunsIfSlow(result.ms);
        this.stepChanged();
      })
      .catch((error: unknown) => {
        const message = ignoreCancelled(error);
        if (message === null) {
          guard.finished(scenario);
          return;
        }
        guard.failed(scenario, message);
        results.setState({ status: { kind: 'failed', message } });
      });
  }

  private switchToExplicitRunsIfSlow(ms: number): void {
    const { results, ui } = this.options;
    if (ms <= this.options.delays.slowReplay || !results.getState().autoRun) return;
    const reason = `the last replay took ${(ms / 1000).toFixed(1)} s`;
    this.setAutoRun(false, reason);
    // A change of mode stays until closed, and as a lasting notice it does not take the place of
    // the notice with Undo that the open or edit behind this replay just put up.
    ui.getState().notify({
      tone: 'info',
      sticky: true,
      text: `Auto-run is off because ${reason}: edits now wait for Run (Ctrl+Enter). Turn it back on beside Run.`,
    });
  }

  /**
   * One inspect at a time, coalesced to the latest step: while one is on its way, later steps only
   * mark that the step moved, and the latest is asked as soon as it answers. (Superseding the one on
   * its way would drop its answer: whenever answers take longer than a step of play, the inspector
   * would not follow the timeline until play stops.)
   */
  private inspect(): void {
    const { engine, results, ui } = this.options;
    const count = results.getState().timeline?.steps.count ?? 0;
    const replay = this.onScreen;
    if (!replay || count === 0) {
      results.setState({ detail: null, figures: null, breakdown: null });
      return;
    }
    if (this.inspecting) {
      this.inspectAgain = true;
      return;
    }
    this.inspecting = true;
    const step = Math.min(ui.getState().step, count - 1);
    // A scrub queued behind a long replay must not restart the worker (and the replay) when the next scrub supersedes it.
    engine
      .request('inspect', { replayId: replay.replayId, step }, { restartIfStuck: false })
      .then((result) => {
        // An answer about a replay no longer on screen is dropped (the step is asked again below).
        if (this.onScreen !== replay) {
          this.inspectAgain = true;
          return;
        }
        // A replay on its way will bring one the worker keeps; only a replay lost for good is opened again.
        if (result.missing && results.getState().status.kind !== 'replaying') this.reopen(replay);
        else
          results.setState({
            detail: result.detail,
            figures: result.figures ?? null,
            breakdown: result.breakdown ?? null,
            detailError: result.error ?? null,
          });
      })
      .catch((error: unknown) => this.showInspectError(error))
      .finally(() => {
        this.inspecting = false;
        if (!this.inspectAgain) return;
        this.inspectAgain = false;
        this.inspect();
      });
  }

  private showInspectError(error: unknown): void {
    const message = ignoreCancelled(error);
    if (message) this.options.results.setState({ detailError: message });
  }

  /** The worker restarted and lost the replay on screen: it replays that scenario once more, then the step is asked again. */
  private reopen(replay: { replayId: number; scenario: Scenario }): void {
    const { engine, results } = this.options;
    if (this.reopened.has(replay.replayId)) {
      results.setState({ detailError: 'The engine worker keeps losing this run; press Run to replay it.' });
      return;
    }
    this.reopened.add(replay.replayId);
    engine
      .request('open', { replayId: replay.replayId, scenario: replay.scenario }, { restartIfStuck: false })
      .then(() => {
        if (this.onScreen === replay) this.stepChanged();
      })
      .catch((error: unknown) => this.showInspectError(error));
  }
}
