// One candidate blueprint through the scenario's own traffic: validated as `lev validate` would,
// replayed by the engine's Run, and summed up as it goes (peak request, input cost, entries read
// again later) under the hard constraints. The figures are exactly the timeline's (a proposal
// replayed with `lev replay` shows the same numbers); a candidate that breaks a constraint, or can no
// longer beat what is already known, stops early, so most of a search's candidates cost less than
// a replay.
import type { CompileResult } from '../blueprint/index.ts';
import type { Blueprint } from '../blueprint/types.ts';
import type { Diagnostic } from '../diagnostics.ts';
import { nameTable } from '../names.ts';
import { ReadAgainCounter, type RunNames } from '../read-again.ts';
import { prepare, type ReplayOptions, type Run } from '../replay.ts';
import type { Scenario } from '../scenario.ts';
import type { RegionFigures } from '../timeline.ts';
import { validateScenario } from '../validate.ts';
import { AGENT_FILE } from './space.ts';

export interface Figures {
  peakRequestTokens: number;
  /** Input cost of every request under the provider's cache rules (cache.ts), in USD. */
  inputCostUsd: number;
  /** Entries dropped, summarized or cut whose path or key the run names again later. */
  readAgain: number;
  /** False when a scenario with a task sent a request without it. */
  taskKept: boolean;
  inferences: number;
  /** Input tokens of all requests, and how many of them the provider would read from cache. */
  inputTokens: number;
  cacheReadTokens: number;
  /** Mean share of each request that repeats the previous one (inferences after the first). */
  meanPrefixShare: number;
}

export type Verdict =
  /**
   * `diagnostics`: what `lev validate` says of it (findings the starting blueprint has too);
   * `trail`: its figures so far at each step the bound is asked, three numbers per step (peak,
   * input cost, read again), so later candidates can race it.
   */
  | { status: 'ok'; figures: Figures; diagnostics: Diagnostic[]; trail: Float64Array }
  /** It broke a hard constraint at `step`; the figures are as far as it got. */
  | { status: 'infeasible'; why: string; step: number; figures: Figures }
  /** The validator refused it, or gave a finding the starting blueprint does not have. */
  | { status: 'invalid'; why: string }
  /** Stopped once its figures so far were no better than a known candidate's on every measure. */
  | { status: 'dominated'; step: number; figures: Figures }
  | { status: 'cancelled' };

/** What the starting blueprint's run says that later candidates are held to, and what the advisor explains with. */
export interface StartFacts {
  /** Per required region: 1 at each step where the starting blueprint's run holds something in it. */
  required: Map<string, Uint8Array>;
  /** Each region's tokens in the starting layout's largest request. */
  atPeak: Record<string, RegionFigures>;
  /** Each region's largest size over the run. */
  held: Map<string, number>;
  /** Each region's resolved budget (the first stage that shows it). */
  budgets: Map<string, number>;
  /** 1 at each step where the agent's own context tool (context_append, todo_add, ...) succeeded. */
  agentOk: Uint8Array;
}

/** The agent's own tools: their results are what it was told, and a layout must not turn one into a refusal. */
const AGENT_TOOLS: ReadonlySet<string> = new Set([
  'context_append',
  'context_delete',
  'context_list',
  'todo_add',
  'todo_done',
  'todo_note',
]);

export interface EvaluateOptions {
  /**
   * Asked every BOUND_EVERY steps with the step and the figures so far; true stops the candidate
   * (it cannot win, or is losing a race: search.ts).
   */
  bound?: (step: number, partial: Figures) => boolean;
  signal?: { cancelled?: boolean; aborted?: boolean };
}

/** How often (in steps) a running candidate is held against the bound. */
export const BOUND_EVERY = 8;

export class Evaluator {
  private readonly knownFindings: Set<string>;

