// A run: spawned once (every region made, seeds written, first stage entered), then stepped one
// traffic event at a time. `step` says which module handles each event type; each step records the
// event's stage, every region's figures, what changed, and what it warns about.
import { assemble, type Assembly } from '../assemble.ts';
import { FlatListBaseline } from '../baseline.ts';
import type { RegionDecl } from '../blueprint/types.ts';
import { runError, type Diagnostic } from '../diagnostics.ts';
import { resolveSeed, taskSeedFinding } from '../seeds.ts';
import { isImplicit, stageLayout } from '../stages.ts';
import type { AssembledRequest, RequestFigures, StepResult, TimelineStep } from '../timeline.ts';
import { seedInputsOf } from '../validate.ts';
import { contextAppend, contextDelete, contextList, todo } from './agent-tools.ts';
import { RunState } from './state.ts';
import { toolResult } from './tool-results.ts';
import { enterStage, transition } from './transitions.ts';
import { infer, messageText, userMessage } from './turns.ts';
import { goneText } from './written.ts';
import type { HooksLoader, RhaiSeedRunner } from '../rhai-host.ts';
import { itemAt } from '../item-at.ts';

/** Most steps change nothing and warn of nothing: they share one empty list. */
const NONE: never[] = Object.freeze([]) as never;

/** A step's list as the timeline keeps it: exactly its length (a list grown by push has spare room). */
function kept<T>(list: T[]): T[] {
  return list.length === 0 ? NONE : list.slice();
}

export class Run extends RunState {
  /** Creates every region, writes the seeds, enters the first stage. Returns spawn diagnostics. */
  spawn(options: { runRhaiSeed?: RhaiSeedRunner; loadCustomHooks?: HooksLoader }): Diagnostic[] {
    this.loadCustomHooks = options.loadCustomHooks;
    const first = itemAt(this.stages, 0);
    const all = new Map<string, RegionDecl>();
    for (const decl of stageLayout(this.blueprint, first)) all.set(decl.name, decl);
    for (const decl of this.blueprint.regions) if (!all.has(decl.name)) all.set(decl.name, decl);
    for (const stage of this.stages)
      for (const decl of stageLayout(this.blueprint, stage)) if (!all.has(decl.name)) all.set(decl.name, decl);
    for (const decl of all.values()) this.createRegion(decl);

    const declared = [...all.values()].filter((d) => !isImplicit(d));
    const inputs = seedInputsOf(this.scenario, options.runRhaiSeed);
    const errors: Diagnostic[] = [];
    const unseededTask = taskSeedFinding(declared, this.scenario.inputs);
    if (unseededTask?.severity === 'error')
      errors.push(runError('task-not-seeded', unseededTask.message, 'agent.leviath', 'context.regions'));
    const seeds = declared.map((decl) => ({ name: decl.name, ...resolveSeed(this.blueprint, decl, inputs) }));
    for (const f of seeds.flatMap((s) => s.findings)) {
      // The same findings validation reported; a refused seed leaves its region empty and the run goes on.
      if (f.severity === 'error')
        errors.push(runError(f.code, f.message, 'agent.leviath', `context.regions.${f.region}.seed`));
      else if (f.severity === 'warning') this.runWarnings.push(`seed of ${f.region} [${f.code}]: ${f.message}`);
    }
    if (errors.length) return errors;

    for (const { name, entries } of seeds) {
      const region = this.regions.get(name)!;
      for (const seed of entries) {
        const entry = this.textEntry(seed.content, seed.key);
        const outcome = seed.key === undefined ? region.write(entry, this.ctx) : region.put(entry, this.ctx);
        this.spawnChanges.push(...outcome.changes);
        if (!outcome.ok) this.runWarnings.push(`seed ${seed.source} into ${name}: ${outcome.message}`);
        else if (outcome.gone)
          this.runWarnings.push(
            `seed ${seed.source} into ${name}: ${goneText(name, 'it', outcome.stored ?? entry.tokens, outcome.gone)}`,
          );
        else if (seed.source === 'task_input') this.taskEntries.push({ region: name, entry });
        this.ledger.charge(
          first.name,
          name,
          !outcome.ok || outcome.gone?.verb === 'dropped' ? 0 : (outcome.stored ?? entry.tokens),
        );
      }
    }
    // The baseline holds the task as its first message; its count is the seeded entry's when there is one.
    const task = this.scenario.inputs.task;
    const taskTokens =
      typeof task !== 'string'
        ? undefined
        : (this.taskEntries.find((t) => t.entry.content === task)?.entry.tokens ?? this.ctx.count(task));
    this.baseline = new FlatListBaseline(this.model.window, taskTokens);
    enterStage(this, first);
    this.spawnChanges.push(...this.changes);
    this.runWarnings.push(...this.warnings);
    this.changes = [];
    this.warnings = [];
    return [];
  }

  /** Runs the next event and returns its step. */
  step(): TimelineStep {
    const index = this.position++;
    const event = itemAt(this.events, index);
    this.changes = [];
    this.warnings = [];
    let request: RequestFigures | undefined;
    let result: StepResult | undefined;
    switch (event.type) {
      case 'user': {
        const said = messageText(this, event, index);
        userMessage(this, {
          ...said,
          tokens: said.tokens ?? this.shared.textTokensOf(event, said.text, this.ctx.count),
        });
        break;
      }
      case 'assistant':
        request = infer(this, event, index);
        break;
      case 'tool_result':
        result = toolResult(this, event);
        break;
      case 'context_append':
        result = contextAppend(this, event.region, event.content, event.key);
        break;
      case 'context_delete':
        result = contextDelete(this, event);
        break;
      case 'context_list':
        result = contextList(this, event.region);
        break;
      case 'todo_add':
        result = todo(this, event.region, (c) => c.add(event.item, this.ctx));
        break;
      case 'todo_done':
        result = todo(this, event.region, (c) => c.done(event.id, this.ctx));
        break;
      case 'todo_note':
        result = todo(this, event.region, (c) => c.note(event.id, event.note, this.ctx));
        break;
      case 'transition':
        result = transition(this, event.to);
        break;
      // The harness's own compaction of an imported run: a blueprint keeps its context by its own
      // regions' rules, so its replay goes on unchanged (the as-sent replay applies it).
      case 'compaction':
        break;
    }
    const [stage, regions, changes, warnings] = [
      this.stage.name,
      this.figures(),
      kept(this.changes),
      kept(this.warnings),
    ];
    // One literal per shape, so each step's fields sit inside the object instead of in a grown side table.
    if (request) return { index, event, stage, regions, changes, warnings, request };
    if (result) return { index, event, stage, regions, changes, warnings, result };
    return { index, event, stage, regions, changes, warnings };
  }

  /** An independent copy of this run at its position, or undefined when a region cannot be copied. */
  fork(): Run | undefined {
    const copy = new Run(this.model, this.blueprint, this.events, this.scenario, this.shared, this.factories);
    copy.loadCustomHooks = this.loadCustomHooks;
    return this.copyInto(copy) ? copy : undefined;
  }

  get done(): boolean {
    return this.position >= this.events.length;
  }

  /** The request the current state would send (no cascade, nothing mutated). */
  preview(): AssembledRequest {
    return this.previewAssembly().request;
  }

  /** `preview` with the counts and blocks; warnings a render raises are not kept on the step. */
  previewAssembly(): Assembly {
    const kept = this.warnings;
    this.warnings = [];
    try {
      return assemble(this.assembly, this.layout, this.ctx, this.notices);
    } finally {
      this.warnings = kept;
    }
  }
}
