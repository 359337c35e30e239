// Scenario -> timeline: compile, spawn a Run (run/), step it through every event, and sum the steps
// up. Deterministic: the same scenario always gives the same timeline.
import type { CompileResult, ScriptChecker } from './blueprint/index.ts';
import { systemOrder } from './assemble.ts';
import { runError, type Diagnostic } from './diagnostics.ts';
import { fmt } from './format.ts';
import { MAX_REGION_SNAPSHOTS } from './limits.ts';
import { resolveModel, type Model } from './models.ts';
import { nameTable } from './names.ts';
import { readAgainOf, RunNames } from './read-again.ts';
import { Run } from './run/run.ts';
import type { SharedFacts } from './run/state.ts';
import type { RegionFactories } from './regions/index.ts';
import type { Scenario, TrafficEvent, TrafficGenerators } from './scenario.ts';
import type { HooksLoader, RhaiSeedRunner } from './rhai-host.ts';
import { stageLayout, stagesOf } from './stages.ts';
import { emptyChangeTotals, type RegionMeta, type Timeline, type TimelineStep } from './timeline.ts';
import { validateScenario } from './validate.ts';
import { itemAt } from './item-at.ts';

export { Run };

export interface ReplayOptions {
  /** Set `cancelled` (or abort, for an AbortSignal) to stop between events; the timeline so far is returned. */
  signal?: { cancelled?: boolean; aborted?: boolean };
  onProgress?: (done: number, total: number) => void;
  /**
   * Runs `rhai` seeds. This and the next two are the Rhai interpreter, which the engine never
   * imports: Node passes RHAI (custom-script.ts), the page's worker loads it on demand (rhai-host.ts).
   */
  runRhaiSeed?: RhaiSeedRunner;
  /** Compile-checks custom-region scripts, so a broken one is a diagnostic before the run. */
  checkScript?: ScriptChecker;
  /** Makes a custom region's hooks at spawn. */
  loadCustomHooks?: HooksLoader;
  /** The generators `scenario.generator` may name (the engine has none; BUILT_IN_TRAFFIC in src/scenarios/generators.ts brings the built-in ones); generated events come before `traffic`. */
  generators?: TrafficGenerators;
  /** This scenario's blueprint, already compiled with these options (the page's worker validates and replays from one compile). */
  compiled?: CompileResult;
  /** Facts about the traffic to share with other runs of the same scenario (the advisor replays it once per candidate). */
  shared?: SharedFacts;
  /** Behaviour for some region kinds in place of the built-in classes (the kinds' facts stay their definitions'). */
  regionFactories?: RegionFactories;
}

export type Prepared =
  { run: Run; diagnostics: Diagnostic[] } | { run?: undefined; diagnostics: Diagnostic[]; model?: Model };

/** Compiles, resolves the model, generates traffic and spawns. Never throws on bad input. */
export function prepare(scenario: Scenario, options: ReplayOptions = {}): Prepared {
  const resolved = resolveModel(scenario.model);
  if (!resolved.ok) return { diagnostics: [runError('unknown-model', resolved.error, 'scenario.json', 'model.id')] };
  const model = resolved.model;
  const compiled = options.compiled ?? validateScenario(scenario, options);
  if (!compiled.blueprint || compiled.diagnostics.some((d) => d.severity === 'error')) {
    const diagnostics = compiled.diagnostics.length
      ? compiled.diagnostics
      : [runError('blueprint-invalid', 'the blueprint could not be compiled', 'agent.leviath')];
    return { diagnostics, model };
  }
  let events: TrafficEvent[] = scenario.traffic;
  if (scenario.generator) {
    const generate = options.generators?.[scenario.generator.kind];
    if (!generate) {
      return {
        diagnostics: [
          ...compiled.diagnostics,
          runError(
            'generator-unavailable',
            generatorUnavailable(scenario.generator.kind, options.generators),
            'scenario.json',
            'generator',
          ),
        ],
        model,
      };
    }
    try {
      events = [...generate(scenario.generator), ...scenario.traffic];
    } catch (error) {
      const message = `scenario.generator could not make traffic: ${error instanceof Error ? error.message : String(error)}`;
      return {
        diagnostics: [...compiled.diagnostics, runError('generator-invalid', message, 'scenario.json', 'generator')],
        model,
      };
    }
  }
  const run = new Run(model, compiled.blueprint, events, scenario, options.shared, options.regionFactories);
  const spawnErrors = run.spawn(options);
  if (spawnErrors.length) return { diagnostics: [...compiled.diagnostics, ...spawnErrors], model };
  const snapshots = events.length * run.regions.size;
  if (snapshots > MAX_REGION_SNAPSHOTS) {
    const message =
      `this run would record ${fmt(events.length)} events × ${fmt(run.regions.size)} regions = ${fmt(snapshots)} region snapshots; ` +
      `the playground records at most ${fmt(MAX_REGION_SNAPSHOTS)} (about 0.5 GB). Use fewer events or fewer regions.`;
    return {
      diagnostics: [...compiled.diagnostics, runError('run-too-large', message, 'scenario.json', 'traffic')],
      model,
    };
  }
  return { run, diagnostics: compiled.diagnostics };
}

function generatorUnavailable(kind: string, generators: TrafficGenerators = {}): string {
  const brought = Object.keys(generators);
  return (
    `scenario.generator names the ${kind} generator, which this replay was not given (given: ${brought.length ? brought.join(', ') : 'none'}); ` +
    'pass it in ReplayOptions.generators (BUILT_IN_TRAFFIC in src/scenarios/generators.ts has the built-in ones)'
  );
}

