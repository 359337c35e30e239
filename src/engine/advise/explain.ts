// One sentence per change a proposal makes: what it changes, and why, measured. Each change's "why"
// is the proposal replayed without that one change: what the three measures would have been (or the
// hard constraint it would have broken). No mechanism is claimed that the replay did not show.
import { fmt } from '../format.ts';
import { itemAt } from '../item-at.ts';
import type { RegionKind } from '../blueprint/types.ts';
import type { Figures, StartFacts } from './evaluate.ts';
import { kindIn, type Genome, type Knob, type KnobValue, type Space } from './space.ts';

/** What each kind does with what it cannot keep. */
const KIND_DOES: Partial<Record<RegionKind, string>> = {
  compacting: 'it folds its oldest entries into a summary that keeps their paths and keys',
  compact_history: 'it folds its oldest entries into a summary that keeps their paths and keys',
  sliding_window: 'it keeps its most recent entries, by count as well as by size',
  temporary: 'it drops its oldest entries when full, and is the first region the window cascade sheds',
  clearable: 'it empties in one go when a write does not fit',
  hashmap:
    'a result is kept under its file, or under the call that made it (a shell command and its arguments), and the same file or call again replaces the older copy',
};

/** A change's measured reason: the proposal's figures without it, or the constraint it would break. */
export type Without = Figures | { broke: string };

const pct = (v: KnobValue): string => `${Number(Number(v).toFixed(3))}%`;
const usd = (v: number): string => `$${v.toFixed(v < 1 ? 4 : 2)}`;

/** A sentence for each knob the candidate sets differently from the starting blueprint. */
export function explain(
  space: Space,
  start: StartFacts,
  genome: Genome,
  figures: Figures,
  without: ReadonlyMap<number, Without>,
): string[] {
  const out: string[] = [];
  const introduced = new Set<string>();
  space.knobs.forEach((knob, i) => {
    const value = itemAt(genome, i);
    if (value === knob.start) return;
    // A chunk size whose strategy changed too is said in the strategy's sentence.
    if ((knob.param === 'overflow' || knob.param === 'compact_count') && strategyChanged(space, genome, knob.region!))
      return;
    let what: string;
    if (knob.param === 'file_tracking')
      what =
        'file tracking is off ([context.file_tracking] enabled = false): its hashmap no longer rewrites an entry for every file the agent reads or writes';
    else if (knob.tool !== undefined) what = toolChange(space, genome, knob, value);
    else {
      what = regionChange(space, start, genome, knob, value, !introduced.has(knob.region!));
      introduced.add(knob.region!);
    }
    const reason = without.get(i);
    out.push(`${what}${reason ? `; ${effect(reason, figures)}` : ''}.`);
  });
  return out;
}

function strategyChanged(space: Space, genome: Genome, region: string): boolean {
  const at = space.knobs.findIndex((k) => k.region === region && k.param === 'strategy');
  return at >= 0 && genome[at] !== space.start[at];
}

/** "without it, ..." from the proposal replayed without the change. */
function effect(without: Without, now: Figures): string {
  if ('broke' in without) return `without it, ${without.broke}`;
  const gains: string[] = [];
  const costs: string[] = [];
  const compare = (then: number, is: number, say: (v: string) => string, num: (v: number) => string) => {
    if (then > is) gains.push(`${say(num(then))} (not ${num(is)})`);
    else if (then < is) costs.push(`${say(num(is))} instead of ${num(then)}`);
  };
  compare(without.peakRequestTokens, now.peakRequestTokens, (v) => `a peak request of ${v} tokens`, fmt);
  compare(without.inputCostUsd, now.inputCostUsd, (v) => `${v} of input`, usd);
  compare(without.readAgain, now.readAgain, (v) => `${v} read again later`, fmt);
  if (gains.length === 0 && costs.length === 0) return 'without it, the same figures';
  const said = gains.length ? `without it, ${gains.join(', ')}` : 'without it, no measure is better';
  return costs.length ? `${said}; with it, ${costs.join(', ')}` : said;
}

