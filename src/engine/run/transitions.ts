// Moving between stages: a transition event passes its gates (or spends the attempt budget), the
// stage that ends hands its history to compact_history regions, and the entering stage gets its
// layout and its prompt. The rules (layouts, gates, where a prompt goes) are in ../stages.ts.
import { resolveBudget } from '../budget.ts';
import type { RegionDecl, StageDecl } from '../blueprint/types.ts';
import { change } from '../regions/index.ts';
import type { Entry, Region } from '../regions/types.ts';
import { formatSummary, summaryItems, type SummaryItems } from '../summarize.ts';
import {
  STAGE_PROMPT_KEY,
  findTransition,
  gateRefusals,
  instructionsRegion,
  maxAttempts,
  stageLayout,
} from '../stages.ts';
import type { StepResult } from '../timeline.ts';
import type { RunState } from './state.ts';
import { userMessage } from './turns.ts';

export function transition(run: RunState, to: string): StepResult {
  const from = run.stage;
  const edge = findTransition(from, to);
  if (!edge) {
    const declared = from.transitions.map((t) => t.to).join(', ') || 'none';
    run.warnings.push(`transition to "${to}" ignored: stage ${from.name} declares no such transition`);
    return { ok: false, message: `stage ${from.name} has no transition to "${to}" (declared: ${declared})` };
  }
  const refusals = gateRefusals(from, edge, run.layout, run.regions);
  if (refusals.length > 0) {
    run.attempts++;
    const max = maxAttempts(from, edge);
    if (run.attempts < max) {
      const nudge = `${refusals.join(' ')} (attempt ${run.attempts} of ${max})`;
      userMessage(run, { text: nudge });
      return { ok: false, message: nudge };
    }
    // The shared attempt budget is spent: move on rather than wedge the run.
    run.warnings.push(
      `stage ${from.name}: gate still refused after ${max} attempts; moving on to ${to} anyway (${refusals.join(' ')})`,
    );
  }
  carryHistory(run, from);
  if (edge.transform === 'compact') {
    for (const region of run.layout) {
      // Keyed entries would lose their keys; a reject region only loses what the agent deletes.
      if (region.keyed || region.decl.admission === 'reject') continue;
      run.changes.push(...region.compactAll(run.ctx, `edge transform compact: ${from.name} -> ${to}`));
    }
  }
  enterStage(
    run,
    run.stages.find((s) => s.name === to)!,
  );
  const forced = refusals.length > 0 ? ' (gate not satisfied; max_attempts reached)' : '';
  return { ok: true, message: `moved from ${from.name} to ${to}${forced}` };
}

/** Makes `stage` current: its layout, its iteration count, and its prompt in place of the last one. */
export function enterStage(run: RunState, stage: StageDecl): void {
  run.stage = stage;
  run.attempts = 0;
  const iteration = (run.iterations.get(stage.name) ?? 0) + 1;
  run.iterations.set(stage.name, iteration);
  run.ctx.stage = stage.name;
  run.ctx.stageIterations = iteration;
  run.stagesEntered.push(stage.name);
  const layout = stageLayout(run.blueprint, stage);
  run.layout = layout.map((decl) => regionFor(run, decl));

  // The entering stage's prompt replaces the previous one; a stage without one leaves none.
  const target = instructionsRegion(layout);
  const prompt = stage.systemPrompt ?? '';
  let promptTokens = 0;
  if (run.promptHolder !== undefined && (run.promptHolder !== target || prompt.length === 0)) {
    const holder = run.regions.get(run.promptHolder)!;
    const at = holder.entries.findIndex((e) => e.key === STAGE_PROMPT_KEY);
    if (at >= 0) holder.remove({ index: at });
  }
  run.promptHolder = undefined;
  if (prompt.length > 0) {
    const entry = run.textEntry(prompt, STAGE_PROMPT_KEY);
    promptTokens = entry.tokens;
    const region = run.regions.get(target)!;
    const outcome = region.put(entry, run.ctx);
    run.changes.push(...outcome.changes.filter((c) => c.type !== 'replace'));
    if (outcome.ok) {
      run.promptHolder = target;
      run.ledger.charge(stage.name, target, entry.tokens);
    } else {
      run.warnings.push(`stage ${stage.name}'s prompt did not fit ${target}: ${outcome.message}`);
    }
  }
  run.baseline.setSystem(promptTokens);
}

