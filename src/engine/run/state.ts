// What a run holds between events, and the few ways anything writes into a region. Each kind of
// event has its own module (run.ts dispatches to them); they all change the run through this state.
import { AssemblyState, type Assembly, type RequestBlock, type StrippedBlock } from '../assemble.ts';
import type { FlatListBaseline } from '../baseline.ts';
import type { Blueprint, RegionDecl, StageDecl } from '../blueprint/types.ts';
import { resolveBudget } from '../budget.ts';
import { fmt } from '../format.ts';
import type { Model } from '../models.ts';
import { createRegion, type RegionFactories } from '../regions/index.ts';
import { renderedMessage } from '../regions/base.ts';
import type { Entry, Region, RegionContext, RenderedMessage } from '../regions/types.ts';
import type { Scenario, TrafficEvent } from '../scenario.ts';
import { nameTable } from '../names.ts';
import { Ledger, isImplicit, stagesOf } from '../stages.ts';
import { summarize, type SummaryItems, type SummaryOptions } from '../summarize.ts';
import type { Change, RegionFigures, RegionMeta, ToolCall } from '../timeline.ts';
import { countTokens } from '../tokens.ts';
import type { CappedResult } from '../routing.ts';
import type { HooksLoader } from '../rhai-host.ts';
import { itemAt } from '../item-at.ts';

/** Write orders reportedStrips may hold before its gone ones are first dropped. */
const FORGET_FLOOR = 256;

/**
 * A table of region figures keyed by region name. Like nameTable it inherits nothing (a region may
 * be named `toString` or `__proto__`), but as a class instance it keeps V8's compact object layout:
 * a prototype-less object is a hash table several times the size, and a timeline holds one per step.
 */
class FiguresTable {
  [name: string]: RegionFigures;
  static {
    Object.setPrototypeOf(this.prototype, null);
  }
}

/** An assistant event's tokens: its text's and each of its calls'. */
export interface ReplyTokens {
  text: number;
  calls: number[];
}

/**
 * What a run and its copies (fork) share, because it does not depend on where each one is: the
 * calls made, each with the position it was made at, and each tool result's token count once
 * counted (a copy that re-runs an event never tokenizes its text again).
 */
export class SharedFacts {
  private readonly callsById = new Map<string, { at: number; call: ToolCall }[]>();
  private readonly textTokens = new WeakMap<TrafficEvent, number>();
  private readonly replyTokens = new WeakMap<TrafficEvent, ReplyTokens>();
  /**
   * Results cut by a ceiling, by event and ceiling, when runs of several blueprints over the same
   * traffic share these facts (the advisor): cutting tokenizes the whole result, and a result's text
   * does not depend on the blueprint. Off for a single run, which would only hold them longer.
   */
  private readonly caps: WeakMap<TrafficEvent, Map<number, CappedResult>> | undefined;

  constructor(options: { keepCaps?: boolean } = {}) {
    this.caps = options.keepCaps ? new WeakMap() : undefined;
  }

  /** A call made at `position`. A copy re-running the event records it again, which changes nothing. */
  recordCall(position: number, call: ToolCall): void {
    let made = this.callsById.get(call.id);
    if (!made) this.callsById.set(call.id, (made = []));
    const last = made[made.length - 1];
    // The same id twice in one turn: the later call stands, as it would in a map.
    if (last?.at === position) last.call = call;
    else if (last === undefined || last.at < position) made.push({ at: position, call });
  }

  /** The latest call with `id` made at or before `position`. */
  callBefore(id: string, position: number): ToolCall | undefined {
    const made = this.callsById.get(id) ?? [];
    return made.findLast((m) => m.at <= position)?.call;
  }

