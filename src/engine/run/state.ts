// What a run holds between events, and the few ways anything writes into a region. Each kind of
// event has its own module (run.ts dispatches to them); they all change the run through this state.
import type { Assembly } from '../assemble.ts';
import type { FlatListBaseline } from '../baseline.ts';
import type { Blueprint, RegionDecl, StageDecl } from '../blueprint/types.ts';
import { resolveBudget } from '../budget.ts';
import type { PrefixBlock } from '../cache.ts';
import { fmt } from '../format.ts';
import type { Model } from '../models.ts';
import { nameTable } from '../names.ts';
import { createRegion } from '../regions/index.ts';
import type { Entry, Region, RegionContext } from '../regions/types.ts';
import type { Scenario, TrafficEvent } from '../scenario.ts';
import { Ledger, isImplicit, stagesOf } from '../stages.ts';
import { summarize } from '../summarize.ts';
import type { Change, RegionFigures, RegionMeta, ToolCall } from '../timeline.ts';
import { countTokens } from '../tokens.ts';

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
  /** The step being run: what it changed and what it warns about. */
  changes: Change[] = [];
  warnings: string[] = [];

  // Stages (transitions.ts).
  stage!: StageDecl;
  /** The current stage's regions in declaration order. */
  layout: Region[] = [];
  stagesEntered: string[] = [];
  /** Refused transitions in the current stage; its gates share one attempt budget. */
  attempts = 0;
  readonly iterations = new Map<string, number>();
  /** The region holding the current stage prompt, if any. */
  promptHolder: string | undefined;

  // Turns and requests (turns.ts).
  baseline!: FlatListBaseline;
  /** The seeded task's entries: the task is in the window while all of them are visible. */
  readonly taskEntries: { region: string; entry: Entry }[] = [];
  inferences = 0;
  /** The last request assembled (before the last inference), and the regions it was built from. */
  lastAssembly: Assembly | undefined;
  lastRequestRegions: Record<string, RegionFigures> | undefined;
  /** The last request's blocks, for the next one's cache prefix. */
  prevBlocks: PrefixBlock[] | undefined;
  readonly reportedStrips = new Set<string>();

  // Tool results (tool-results.ts): the calls made so far, by id, so a result finds its call's path.
  readonly calls = new Map<string, ToolCall>();

  constructor(model: Model, blueprint: Blueprint, events: readonly TrafficEvent[], scenario: Scenario) {
    this.model = model;
    this.blueprint = blueprint;
    this.events = events;
    this.scenario = scenario;
    this.stages = stagesOf(blueprint);
    const encoding = model.encoding;
    this.ctx = {
      encoding,
      nextSeq: () => this.seq++,
      summarize: (entries, label, seq) => this.summaryEntry(entries, label, seq),
      count: (text) => countTokens(text, encoding),
      stage: this.stages[0]!.name,
      stageIterations: 1,
      model: model.id,
      window: model.window,
      warn: (message) => this.warnings.push(message),
    };
  }

  figures(): Record<string, RegionFigures> {
    const visible = new Set(this.layout);
    const out = nameTable<RegionFigures>();
    for (const region of this.regions.values()) {
      out[region.name] = { tokens: region.tokens, budget: region.budget.budget, entries: region.entries.length, visible: visible.has(region) };
    }
    return out;
  }

  createRegion(decl: RegionDecl): Region {
    const budget = resolveBudget(decl, this.model.window);
    const created = createRegion(decl, budget, { agent: this.scenario.agent, encoding: this.model.encoding });
    if (created.warning) this.runWarnings.push(created.warning);
    const region = created.region;
    this.regions.set(decl.name, region);
    if (!this.meta.has(decl.name)) {
      this.meta.set(decl.name, {
        name: decl.name, kind: decl.kind, budget: budget.budget, trigger: budget.trigger, admission: decl.admission,
        section: region.section, cache: region.cache, declared: !isImplicit(decl),
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
      this.warnings.push(region.decl.admission === 'reject'
        ? `${name} (admission = "reject") refused ${what}: it holds ${fmt(region.tokens)} of ${fmt(region.budget.trigger)} tokens in ${fmt(region.entries.length)} entries`
        : `${name} refused ${what}: ${outcome.message}`);
    }
    return outcome;
  }

  /** A write whose refusal the caller reports itself (to the agent, as its result). */
  store(name: string, entry: Entry, keyed: boolean) {
    const region = this.regions.get(name)!;
    const outcome = keyed ? region.put(entry, this.ctx) : region.write(entry, this.ctx);
    this.changes.push(...outcome.changes);
    if (outcome.ok) {
      this.ledger.charge(this.stage.name, name, outcome.stored ?? entry.tokens);
      if (!region.removable && region.tokens > region.budget.budget) {
        this.warnings.push(`${name} is pinned and over its budget: ${fmt(region.tokens)} of ${fmt(region.budget.budget)} tokens (pinned content is never evicted)`);
      }
    }
    return outcome;
  }

  /** The region the current stage shows under `name`, or why the agent cannot use it. */
  visibleRegion(name: string): Region | string {
    const region = this.layout.find((r) => r.name === name);
    if (region) return region;
    const names = this.layout.map((r) => r.name).join(', ');
    if (this.regions.has(name)) return `region ${name} is not part of stage ${this.stage.name}'s layout (visible: ${names})`;
    return `no region named "${name}" (stage ${this.stage.name} has: ${names})`;
  }

  visibleNames(): Set<string> {
    return new Set(this.layout.map((r) => r.name));
  }

  fullness(region: Region): string {
    return `${region.name} now holds ${fmt(region.tokens)} of ${fmt(region.budget.budget)} tokens`;
  }

  textEntry(content: string, key: string | undefined): Entry {
    const entry: Entry = { seq: this.seq++, content, tokens: this.ctx.count(content), kind: 'text' };
    return key === undefined ? entry : { ...entry, key };
  }

  summaryEntry(entries: readonly Entry[], label: string, seq: number): Entry {
    const content = summarize(entries, label);
    let folded = 0;
    let foldedTokens = 0;
    for (const e of entries) {
      folded += e.folded?.entries ?? 1;
      foldedTokens += e.folded?.tokens ?? e.tokens;
    }
    return { seq, content, tokens: this.ctx.count(content), kind: 'summary', folded: { entries: folded, tokens: foldedTokens } };
  }
}
