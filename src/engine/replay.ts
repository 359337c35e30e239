// Scenario -> timeline: every event through the regions, one snapshot per event, one request per
// inference. Deterministic: the same scenario always gives the same timeline.
import type { ScriptChecker } from './blueprint/index.ts';
import type { Blueprint, RegionDecl, StageDecl } from './blueprint/types.ts';
import { resolveBudget } from './budget.ts';
import { commonPrefixTokens, providerView, type PrefixBlock } from './cache.ts';
import type { Diagnostic } from './diagnostics.ts';
import { fillerText } from './filler.ts';
import { assemble, systemOrder, type Assembly } from './assemble.ts';
import { FlatListBaseline } from './baseline.ts';
import { resolveModel, type Model } from './models.ts';
import { MESSAGE_REGION_NAMES, createRegion, entryLabel } from './regions/index.ts';
import { fmt } from './format.ts';
import type { Checklist, DeleteSelector, Entry, Region, RegionContext, TodoOutcome } from './regions/types.ts';
import { capReadFile, capToolResult, lookupTool, routeToolResult } from './routing.ts';
import type { Scenario, TrafficEvent } from './scenario.ts';
import { resolveSeed, taskSeedFinding, type SeedInputs } from './seeds.ts';
import { seedInputsOf, validateScenario } from './validate.ts';
import {
  Ledger, STAGE_PROMPT_KEY, findTransition, gateRefusals, instructionsRegion, isImplicit, maxAttempts, stageLayout, stagesOf,
} from './stages.ts';
import { summarize } from './summarize.ts';
import { nameTable } from './names.ts';
import { countTokens } from './tokens.ts';
import {
  emptyChangeTotals, type AssembledRequest, type Change, type RegionFigures, type RegionMeta, type RequestFigures,
  type StepResult, type Timeline, type TimelineStep, type ToolCall,
} from './timeline.ts';

export interface ReplayOptions {
  /** Set `cancelled` (or abort, for an AbortSignal) to stop between events; the timeline so far is returned. */
  signal?: { cancelled?: boolean; aborted?: boolean };
  onProgress?: (done: number, total: number) => void;
  /** Runs `rhai` seeds: the interpreter is a dependency (index.ts passes src/rhai's runner). */
  runRhaiSeed?: SeedInputs['runRhaiSeed'];
  /** Compile-checks custom-region scripts, so a broken one is a diagnostic before the run. */
  checkScript?: ScriptChecker;
  /** Makes `scenario.generator`'s events (src/scenarios); generated events come before `traffic`. */
  generate?: (spec: NonNullable<Scenario['generator']>) => TrafficEvent[];
}

/**
 * The timeline keeps every region's figures at every step (~100 bytes each), so events × regions
 * bounds its memory; a 1 MB blueprint of 15,000 regions under 100,000 events would need ~150 GB.
 */
export const MAX_REGION_SNAPSHOTS = 5_000_000;
const READ_FILE = { read_file: true };
/** What file tracking records a call to each file tool as. */
const FILE_TOOLS: Record<string, string> = { read_file: 'read', write_file: 'written', edit_file: 'edited' };

function diagnostic(code: string, message: string, file = 'scenario.json', path = ''): Diagnostic {
  return { code, severity: 'error', message, file, line: 1, column: 1, path };
}

/** A result larger than its region's whole budget is evicted on arrival; the agent should hear so. */
function tooBigToStay(region: Region, tokens: number): string {
  const budget = region.budget.budget;
  return tokens > budget ? `, more than its whole budget of ${fmt(budget)}: evicted at once` : '';
}

/** The size a write left in its region, after a custom region's on_write rewrote or dropped it. */
function storedSize(tokens: number, stored: number | undefined): string {
  if (stored === undefined || stored === tokens) return `${fmt(tokens)} tokens`;
  if (stored === 0) return `0 tokens (on_write dropped the ${fmt(tokens)}-token entry)`;
  return `${fmt(stored)} tokens (on_write rewrote ${fmt(tokens)})`;
}