  /**
   * `scenario` has its traffic spelled out (the advisor generates it once); `startDiagnostics` are
   * the starting blueprint's findings, which a candidate may keep but not add to.
   */
  constructor(
    private readonly scenario: Scenario,
    private readonly options: Pick<ReplayOptions, 'runRhaiSeed' | 'checkScript' | 'loadCustomHooks' | 'shared'>,
    private readonly names: RunNames,
    startDiagnostics: readonly Diagnostic[],
    private readonly start?: StartFacts,
  ) {
    this.knownFindings = new Set(startDiagnostics.map(findingId));
  }

  /** The scenario with `text` as its agent.leviath. */
  scenarioWith(text: string): Scenario {
    return { ...this.scenario, agent: nameTable([...Object.entries(this.scenario.agent), [AGENT_FILE, text]]) };
  }

  /** Validates `text` exactly as `lev validate` does for this scenario: its blueprint, or why not. */
  check(text: string): { blueprint: Blueprint; diagnostics: Diagnostic[] } | { why: string } {
    const compiled = validateScenario(this.scenarioWith(text), {
      runRhaiSeed: this.options.runRhaiSeed,
      checkScript: this.options.checkScript,
    });
    const errors = compiled.diagnostics.filter((d) => d.severity === 'error');
    if (!compiled.blueprint || errors.length)
      return {
        why: `lev validate: ${errors.map((d) => `${d.code} at ${d.path || d.file}`).join('; ') || 'does not compile'}`,
      };
    const added = compiled.diagnostics.filter((d) => !this.knownFindings.has(findingId(d)));
    if (added.length)
      return {
        why: `lev validate: new ${added.map((d) => `${d.severity} ${d.code} at ${d.path || d.file}`).join('; ')}`,
      };
    return { blueprint: compiled.blueprint, diagnostics: compiled.diagnostics };
  }

  evaluate(text: string, options: EvaluateOptions = {}): Verdict {
    const scenario = this.scenarioWith(text);
    const checked = this.check(text);
    if ('why' in checked) return { status: 'invalid', why: checked.why };
    const prepared = prepare(scenario, { ...this.options, compiled: checked });
    if (!prepared.run)
      return {
        status: 'invalid',
        why: prepared.diagnostics
          .filter((d) => d.severity === 'error')
          .map((d) => d.message)
          .join('; '),
      };
    return this.runToEnd(prepared.run, scenario, options, checked.diagnostics);
  }

  /**
   * The starting blueprint's run: its figures, and what later candidates are held to (its required
   * regions' fill) and explained with (its regions at the peak). `compiled`: `text` as this
   * scenario's blueprint, compiled already. Undefined when it cannot run.
   */
  startRun(
    text: string,
    compiled: CompileResult,
  ): { verdict: Verdict; facts: StartFacts; blueprint: Blueprint } | { why: string } {
    const scenario = this.scenarioWith(text);
    if (!compiled.blueprint || compiled.diagnostics.some((d) => d.severity === 'error')) {
      return {
        why:
          compiled.diagnostics
            .filter((d) => d.severity === 'error')
            .map((d) => `${d.path || d.file}: ${d.message}`)
            .join('; ') || 'the blueprint does not compile',
      };
    }
    const prepared = prepare(scenario, { ...this.options, compiled });
    if (!prepared.run)
      return {
        why: prepared.diagnostics
          .filter((d) => d.severity === 'error')
          .map((d) => d.message)
          .join('; '),
      };
    const facts: StartFacts = {
      required: new Map(),
      atPeak: {},
      held: new Map(),
      budgets: new Map(),
      agentOk: new Uint8Array(prepared.run.events.length),
    };
    for (const meta of prepared.run.meta.values()) facts.budgets.set(meta.name, meta.budget);
    const verdict = this.runToEnd(prepared.run, scenario, {}, compiled.diagnostics, facts);
    return { verdict, facts, blueprint: compiled.blueprint };
  }

