// The engine's public surface, the one door every module outside src/engine comes through (the
// page's main thread through page.ts, a light part of it; test/engine/structure.test.ts holds both):
// `replay` (a whole timeline) and `Replay` (one run kept for inspecting its steps), `compile`, and
// the types. It makes no traffic of its own: callers bring generators in ReplayOptions.generators
// (BUILT_IN_TRAFFIC in src/scenarios/generators.ts has the built-in ones), nor has its own Rhai
// interpreter: callers bring it too (RHAI from custom-script.ts, the engine's Rhai door; rhai-host.ts).
import { entryLabel } from './regions/index.ts';
import { emptyTimeline, prepare, replayPrepared, type Prepared, type ReplayOptions, type Run } from './replay.ts';
import type { Scenario } from './scenario.ts';
import type { CompileResult } from './blueprint/index.ts';
import { validateScenario } from './validate.ts';
import type { Diagnostic } from './diagnostics.ts';
import { KeptSteps, detailOf, snapshot } from './run/kept-steps.ts';
import type { StepDetail, Timeline } from './timeline.ts';

export { compileBlueprint, regionsForStage } from './blueprint/index.ts';
export { resolveModel, MODELS, findModel, DEFAULT_MODEL_ID } from './models.ts';
export type { Region, RegionContext, RegionEnv, RegionFactory, RegionFactories, Entry } from './regions/index.ts';
export type * from './timeline.ts';
export type { ReplayOptions } from './replay.ts';
export type { TrafficGenerator, TrafficGenerators } from './scenario.ts';
export { entryLabel };
export {
  replayAsRecorded,
  recordsItsRun,
  asSentFigures,
  asSentCostUsd,
  CALIBRATION_SHARE,
  PRIOR_FACTORS,
} from './as-recorded.ts';
export type * from './as-recorded.ts';
export { breakdown, blueprintBreakdown, flatListBreakdown, requestParts } from './breakdown.ts';
export type { BreakdownRow, HarnessOverhead, WindowBreakdown, WindowPart } from './breakdown.ts';
export { advise, DEFAULT_CANDIDATES, DEFAULT_PROPOSALS } from './advise/index.ts';
export type { Advice, AdviseOptions, AdviseProgress, Proposal, Reference } from './advise/index.ts';

/** Compiles a scenario's blueprint exactly as its replay would; pass the result as `ReplayOptions.compiled` to replay from it. */
export function compile(scenario: Scenario, options: ReplayOptions = {}): CompileResult {
  return validateScenario(scenario, options);
}

/** The whole timeline. A blueprint with errors gives diagnostics and no steps, never a throw. */
export function replay(scenario: Scenario, options: ReplayOptions = {}): Timeline {
  return replayPrepared(scenario, prepare(scenario, options), options);
}

/**
 * What a replay of the scenario would refuse or warn about, without running it: the compile, the
 * spawn and the size checks (events × regions). `lev import` asks before it writes a scenario.
 */
export function preflight(scenario: Scenario, options: ReplayOptions = {}): Diagnostic[] {
  return prepare(scenario, options).diagnostics;
}

export class InspectError extends Error {}

/**
 * Keeps one run and what it takes to show any step it has passed (KeptSteps: a copy of the run
 * every few events), so inspecting a step already reached re-runs at most a few events and a later
 * one replays only the events in between. Replay is deterministic, so every step is exactly what a
 * fresh run would show.
 */
export class Replay {
  private run: Run | undefined;
  private kept: KeptSteps | undefined;
  readonly diagnostics: Diagnostic[] = [];

  constructor(
    private readonly scenario: Scenario,
    private readonly options: ReplayOptions = {},
  ) {}

  /**
   * The whole timeline, keeping what inspecting any step of this run afterwards needs: the page's
   * engine worker replays once per edit and answers every scrub from here.
   */
  timeline(options: Pick<ReplayOptions, 'signal' | 'onProgress' | 'compiled'> = {}): Timeline {
    const merged = { ...this.options, ...options };
    const prepared = this.start(merged);
    return replayPrepared(this.scenario, prepared, merged, (run, step) => this.kept!.passed(run, step));
  }

  /** The request sent at inference `n` (0-based), with the state of every region at that point. */
  inspectInference(n: number): StepDetail {
    const events = this.fresh().events;
    let seen = 0;
    for (const [i, event] of events.entries()) {
      if (event.type !== 'assistant') continue;
      if (seen++ === n) return this.inspect(i);
    }
    throw new InspectError(
      `no inference ${n}: the scenario has ${seen} inference${seen === 1 ? '' : 's'} (numbered from 0)`,
    );
  }

  inspect(index: number): StepDetail {
    let run = this.fresh();
    if (index < 0 || index >= run.events.length) {
      throw new InspectError(`no step ${index}: the scenario has ${run.events.length} events (numbered from 0)`);
    }
    const kept = this.kept!.at(index);
    if (kept) return detailOf(kept);
    if (run.position > index) run = this.fresh(true);
    for (;;) {
      const step = run.step();
      this.kept!.passed(run, step);
      if (run.position > index) return detailOf(snapshot(run, step));
    }
  }

  private fresh(restart = false): Run {
    if (this.run && !restart) return this.run;
    const prepared = this.start(this.options);
    if (!prepared.run) {
      throw new InspectError(
        `the scenario cannot run: ${prepared.diagnostics
          .filter((d) => d.severity === 'error')
          .map((d) => d.message)
          .join('; ')}`,
      );
    }
    return prepared.run;
  }

  /** A new run from spawn: its diagnostics, and no steps kept yet. */
  private start(options: ReplayOptions): Prepared {
    const prepared = prepare(this.scenario, options);
    this.diagnostics.splice(0, this.diagnostics.length, ...prepared.diagnostics);
    this.run = prepared.run;
    this.kept = prepared.run && new KeptSteps(prepared.run);
    return prepared;
  }
}

export { emptyTimeline };

// What the rest of the project uses of the engine beyond replaying: the scenario's shape and limits,
// number formatting, models, tokens, figures, and the pieces the CLI, the workers and the page show.
export { GOAL_PEAK_SHARE, GOAL_READ_AGAIN } from './advise/index.ts';
export { AGENT_FILE, normalizeRelative } from './blueprint/index.ts';
export type { Blueprint, CompileResult } from './blueprint/index.ts';
export type { RegionDecl } from './blueprint/types.ts';
export { resolveBudget } from './budget.ts';
export { priceSplit } from './cache.ts';
export { hasErrors } from './diagnostics.ts';
export { rhaiProbe } from './rhai-host.ts';
export type { RhaiHost } from './rhai-host.ts';
export { toColumnArrays } from './figures.ts';
export type { ColumnArrays } from './figures.ts';
export {
  MAX_AGENT_FILES,
  MAX_AGENT_FILE_BYTES,
  MAX_BLUEPRINT_BYTES,
  MAX_REGIONS,
  MAX_TRACE_BYTES,
  megabytes,
} from './limits.ts';
export { MAX_JSON_DEPTH } from './scenario.ts';
export { watchScripts } from './script-activity.ts';
export { isEncodingLoaded, loadEncoding, loadEncodings, observeCounts, tokenPage } from './tokens.ts';
export { validateScenario } from './validate.ts';

export * from './page.ts';