/** Everything a run knows after some number of events. Mutable; one per replay. */
export class Run {
  readonly model: Model;
  readonly blueprint: Blueprint;
  readonly events: readonly TrafficEvent[];
  readonly regions = new Map<string, Region>();
  readonly meta = new Map<string, RegionMeta>();
  readonly ledger = new Ledger();
  readonly runWarnings: string[] = [];
  readonly spawnChanges: Change[] = [];
  stage!: StageDecl;
  /** The current stage's regions in declaration order. */
  layout: Region[] = [];
  stagesEntered: string[] = [];
  position = 0;
  inferences = 0;
  /** The last request assembled (before the last inference), and the regions it was built from. */
  lastAssembly: Assembly | undefined;
  lastRequestRegions: Record<string, RegionFigures> | undefined;
  private readonly stages: StageDecl[];
  readonly ctx: RegionContext;
  private baseline!: FlatListBaseline;
  private readonly taskEntries: { region: string; entry: Entry }[] = [];
  private readonly calls = new Map<string, ToolCall>();
  private readonly iterations = new Map<string, number>();
  private attempts = 0;
  private seq = 0;
  private prevBlocks: PrefixBlock[] | undefined;
  private promptHolder: string | undefined;
  private changes: Change[] = [];
  private warnings: string[] = [];
  private readonly reportedStrips = new Set<string>();

  constructor(model: Model, blueprint: Blueprint, events: readonly TrafficEvent[], private readonly scenario: Scenario) {
    this.model = model;
    this.blueprint = blueprint;
    this.events = events;
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

  /** Creates every region, writes the seeds, enters the first stage. Returns spawn diagnostics. */
  spawn(options: ReplayOptions): Diagnostic[] {
    const first = this.stages[0]!;
    const all = new Map<string, RegionDecl>();
    for (const decl of stageLayout(this.blueprint, first)) all.set(decl.name, decl);
    for (const decl of this.blueprint.regions) if (!all.has(decl.name)) all.set(decl.name, decl);
    for (const stage of this.stages) for (const decl of stageLayout(this.blueprint, stage)) if (!all.has(decl.name)) all.set(decl.name, decl);
    for (const decl of all.values()) this.createRegion(decl);

    const declared = [...all.values()].filter((d) => !isImplicit(d));
    const inputs = seedInputsOf(this.scenario, options.runRhaiSeed);
    const errors: Diagnostic[] = [];
    const unseededTask = taskSeedFinding(declared, this.scenario.inputs);
    if (unseededTask?.severity === 'error') errors.push(diagnostic('task-not-seeded', unseededTask.message, 'agent.leviath', 'context.regions'));
    const seeds = declared.map((decl) => ({ name: decl.name, ...resolveSeed(this.blueprint, decl, inputs) }));
    for (const f of seeds.flatMap((s) => s.findings)) {
      // The same findings validation reported; a refused seed leaves its region empty and the run goes on.
      if (f.severity === 'error') errors.push(diagnostic(f.code, f.message, 'agent.leviath', `context.regions.${f.region}.seed`));
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
        else if (seed.source === 'task_input') this.taskEntries.push({ region: name, entry });
        this.ledger.charge(first.name, name, outcome.ok ? outcome.stored ?? entry.tokens : 0);
      }
    }
    // The baseline holds the task as its first message; its count is the seeded entry's when there is one.
    const task = this.scenario.inputs.task;
    const taskTokens = typeof task !== 'string' ? undefined : this.taskEntries.find((t) => t.entry.content === task)?.entry.tokens ?? this.ctx.count(task);
    this.baseline = new FlatListBaseline(this.model.window, taskTokens);
    this.enterStage(first);
    this.spawnChanges.push(...this.changes);
    this.runWarnings.push(...this.warnings);
    this.changes = [];
    this.warnings = [];
    return [];
  }

  /** Runs the next event and returns its step. */
  step(): TimelineStep {
    const index = this.position++;
    const event = this.events[index]!;
    this.changes = [];
    this.warnings = [];
    let request: RequestFigures | undefined;
    let result: StepResult | undefined;
    switch (event.type) {
      case 'user': this.message(this.messageText(event, index), 'user_message'); break;
      case 'assistant': request = this.infer(event, index); break;
      case 'tool_result': result = this.toolResult(event); break;
      case 'context_append': result = this.append(event.region, event.content, event.key); break;
      case 'context_delete': result = this.delete(event.region, selectorOf(event)); break;
      case 'context_list': result = this.list(event.region); break;
      case 'todo_add': result = this.todo(event.region, (c) => c.add(event.item, this.ctx)); break;
      case 'todo_done': result = this.todo(event.region, (c) => c.done(event.id, this.ctx)); break;
      case 'todo_note': result = this.todo(event.region, (c) => c.note(event.id, event.note, this.ctx)); break;
      case 'transition': result = this.transition(event.to); break;
    }
    const step: TimelineStep = { index, event, stage: this.stage.name, regions: this.figures(), changes: this.changes, warnings: this.warnings };
    if (request) step.request = request;
    if (result) step.result = result;
    return step;
  }

