// The engine's public surface. It makes no traffic of its own: callers bring generators in
// ReplayOptions.generators (src/scenarios/engine.ts wires the built-in ones, and is what the CLI,
// the Worker, bench and tests import).
import { checkCustomScript, runRhaiSeed } from './custom-script.ts';
import { entryLabel } from './regions/index.ts';
import type { Entry } from './regions/types.ts';
import { emptyTimeline, prepare, replay as replayWith, replayPrepared, type Prepared, type ReplayOptions, type Run } from './replay.ts';
import type { Scenario } from './scenario.ts';
import type { CompileResult } from './blueprint/index.ts';
import { validateScenario } from './validate.ts';
import type { Diagnostic } from './diagnostics.ts';
import type { Assembly } from './assemble.ts';
import type { EntryDetail, RegionDetail, RegionFigures, RegionMeta, StageLedger, StepDetail, Timeline, TimelineStep } from './timeline.ts';

export { compileBlueprint, regionsForStage } from './blueprint/index.ts';
export { resolveModel, MODELS, findModel, DEFAULT_MODEL_ID } from './models.ts';
export { registerRegionKind } from './regions/index.ts';
export type { Region, RegionContext, RegionEnv, RegionFactory, Entry } from './regions/index.ts';
export type * from './timeline.ts';
export type { ReplayOptions } from './replay.ts';
export type { TrafficGenerator, TrafficGenerators } from './scenario.ts';
export { entryLabel };

/** The engine's own Rhai seed runner and script check, unless the caller brings others. */
const withRhai = (options: ReplayOptions = {}): ReplayOptions => ({ runRhaiSeed, checkScript: checkCustomScript, ...options });

/** Compiles a scenario's blueprint exactly as its replay would; pass the result as `ReplayOptions.compiled` to replay from it. */
export function compile(scenario: Scenario, options: ReplayOptions = {}): CompileResult {
  return validateScenario(scenario, withRhai(options));
}

/** The whole timeline. A blueprint with errors gives diagnostics and no steps, never a throw. */
export function replay(scenario: Scenario, options: ReplayOptions = {}): Timeline {
  return replayWith(scenario, withRhai(options));
}

export class InspectError extends Error {}

/** Everything `inspect` shows about one step, kept as references (entries are immutable). */
interface Snapshot {
  step: TimelineStep;
  assembly: Assembly;
  inference: boolean;
  requestRegions?: Record<string, RegionFigures>;
  regions: { meta: RegionMeta; kind: RegionMeta['kind']; budget: number; trigger: number; tokens: number; visible: boolean; entries: readonly Entry[] }[];
  ledger: StageLedger;
}

/** Past this many events, snapshots are not kept (going back re-runs from spawn instead). */
const MAX_SNAPSHOT_EVENTS = 20_000;

/**
 * Keeps one run and a snapshot of every step it has passed, so inspecting any step already reached
 * is a lookup and a later one replays only the events in between. Replay is deterministic, so the
 * snapshots are exactly what a fresh run would show.
 */
export class Replay {
  private run: Run | undefined;
  private snapshots: Snapshot[] = [];
  readonly diagnostics: Diagnostic[] = [];

  constructor(private readonly scenario: Scenario, private readonly options: ReplayOptions = {}) {}

  /**
   * The whole timeline, keeping a snapshot of every step on the way (up to MAX_SNAPSHOT_EVENTS), so
   * inspecting any step of this run afterwards is a lookup: the page's engine worker replays once
   * per edit and answers every scrub from here.
   */
  timeline(options: Pick<ReplayOptions, 'signal' | 'onProgress' | 'compiled'> = {}): Timeline {
    const merged = withRhai({ ...this.options, ...options });
    const prepared = this.start(merged);
    const keep = prepared.run !== undefined && keepsSnapshots(prepared.run);
    return replayPrepared(this.scenario, prepared, merged, keep ? (run, step) => { this.snapshots[step.index] = snapshot(run, step); } : undefined);
  }