function regionChange(
  space: Space,
  start: StartFacts,
  genome: Genome,
  knob: Knob,
  value: KnobValue,
  first: boolean,
): string {
  const region = knob.region!;
  const declared =
    isDeclared(space, region) || !first
      ? ''
      : ' (declared: the runtime supplies it as a 30% sliding window of 40 items otherwise)';
  switch (knob.param) {
    case 'kind':
      return `${region} becomes ${String(value)} instead of ${String(knob.start)}${declared}: ${KIND_DOES[value as RegionKind] ?? 'its own rule decides what it keeps'}`;
    case 'budget': {
      const tokens = Math.round((Number(value) / 100) * space.window);
      const held = start.held.get(region) ?? 0;
      return `the ${region} region's budget goes from ${pct(knob.start)} to ${pct(value)} of the window (${fmt(start.budgets.get(region) ?? 0)} to ${fmt(tokens)} tokens; it held up to ${fmt(held)} tokens under the starting layout)${declared}`;
    }
    case 'max_items':
      return `${region} keeps at most ${value === null ? 'the default 10' : fmt(Number(value))} entries instead of ${knob.start === null ? 'the default 10' : fmt(Number(knob.start))}${declared}`;
    case 'strategy': {
      const chunk = chunkOf(space, genome, region, value);
      if (value === 'bulk')
        return `${region} drops its oldest entries ${chunk} instead of ${String(knob.start) === 'compact' ? 'folding them' : 'one per write'}${declared}`;
      if (value === 'compact')
        return `${region} folds its oldest entries into a summary ${chunk} instead of ${String(knob.start) === 'bulk' ? 'dropping them in chunks' : 'dropping them one per write'}${declared}`;
      return `${region} drops one entry at a time instead of ${String(knob.start) === 'bulk' ? 'in chunks' : 'folding them'}${declared}`;
    }
    case 'overflow':
      return `${region} drops ${value === null ? 'half its max_items' : fmt(Number(value))} entries at a time instead of ${knob.start === null ? 'half its max_items' : fmt(Number(knob.start))}${declared}`;
    case 'compact_count':
      return `${region} folds ${value === null ? 'half its max_items' : fmt(Number(value))} entries into each summary instead of ${knob.start === null ? 'half its max_items' : fmt(Number(knob.start))}${declared}`;
    case 'compact_at':
      return `${region} compacts once ${value === null ? 'its budget is full' : `${pct(value)} of its budget is used`} instead of ${knob.start === null ? 'when its budget is full' : `at ${pct(knob.start)}`}${declared}`;
    default:
      return `${region}'s ${knob.param} goes from ${String(knob.start)} to ${String(value)}${declared}`;
  }
}

function toolChange(space: Space, genome: Genome, knob: Knob, value: KnobValue): string {
  const tool = knob.tool!;
  const stats = space.tools.find((t) => t.tool === tool)!;
  const largest = itemAt(stats.sizes, stats.sizes.length - 1);
  const stages = space.stages.length > 1 ? ` in every stage (${space.stages.join(', ')})` : '';
  if (knob.param === 'cap') {
    const cap = Number(value);
    const over = stats.sizes.filter((s) => s > cap).length;
    return `${tool} results are capped at ${fmt(cap)} tokens${stages}: ${fmt(over)} of its ${fmt(stats.results)} results were larger (up to ${fmt(largest)}), and a cut one keeps its head and says how much was cut`;
  }
  const region = String(value);
  const kind = kindIn(space, genome, region);
  return `${tool} results (${fmt(stats.results)}, up to ${fmt(largest)} tokens) go to ${region}${stages}, a ${kind} region: ${KIND_DOES[kind] ?? 'its own rule decides what it keeps'}`;
}

function chunkOf(space: Space, genome: Genome, region: string, strategy: KnobValue): string {
  const param = strategy === 'bulk' ? 'overflow' : 'compact_count';
  const at = space.knobs.findIndex((k) => k.region === region && k.param === param);
  const value = at < 0 ? null : genome[at];
  return value === null || value === undefined ? 'in chunks of half its max_items' : `${fmt(Number(value))} at a time`;
}

function isDeclared(space: Space, region: string): boolean {
  const context = space.doc.context;
  const regions =
    typeof context === 'object' && context !== null ? (context as Record<string, unknown>).regions : undefined;
  return typeof regions === 'object' && regions !== null && Object.hasOwn(regions, region);
}