export function emptyTimeline(scenario: Scenario, diagnostics: Diagnostic[], model?: Model): Timeline {
  return {
    scenario: scenario.name,
    model: model
      ? { id: model.id, window: model.window, encoding: model.encoding, approximate: model.approximate }
      : { id: 'unknown', window: 0, encoding: 'o200k_base', approximate: true },
    regions: [],
    stages: [],
    diagnostics,
    warnings: [],
    spawn: { regions: {}, changes: [] },
    steps: [],
    summary: {
      steps: 0,
      inferences: 0,
      finalStage: '',
      stagesEntered: [],
      peakRequestTokens: 0,
      meanPrefixShare: 0,
      changes: emptyChangeTotals(),
      baselineLosesTaskAt: null,
      taskLostAt: null,
      ledger: nameTable(),
      warnings: 0,
      readAgain: { count: 0, items: [] },
      lost: { toolResults: 0, toolResultsReadAgain: 0, otherEntries: 0 },
    },
    cancelled: false,
  };
}

/** Runs a prepared scenario to its end; `onStep` sees the run after each event (the page's inspector keeps what it needs). */
export function replayPrepared(
  scenario: Scenario,
  prepared: Prepared,
  options: ReplayOptions,
  onStep?: (run: Run, step: TimelineStep) => void,
): Timeline {
  if (!prepared.run) return emptyTimeline(scenario, prepared.diagnostics, prepared.model);
  const run = prepared.run;
  const spawn = { regions: run.figures(), changes: run.spawnChanges };
  const seeded = keysHeld(run);
  const steps: TimelineStep[] = [];
  const total = run.events.length;
  let cancelled = false;
  while (!run.done) {
    if (options.signal?.cancelled || options.signal?.aborted) {
      cancelled = true;
      break;
    }
    const step = run.step();
    steps.push(step);
    onStep?.(run, step);
    if (options.onProgress && (steps.length % 100 === 0 || run.done)) options.onProgress(steps.length, total);
  }
  return buildTimeline(scenario, run, prepared.diagnostics, spawn, steps, cancelled, seeded);
}

/** The keys a run's regions hold now (at spawn: the seeded ones, which the run may name again). */
export function keysHeld(run: Run): string[] {
  const keys: string[] = [];
  for (const region of run.regions.values())
    for (const entry of region.entries) if (entry.key !== undefined) keys.push(entry.key);
  return keys;
}

function buildTimeline(
  scenario: Scenario,
  run: Run,
  diagnostics: Diagnostic[],
  spawn: Timeline['spawn'],
  steps: TimelineStep[],
  cancelled: boolean,
  seededKeys: string[],
): Timeline {
  const changes = emptyChangeTotals();
  let inferences = 0;
  let peak = 0;
  let shareSum = 0;
  let baselineLosesTaskAt: number | null = null;
  let taskLostAt: number | null = null;
  let warnings = run.runWarnings.length;
  for (const step of steps) {
    warnings += step.warnings.length;
    for (const c of step.changes) {
      changes[c.type].count++;
      changes[c.type].tokens += c.tokens;
    }
    const r = step.request;
    if (!r) continue;
    inferences++;
    peak = Math.max(peak, r.requestTokens);
    if (r.inference > 0) shareSum += r.prefixShare;
    if (baselineLosesTaskAt === null && !r.taskInBaselineWindow && scenario.inputs.task !== undefined)
      baselineLosesTaskAt = r.inference;
    if (taskLostAt === null && !r.taskInWindow && scenario.inputs.task !== undefined) taskLostAt = r.inference;
  }
  const regions = orderedMeta(run);
  const { items: readAgain, lost } = readAgainOf(new RunNames(run.events, seededKeys), spawn.changes, steps);
  return {
    scenario: scenario.name,
    model: {
      id: run.model.id,
      window: run.model.window,
      encoding: run.model.encoding,
      approximate: run.model.approximate,
    },
    regions,
    stages: stagesOf(run.blueprint).map((s) => ({
      name: s.name,
      regions: stageLayout(run.blueprint, s).map((d) => d.name),
    })),
    diagnostics,
    warnings: run.runWarnings,
    spawn,
    steps,
    summary: {
      steps: steps.length,
      inferences,
      finalStage: run.stage.name,
      stagesEntered: run.stagesEntered,
      peakRequestTokens: peak,
      meanPrefixShare: inferences > 1 ? shareSum / (inferences - 1) : 0,
      changes,
      baselineLosesTaskAt,
      taskLostAt,
      ledger: run.ledger.byStage,
      warnings,
      readAgain: { count: readAgain.length, items: readAgain },
      lost,
    },
    cancelled,
  };
}

/** Region metadata in the first stage's send order (system blocks, then message regions), then the rest. */
function orderedMeta(run: Run): RegionMeta[] {
  const first = itemAt(stagesOf(run.blueprint), 0);
  const names: string[] = [];
  const firstLayout = stageLayout(run.blueprint, first)
    .map((d) => run.regions.get(d.name)!)
    .filter(Boolean);
  for (const r of systemOrder(firstLayout)) names.push(r.name);
  for (const r of firstLayout) if (!names.includes(r.name)) names.push(r.name);
  for (const name of run.meta.keys()) if (!names.includes(name)) names.push(name);
  return names.map((n) => run.meta.get(n)!);
}