  /** `event`'s result cut at `maxTokens`, cut once when these facts keep caps. */
  capped(event: TrafficEvent, maxTokens: number, cut: () => CappedResult): CappedResult {
    if (!this.caps) return cut();
    let byCeiling = this.caps.get(event);
    if (!byCeiling) this.caps.set(event, (byCeiling = new Map()));
    let found = byCeiling.get(maxTokens);
    if (!found) byCeiling.set(maxTokens, (found = cut()));
    return found;
  }

  /**
   * Tokens of an assistant event's text and of each call it makes (deterministic per event),
   * counted once: a call's arguments (a patch, a script) are often too long for the count cache.
   */
  replyTokensOf(event: TrafficEvent, count: () => ReplyTokens): ReplyTokens {
    return countedOnce(this.replyTokens, event, count);
  }

  /** Tokens of the text a tool result or a user message event is stored as (deterministic per event), counted once. */
  textTokensOf(event: TrafficEvent, text: string, count: (text: string) => number): number {
    return countedOnce(this.textTokens, event, () => count(text));
  }
}

/** `event`'s value in `cache`, made by `count` the first time it is asked. */
function countedOnce<T>(cache: WeakMap<TrafficEvent, T>, event: TrafficEvent, count: () => T): T {
  let value = cache.get(event);
  if (value === undefined) cache.set(event, (value = count()));
  return value;
}

/** Everything a run knows after some number of events. Mutable; one per replay. */
export class RunState {
  readonly model: Model;
  readonly blueprint: Blueprint;
  readonly scenario: Scenario;
  readonly events: readonly TrafficEvent[];
  readonly stages: StageDecl[];
  readonly regions = new Map<string, Region>();
  readonly meta = new Map<string, RegionMeta>();
  readonly ledger = new Ledger();
  readonly ctx: RegionContext;
  /** Warnings and changes of the spawn (seeds, first stage), before any event. */
  readonly runWarnings: string[] = [];
  readonly spawnChanges: Change[] = [];
  position = 0;
  /** Write order: every entry takes the next number. */
  seq = 0;
  private lastFigures: Record<string, RegionFigures> | undefined;
  /** The step being run: what it changed and what it warns about. */
  changes: Change[] = [];
  warnings: string[] = [];

  // Stages (transitions.ts).
  stage!: StageDecl;
  /** The current stage's regions in declaration order. */
  layout: Region[] = [];
  /** visibleNames()'s set, and the layout it was made from. */
  private visibleOf: Region[] | undefined;
  private visible: ReadonlySet<string> = new Set();
  stagesEntered: string[] = [];
  /** Refused transitions in the current stage; its gates share one attempt budget. */
  attempts = 0;
  readonly iterations = new Map<string, number>();
  /** The region holding the current stage prompt, if any. */
  promptHolder: string | undefined;
  /**
   * What the runtime owes the model: writes it refused that no agent made (a user turn a reject
   * region refused, ...). The next request carries them once, after the message stream.
   */
  notices: RenderedMessage[] = [];
  /**
   * For each compact_history region, the source entries it has carried (still in the source at the
   * last carry) with the items each contributed, so the next carry takes only what is new.
   */
  readonly carried = new Map<string, Map<Entry, SummaryItems>>();
  /** The last checklist id given out under each region name that was a checklist and is now another kind. */
  readonly todoIds = new Map<string, number>();

  // Turns and requests (turns.ts).
  baseline!: FlatListBaseline;
  /** The seeded task's entries: the task is in the window while all of them are visible. */
  readonly taskEntries: { region: string; entry: Entry }[] = [];
  inferences = 0;
  /** The last request assembled (before the last inference), and the regions it was built from. */
  lastAssembly: Assembly | undefined;
  lastRequestRegions: Record<string, RegionFigures> | undefined;
  /** The last request's blocks, for the next one's cache prefix. */
  prevBlocks: RequestBlock[] | undefined;
  /** The stripped blocks a step has already reported: by region, then write order, the call ids. */
  readonly reportedStrips = new Map<string, Map<number, Set<string>>>();
  /** Write orders in reportedStrips, and how many there may be before the gone ones are dropped. */
  private reportedSeqs = 0;
  private forgetAt = FORGET_FLOOR;
  /**
   * Stripped blocks known to be in reportedStrips, by identity: the same block is stripped from
   * each later request, and one lookup answers for it. Never holds more than reportedStrips does.
   */
  reportedBlocks = new WeakSet<StrippedBlock>();

