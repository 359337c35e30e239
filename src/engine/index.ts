// The engine's public surface: what the Worker, the CLI and tests call.
import { generateTraffic } from '../scenarios/generators.ts';
import { checkCustomScript, runRhaiSeed } from './custom-script.ts';
import { entryLabel } from './regions/index.ts';
import type { Entry } from './regions/types.ts';
import { emptyTimeline, prepare, replay as replayWith, type ReplayOptions, type Run } from './replay.ts';
import type { Scenario } from './scenario.ts';
import type { Diagnostic } from './diagnostics.ts';
import type { AssembledRequest, EntryDetail, RegionDetail, RegionFigures, StepDetail, Timeline, TimelineStep } from './timeline.ts';

export { compileBlueprint, regionsForStage } from './blueprint/index.ts';
export { resolveModel, MODELS, findModel, DEFAULT_MODEL_ID } from './models.ts';
export { registerRegionKind } from './regions/index.ts';
export type { Region, RegionContext, RegionEnv, RegionFactory, Entry } from './regions/index.ts';
export type * from './timeline.ts';
export type { ReplayOptions } from './replay.ts';
export { entryLabel };

export type EngineOptions = Omit<ReplayOptions, 'generate'>;

/** The engine's own traffic generators and Rhai seed runner, unless the caller brings others. */
const withGenerators = (options: EngineOptions = {}): ReplayOptions => ({ runRhaiSeed, checkScript: checkCustomScript, ...options, generate: generateTraffic });

/** The whole timeline. A blueprint with errors gives diagnostics and no steps, never a throw. */
export function replay(scenario: Scenario, options: EngineOptions = {}): Timeline {
  return replayWith(scenario, withGenerators(options));
}

export class InspectError extends Error {}

/**
 * Keeps one run's state so inspecting step N, then N+k, replays only the k events between.
 * Going backwards starts again from spawn (replay is deterministic, so the state is identical).
 */
export class Replay {
  private run: Run | undefined;
  private last: { step: TimelineStep; request: AssembledRequest; inference: boolean; requestRegions?: Record<string, RegionFigures> } | undefined;
  readonly diagnostics: Diagnostic[] = [];

  constructor(private readonly scenario: Scenario, private readonly options: EngineOptions = {}) {}

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
    if (run.position > index + 1 || (run.position === index + 1 && this.last?.step.index !== index)) run = this.fresh(true);
    while (run.position <= index) {
      const step = run.step();
      if (run.position === index + 1) {
        const inference = step.event.type === 'assistant';
        this.last = inference
          ? { step, inference, request: run.lastAssembly!.request, requestRegions: run.lastRequestRegions! }
          : { step, inference, request: run.preview() };
      }
    }
    const out = detail(run, this.last!.step, this.last!.request, this.last!.inference);
    if (this.last!.requestRegions) out.requestRegions = this.last!.requestRegions;
    return out;
  }

  private fresh(restart = false): Run {
    if (this.run && !restart) return this.run;
    const prepared = prepare(this.scenario, withGenerators(this.options));
    this.diagnostics.splice(0, this.diagnostics.length, ...prepared.diagnostics);
    if (!prepared.run) {
      throw new InspectError(`the scenario cannot run: ${prepared.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message).join('; ')}`);
    }
    this.run = prepared.run;
    this.last = undefined;
    return this.run;
  }
}

let cached: { key: Scenario; json: string; replay: Replay } | undefined;

/** One step in full. Repeated calls on the same scenario reuse the run (cheap going forward). */
export function inspect(scenario: Scenario, step: number): StepDetail {
  const json = cached?.key === scenario ? cached.json : JSON.stringify(scenario);
  if (!cached || cached.json !== json) cached = { key: scenario, json, replay: new Replay(scenario) };
  cached.key = scenario;
  return cached.replay.inspect(step);
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

function detail(run: Run, step: TimelineStep, request: AssembledRequest, inference: boolean): StepDetail {
  const visible = new Set(run.layout);
  const regions: RegionDetail[] = [];
  for (const meta of run.meta.values()) {
    const region = run.regions.get(meta.name)!;
    regions.push({
      ...meta, kind: region.kind, budget: region.budget.budget, trigger: region.budget.trigger, tokens: region.tokens,
      visible: visible.has(region), entries: region.entries.map(entryDetail),
    });
  }
  const out: StepDetail = {
    index: step.index, event: step.event, stage: step.stage, regions, changes: step.changes, request, inference,
    warnings: step.warnings, ledger: structuredClone(run.ledger.byStage),
  };
  if (step.result) out.result = step.result;
  return out;
}