  get done(): boolean {
    return this.position >= this.events.length;
  }

  figures(): Record<string, RegionFigures> {
    const visible = new Set(this.layout);
    const out = nameTable<RegionFigures>();
    for (const region of this.regions.values()) {
      out[region.name] = { tokens: region.tokens, budget: region.budget.budget, entries: region.entries.length, visible: visible.has(region) };
    }
    return out;
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
      return assemble(this.layout, this.ctx);
    } finally {
      this.warnings = kept;
    }
  }

  // ---- events ---------------------------------------------------------------------------------

  private message(content: string, kind: 'user_message'): void {
    const entry: Entry = { seq: this.seq++, content, tokens: this.ctx.count(content), kind };
    this.writeTo('conversation', entry);
    this.baseline.add(entry.tokens);
  }

  /** A user or assistant message's text: its content, or filler of its `size_tokens`. */
  private messageText(event: { type: 'user' | 'assistant'; content: string; size_tokens?: number }, index: number): string {
    return event.size_tokens === undefined ? event.content : fillerText(event.size_tokens, event.type, `${event.type}:${index}`, countTokens, this.model.encoding);
  }

  private infer(event: Extract<TrafficEvent, { type: 'assistant' }>, index: number): RequestFigures {
    const assembly = this.assembleWithCascade();
    const prefixTokens = commonPrefixTokens(this.prevBlocks, assembly.blocks);
    this.prevBlocks = assembly.blocks;
    this.lastAssembly = assembly;
    this.lastRequestRegions = this.figures();
    const tokens = assembly.tokens;
    this.recordNewStrips(assembly);
    const request: RequestFigures = {
      inference: this.inferences++,
      requestTokens: tokens,
      systemTokens: assembly.systemTokens,
      messageTokens: assembly.messageTokens,
      prefixTokens,
      prefixShare: tokens === 0 ? 0 : prefixTokens / tokens,
      cache: providerView(this.model, assembly.blocks, prefixTokens),
      strippedBlocks: assembly.stripped.toolCalls.length + assembly.stripped.toolResults.length,
      baselineTokens: this.baseline.tokens,
      taskInBaselineWindow: this.baseline.taskInWindow,
      taskInWindow: this.taskInWindow(),
      overWindow: tokens > this.model.window,
    };
    if (request.overWindow) {
      this.warnings.push(`request is ${fmt(tokens)} tokens, over the ${fmt(this.model.window)}-token window even after the cascade: only pinned, checklist and reject regions are left`);
    }
    // The model's reply joins the conversation after the request that produced it.
    const text = this.messageText(event, index);
    const calls = event.tool_calls ?? [];
    const callTokens = calls.map((c) => this.ctx.count(JSON.stringify({ name: c.name, arguments: c.arguments })));
    const entry: Entry = {
      seq: this.seq++, content: text, kind: 'assistant_turn',
      tokens: this.ctx.count(text) + callTokens.reduce((a, b) => a + b, 0),
      ...(calls.length ? { toolCalls: calls, toolCallTokens: callTokens } : {}),
    };
    for (const call of calls) this.calls.set(call.id, call);
    this.writeTo('conversation', entry);
    this.baseline.add(entry.tokens);
    return request;
  }

  /**
   * A block is stripped from every request after it lost its partner; the timeline records the
   * strip once, on the first request it is left out of (each request still counts all of them).
   */
  private recordNewStrips(assembly: Assembly): void {
    const byRegion = new Map<string, Change>();
    for (const block of assembly.strippedBlocks) {
      const key = `${block.region}\u0000${block.seq}\u0000${block.id}`;
      if (this.reportedStrips.has(key)) continue;
      this.reportedStrips.add(key);
      let c = byRegion.get(block.region);
      if (!c) byRegion.set(block.region, (c = { type: 'strip', region: block.region, tokens: 0, entries: [], reason: 'tool call and result must be paired' }));
      c.tokens += block.tokens;
      c.entries.push(block.id);
    }
    this.changes.push(...byRegion.values());
  }

  /** Assembles; while over the window, sheds by kind (lowest tier first, declaration order). */
  private assembleWithCascade(): Assembly {
    this.ctx.windowTokens = this.layout.reduce((sum, r) => sum + r.tokens, 0);
    let assembly = assemble(this.layout, this.ctx);
    const window = this.model.window;
    if (assembly.tokens <= window) return assembly;
    const tiers = [...new Set(this.layout.map((r) => r.cascadeTier).filter((t): t is number => t !== undefined))].sort((a, b) => a - b);
    for (const tier of tiers) {
      for (const region of this.layout) {
        if (region.cascadeTier !== tier || region.entries.length === 0) continue;
        const needed = assembly.tokens - window;
        if (needed <= 0) return assembly;
        const shed = region.shed(needed, this.ctx);
        if (shed.length === 0) continue;
        this.changes.push(...shed);
        assembly = assemble(this.layout, this.ctx);
      }
    }
    return assembly;
  }

  private toolResult(event: Extract<TrafficEvent, { type: 'tool_result' }>): StepResult {
    const encoding = this.model.encoding;
    let content = event.content ?? fillerText(event.size_tokens!, event.tool_name, event.tool_call_id, countTokens, encoding);
    let knownTokens = event.content === undefined ? event.size_tokens : undefined;
    let byteCap: Change | undefined;
    if (lookupTool(READ_FILE, event.tool_name)) {
      const capped = capReadFile(content);
      if (capped.notice !== undefined) {
        // Tokens cut are known only when the size was given (the cut tail is never tokenized).
        byteCap = { type: 'truncate', region: '(read_file)', tokens: knownTokens ?? 0, entries: [event.tool_call_id], reason: capped.notice.trim() };
        this.changes.push(byteCap);
        content = capped.content + capped.notice;
        knownTokens = undefined;
      }
    }
    const route = routeToolResult(this.stage.toolRouting, event.tool_name, this.visibleNames());
    let tokens: number;
    if (route.maxResultTokens !== undefined && (knownTokens === undefined || knownTokens > route.maxResultTokens)) {
      const capped = capToolResult(content, route.maxResultTokens, encoding);
      if (capped.truncated) {
        this.changes.push({ type: 'truncate', region: route.region, tokens: (knownTokens ?? capped.originalTokens ?? capped.tokens) - capped.tokens, entries: [event.tool_call_id], reason: `max_result_tokens ${fmt(route.maxResultTokens)}` });
      }
      content = capped.content;
      tokens = capped.tokens;
    } else {
      tokens = knownTokens ?? this.ctx.count(content);
    }
    if (byteCap && byteCap.tokens > 0) byteCap.tokens = Math.max(0, byteCap.tokens - tokens);
    this.baseline.add(tokens);
    const call = this.calls.get(event.tool_call_id);
    const path = call?.arguments.path;
    const entry: Entry = {
      seq: this.seq++, content, tokens, kind: 'tool_result', toolCallId: event.tool_call_id, toolName: event.tool_name,
      ...(typeof path === 'string' ? { key: path } : {}),
      ...(event.is_error ? { isError: true } : {}),
    };
    if (typeof path === 'string') this.trackFile(event.tool_name, path, tokens, event.is_error === true, route.region);
    let target = this.layout.find((r) => r.name === route.region);
    if (!target) {
      this.warnings.push(`${event.tool_name} result routed to ${route.region}, which stage ${this.stage.name} does not carry; it went to tool_results`);
      target = this.regions.get('tool_results')!;
    }
    if (MESSAGE_REGION_NAMES.has(target.name) || target.section === 'messages') {
      const outcome = this.writeTo(target.name, entry);
      if (!outcome.ok) return { ok: false, message: outcome.message };
      return { ok: true, message: `${fmt(tokens)} tokens to ${target.name}${tooBigToStay(target, tokens)}` };
    }
    // Routed away: the content lives in its region and a stub keeps the call paired.
    const placed = target.keyed && entry.key === undefined ? { ...entry, key: `${event.tool_name}:${event.tool_call_id}` } : entry;
    // A refusal here is what the call's result says, so the model reads it.
    const outcome = this.store(target.name, placed, false);
    // The size the region kept (after a custom region's on_write), in the stub's one shape.
    const stub = outcome.ok ? `[routed to ${target.name}: ${fmt(outcome.stored ?? tokens)} tokens]` : outcome.message;
    this.writeTo('tool_results', { seq: this.seq++, content: stub, tokens: this.ctx.count(stub), kind: 'stub', toolCallId: event.tool_call_id, toolName: event.tool_name });
    return outcome.ok ? { ok: true, message: stub } : { ok: false, message: outcome.message };
  }

  /**
   * `[context.file_tracking]`: one entry per file the agent read, wrote or edited, keyed by path,
   * rewritten on every touch, so the hashmap says what the agent has seen without holding content.
   */
  private trackFile(toolName: string, path: string, tokens: number, failed: boolean, routedTo: string): void {
    const tracking = this.blueprint.fileTracking;
    const verb = lookupTool(FILE_TOOLS, toolName);
    // A result routed into the tracking region is already there under its path.
    if (!tracking?.enabled || tracking.region === undefined || verb === undefined || tracking.region === routedTo) return;
    const region = this.regions.get(tracking.region);
    if (!region) return;
    const content = failed ? `${path}: ${verb} failed` : `${path}: ${verb}${verb === 'read' ? ` (${fmt(tokens)} tokens)` : ''}`;
    this.writeTo(region.name, { seq: this.seq++, content, tokens: this.ctx.count(content), kind: 'text', key: path });
  }

  private append(name: string, content: string, key: string | undefined): StepResult {
    const region = this.visibleRegion(name);
    if (typeof region === 'string') return { ok: false, message: region };
    if (region.keyed && key === undefined) {
      return { ok: false, message: `${name} is a ${region.kind} region whose entries are keyed: give the entry a key (context_append { region: "${name}", key: "...", content })` };
    }
    const entry = this.textEntry(content, key);
    // The agent's own write: a refusal is its result, which tells it the region is full.
    const outcome = this.store(name, entry, key !== undefined);
    if (!outcome.ok) return { ok: false, message: outcome.message };
    return { ok: true, message: `appended ${storedSize(entry.tokens, outcome.stored)} to ${name}${key === undefined ? '' : ` as "${key}"`}; ${this.fullness(region)}` };
  }

  private delete(name: string, selector: DeleteSelector): StepResult {
    const region = this.visibleRegion(name);
    if (typeof region === 'string') return { ok: false, message: region };
    if (!region.removable || name === 'stage_instructions') {
      return { ok: false, message: `${name} is pinned: its entries are never removed` };
    }
    const outcome = region.remove(selector);
    if (!outcome.ok) return { ok: false, message: outcome.message };
    this.changes.push(outcome.change);
    const n = outcome.change.entries.length;
    return { ok: true, message: `deleted ${n} entr${n === 1 ? 'y' : 'ies'} (${fmt(outcome.change.tokens)} tokens) from ${name}; ${this.fullness(region)}` };
  }

  private list(name: string): StepResult {
    const region = this.visibleRegion(name);
    if (typeof region === 'string') return { ok: false, message: region };
    const lines = region.entries.map((e, i) => `${i}: ${entryLabel(e)} (${fmt(e.tokens)} tokens)`);
    return { ok: true, message: [`${name} (${region.kind}): ${region.entries.length} entries; ${this.fullness(region)}`, ...lines].join('\n') };
  }

  private todo(name: string, act: (checklist: Checklist) => TodoOutcome): StepResult {
    const region = this.visibleRegion(name);
    if (typeof region === 'string') return { ok: false, message: region };
    const checklist = region.checklist;
    if (!checklist) return { ok: false, message: `${name} is a ${region.kind} region, not a checklist: todo tools only write to checklist regions` };
    const before = region.tokens;
    const outcome = act(checklist);
    this.changes.push(...outcome.changes);
    this.ledger.charge(this.stage.name, name, region.tokens - before);
    return { ok: outcome.ok, message: outcome.message };
  }

  private transition(to: string): StepResult {
    const from = this.stage;
    const edge = findTransition(from, to);
    if (!edge) {
      const declared = from.transitions.map((t) => t.to).join(', ') || 'none';
      this.warnings.push(`transition to "${to}" ignored: stage ${from.name} declares no such transition`);
      return { ok: false, message: `stage ${from.name} has no transition to "${to}" (declared: ${declared})` };
    }
    const refusals = gateRefusals(from, edge, this.layout, this.regions);
    if (refusals.length > 0) {
      this.attempts++;
      const max = maxAttempts(from, edge);
      if (this.attempts < max) {
        const nudge = `${refusals.join(' ')} (attempt ${this.attempts} of ${max})`;
        this.message(nudge, 'user_message');
        return { ok: false, message: nudge };
      }
      // The shared attempt budget is spent: move on rather than wedge the run.
      this.warnings.push(`stage ${from.name}: gate still refused after ${max} attempts; moving on to ${to} anyway (${refusals.join(' ')})`);
    }
    this.carryHistory(from);
    if (edge.transform === 'compact') {
      for (const region of this.layout) {
        // Keyed entries would lose their keys; a reject region only loses what the agent deletes.
        if (region.keyed || region.decl.admission === 'reject') continue;
        this.changes.push(...region.compactAll(this.ctx, `edge transform compact: ${from.name} -> ${to}`));
      }
    }
    this.enterStage(this.stages.find((s) => s.name === to)!);
    const forced = refusals.length > 0 ? ' (gate not satisfied; max_attempts reached)' : '';
    return { ok: true, message: `moved from ${from.name} to ${to}${forced}` };
  }

  // ---- stages ---------------------------------------------------------------------------------

  private enterStage(stage: StageDecl): void {
    this.stage = stage;
    this.attempts = 0;
    const iteration = (this.iterations.get(stage.name) ?? 0) + 1;
    this.iterations.set(stage.name, iteration);
    this.ctx.stage = stage.name;
    this.ctx.stageIterations = iteration;
    this.stagesEntered.push(stage.name);
    const layout = stageLayout(this.blueprint, stage);
    this.layout = layout.map((decl) => this.regionFor(decl));

    // The entering stage's prompt replaces the previous one; a stage without one leaves none.
    const target = instructionsRegion(layout);
    const prompt = stage.systemPrompt ?? '';
    let promptTokens = 0;
    if (this.promptHolder !== undefined && (this.promptHolder !== target || prompt.length === 0)) {
      const holder = this.regions.get(this.promptHolder)!;
      const at = holder.entries.findIndex((e) => e.key === STAGE_PROMPT_KEY);
      if (at >= 0) holder.remove({ index: at });
    }
    this.promptHolder = undefined;
    if (prompt.length > 0) {
      const entry = this.textEntry(prompt, STAGE_PROMPT_KEY);
      promptTokens = entry.tokens;
      const region = this.regions.get(target)!;
      const outcome = region.put(entry, this.ctx);
      this.changes.push(...outcome.changes.filter((c) => c.type !== 'replace'));
      if (outcome.ok) {
        this.promptHolder = target;
        this.ledger.charge(stage.name, target, entry.tokens);
      } else {
        this.warnings.push(`stage ${stage.name}'s prompt did not fit ${target}: ${outcome.message}`);
      }
    }
    this.baseline.setSystem(promptTokens);
  }

  /** The region for `decl` in the entering stage: kept (re-sized if its declaration differs) or made. */
  private regionFor(decl: RegionDecl): Region {
    const existing = this.regions.get(decl.name);
    if (!existing) return this.createRegion(decl);
    if (existing.decl === decl) return existing;
    if (existing.kind === decl.kind) {
      this.changes.push(...existing.redeclare(decl, resolveBudget(decl, this.model.window), this.ctx));
      return existing;
    }
    // A different kind under the same name: the content moves into the new kind, by its rules.
    const fresh = this.createRegion(decl);
    for (const entry of existing.entries) {
      const outcome = fresh.write(entry, this.ctx);
      this.changes.push(...outcome.changes);
    }
    return fresh;
  }

  private createRegion(decl: RegionDecl): Region {
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

  /** compact_history regions take one summary of their source region as the stage ends. */
  private carryHistory(from: StageDecl): void {
    for (const region of this.regions.values()) {
      if (region.historySource === undefined) continue;
      const source = this.regions.get(region.historySource);
      if (!source || source.entries.length === 0) continue;
      const entry = { ...this.summaryEntry(source.entries, `${source.name} in stage ${from.name}`, this.seq++), key: `${from.name}: ${source.name}` };
      this.writeTo(region.name, entry, true);
    }
  }

  // ---- helpers --------------------------------------------------------------------------------

  /**
   * A write the runtime makes (turns, results, records, carried summaries). No agent asked for it, so
   * one a reject region refuses is a timeline warning with its size and the region's fill.
   */
  private writeTo(name: string, entry: Entry, keyed = false) {
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

  private store(name: string, entry: Entry, keyed: boolean) {
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

  private visibleRegion(name: string): Region | string {
    const region = this.layout.find((r) => r.name === name);
    if (region) return region;
    const names = this.layout.map((r) => r.name).join(', ');
    if (this.regions.has(name)) return `region ${name} is not part of stage ${this.stage.name}'s layout (visible: ${names})`;
    return `no region named "${name}" (stage ${this.stage.name} has: ${names})`;
  }

  private visibleNames(): Set<string> {
    return new Set(this.layout.map((r) => r.name));
  }

  private fullness(region: Region): string {
    return `${region.name} now holds ${fmt(region.tokens)} of ${fmt(region.budget.budget)} tokens`;
  }

  private textEntry(content: string, key: string | undefined): Entry {
    const entry: Entry = { seq: this.seq++, content, tokens: this.ctx.count(content), kind: 'text' };
    return key === undefined ? entry : { ...entry, key };
  }

  private summaryEntry(entries: readonly Entry[], label: string, seq: number): Entry {
    const content = summarize(entries, label);
    let folded = 0;
    let foldedTokens = 0;
    for (const e of entries) {
      folded += e.folded?.entries ?? 1;
      foldedTokens += e.folded?.tokens ?? e.tokens;
    }
    return { seq, content, tokens: this.ctx.count(content), kind: 'summary', folded: { entries: folded, tokens: foldedTokens } };
  }

  private taskInWindow(): boolean {
    if (this.taskEntries.length === 0) return false;
    const visible = this.visibleNames();
    return this.taskEntries.every(({ region, entry }) => visible.has(region) && this.regions.get(region)!.entries.includes(entry));
  }
}

function selectorOf(event: Extract<TrafficEvent, { type: 'context_delete' }>): DeleteSelector {
  if (event.key !== undefined) return { key: event.key };
  if (event.index !== undefined) return { index: event.index };
  return { oldest: event.oldest! };
}

// ---- building a run ---------------------------------------------------------------------------

export type Prepared = { run: Run; diagnostics: Diagnostic[] } | { run?: undefined; diagnostics: Diagnostic[]; model?: Model };

/** Compiles, resolves the model, generates traffic and spawns. Never throws on bad input. */
export function prepare(scenario: Scenario, options: ReplayOptions = {}): Prepared {
  const resolved = resolveModel(scenario.model);
  if (!resolved.ok) return { diagnostics: [diagnostic('unknown-model', resolved.error, 'scenario.json', 'model.id')] };
  const model = resolved.model;
  const compiled = validateScenario(scenario, options);
  if (!compiled.blueprint || compiled.diagnostics.some((d) => d.severity === 'error')) {
    const diagnostics = compiled.diagnostics.length ? compiled.diagnostics : [diagnostic('blueprint-invalid', 'the blueprint could not be compiled', 'agent.leviath')];
    return { diagnostics, model };
  }
  let events: TrafficEvent[] = scenario.traffic;
  if (scenario.generator) {
    if (!options.generate) {
      return { diagnostics: [...compiled.diagnostics, diagnostic('generator-unavailable', `scenario.generator (${scenario.generator.kind}) needs a traffic generator, and this replay was given none (ReplayOptions.generate)`, 'scenario.json', 'generator')], model };
    }
    try {
      events = [...options.generate(scenario.generator), ...scenario.traffic];
    } catch (error) {
      const message = `scenario.generator could not make traffic: ${error instanceof Error ? error.message : String(error)}`;
      return { diagnostics: [...compiled.diagnostics, diagnostic('generator-invalid', message, 'scenario.json', 'generator')], model };
    }
  }
  const run = new Run(model, compiled.blueprint, events, scenario);
  const spawnErrors = run.spawn(options);
  if (spawnErrors.length) return { diagnostics: [...compiled.diagnostics, ...spawnErrors], model };
  const snapshots = events.length * run.regions.size;
  if (snapshots > MAX_REGION_SNAPSHOTS) {
    const message = `this run would record ${fmt(events.length)} events × ${fmt(run.regions.size)} regions = ${fmt(snapshots)} region snapshots; `
      + `the playground records at most ${fmt(MAX_REGION_SNAPSHOTS)} (about 0.5 GB). Use fewer events or fewer regions.`;
    return { diagnostics: [...compiled.diagnostics, diagnostic('run-too-large', message, 'scenario.json', 'traffic')], model };
  }
  return { run, diagnostics: compiled.diagnostics };
}

export function emptyTimeline(scenario: Scenario, diagnostics: Diagnostic[], model?: Model): Timeline {
  return {
    scenario: scenario.name,
    model: model ? { id: model.id, window: model.window, encoding: model.encoding, approximate: model.approximate } : { id: 'unknown', window: 0, encoding: 'o200k_base', approximate: true },
    regions: [], stages: [], diagnostics, warnings: [], spawn: { regions: {}, changes: [] }, steps: [],
    summary: {
      steps: 0, inferences: 0, finalStage: '', stagesEntered: [], peakRequestTokens: 0, meanPrefixShare: 0,
      changes: emptyChangeTotals(), baselineLosesTaskAt: null, taskLostAt: null, ledger: nameTable(), warnings: 0,
    },
    cancelled: false,
  };
}

export function replay(scenario: Scenario, options: ReplayOptions = {}): Timeline {
  return replayPrepared(scenario, prepare(scenario, options), options);
}

/** Runs a prepared scenario to its end; `onStep` sees the run after each event (the page's inspector keeps what it needs). */
export function replayPrepared(scenario: Scenario, prepared: Prepared, options: ReplayOptions, onStep?: (run: Run, step: TimelineStep) => void): Timeline {
  if (!prepared.run) return emptyTimeline(scenario, prepared.diagnostics, prepared.model);
  const run = prepared.run;
  const spawn = { regions: run.figures(), changes: run.spawnChanges };
  const steps: TimelineStep[] = [];
  const total = run.events.length;
  let cancelled = false;
  while (!run.done) {
    if (options.signal?.cancelled || options.signal?.aborted) { cancelled = true; break; }
    const step = run.step();
    steps.push(step);
    onStep?.(run, step);
    if (options.onProgress && (steps.length % 100 === 0 || run.done)) options.onProgress(steps.length, total);
  }
  return buildTimeline(scenario, run, prepared.diagnostics, spawn, steps, cancelled);
}

function buildTimeline(scenario: Scenario, run: Run, diagnostics: Diagnostic[], spawn: Timeline['spawn'], steps: TimelineStep[], cancelled: boolean): Timeline {
  const changes = emptyChangeTotals();
  let inferences = 0;
  let peak = 0;
  let shareSum = 0;
  let baselineLosesTaskAt: number | null = null;
  let taskLostAt: number | null = null;
  let warnings = run.runWarnings.length;
  for (const step of steps) {
    warnings += step.warnings.length;
    for (const c of step.changes) { changes[c.type].count++; changes[c.type].tokens += c.tokens; }
    const r = step.request;
    if (!r) continue;
    inferences++;
    peak = Math.max(peak, r.requestTokens);
    if (r.inference > 0) shareSum += r.prefixShare;
    if (baselineLosesTaskAt === null && !r.taskInBaselineWindow && scenario.inputs.task !== undefined) baselineLosesTaskAt = r.inference;
    if (taskLostAt === null && !r.taskInWindow && scenario.inputs.task !== undefined) taskLostAt = r.inference;
  }
  const regions = orderedMeta(run);
  return {
    scenario: scenario.name,
    model: { id: run.model.id, window: run.model.window, encoding: run.model.encoding, approximate: run.model.approximate },
    regions,
    stages: stagesOf(run.blueprint).map((s) => ({ name: s.name, regions: stageLayout(run.blueprint, s).map((d) => d.name) })),
    diagnostics,
    warnings: run.runWarnings,
    spawn,
    steps,
    summary: {
      steps: steps.length, inferences, finalStage: run.stage.name, stagesEntered: run.stagesEntered,
      peakRequestTokens: peak, meanPrefixShare: inferences > 1 ? shareSum / (inferences - 1) : 0,
      changes, baselineLosesTaskAt, taskLostAt, ledger: run.ledger.byStage, warnings,
    },
    cancelled,
  };
}

/** Region metadata in the first stage's send order (system blocks, then message regions), then the rest. */
function orderedMeta(run: Run): RegionMeta[] {
  const first = stagesOf(run.blueprint)[0]!;
  const names: string[] = [];
  const firstLayout = stageLayout(run.blueprint, first).map((d) => run.regions.get(d.name)!).filter(Boolean);
  for (const r of systemOrder(firstLayout)) names.push(r.name);
  for (const r of firstLayout) if (!names.includes(r.name)) names.push(r.name);
  for (const name of run.meta.keys()) if (!names.includes(name)) names.push(name);
  return names.map((n) => run.meta.get(n)!);
}