  /** Calls made and results counted: shared with this run's copies. */
  readonly shared: SharedFacts;
  /** What assembling keeps between this run's requests (assemble.ts). */
  readonly assembly = new AssemblyState();
  /** Behaviour the caller brought for some kinds (ReplayOptions.regionFactories): shared with this run's copies. */
  readonly factories: RegionFactories;
  /** The run's Rhai interpreter for custom regions (set at spawn from ReplayOptions; rhai-host.ts). */
  loadCustomHooks: HooksLoader | undefined;

  constructor(
    model: Model,
    blueprint: Blueprint,
    events: readonly TrafficEvent[],
    scenario: Scenario,
    shared = new SharedFacts(),
    factories: RegionFactories = {},
  ) {
    this.factories = factories;
    this.model = model;
    this.blueprint = blueprint;
    this.events = events;
    this.scenario = scenario;
    this.shared = shared;
    this.stages = stagesOf(blueprint);
    const encoding = model.encoding;
    this.ctx = {
      encoding,
      nextSeq: () => this.seq++,
      summarize: (entries, label, seq, options) => this.summaryEntry(entries, label, seq, options),
      count: (text) => countTokens(text, encoding),
      stage: itemAt(this.stages, 0).name,
      stageIterations: 1,
      model: model.id,
      window: model.window,
      warn: (message) => this.warnings.push(message),
    };
  }

  /**
   * Copies this state into `copy` (a fresh run of the same scenario), so the two step on
   * independently: the page's inspector re-runs a step from a kept copy instead of keeping every
   * step's state. False when a region cannot be copied (a custom region's script keeps its own state).
   */
  protected copyInto(copy: RunState): boolean {
    for (const [name, region] of this.regions) {
      const forked = region.fork();
      if (!forked) return false;
      copy.regions.set(name, forked);
    }
    for (const [name, meta] of this.meta) copy.meta.set(name, meta);
    for (const [stage, row] of Object.entries(this.ledger.byStage))
      copy.ledger.byStage[stage] = nameTable(Object.entries(row));
    copy.runWarnings.push(...this.runWarnings);
    copy.spawnChanges.push(...this.spawnChanges);
    copy.position = this.position;
    copy.seq = this.seq;
    copy.lastFigures = this.lastFigures;
    copy.stage = this.stage;
    copy.layout = this.layout.map((r) => copy.regions.get(r.name)!);
    copy.stagesEntered = [...this.stagesEntered];
    copy.attempts = this.attempts;
    for (const [stage, n] of this.iterations) copy.iterations.set(stage, n);
    copy.promptHolder = this.promptHolder;
    copy.notices = this.notices.slice();
    for (const [name, entries] of this.carried) copy.carried.set(name, new Map(entries));
    for (const [name, id] of this.todoIds) copy.todoIds.set(name, id);
    copy.ctx.stage = this.ctx.stage;
    copy.ctx.stageIterations = this.ctx.stageIterations;
    copy.ctx.windowTokens = this.ctx.windowTokens;
    copy.baseline = this.baseline.clone();
    copy.taskEntries.push(...this.taskEntries);
    copy.inferences = this.inferences;
    copy.prevBlocks = this.prevBlocks;
    this.forgetGoneStrips();
    for (const [region, bySeq] of this.reportedStrips) {
      copy.reportedStrips.set(region, new Map([...bySeq].map(([seq, ids]) => [seq, new Set(ids)])));
    }
    copy.reportedSeqs = this.reportedSeqs;
    copy.forgetAt = this.forgetAt;
    return true;
  }

