// `lev advise`: searches the blueprint space over the scenario's own traffic and returns a small
// Pareto front over input cost, peak request tokens and entries read again later, under the hard
// constraints (the task never leaves the window, no request over the window, required regions never
// emptied, and no call of the agent's own context tools refused that the starting layout took: the
// traffic is fixed, so a layout that refuses what the agent did would not be the same run). Pure engine code: no DOM, no Node APIs, deterministic for a seed, with progress and
// cancellation, so the page's engine worker runs the same search.
import type { Diagnostic } from '../diagnostics.ts';
import { asSentFigures, recordsItsRun, replayAsRecorded, type AsSentFigures } from '../as-recorded.ts';
import { PROVIDER_RULES } from '../cache.ts';
import { resolveModel, type Model } from '../models.ts';
import { createRandom, type Random } from '../random.ts';
import { RunNames } from '../read-again.ts';
import { keysHeld, prepare, type ReplayOptions } from '../replay.ts';
import { SharedFacts } from '../run/state.ts';
import type { Scenario, TrafficEvent } from '../scenario.ts';
import { countTokens } from '../tokens.ts';
import { itemAt } from '../item-at.ts';
import { validateScenario } from '../validate.ts';
import { BOUND_EVERY, Evaluator, type Figures, type StartFacts, type Verdict } from './evaluate.ts';
import { explain, type Without } from './explain.ts';
import { GOAL_PEAK_SHARE, GOAL_READ_AGAIN, meetsTarget } from './target.ts';
import {
  AGENT_FILE,
  buildSpace,
  FILE_TRACKING_OFF,
  genomeKey,
  normalize,
  parsesTo,
  render,
  type Edit,
  type Genome,
  type Knob,
  type Space,
} from './space.ts';

export interface AdviseOptions extends Pick<
  ReplayOptions,
  'generators' | 'runRhaiSeed' | 'checkScript' | 'loadCustomHooks' | 'compiled'
> {
  /** The search's seed: the same seed gives the same candidates and the same front. */
  seed?: number;
  /** How many candidate blueprints to judge (each validated and replayed, or stopped early). */
  candidates?: number;
  /** At most this many proposals in the front. */
  proposals?: number;
  onProgress?: (progress: AdviseProgress) => void;
  /** Set `cancelled` (or abort, for an AbortSignal) to stop: the front found so far is returned. */
  signal?: { cancelled?: boolean; aborted?: boolean };
}

export interface AdviseProgress {
  /** `search`: judging candidates; `front`: simplifying and measuring the proposals chosen. */
  phase: 'search' | 'front';
  /**
   * In the search: candidates judged of `total`; for the front: changes tried back (each a replay,
   * or the search's own verdict for that blueprint) of at most `total`.
   */
  done: number;
  total: number;
  /** Candidates on the Pareto front so far. */
  front: number;
}

/** The figures every proposal is compared against. */
export interface Reference {
  peakRequestTokens: number;
  inputCostUsd: number;
  readAgain: number;
  taskKept: boolean;
  /** `asSent`: the run as it was sent (`lev replay --as-recorded`); `start`: the starting layout's replay. */
  of: 'asSent' | 'start';
  /** What these figures are of, in words: for `asSent` the run itself, for `start` why no run is compared. */
  source: string;
  /**
   * For `asSent`: the harness overhead (system prompt, tool definitions) each as-sent request
   * carries, as calibrated on the run's first calls. A blueprint's requests do not carry it.
   */
  harnessTokens?: number;
}

export interface Proposal {
  /** The whole agent.leviath: the user's text with this proposal's edits at their keys. */
  toml: string;
  peakRequestTokens: number;
  inputCostUsd: number;
  readAgain: number;
  taskKept: boolean;
  /**
   * Whether it meets the advisor's target against the reference: a peak at most GOAL_PEAK_SHARE of
   * its peak, no more input cost, the task kept and at most GOAL_READ_AGAIN entries read again
   * (issue 29's goal). The front lists these first.
   */
  meetsTarget: boolean;
  /** One sentence per change, saying what it changes and why. */
  changes: string[];
  /** The edits themselves: key paths and values, as set or removed. */
  edits: Edit[];
  meanPrefixShare: number;
  /** Share of the input tokens the provider would read from cache. */
  cacheReadShare: number;
  /** What `lev validate` says of it: only findings the starting blueprint already had. */
  diagnostics: Diagnostic[];
}