  /** The request sent at inference `n` (0-based), with the state of every region at that point. */
  inspectInference(n: number): StepDetail {
    const events = this.fresh().events;
    let seen = 0;
    for (let i = 0; i < events.length; i++) {
      if (events[i]!.type !== 'assistant') continue;
      if (seen++ === n) return this.inspect(i);
    }
    throw new InspectError(`no inference ${n}: the scenario has ${seen} inference${seen === 1 ? '' : 's'} (numbered from 0)`);
  }

  inspect(index: number): StepDetail {
    let run = this.fresh();
    if (index < 0 || index >= run.events.length) {
      throw new InspectError(`no step ${index}: the scenario has ${run.events.length} events (numbered from 0)`);
    }
    const keep = keepsSnapshots(run);
    const kept = this.snapshots[index];
    if (kept) return detailOf(kept);
    if (run.position > index) run = this.fresh(true);
    let last: Snapshot | undefined;
    while (run.position <= index) {
      const step = run.step();
      if (keep || run.position === index + 1) {
        last = snapshot(run, step);
        if (keep) this.snapshots[step.index] = last;
      }
    }
    return detailOf(last!);
  }

  private fresh(restart = false): Run {
    if (this.run && !restart) return this.run;
    const prepared = this.start(withRhai(this.options));
    if (!prepared.run) {
      throw new InspectError(`the scenario cannot run: ${prepared.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message).join('; ')}`);
    }
    return prepared.run;
  }

  /** A new run from spawn: its diagnostics, and no snapshots yet. */
  private start(options: ReplayOptions): Prepared {
    const prepared = prepare(this.scenario, options);
    this.diagnostics.splice(0, this.diagnostics.length, ...prepared.diagnostics);
    this.run = prepared.run;
    this.snapshots = [];
    return prepared;
  }
}

const keepsSnapshots = (run: Run): boolean => run.events.length <= MAX_SNAPSHOT_EVENTS;

function snapshot(run: Run, step: TimelineStep): Snapshot {
  const inference = step.event.type === 'assistant';
  const visible = new Set(run.layout);
  const out: Snapshot = {
    step, inference,
    assembly: inference ? run.lastAssembly! : run.previewAssembly(),
    regions: [...run.meta.values()].map((meta) => {
      const region = run.regions.get(meta.name)!;
      return {
        meta, kind: region.kind, budget: region.budget.budget, trigger: region.budget.trigger, tokens: region.tokens,
        visible: visible.has(region), entries: region.entries.slice(),
      };
    }),
    ledger: structuredClone(run.ledger.byStage),
  };
  if (inference) out.requestRegions = run.lastRequestRegions!;
  return out;
}

export { emptyTimeline };

function entryDetail(entry: Entry, index: number): EntryDetail {
  const out: EntryDetail = { index, content: entry.content, tokens: entry.tokens, kind: entry.kind };
  if (entry.key !== undefined) out.key = entry.key;
  if (entry.toolCalls?.length) out.tool_calls = [...entry.toolCalls];
  if (entry.toolCallId !== undefined) out.tool_call_id = entry.toolCallId;
  if (entry.toolName !== undefined) out.tool_name = entry.toolName;
  if (entry.isError) out.is_error = true;
  if (entry.todo) out.checklist = { id: entry.todo.id, state: entry.todo.state, notes: [...entry.todo.notes] };
  if (entry.folded) out.folded = { ...entry.folded };
  return out;
}

function detailOf(snap: Snapshot): StepDetail {
  const { step } = snap;
  const regions: RegionDetail[] = snap.regions.map((r) => ({
    ...r.meta, kind: r.kind, budget: r.budget, trigger: r.trigger, tokens: r.tokens, visible: r.visible,
    entries: r.entries.map(entryDetail),
  }));
  const out: StepDetail = {
    index: step.index, event: step.event, stage: step.stage, regions, changes: step.changes,
    request: snap.assembly.request, inference: snap.inference, warnings: step.warnings, ledger: structuredClone(snap.ledger),
  };
  if (step.result) out.result = step.result;
  if (snap.requestRegions) out.requestRegions = snap.requestRegions;
  return out;
}