  /**
   * Drops the reported strips no later request can meet again, so the set (and each copy of it)
   * stays as small as the regions instead of growing with the run. A strip names a block by
   * region, write order and call id; where a block with a call or a result is always an entry's
   * own message (`messagesAreEntries`), an entry that left its region never comes back. The identity
   * set starts afresh: its blocks whose strips were dropped could never match again, and so it stays
   * no larger than reportedStrips, at one slower check per block still stripped.
   */
  private forgetGoneStrips(): void {
    this.reportedBlocks = new WeakSet();
    let left = 0;
    for (const [name, bySeq] of this.reportedStrips) {
      const region = this.regions.get(name);
      if (region && !region.messagesAreEntries) {
        left += bySeq.size;
        continue;
      }
      const held = new Set(region?.entries.map((e) => e.seq));
      for (const seq of bySeq.keys()) if (!held.has(seq)) bySeq.delete(seq);
      if (bySeq.size === 0) this.reportedStrips.delete(name);
      left += bySeq.size;
    }
    this.reportedSeqs = left;
    this.forgetAt = Math.max(FORGET_FLOOR, 2 * left);
  }

  /** The call ids reported stripped from `region`'s message of write order `seq` (made, and counted, on first ask). */
  reportedStripIds(region: string, seq: number): Set<string> {
    let bySeq = this.reportedStrips.get(region);
    if (!bySeq) this.reportedStrips.set(region, (bySeq = new Map()));
    let ids = bySeq.get(seq);
    if (!ids) {
      bySeq.set(seq, (ids = new Set()));
      this.reportedSeqs++;
    }
    return ids;
  }

  /**
   * Once the write orders in reportedStrips have doubled since they were last pruned, drops the
   * gone ones, so a long run keeps about as many as its regions hold (amortized: each pass over the
   * regions pays for as many strips as it may drop). Called after a request's strips are recorded.
   */
  forgetGoneStripsWhenDue(): void {
    if (this.reportedSeqs >= this.forgetAt) this.forgetGoneStrips();
  }

  /**
   * Every region's figures now. A region whose figures did not change since the last call keeps its
   * object, and when none changed the whole table is the last one: a timeline holds one table per
   * step, so what does not change is stored once.
   */
  figures(): Record<string, RegionFigures> {
    const previous = this.lastFigures;
    const out = new FiguresTable();
    let changed = previous === undefined;
    for (const region of this.regions.values()) {
      const visible = this.layout.includes(region);
      const last = previous?.[region.name];
      if (
        last &&
        last.tokens === region.tokens &&
        last.budget === region.budget.budget &&
        last.entries === region.entries.length &&
        last.visible === visible
      ) {
        out[region.name] = last;
      } else {
        out[region.name] = {
          tokens: region.tokens,
          budget: region.budget.budget,
          entries: region.entries.length,
          visible,
        };
        changed = true;
      }
    }
    // Regions are never removed, so a table with no change has exactly the last one's names.
    if (!changed) return previous!;
    return (this.lastFigures = out);
  }

  createRegion(decl: RegionDecl): Region {
    const budget = resolveBudget(decl, this.model.window);
    const created = createRegion(
      decl,
      budget,
      { agent: this.scenario.agent, encoding: this.model.encoding, loadCustomHooks: this.loadCustomHooks },
      this.factories,
    );
    if (created.warning) this.runWarnings.push(created.warning);
    const region = created.region;
    this.regions.set(decl.name, region);
    if (!this.meta.has(decl.name)) {
      this.meta.set(decl.name, {
        name: decl.name,
        kind: decl.kind,
        budget: budget.budget,
        trigger: budget.trigger,
        admission: decl.admission,
        section: region.section,
        cache: region.cache,
        declared: !isImplicit(decl),
      });
    }
    return region;
  }