export interface Advice {
  asRecorded: Reference;
  front: Proposal[];
  /** The price table the costs come from, with the date it was checked. */
  prices: { model: string; provider: string; source: string; checked: string } | null;
  search: {
    seed: number;
    /** Candidates judged: replayed to the end, or stopped once they could not win or broke a constraint. */
    judged: number;
    replayed: number;
    /** Stopped before the end: it could no longer beat a known candidate, or (`raced`, counted in it too) it was clearly behind one. */
    stoppedEarly: number;
    raced: number;
    infeasible: number;
    /** Refused by the validator (an error, or a finding the start does not have). */
    invalid: number;
    /** Edits whose text did not parse to what they meant (a bug if ever above 0; never shown). */
    editsRefused: number;
    knobs: number;
    /** Replays spent putting back the changes a chosen proposal did not need (not counted in `judged`). */
    simplifying: number;
    /** Such blueprints the search had already run to a verdict: their figures are taken, not replayed again. */
    reused: number;
    cancelled: boolean;
  };
  /** When the starting blueprint cannot run: why, and no front. */
  diagnostics: Diagnostic[];
}

export const DEFAULT_CANDIDATES = 240;
export const DEFAULT_PROPOSALS = 6;

interface Judged {
  genome: Genome;
  key: string;
  figures: Figures;
  /** Its figures so far at every BOUND_EVERY steps (evaluate.ts), for racing later candidates. */
  trail: Float64Array;
  text: string;
  diagnostics: Diagnostic[];
  /** For a chosen proposal: each change's knob, and the proposal replayed without it. */
  without?: Map<number, Without>;
}

/**
 * The figures proposals are compared with: for a scenario that records its run (an imported trace
 * with the provider's usage), the run as it was sent (the as-sent replay, `lev replay
 * --as-recorded`); for any other, the starting layout's own. The one place that choice is made.
 */
export function referenceOf(start: Figures, asSent?: AsSentFigures): Reference {
  if (asSent)
    return {
      peakRequestTokens: asSent.peakRequestTokens,
      inputCostUsd: asSent.inputCostUsd ?? 0,
      readAgain: asSent.readAgain,
      taskKept: asSent.taskKept,
      of: 'asSent',
      source: `the run as it was sent, replayed from its records over ${asSent.inferences} calls`,
      harnessTokens: asSent.harnessTokens,
    };
  return {
    peakRequestTokens: start.peakRequestTokens,
    inputCostUsd: start.inputCostUsd,
    readAgain: start.readAgain,
    taskKept: start.taskKept,
    of: 'start',
    source: 'this scenario records no run as it was sent',
  };
}

/** The as-sent run's figures, for a scenario that records its run. */
function asSentOf(scenario: Scenario, model: Model, names: RunNames): AsSentFigures | undefined {
  if (!recordsItsRun(scenario)) return undefined;
  const timeline = replayAsRecorded(scenario);
  if (timeline.error) return undefined;
  return asSentFigures(timeline, model, names, scenario.inputs.task !== undefined);
}

const sameFigures = (a: Figures, b: Figures): boolean =>
  a.peakRequestTokens === b.peakRequestTokens && a.inputCostUsd === b.inputCostUsd && a.readAgain === b.readAgain;

const changeCount = (space: Space, genome: Genome): number => genome.filter((v, i) => v !== space.start[i]).length;

/**
 * Racing: from this share of the traffic on, a candidate stops once its figures so far are clearly
 * behind a known candidate's at the same step on all three measures (peak and input cost at least
 * RACE_MARGIN above, no fewer read again). The three measures only grow, but a candidate behind
 * early could still catch up later, so this is a judgement, not a proof: it is what lets most
 * candidates that lose stop well before the end (the proof above, against final figures, only
 * stops them in the last few steps). Proposals are always replayed to the end.
 */
