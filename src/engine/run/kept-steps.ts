// What a kept run holds so the inspector can show any step: a copy of the run every
// CHECKPOINT_EVERY events (further apart past 16,000 events), from which a step is re-run (at most
// that many events, each result already counted, so cheap). At 8,000 coding-agent events a snapshot
// of every step cost 12-20 KB per event, the copies 1-6 KB (mostly the entries' text they hold).
// A run with a region that cannot be copied (a custom region) keeps a snapshot per step instead.
import type { Assembly } from '../assemble.ts';
import type { Entry } from '../regions/types.ts';
import type {
  EntryDetail,
  RegionDetail,
  RegionFigures,
  RegionMeta,
  StageLedger,
  StepDetail,
  TimelineStep,
} from '../timeline.ts';
import type { Run } from './run.ts';

/** Events between two checkpoints (in a run of up to 16,000 events): inspecting a step re-runs at most this many. */
export const CHECKPOINT_EVERY = 32;
/**
 * A longer run keeps at most this many checkpoints, further apart: each holds the text of the
 * entries in its regions, and generated filler (size_tokens) is text no one else holds.
 */
const MAX_CHECKPOINTS = 500;

/** Past this many events a run that cannot be copied keeps no snapshots (going back re-runs from spawn). */
const MAX_SNAPSHOT_EVENTS = 20_000;

/** Everything `inspect` shows about one step, kept as references (entries are immutable). */
export interface Snapshot {
  step: TimelineStep;
  assembly: Assembly;
  inference: boolean;
  requestRegions?: Record<string, RegionFigures>;
  regions: {
    meta: RegionMeta;
    kind: RegionMeta['kind'];
    budget: number;
    trigger: number;
    tokens: number;
    visible: boolean;
    entries: readonly Entry[];
  }[];
  ledger: StageLedger;
}

/**
 * The steps of one run, as far as the run has gone. `passed` after each step of the run; `at`
 * answers a step the run has passed, or undefined for one it has not reached (or, for a run kept
 * without checkpoints or snapshots, left behind).
 */
export class KeptSteps {
  private readonly checkpoints: Run[] = [];
  private readonly snapshots: Snapshot[] = [];
  private readonly mode: 'checkpoints' | 'snapshots' | 'none';
  private readonly every: number;
  /** The copy the last answer was stepped on, reused when the next step asked is ahead of it. */
  private cursor: Run | undefined;

  /** `run` at spawn, before its first event. */
  constructor(run: Run) {
    this.every = Math.max(CHECKPOINT_EVERY, Math.ceil(run.events.length / MAX_CHECKPOINTS));
    const start = checkpointOf(run);
    if (start) this.checkpoints.push(start);
    this.mode = start ? 'checkpoints' : run.events.length <= MAX_SNAPSHOT_EVENTS ? 'snapshots' : 'none';
  }

  passed(run: Run, step: TimelineStep): void {
    if (this.mode === 'snapshots') this.snapshots[step.index] = snapshot(run, step);
    else if (this.mode === 'checkpoints' && run.position % this.every === 0)
      this.checkpoints[run.position / this.every] = checkpointOf(run)!;
  }

  at(index: number): Snapshot | undefined {
    if (this.mode !== 'checkpoints') return this.snapshots[index];
    const checkpoint = this.checkpoints[Math.floor(index / this.every)];
    if (!checkpoint) return undefined;
    const cursor = this.cursor;
    const run =
      cursor && cursor.position <= index && cursor.position > checkpoint.position ? cursor : checkpoint.fork()!;
    let step: TimelineStep;
    do step = run.step();
    while (run.position <= index);
    this.cursor = run;
    return snapshot(run, step);
  }
}

/**
 * A copy of `run` to re-run steps from, for their detail. It leaves out the last request's blocks:
 * they only measure the next request's cache prefix, which a step's detail does not show (the
 * timeline has it), and they hold every system region's whole text, a copy of it per checkpoint.
 */
function checkpointOf(run: Run): Run | undefined {
  const copy = run.fork();
  if (copy) copy.prevBlocks = undefined;
  return copy;
}

/** The state `inspect` shows after `step`, which `run` has just run. */
export function snapshot(run: Run, step: TimelineStep): Snapshot {
  const inference = step.event.type === 'assistant';
  const out: Snapshot = {
    step,
    inference,
    assembly: inference ? run.lastAssembly! : run.previewAssembly(),
    regions: [...run.meta.values()].map((meta) => {
      const region = run.regions.get(meta.name)!;
      return {
        meta,
        kind: region.kind,
        budget: region.budget.budget,
        trigger: region.budget.trigger,
        tokens: region.tokens,
        visible: run.layout.includes(region),
        entries: region.entries.slice(),
      };
    }),
    ledger: structuredClone(run.ledger.byStage),
  };
  if (inference) out.requestRegions = run.lastRequestRegions!;
  return out;
}

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

export function detailOf(snap: Snapshot): StepDetail {
  const { step } = snap;
  const regions: RegionDetail[] = snap.regions.map((r) => ({
    ...r.meta,
    kind: r.kind,
    budget: r.budget,
    trigger: r.trigger,
    tokens: r.tokens,
    visible: r.visible,
    entries: r.entries.map(entryDetail),
  }));
  const out: StepDetail = {
    index: step.index,
    event: step.event,
    stage: step.stage,
    regions,
    changes: step.changes,
    request: snap.assembly.request,
    inference: snap.inference,
    warnings: step.warnings,
    ledger: structuredClone(snap.ledger),
  };
  if (step.result) out.result = step.result;
  if (snap.requestRegions) out.requestRegions = snap.requestRegions;
  if (step.request) out.baselineTokens = step.request.baselineTokens;
  return out;
}