  private runToEnd(
    run: Run,
    scenario: Scenario,
    options: EvaluateOptions,
    diagnostics: Diagnostic[],
    record?: StartFacts,
  ): Verdict {
    const hasTask = scenario.inputs.task !== undefined;
    const counter = new ReadAgainCounter(this.names);
    counter.observeSpawn(run.spawnChanges);
    const figures: Figures = {
      peakRequestTokens: 0,
      inputCostUsd: 0,
      readAgain: 0,
      taskKept: true,
      inferences: 0,
      inputTokens: 0,
      cacheReadTokens: 0,
      meanPrefixShare: 0,
    };
    let shareSum = 0;
    const trail = new Float64Array(Math.floor(run.events.length / BOUND_EVERY) * 3);
    const required = requiredRegions(run);
    if (record) for (const name of required) record.required.set(name, new Uint8Array(run.events.length));
    const finish = () => {
      figures.readAgain = counter.count;
      figures.meanPrefixShare = figures.inferences > 1 ? shareSum / (figures.inferences - 1) : 0;
      return figures;
    };
    while (!run.done) {
      if (options.signal?.cancelled || options.signal?.aborted) return { status: 'cancelled' };
      const step = run.step();
      const r = step.request;
      if (r) {
        figures.inferences++;
        if (r.requestTokens > figures.peakRequestTokens) {
          figures.peakRequestTokens = r.requestTokens;
          if (record) record.atPeak = run.lastRequestRegions ?? step.regions;
        }
        figures.inputCostUsd += r.cache.inputCostUsd;
        figures.inputTokens += r.requestTokens;
        figures.cacheReadTokens += r.cache.cacheReadTokens;
        if (r.inference > 0) shareSum += r.prefixShare;
        if (hasTask && !r.taskInWindow) {
          figures.taskKept = false;
          if (!record)
            return {
              status: 'infeasible',
              why: `the task leaves the window at inference ${r.inference}`,
              step: step.index,
              figures: finish(),
            };
        }
        if (r.overWindow && !record)
          return {
            status: 'infeasible',
            why: `inference ${r.inference} is over the window (${r.requestTokens} tokens)`,
            step: step.index,
            figures: finish(),
          };
      }
      counter.observe(step);
      if (AGENT_TOOLS.has(step.event.type)) {
        const ok = step.result?.ok === true;
        if (record) record.agentOk[step.index] = ok ? 1 : 0;
        else if (!ok && this.start?.agentOk[step.index]) {
          return {
            status: 'infeasible',
            why: `the agent's ${step.event.type} at step ${step.index} is refused (${step.result?.message ?? 'no result'}), where the starting blueprint took it`,
            step: step.index,
            figures: finish(),
          };
        }
      }
      for (const name of required) {
        const f = step.regions[name];
        const holds = f !== undefined && f.visible && f.entries > 0;
        if (record) record.required.get(name)![step.index] = holds ? 1 : 0;
        else if (!holds && this.start?.required.get(name)?.[step.index]) {
          return {
            status: 'infeasible',
            why: `required region ${name} is empty at step ${step.index}, where the starting blueprint holds something in it`,
            step: step.index,
            figures: finish(),
          };
        }
      }
      if (record)
        for (const [name, f] of Object.entries(step.regions))
          record.held.set(name, Math.max(record.held.get(name) ?? 0, f.tokens));
      if (step.index % BOUND_EVERY === BOUND_EVERY - 1) {
        figures.readAgain = counter.count;
        const at = ((step.index + 1) / BOUND_EVERY - 1) * 3;
        trail[at] = figures.peakRequestTokens;
        trail[at + 1] = figures.inputCostUsd;
        trail[at + 2] = figures.readAgain;
        if (options.bound?.(step.index, figures)) return { status: 'dominated', step: step.index, figures: finish() };
      }
    }
    return { status: 'ok', figures: finish(), diagnostics, trail };
  }
}

/** Regions declared `required` in any layout. */
function requiredRegions(run: Run): string[] {
  const names = new Set<string>();
  for (const decl of run.blueprint.regions) if (decl.required) names.add(decl.name);
  for (const stage of run.blueprint.stages)
    for (const decl of stage.regions ?? []) if (decl.required) names.add(decl.name);
  return [...names];
}

const findingId = (d: Diagnostic): string => `${d.severity}\u0000${d.code}\u0000${d.path}`;