const RACE_FROM = 0.25;
const RACE_MARGIN = 1.05;

function behind(trail: Float64Array, step: number, partial: Figures): boolean {
  const at = ((step + 1) / BOUND_EVERY - 1) * 3;
  if (at < 0 || at + 2 >= trail.length) return false;
  return (
    partial.peakRequestTokens >= itemAt(trail, at) * RACE_MARGIN &&
    partial.inputCostUsd >= itemAt(trail, at + 1) * RACE_MARGIN &&
    partial.readAgain >= itemAt(trail, at + 2)
  );
}

/** `a` is no worse than `b` on all three measures: `b` can add nothing `a` does not already give. */
const covers = (a: Figures | Reference, b: Figures): boolean =>
  a.peakRequestTokens <= b.peakRequestTokens && a.inputCostUsd <= b.inputCostUsd && a.readAgain <= b.readAgain;

export function advise(scenario: Scenario, options: AdviseOptions = {}): Advice {
  const seed = options.seed ?? 1;
  const budget = options.candidates ?? DEFAULT_CANDIDATES;
  const stats = {
    seed,
    judged: 0,
    replayed: 0,
    stoppedEarly: 0,
    raced: 0,
    infeasible: 0,
    invalid: 0,
    editsRefused: 0,
    knobs: 0,
    simplifying: 0,
    reused: 0,
    cancelled: false,
  };
  const empty = (diagnostics: Diagnostic[]): Advice => ({
    asRecorded: {
      peakRequestTokens: 0,
      inputCostUsd: 0,
      readAgain: 0,
      taskKept: false,
      of: 'start',
      source: 'it cannot run',
    },
    front: [],
    prices: null,
    search: stats,
    diagnostics,
  });

  const resolved = resolveModel(scenario.model);
  if (!resolved.ok)
    return empty([
      {
        code: 'unknown-model',
        severity: 'error',
        message: resolved.error,
        file: 'scenario.json',
        line: 1,
        column: 1,
        path: 'model.id',
      },
    ]);
  const model = resolved.model;
  // The traffic is made once: every candidate replays the same events.
  const events = trafficOf(scenario, options);
  if ('diagnostics' in events) return empty(events.diagnostics);
  const fixed: Scenario = { ...scenario, generator: undefined, traffic: events.events };
  // Every candidate replays the same events: what a run learns about them (token counts, results cut
  // by a ceiling) is learned once.
  const replayOptions = {
    runRhaiSeed: options.runRhaiSeed,
    checkScript: options.checkScript,
    loadCustomHooks: options.loadCustomHooks,
    shared: new SharedFacts({ keepCaps: true }),
  };
  // The caller's compile of this scenario when it has one (the worker compiles first to learn
  // whether the scenario needs Rhai): compiling depends on the blueprint and inputs, not traffic.
  const startCompiled = options.compiled ?? validateScenario(fixed, replayOptions);
  const startPrepared = prepare(fixed, { ...replayOptions, compiled: startCompiled });
  if (!startPrepared.run) return empty(startPrepared.diagnostics);
  const names = new RunNames(events.events, keysHeld(startPrepared.run));

  const startText = scenario.agent[AGENT_FILE]!;
  const probe = new Evaluator(fixed, replayOptions, names, startCompiled.diagnostics);
  const started = probe.startRun(startText, startCompiled);
  if ('why' in started || started.verdict.status !== 'ok') {
    const why = 'why' in started ? started.why : 'the starting blueprint did not run to the end';
    return empty([
      {
        code: 'advise-start-failed',
        severity: 'error',
        message: `the starting blueprint cannot be replayed: ${why}`,
        file: 'scenario.json',
        line: 1,
        column: 1,
        path: '',
      },
    ]);
  }
  const start = { figures: started.verdict.figures, facts: started.facts, trail: started.verdict.trail };
  const reference = referenceOf(start.figures, asSentOf(fixed, model, names));
  // A candidate no better than the reference or than the starting layout (the user's own, which
  // may beat the run as it was sent) on all three measures has nothing to offer.
  const known = (f: Figures): boolean => covers(reference, f) || covers(start.figures, f);
  const evaluator = new Evaluator(fixed, replayOptions, names, startCompiled.diagnostics, start.facts);
  const space = buildSpace(
    startText,
    started.blueprint,
    events.events,
    model.window,
    (e) => e.size_tokens ?? countTokens(e.content ?? '', model.encoding),
  );
  stats.knobs = space.knobs.length;

  const seen = new Set<string>([genomeKey(space.start)]);
  // Every candidate's verdict that does not depend on when it was stopped (run to the end, broke a
  // constraint, refused by the validator), by genome: the front's simplifying replays of a
  // blueprint the search already ran take its figures instead of running it again.
  const finals = new Map<string, Verdict>();
  const archive: Judged[] = [];
  const random = createRandom(seed);
  const cancelled = () => Boolean(options.signal?.cancelled || options.signal?.aborted);

  const judge = (raw: Genome): void => {
    const genome = normalize(space, raw);
    const key = genomeKey(genome);
    if (seen.has(key)) return;
    seen.add(key);
    stats.judged++;
    const made = render(space, genome);
    if (!parsesTo(made.text, made.expected)) {
      stats.editsRefused++;
      return;
    }
    const raceFrom = fixed.traffic.length * RACE_FROM;
    let lostRace = false;
    const verdict = evaluator.evaluate(made.text, {
      signal: options.signal,
      bound: (step, partial) => {
        if (known(partial) || archive.some((a) => covers(a.figures, partial))) return true;
        lostRace =
          step >= raceFrom &&
          (behind(start.trail, step, partial) || archive.some((a) => behind(a.trail, step, partial)));
        return lostRace;
      },
    });
    if (verdict.status === 'dominated' && lostRace) stats.raced++;
    if (verdict.status !== 'dominated' && verdict.status !== 'cancelled') finals.set(key, verdict);
    record(verdict, genome, key, made.text);
    options.onProgress?.({ phase: 'search', done: stats.judged, total: budget, front: archive.length });
  };

  const record = (verdict: Verdict, genome: Genome, key: string, text: string): void => {
    switch (verdict.status) {
      case 'cancelled':
        stats.cancelled = true;
        return;
      case 'invalid':
        stats.invalid++;
        return;
      case 'infeasible':
        stats.infeasible++;
        return;
      case 'dominated':
        stats.stoppedEarly++;
        return;
      case 'ok':
        break;
    }
    stats.replayed++;
    const f = verdict.figures;
    const entry: Judged = { genome, key, figures: f, text, diagnostics: verdict.diagnostics, trail: verdict.trail };
    if (known(f)) return;
    // The same figures with fewer changes replace the proposal that had them: a knob that changes
    // nothing is not worth a sentence.
    const twin = archive.findIndex((a) => sameFigures(a.figures, f));
    if (twin >= 0) {
      if (changeCount(space, genome) < changeCount(space, itemAt(archive, twin).genome)) archive[twin] = entry;
      return;
    }
    if (archive.some((a) => covers(a.figures, f))) return;
    for (let i = archive.length - 1; i >= 0; i--) if (covers(f, itemAt(archive, i).figures)) archive.splice(i, 1);
    archive.push(entry);
  };

  for (const genome of firstMoves(space)) {
    if (stats.judged >= budget || cancelled()) break;
    judge(genome);
  }
  let misses = 0;
  // Members near the goal whose every one-knob neighbour has been queued, by genome.
  const polished = new Set<string>();
  const queued: Genome[] = [];
  while (stats.judged < budget && !cancelled() && misses < 200) {
    const before = stats.judged;
    const near = nearGoal(archive, reference);
    for (const j of near) {
      if (polished.has(j.key) || !withinReach(j.figures, reference)) continue;
      polished.add(j.key);
      // The newest such member's neighbours first: it is nearer than the one before.
      queued.unshift(...neighbours(space, j.genome));
    }
    // Every other candidate from the queue, so the search goes on exploring while it polishes.
    judge((stats.judged % 2 === 0 && queued.shift()) || offspring(space, archive, near, random));
    misses = stats.judged === before ? misses + 1 : 0;
  }
  if (cancelled()) stats.cancelled = true;

  const picked = chooseFront(archive, reference, options.proposals ?? DEFAULT_PROPOSALS);
  // Each proposal tries each of its changes back at least once (more when one goes back).
  const replays = picked.reduce((sum, j) => sum + changeCount(space, j.genome), 0);
  const progress = () =>
    options.onProgress?.({
      phase: 'front',
      done: stats.simplifying + stats.reused,
      total: Math.max(replays, stats.simplifying + stats.reused),
      front: archive.length,
    });
  const chosen = picked.map((j) =>
    cancelled() ? j : simplest(space, evaluator, finals, j, stats, options.signal, progress),
  );
  // Simplified proposals may have come to the same blueprint, or one may now cover another.
  const front = dedupe(chosen)
    .filter(
      (j, _, all) => !all.some((o) => o !== j && covers(o.figures, j.figures) && !sameFigures(o.figures, j.figures)),
    )
    .map((j) => proposal(space, start, j, reference))
    // What meets the target first, then by peak and cost: the first proposal is the one to try.
    .sort(
      (a, b) =>
        Number(b.meetsTarget) - Number(a.meetsTarget) ||
        a.peakRequestTokens - b.peakRequestTokens ||
        a.inputCostUsd - b.inputCostUsd,
    );
  return { asRecorded: reference, front, prices: pricesOf(model), search: stats, diagnostics: [] };
}