/** The region for `decl` in the entering stage: kept (re-sized if its declaration differs) or made. */
function regionFor(run: RunState, decl: RegionDecl): Region {
  const existing = run.regions.get(decl.name);
  if (!existing) return run.createRegion(decl);
  if (existing.decl === decl) return existing;
  if (existing.kind === decl.kind) {
    run.changes.push(...existing.redeclare(decl, resolveBudget(decl, run.model.window), run.ctx));
    return existing;
  }
  // A different kind under the same name: the content moves into the new kind, by its rules.
  const fresh = run.createRegion(decl);
  // Checklist ids are never reused under a name, whatever kinds it passes through.
  const lastId = Math.max(existing.checklist?.lastId ?? 0, run.todoIds.get(decl.name) ?? 0);
  if (lastId > 0) run.todoIds.set(decl.name, lastId);
  fresh.checklist?.continueIds(lastId);
  const refused: Entry[] = [];
  let why = '';
  for (const entry of existing.entries) {
    const outcome = fresh.write(entry, run.ctx);
    run.changes.push(...outcome.changes);
    if (!outcome.ok) {
      refused.push(entry);
      why ||= outcome.message;
    }
  }
  if (refused.length > 0) {
    // Nothing is lost unseen: what the new kind does not take (free text in a checklist) leaves on
    // the timeline, with the new kind's reason.
    run.changes.push(
      change('evict', decl.name, refused, `stage ${run.stage.name} makes ${decl.name} a ${decl.kind}: ${why}`),
    );
    run.warnings.push(
      `stage ${run.stage.name} makes ${decl.name} a ${decl.kind}, which did not take ${refused.length} of its ${existing.entries.length} entries: ${why}`,
    );
  }
  return fresh;
}

/**
 * Regions with a history source (compact_history) take one summary of what is new in it as the
 * stage ends: the source entries not carried before. A summary the source made since then from
 * entries already carried counts only what it holds beyond them, so a history never lists the same
 * read twice because the source compacted it. Nothing new, nothing carried (a stage that never saw
 * the source adds nothing). Leaving the same stage again merges into its earlier carry.
 */
function carryHistory(run: RunState, from: StageDecl): void {
  for (const region of run.regions.values()) {
    if (region.historySource === undefined) continue;
    const source = run.regions.get(region.historySource);
    if (!source) continue;
    let carried = run.carried.get(region.name);
    if (!carried) run.carried.set(region.name, (carried = new Map()));
    const fresh = newInSource(source.entries, carried);
    if (fresh.count === 0 && fresh.items.size === 0) continue;
    const key = `${from.name}: ${source.name}`;
    // The same stage left again: its earlier carry (if still whole) and this one become one entry.
    const earlier = region.entries.find((e) => e.key === key);
    const carry = earlier ? summaryItems([earlier]) : { count: 0, items: new Map<string, number>() };
    carry.count += fresh.count;
    for (const [item, n] of fresh.items) carry.items.set(item, (carry.items.get(item) ?? 0) + n);
    const content = formatSummary(carry, `${source.name} in stage ${from.name}`, { everyItem: true });
    const folded = { entries: carry.count, tokens: (earlier?.folded?.tokens ?? 0) + fresh.tokens };
    run.writeTo(
      region.name,
      { seq: run.seq++, content, tokens: run.ctx.count(content), kind: 'summary', key, folded },
      true,
    );
  }
}

/**
 * The count and items of `entries` not carried before, and `carried` brought up to date: entries
 * that left the source are forgotten, after their items are matched against the summaries that
 * took them in (a source entry leaves by being folded, or by being evicted, which matches nothing).
 */
function newInSource(entries: readonly Entry[], carried: Map<Entry, SummaryItems>): SummaryItems & { tokens: number } {
  const present = new Set(entries);
  const left = new Map<string, number>();
  for (const [entry, { items }] of carried) {
    if (present.has(entry)) continue;
    for (const [item, n] of items) left.set(item, (left.get(item) ?? 0) + n);
    carried.delete(entry);
  }
  const fresh = { count: 0, items: new Map<string, number>(), tokens: 0 };
  for (const entry of entries) {
    if (carried.has(entry)) continue;
    const own = summaryItems([entry]);
    carried.set(entry, own);
    // A new raw entry is new whatever it is called (a file read again); only a summary can hold
    // entries carried before.
    let count = own.count;
    for (const [item, n] of own.items) {
      const old = entry.kind === 'summary' ? Math.min(n, left.get(item) ?? 0) : 0;
      if (old > 0) left.set(item, left.get(item)! - old);
      count -= old;
      if (n > old) fresh.items.set(item, (fresh.items.get(item) ?? 0) + n - old);
    }
    count = Math.max(0, count);
    fresh.count += count;
    fresh.tokens += own.count === 0 ? 0 : Math.round(((entry.folded?.tokens ?? entry.tokens) * count) / own.count);
  }
  return fresh;
}
