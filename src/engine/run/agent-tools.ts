// The tools an agent manages its own context with: context_append / context_delete / context_list
// on any visible region, todo_add / todo_done / todo_note on a checklist. Each answers the agent
// with a result it reads; a refusal says why and what to do instead.
import { STAGE_INSTRUCTIONS } from '../implicit-regions.ts';
import { fmt } from '../format.ts';
import { entryLabel } from '../regions/index.ts';
import type { Checklist, DeleteSelector, TodoOutcome } from '../regions/types.ts';
import type { TrafficEvent } from '../scenario.ts';
import type { StepResult } from '../timeline.ts';
import { goneText, keptSize } from './written.ts';
import type { RunState } from './state.ts';

export function contextAppend(run: RunState, name: string, content: string, key: string | undefined): StepResult {
  const region = run.visibleRegion(name);
  if (typeof region === 'string') return { ok: false, message: region };
  if (region.keyed && key === undefined) {
    return {
      ok: false,
      message: `${name} is a ${region.kind} region whose entries are keyed: give the entry a key (context_append { region: "${name}", key: "...", content })`,
    };
  }
  const entry = run.textEntry(content, key);
  // The agent's own write: a refusal is its result, which tells it the region is full.
  const outcome = run.store(name, entry, key !== undefined);
  if (!outcome.ok) return { ok: false, message: outcome.message };
  // Taken out again at once by the region's rule: the agent hears that nothing was appended.
  if (outcome.gone)
    return {
      ok: true,
      message: `${goneText(name, 'the entry', outcome.stored ?? entry.tokens, outcome.gone)}; ${run.fullness(region)}`,
    };
  return {
    ok: true,
    message: `appended ${keptSize(entry.tokens, outcome)} to ${name}${key === undefined ? '' : ` as "${key}"`}; ${run.fullness(region)}`,
  };
}

export function contextDelete(run: RunState, event: Extract<TrafficEvent, { type: 'context_delete' }>): StepResult {
  const name = event.region;
  const region = run.visibleRegion(name);
  if (typeof region === 'string') return { ok: false, message: region };
  if (!region.removable || name === STAGE_INSTRUCTIONS) {
    return { ok: false, message: `${name} is pinned: its entries are never removed` };
  }
  const outcome = region.remove(selectorOf(event));
  if (!outcome.ok) return { ok: false, message: outcome.message };
  run.changes.push(outcome.change);
  const n = outcome.change.entries.length;
  return {
    ok: true,
    message: `deleted ${n} entr${n === 1 ? 'y' : 'ies'} (${fmt(outcome.change.tokens)} tokens) from ${name}; ${run.fullness(region)}`,
  };
}

export function contextList(run: RunState, name: string): StepResult {
  const region = run.visibleRegion(name);
  if (typeof region === 'string') return { ok: false, message: region };
  const lines = region.entries.map((e, i) => `${i}: ${entryLabel(e)} (${fmt(e.tokens)} tokens)`);
  return {
    ok: true,
    message: [`${name} (${region.kind}): ${region.entries.length} entries; ${run.fullness(region)}`, ...lines].join(
      '\n',
    ),
  };
}

/** A todo_* event: `act` runs on the region's checklist, if the region has one. */
export function todo(run: RunState, name: string, act: (checklist: Checklist) => TodoOutcome): StepResult {
  const region = run.visibleRegion(name);
  if (typeof region === 'string') return { ok: false, message: region };
  const checklist = region.checklist;
  if (!checklist)
    return {
      ok: false,
      message: `${name} is a ${region.kind} region, not a checklist: todo tools only write to checklist regions`,
    };
  const before = region.tokens;
  const outcome = act(checklist);
  run.changes.push(...outcome.changes);
  run.ledger.charge(run.stage.name, name, region.tokens - before);
  return { ok: outcome.ok, message: outcome.message };
}

function selectorOf(event: Extract<TrafficEvent, { type: 'context_delete' }>): DeleteSelector {
  if (event.key !== undefined) return { key: event.key };
  if (event.index !== undefined) return { index: event.index };
  return { oldest: event.oldest! };
}