function trafficOf(
  scenario: Scenario,
  options: AdviseOptions,
): { events: TrafficEvent[] } | { diagnostics: Diagnostic[] } {
  if (!scenario.generator) return { events: scenario.traffic };
  const generate = options.generators?.[scenario.generator.kind];
  const fail = (message: string) => ({
    diagnostics: [
      {
        code: 'generator-unavailable',
        severity: 'error' as const,
        message,
        file: 'scenario.json',
        line: 1,
        column: 1,
        path: 'generator',
      },
    ],
  });
  if (!generate)
    return fail(`scenario.generator names the ${scenario.generator.kind} generator, which the advisor was not given`);
  try {
    return { events: [...generate(scenario.generator), ...scenario.traffic] };
  } catch (error) {
    return fail(`scenario.generator could not make traffic: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * Whole layouts that keep tool results apart from the turns, one per keyed region a tool may be
 * routed to: every routed tool into it (a result read again replaces its older copy, keyed by its
 * file or its call), the region given a third or half of the window, and the conversation kept
 * short and let go in chunks. A turn then leaves without taking its results, which the run names
 * again long after (Codex re-reads and edits the same files all run long). No single knob's move
 * reaches such a layout, and few random walks do.
 */
function resultsApart(space: Space): Genome[] {
  const conversation: Partial<Record<Knob['param'], number | string>> = {
    budget: 5,
    max_items: 12,
    strategy: 'bulk',
    overflow: 6,
  };
  return space.keyedTargets.flatMap((target) =>
    [35, 50].map((share) =>
      space.knobs.map((knob, i) => {
        const numeric = knob.levels.filter((v): v is number => typeof v === 'number');
        if (knob.param === 'route' && knob.levels.includes(target)) return target;
        if (knob.param === 'budget' && knob.region === target) return nearestIn(numeric, share);
        const wanted = knob.region === 'conversation' ? conversation[knob.param] : undefined;
        if (typeof wanted === 'number' && numeric.length) return nearestIn(numeric, wanted);
        if (wanted !== undefined && knob.levels.includes(wanted)) return wanted;
        return itemAt(space.start, i);
      }),
    ),
  );
}

/**
 * The first candidates: each knob moved alone from the start to a few values (a budget or max_items
 * to about a half and a quarter; a sliding window into chunks of two sizes; a cap at the two levels
 * below the largest result; each other route and kind), so the search learns early which knobs
 * matter before it combines them; then the whole layouts of `resultsApart`.
 */
function firstMoves(space: Space): Genome[] {
  const out: Genome[] = [];
  const withValue = (i: number, value: Genome[number], also?: [number, Genome[number]]): Genome => {
    const g = space.start.slice();
    g[i] = value;
    if (also) g[also[0]] = also[1];
    return g;
  };
  space.knobs.forEach((knob, i) => {
    const start = knob.start;
    const numeric = knob.levels.filter((v): v is number => typeof v === 'number');
    switch (knob.param) {
      case 'budget':
      case 'max_items':
        if (typeof start === 'number')
          for (const f of [0.5, 0.25]) out.push(withValue(i, nearestIn(numeric, start * f)));
        else out.push(withValue(i, nearestIn(numeric, knob.param === 'max_items' ? 6 : 5)));
        break;
      case 'strategy': {
        const chunk = space.knobs.findIndex((k) => k.region === knob.region && k.param === 'overflow');
        for (const value of knob.levels) {
          if (value === start) continue;
          if (value === 'bulk' && chunk >= 0)
            for (const size of [5, 20])
              out.push(withValue(i, value, [chunk, nearestIn(itemAt(space.knobs, chunk).levels, size)]));
          else out.push(withValue(i, value));
        }
        break;
      }
      case 'compact_at':
        for (const v of [50, 80]) if (v !== start) out.push(withValue(i, v));
        break;
      case 'cap':
        for (const v of numeric.slice(-2)) out.push(withValue(i, v));
        break;
      case 'kind':
      case 'route':
        for (const v of knob.levels) if (v !== start && v !== null) out.push(withValue(i, v));
        break;
      case 'file_tracking':
        out.push(withValue(i, FILE_TRACKING_OFF));
        break;
      default:
        break;
    }
  });
  out.push(...resultsApart(space));
  return out;
}

function nearestIn(levels: readonly Genome[number][], target: number): number {
  const numeric = levels.filter((v): v is number => typeof v === 'number');
  return numeric.reduce((best, v) => (Math.abs(v - target) < Math.abs(best - target) ? v : best), itemAt(numeric, 0));
}

/**
 * The members of the front nearest the goal from either side, at no more input cost than the
 * reference with the task kept: the fewest read again among those within the goal's peak, and the
 * lowest peak among those within its read again. The search mutates them more often than the rest,
 * so it explores where a proposal would meet the goal (issue 29.5).
 */
function nearGoal(archive: readonly Judged[], reference: Reference): Judged[] {
  let fewest: Judged | undefined;
  let lowest: Judged | undefined;
  for (const j of archive) {
    const f = j.figures;
    if (f.inputCostUsd > reference.inputCostUsd || !f.taskKept) continue;
    if (
      f.peakRequestTokens <= GOAL_PEAK_SHARE * reference.peakRequestTokens &&
      (!fewest || f.readAgain < fewest.figures.readAgain)
    )
      fewest = j;
    if (f.readAgain <= GOAL_READ_AGAIN && (!lowest || f.peakRequestTokens < lowest.figures.peakRequestTokens))
      lowest = j;
  }
  return [fewest, lowest].filter((j): j is Judged => j !== undefined);
}

/** How far past the goal's peak (as a share of it) a member may be and still be polished. */
const REACH = 1.05;

/**
 * A member that misses the target by a little on one measure and meets it on the others: a peak at
 * most 5% over the goal's, or one or two entries read again more than it allows.
 */
function withinReach(f: Figures, reference: Reference): boolean {
  if (meetsTarget(f, reference) || !f.taskKept || f.inputCostUsd > reference.inputCostUsd) return false;
  const peak = GOAL_PEAK_SHARE * reference.peakRequestTokens;
  return (
    (f.readAgain <= GOAL_READ_AGAIN && f.peakRequestTokens <= REACH * peak) ||
    (f.peakRequestTokens <= peak && f.readAgain <= GOAL_READ_AGAIN + 2)
  );
}

/**
 * Every genome one knob away from `genome`: each knob at the level below and the level above (a
 * choice knob at each other value). Tried around a member within reach of the goal: a
 * proposal 1% over the goal's peak is often one knob's step from it (shell-ws: the conversation's
 * `max_items` from 12 to 8 takes its peak from 118,821 tokens to 117,633, under 0.6x of 196,378),
 * which random moves of one to three knobs among twenty reach rarely.
 */
function neighbours(space: Space, genome: Genome): Genome[] {
  const out: Genome[] = [];
  space.knobs.forEach((knob, i) => {
    const now = knob.levels.indexOf(itemAt(genome, i));
    const numeric = knob.levels.some((v) => typeof v === 'number');
    const values = numeric
      ? [knob.levels[now - 1], knob.levels[now + 1]].filter((v) => v !== undefined)
      : knob.levels.filter((v) => v !== itemAt(genome, i));
    for (const value of values) {
      const g = genome.slice();
      g[i] = value;
      out.push(g);
    }
  });
  return out;
}

/**
 * A new candidate from the front so far: a member (half the time one of `near`, the members
 * nearest the goal; sometimes crossed with another, knob by knob), then one to three knobs moved,
 * mostly to a neighbouring value.
 */
function offspring(space: Space, archive: readonly Judged[], near: readonly Judged[], random: Random): Genome {
  const parent =
    near.length && random.chance(0.5)
      ? random.pick(near).genome
      : archive.length
        ? random.pick(archive).genome
        : space.start;
  let child = parent.slice();
  if (archive.length > 1 && random.chance(0.4)) {
    const other = random.pick(archive).genome;
    child = child.map((v, i) => (random.chance(0.5) ? v : itemAt(other, i)));
  }
  const moves = 1 + random.weighted([5, 3, 2]);
  for (let m = 0; m < moves; m++) {
    // Some moves put a changed knob back as it was, so simpler proposals keep being tried.
    const changed = child.flatMap((v, i) => (v !== space.start[i] ? [i] : []));
    if (changed.length && random.chance(0.25)) {
      const back = random.pick(changed);
      child[back] = itemAt(space.start, back);
      continue;
    }
    const at = random.int(0, space.knobs.length - 1);
    const levels = itemAt(space.knobs, at).levels;
    const now = levels.indexOf(itemAt(child, at));
    const numeric = levels.some((v) => typeof v === 'number');
    if (numeric && now >= 0 && random.chance(0.75)) {
      const step = (random.chance(0.5) ? -1 : 1) * random.int(1, 2);
      child[at] = itemAt(levels, Math.min(levels.length - 1, Math.max(0, now + step)));
    } else {
      child[at] = random.pick(levels);
    }
  }
  return child;
}

/**
 * A small front: the proposal that meets the goal best (the lowest peak at no more input cost and at
 * most GOAL_READ_AGAIN entries read again; failing that, no more read again than the start), the
 * cheapest, the lowest peak, the fewest read again, then the ones farthest from those chosen.
 */
function chooseFront(archive: readonly Judged[], reference: Reference, size: number): Judged[] {
  const chosen: Judged[] = [];
  const add = (j: Judged | undefined) => {
    if (j && !chosen.includes(j) && chosen.length < size) chosen.push(j);
  };
  const by =
    (...keys: ((f: Figures) => number)[]) =>
    (a: Judged, b: Judged) => {
      for (const key of keys) {
        const d = key(a.figures) - key(b.figures);
        if (d !== 0) return d;
      }
      return 0;
    };
  const peak = (f: Figures) => f.peakRequestTokens;
  const cost = (f: Figures) => f.inputCostUsd;
  const again = (f: Figures) => f.readAgain;
  const cheaper = archive.filter((j) => j.figures.inputCostUsd <= reference.inputCostUsd);
  add([...cheaper.filter((j) => j.figures.readAgain <= GOAL_READ_AGAIN)].sort(by(peak, cost, again))[0]);
  add([...cheaper.filter((j) => j.figures.readAgain <= reference.readAgain)].sort(by(peak, cost, again))[0]);
  add([...archive].sort(by(cost, peak, again))[0]);
  add([...archive].sort(by(peak, cost, again))[0]);
  add([...archive].sort(by(again, peak, cost))[0]);
  const scale = (j: Judged) => [
    j.figures.peakRequestTokens / Math.max(1, reference.peakRequestTokens),
    j.figures.inputCostUsd / Math.max(1e-9, reference.inputCostUsd),
    j.figures.readAgain / Math.max(1, reference.readAgain),
  ];
  while (chosen.length < Math.min(size, archive.length)) {
    let best: Judged | undefined;
    let bestDistance = -1;
    for (const j of archive) {
      if (chosen.includes(j)) continue;
      const p = scale(j);
      const distance = Math.min(...chosen.map((c) => scale(c).reduce((s, v, k) => s + (v - itemAt(p, k)) ** 2, 0)));
      if (distance > bestDistance) {
        best = j;
        bestDistance = distance;
      }
    }
    add(best);
  }
  return chosen.sort((a, b) => by(peak, cost, again)(a, b));
}

function proposal(
  space: Space,
  start: { figures: Figures; facts: StartFacts },
  j: Judged,
  reference: Reference,
): Proposal {
  const f = j.figures;
  return {
    toml: j.text,
    peakRequestTokens: f.peakRequestTokens,
    inputCostUsd: f.inputCostUsd,
    readAgain: f.readAgain,
    taskKept: f.taskKept,
    meetsTarget: meetsTarget(f, reference),
    changes: explain(space, start.facts, j.genome, f, j.without ?? new Map()),
    edits: render(space, j.genome).edits,
    meanPrefixShare: f.meanPrefixShare,
    cacheReadShare: f.inputTokens > 0 ? f.cacheReadTokens / f.inputTokens : 0,
    diagnostics: j.diagnostics,
  };
}

/**
 * The proposal with each change it does not need put back, and each remaining change's reason: the
 * proposal replayed without it. A change whose absence gives figures at least as good on all three
 * measures goes back to the starting value, and the others are tried again against what is left,
 * until each remaining change is needed (each such replay is its sentence's "without it").
 */
function simplest(
  space: Space,
  evaluator: Evaluator,
  finals: Map<string, Verdict>,
  j: Judged,
  stats: Advice['search'],
  signal: AdviseOptions['signal'],
  progress: () => void,
): Judged {
  let best = j;
  for (let pass = 0; pass < space.knobs.length; pass++) {
    const without = new Map<number, Without>();
    let reverted = false;
    for (let i = 0; i < space.knobs.length && !reverted; i++) {
      if (best.genome[i] === space.start[i]) continue;
      const genome = best.genome.slice();
      genome[i] = itemAt(space.start, i);
      const tried = normalize(space, genome);
      const key = genomeKey(tried);
      const made = render(space, tried);
      if (!parsesTo(made.text, made.expected)) continue;
      let verdict = finals.get(key);
      if (verdict) stats.reused++;
      else {
        stats.simplifying++;
        verdict = evaluator.evaluate(made.text, { signal });
        if (verdict.status !== 'cancelled') finals.set(key, verdict);
      }
      progress();
      if (verdict.status === 'cancelled') return { ...best, without };
      if (verdict.status === 'ok' && covers(verdict.figures, best.figures)) {
        best = {
          genome: tried,
          key,
          figures: verdict.figures,
          text: made.text,
          diagnostics: verdict.diagnostics,
          trail: verdict.trail,
        };
        reverted = true;
      } else if (verdict.status === 'ok') {
        without.set(i, verdict.figures);
      } else if (verdict.status === 'infeasible') {
        without.set(i, { broke: verdict.why });
      } else if (verdict.status === 'invalid') {
        without.set(i, { broke: `lev validate would refuse the blueprint (${verdict.why})` });
      }
    }
    if (!reverted) return { ...best, without };
  }
  return best;
}

/** Two proposals that came to the same blueprint once simplified are one. */
function dedupe(chosen: Judged[]): Judged[] {
  const seen = new Set<string>();
  return chosen.filter((j) => !seen.has(j.key) && Boolean(seen.add(j.key)));
}

function pricesOf(model: Model): Advice['prices'] {
  if (model.provider === 'custom') return null;
  const rule = PROVIDER_RULES[model.provider];
  return { model: model.id, provider: model.provider, source: rule.source, checked: rule.checked };
}