  /**
   * A write the runtime makes (turns, results, records, carried summaries). No agent asked for it, so
   * one a reject region refuses is a timeline warning with its size and the region's fill.
   */
  writeTo(name: string, entry: Entry, keyed = false) {
    const outcome = this.store(name, entry, keyed);
    if (!outcome.ok) {
      const region = this.regions.get(name)!;
      const what = `a ${entry.kind.replace('_', ' ')} of ${fmt(entry.tokens)} tokens`;
      const fill = `it holds ${fmt(region.tokens)} of ${fmt(region.budget.trigger)} tokens in ${fmt(region.entries.length)} entries`;
      const reject = region.decl.admission === 'reject';
      this.warnings.push(
        reject
          ? `${name} (admission = "reject") refused ${what}: ${fill}`
          : `${name} refused ${what}: ${outcome.message}`,
      );
      // The spec: a write that does not fit fails "and the agent is told the region is full and to
      // release something first". No agent made this write, so the next request tells the model.
      const told = reject
        ? `[${name} is full (admission = "reject"): ${what} was not added; ${fill}. Release something with context_delete first.]`
        : `[${name} refused ${what}: ${outcome.message}]`;
      this.notices.push(renderedMessage(Number.MAX_SAFE_INTEGER, 'user', told, this.ctx.count(told)));
    }
    return outcome;
  }

  /** A write whose refusal the caller reports itself (to the agent, as its result). */
  store(name: string, entry: Entry, keyed: boolean) {
    const region = this.regions.get(name)!;
    const outcome = keyed ? region.put(entry, this.ctx) : region.write(entry, this.ctx);
    this.changes.push(...outcome.changes);
    if (outcome.ok) {
      // An entry dropped on arrival was never held: nothing is charged for it.
      this.ledger.charge(
        this.stage.name,
        name,
        outcome.gone?.verb === 'dropped' ? 0 : (outcome.stored ?? entry.tokens),
      );
      if (!region.removable && region.tokens > region.budget.budget) {
        this.warnings.push(
          `${name} is pinned and over its budget: ${fmt(region.tokens)} of ${fmt(region.budget.budget)} tokens (pinned content is never evicted)`,
        );
      }
    }
    return outcome;
  }

  /** The region the current stage shows under `name`, or why the agent cannot use it. */
  visibleRegion(name: string): Region | string {
    const region = this.layout.find((r) => r.name === name);
    if (region) return region;
    const names = this.layout.map((r) => r.name).join(', ');
    if (this.regions.has(name))
      return `region ${name} is not part of stage ${this.stage.name}'s layout (visible: ${names})`;
    return `no region named "${name}" (stage ${this.stage.name} has: ${names})`;
  }

  /** The names the current stage shows: made once per layout (a layout is replaced, never changed), asked per result and request. */
  visibleNames(): ReadonlySet<string> {
    if (this.visibleOf !== this.layout) {
      this.visibleOf = this.layout;
      this.visible = new Set(this.layout.map((r) => r.name));
    }
    return this.visible;
  }

  fullness(region: Region): string {
    return `${region.name} now holds ${fmt(region.tokens)} of ${fmt(region.budget.budget)} tokens`;
  }

  textEntry(content: string, key: string | undefined): Entry {
    const entry: Entry = { seq: this.seq++, content, tokens: this.ctx.count(content), kind: 'text' };
    return key === undefined ? entry : { ...entry, key };
  }

  summaryEntry(entries: readonly Entry[], label: string, seq: number, options?: SummaryOptions): Entry {
    const content = summarize(entries, label, undefined, options);
    let folded = 0;
    let foldedTokens = 0;
    for (const e of entries) {
      folded += e.folded?.entries ?? 1;
      foldedTokens += e.folded?.tokens ?? e.tokens;
    }
    return {
      seq,
      content,
      tokens: this.ctx.count(content),
      kind: 'summary',
      folded: { entries: folded, tokens: foldedTokens },
    };
  }
}
