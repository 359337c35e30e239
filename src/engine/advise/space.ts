// The blueprint space the advisor searches, read from the starting blueprint and the scenario's own
// traffic: one knob per setting it may change (a region's budget, kind, max_items, sliding strategy
// and chunk size, compact_at; a large tool's per-tool cap and route), each with the values it may
// take. A candidate is one value per knob; `render` turns it into edits of the user's own text.
import { parse } from 'smol-toml';
import { parsePercent } from '../blueprint/percent.ts';
import { kindKeys } from '../regions/kinds.ts';
import { AGENT_FILE, REGION_KINDS, SLIDING_STRATEGIES, type Blueprint, type RegionKind } from '../blueprint/index.ts';
import { capabilitiesOf } from '../regions/capabilities.ts';
import { FILE_TOOLS } from '../read-again.ts';
import { lookupTool } from '../routing.ts';
import { itemAt } from '../item-at.ts';
import type { TrafficEvent } from '../scenario.ts';
import { DEFAULT_STAGE, stagesOf } from '../stages.ts';
import { IMPLICIT_REGIONS } from '../implicit-regions.ts';
import { TomlEditor, type TomlPath, type TomlValue } from './toml-edit.ts';

export type KnobParam =
  | 'kind'
  | 'budget'
  | 'max_items'
  | 'strategy'
  | 'overflow'
  | 'compact_count'
  | 'compact_at'
  | 'cap'
  | 'route'
  | 'file_tracking';
/** A knob's value: a number, a name, or null for "not written" (the default applies). */
export type KnobValue = number | string | null;

export interface Knob {
  /** `region:<name>:<param>`, `tool:<name>:<param>`, or `context:file_tracking` (neither a region nor a tool). */
  id: string;
  param: KnobParam;
  region?: string;
  tool?: string;
  /** The values it may take, in order (numbers ascending): a mutation steps to a neighbour. */
  levels: readonly KnobValue[];
  /** Its value in the starting blueprint. */
  start: KnobValue;
}

/** One value per knob, aligned with `Space.knobs`. */
export type Genome = KnobValue[];

/** What the traffic says about a tool: how many results it returned and how large they were. */
export interface ToolStats {
  tool: string;
  results: number;
  /** Result sizes in tokens, ascending (before any cap). */
  sizes: number[];
}

export interface Space {
  knobs: Knob[];
  start: Genome;
  /** The stages whose tool routing a tool knob writes (`main` for a blueprint without stages). */
  stages: string[];
  tools: ToolStats[];
  /**
   * The route targets whose entries are keyed (a hashmap): a result routed there is kept under its
   * file's path or its call, so reading the same thing again replaces the older copy.
   */
  keyedTargets: string[];
  window: number;
  source: string;
  /** The starting blueprint's parsed document: each candidate's text must parse to it plus the edits. */
  doc: Record<string, unknown>;
}

/**
 * Budgets, as percent of the window. Item counts and chunk sizes reach into the hundreds: a long
 * real session's conversation has one turn per call, and a layout may keep most of it and evict a
 * large chunk at once (one cache miss for many cheap reads).
 */
const BUDGET_LEVELS = [1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 35, 40, 50, 60, 70, 80];
const MAX_ITEMS_LEVELS = [4, 6, 8, 10, 12, 16, 20, 24, 30, 40, 60, 80, 120, 160, 240, 320, 480];
const CHUNK_LEVELS = [2, 4, 6, 8, 10, 15, 20, 30, 40, 60, 80, 120, 160];
const COMPACT_AT_LEVELS = [30, 40, 50, 60, 70, 80, 90];
/**
 * A tool's caps: two fixed levels, and its results' sizes at these quantiles rounded to a round
 * number. Few levels: a level's first use cuts (and so tokenizes) every larger result of the tool
 * once, the most expensive part of trying one.
 */
const CAP_FIXED = [2_000, 4_000];
const CAP_QUANTILES = [0.5, 0.9];

function capLevels(sizes: readonly number[]): number[] {
  const largest = itemAt(sizes, sizes.length - 1);
  const levels = new Set<number>(CAP_FIXED.filter((c) => c < largest));
  for (const q of CAP_QUANTILES) {
    const size = itemAt(sizes, Math.min(sizes.length - 1, Math.floor(q * sizes.length)));
    const unit = 10 ** Math.max(2, Math.floor(Math.log10(Math.max(1, size))) - 1);
    const level = Math.max(LARGE_RESULT_TOKENS / 2, Math.round(size / unit) * unit);
    if (level < largest) levels.add(level);
  }
  return [...levels].sort((a, b) => a - b);
}
/** The file_tracking knob's values: `[context.file_tracking]` as written, or with `enabled = false`. */
export const FILE_TRACKING_ON = 'on';
export const FILE_TRACKING_OFF = 'off';
/** A tool whose largest result is under this is not worth a cap or a route of its own. */
export const LARGE_RESULT_TOKENS = 1_000;

/** The kinds a region may move between: ones that drop or fold on their own rule, keep no keys and carry nothing. */
const MOVABLE_KINDS: readonly RegionKind[] = REGION_KINDS.filter((k) => {
  const c = capabilitiesOf(k);
  return c.removable && !c.keyed && !c.checklist && !c.scripted && !c.carriesHistory;
});

const takes = (kind: RegionKind, key: string): boolean => kindKeys(kind).includes(key);
const isTable = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function sortedLevels(levels: readonly number[], start: number | null): KnobValue[] {
  const all = new Set<number>(levels);
  if (start !== null) all.add(start);
  return [...all].sort((a, b) => a - b);
}

/** A written percentage as a number of percent (`"12.5%"` -> 12.5), or null. */
function percentOf(raw: unknown): number | null {
  const share = parsePercent(raw);
  return share === undefined ? null : Math.round(share * 100_000) / 1_000;
}

const numberOr = (raw: unknown): number | null => (typeof raw === 'number' ? raw : null);

/** The regions whose settings the advisor may change, with their raw tables (undefined: runtime-supplied). */
function tunableRegions(
  blueprint: Blueprint,
  doc: Record<string, unknown>,
): { name: string; kind: RegionKind; raw: Record<string, unknown> | undefined }[] {
  const redeclared = new Set(blueprint.stages.flatMap((s) => (s.regions ?? []).map((r) => r.name)));
  const regionsTable = isTable(doc.context) && isTable(doc.context.regions) ? doc.context.regions : {};
  const out: { name: string; kind: RegionKind; raw: Record<string, unknown> | undefined }[] = [];
  for (const decl of blueprint.regions) {
    const c = capabilitiesOf(decl.kind);
    if (!c.removable || c.checklist || c.scripted || decl.admission === 'reject' || redeclared.has(decl.name)) continue;
    const raw = regionsTable[decl.name];
    if (isTable(raw)) out.push({ name: decl.name, kind: decl.kind, raw });
  }
  for (const implicit of IMPLICIT_REGIONS) {
    if (
      implicit.budgetShare === undefined ||
      blueprint.regions.some((r) => r.name === implicit.name) ||
      redeclared.has(implicit.name)
    )
      continue;
    out.push({ name: implicit.name, kind: implicit.kind, raw: undefined });
  }
  return out;
}

/** The knobs of the scenario's blueprint and traffic; `sizeOf` gives a tool result's tokens. */
export function buildSpace(
  source: string,
  blueprint: Blueprint,
  events: readonly TrafficEvent[],
  window: number,
  sizeOf: (event: Extract<TrafficEvent, { type: 'tool_result' }>) => number,
): Space {
  const doc = parse(source) as Record<string, unknown>;
  const knobs: Knob[] = [];
  const add = (knob: Omit<Knob, 'id'>) =>
    knobs.push({
      ...knob,
      id:
        knob.region !== undefined
          ? `region:${knob.region}:${knob.param}`
          : knob.tool !== undefined
            ? `tool:${knob.tool}:${knob.param}`
            : `context:${knob.param}`,
    });

  for (const { name, kind, raw } of tunableRegions(blueprint, doc)) {
    const implicit = IMPLICIT_REGIONS.find((r) => r.name === name && raw === undefined);
    const region = name;
    // The conversation keeps its kind: its entries are the turns, which only a sliding window keeps in order.
    const kinds = MOVABLE_KINDS.includes(kind) && name !== 'conversation' ? MOVABLE_KINDS : [kind];
    const anyTakes = (key: string) => kinds.some((k) => takes(k, key));
    if (kinds.length > 1) add({ param: 'kind', region, levels: kinds, start: kind });
    const budget = implicit
      ? implicit.budgetShare! * 100
      : (percentOf(raw?.budget) ??
        (typeof raw?.max_tokens === 'number'
          ? Math.round((raw.max_tokens / window) * 100_000) / 1_000
          : (5_000 / window) * 100));
    add({ param: 'budget', region, levels: sortedLevels(BUDGET_LEVELS, budget), start: budget });
    if (anyTakes('max_items')) {
      const maxItems = implicit ? (implicit.maxItems ?? null) : numberOr(raw?.max_items);
      add({ param: 'max_items', region, levels: [null, ...sortedLevels(MAX_ITEMS_LEVELS, maxItems)], start: maxItems });
      add({
        param: 'strategy',
        region,
        levels: SLIDING_STRATEGIES,
        start: typeof raw?.strategy === 'string' ? raw.strategy : 'per_item',
      });
      const overflow = numberOr(raw?.overflow);
      add({ param: 'overflow', region, levels: [null, ...sortedLevels(CHUNK_LEVELS, overflow)], start: overflow });
      const compactCount = numberOr(raw?.compact_count);
      add({
        param: 'compact_count',
        region,
        levels: [null, ...sortedLevels(CHUNK_LEVELS, compactCount)],
        start: compactCount,
      });
    }
    if (anyTakes('compact_at')) {
      const at = percentOf(raw?.compact_at);
      add({ param: 'compact_at', region, levels: [null, ...sortedLevels(COMPACT_AT_LEVELS, at)], start: at });
    }
  }

  // File tracking rewrites its hashmap's entry for a file on every touch: a change near the top of
  // the request that sends everything after it again uncached. Turning it off is a knob of its own.
  if (blueprint.fileTracking?.enabled && blueprint.fileTracking.region !== undefined)
    add({ param: 'file_tracking', levels: [FILE_TRACKING_ON, FILE_TRACKING_OFF], start: FILE_TRACKING_ON });

  const tools = toolStats(events, sizeOf);
  const stages = blueprint.stages.length > 0 ? blueprint.stages.map((s) => s.name) : [DEFAULT_STAGE];
  const targets = routeTargets(blueprint, knobs);
  for (const stats of tools) {
    const largest = stats.sizes[stats.sizes.length - 1] ?? 0;
    // A file tool's results are keyed by their path, however small: routed to a hashmap, the newest
    // result for each file replaces the older one and stays, so the file is not lost while the run
    // keeps naming it (an edit's short "updated" result is a loss the run names again like a read).
    const keyed = lookupTool(FILE_TOOLS, stats.tool) !== undefined;
    if (largest <= LARGE_RESULT_TOKENS && !keyed) continue;
    const caps = largest > LARGE_RESULT_TOKENS ? capLevels(stats.sizes) : [];
    if (caps.length) add({ param: 'cap', tool: stats.tool, levels: [null, ...caps], start: null });
    const now = new Set(stagesOf(blueprint).map((s) => routeOf(s.toolRouting, stats.tool)));
    const elsewhere = targets.filter((t) => !(now.size === 1 && now.has(t)));
    if (elsewhere.length) add({ param: 'route', tool: stats.tool, levels: [null, ...elsewhere], start: null });
  }
  const keyedTargets = targets.filter((name) => {
    const region = blueprint.regions.find((r) => r.name === name);
    return region !== undefined && capabilitiesOf(region.kind).keyed;
  });
  return { knobs, start: knobs.map((k) => k.start), stages, tools, keyedTargets, window, source, doc };
}

function routeOf(routing: Blueprint['stages'][number]['toolRouting'], tool: string): string {
  return lookupTool(routing?.overrides ?? {}, tool)?.region ?? routing?.defaultRegion ?? 'tool_results';
}

/** Where a large result may be routed: the regions the advisor may tune (every stage sees them), and tool_results. */
function routeTargets(blueprint: Blueprint, knobs: readonly Knob[]): string[] {
  const tunable = [...new Set(knobs.filter((k) => k.param === 'budget').map((k) => k.region!))];
  const everywhere = tunable.filter((name) =>
    blueprint.stages.every((s) => !s.regions || s.regions.some((r) => r.name === name)),
  );
  return [...new Set(['tool_results', ...everywhere.filter((n) => n !== 'conversation')])];
}

function toolStats(
  events: readonly TrafficEvent[],
  sizeOf: (event: Extract<TrafficEvent, { type: 'tool_result' }>) => number,
): ToolStats[] {
  const byTool = new Map<string, number[]>();
  for (const e of events) {
    if (e.type !== 'tool_result') continue;
    let sizes = byTool.get(e.tool_name);
    if (!sizes) byTool.set(e.tool_name, (sizes = []));
    sizes.push(sizeOf(e));
  }
  return [...byTool].map(([tool, sizes]) => ({ tool, results: sizes.length, sizes: sizes.sort((a, b) => a - b) }));
}

// ---- a candidate's values, made consistent ------------------------------------------------------

const valueOf = (space: Space, genome: Genome, region: string, param: KnobParam): KnobValue | undefined => {
  const at = space.knobs.findIndex((k) => k.region === region && k.param === param);
  return at < 0 ? undefined : genome[at];
};

/** The region's kind in a candidate. */
export function kindIn(space: Space, genome: Genome, region: string): RegionKind {
  return (valueOf(space, genome, region, 'kind') as RegionKind | undefined) ?? startKind(space, region);
}

function startKind(space: Space, region: string): RegionKind {
  const raw = regionTable(space.doc, region);
  if (raw && typeof raw.kind === 'string') return (raw.kind === 'hash_map' ? 'hashmap' : raw.kind) as RegionKind;
  return IMPLICIT_REGIONS.find((r) => r.name === region)?.kind ?? 'temporary';
}

function regionTable(doc: Record<string, unknown>, region: string): Record<string, unknown> | undefined {
  const regions = isTable(doc.context) && isTable(doc.context.regions) ? doc.context.regions : undefined;
  const raw = regions?.[region];
  return isTable(raw) ? raw : undefined;
}

/**
 * The candidate with every value that does not apply set back to the start's: a knob of a key its
 * region's kind does not take, a chunk size its strategy does not use. Two candidates that mean the
 * same blueprint then compare equal.
 */
export function normalize(space: Space, genome: Genome): Genome {
  const out = genome.slice();
  space.knobs.forEach((knob, i) => {
    if (knob.region === undefined) return;
    const kind = kindIn(space, out, knob.region);
    const strategy = takes(kind, 'strategy') ? valueOf(space, out, knob.region, 'strategy') : undefined;
    const applies =
      knob.param === 'kind' ||
      knob.param === 'budget' ||
      (knob.param === 'compact_at'
        ? takes(kind, 'compact_at')
        : knob.param === 'overflow'
          ? strategy === 'bulk'
          : knob.param === 'compact_count'
            ? strategy === 'compact'
            : takes(kind, knob.param));
    if (!applies) out[i] = knob.start;
  });
  return out;
}

export const genomeKey = (genome: Genome): string => JSON.stringify(genome);

/** The knobs whose value differs from the start's, after normalizing. */
export function changedKnobs(space: Space, genome: Genome): Knob[] {
  return space.knobs.filter((_, i) => genome[i] !== space.start[i]);
}

// ---- rendering: a candidate as edits of the user's text -----------------------------------------

export type Edit = { op: 'set'; path: TomlPath; value: TomlValue } | { op: 'remove'; path: TomlPath };

const percentText = (percent: number): string => `${Number(percent.toFixed(3))}%`;

/** The edits that turn the starting blueprint into the candidate. */
export function editsFor(space: Space, genome: Genome): Edit[] {
  const edits: Edit[] = [];
  const regions = [...new Set(space.knobs.filter((k) => k.region !== undefined).map((k) => k.region!))];
  for (const region of regions) edits.push(...regionEdits(space, genome, region));
  for (const knob of space.knobs) {
    const value = genome[space.knobs.indexOf(knob)];
    if (knob.param === 'file_tracking' && value === FILE_TRACKING_OFF)
      edits.push({ op: 'set', path: ['context', 'file_tracking', 'enabled'], value: false });
    if (knob.tool === undefined) continue;
    if (value === undefined || value === knob.start || value === null) continue;
    for (const stage of space.stages) edits.push(toolEdit(space, stage, knob.tool, knob.param, value));
  }
  return edits;
}

function regionEdits(space: Space, genome: Genome, region: string): Edit[] {
  const mine = space.knobs.map((k, i) => [k, i] as const).filter(([k]) => k.region === region);
  if (!mine.some(([k, i]) => genome[i] !== k.start)) return [];
  const raw = regionTable(space.doc, region);
  const path = ['context', 'regions', region];
  const kind = kindIn(space, genome, region);
  const strategy = valueOf(space, genome, region, 'strategy');
  const edits: Edit[] = [];
  const set = (key: string, value: TomlValue) => edits.push({ op: 'set', path: [...path, key], value });
  const drop = (key: string) => {
    if (raw && Object.hasOwn(raw, key)) edits.push({ op: 'remove', path: [...path, key] });
  };
  // A region the runtime supplies is declared with all it had (its max_items is 40, not the default 10).
  const declaring = raw === undefined;
  if (declaring || kind !== startKind(space, region)) set('kind', kind);
  for (const [knob, i] of mine) {
    const value = itemAt(genome, i);
    const key = knob.param;
    if (key === 'kind') continue;
    if (key === 'budget') {
      if (!declaring && value === knob.start) continue;
      if (raw && raw.budget === undefined && typeof raw.max_tokens === 'number')
        set('max_tokens', Math.round((Number(value) / 100) * space.window));
      else set('budget', percentText(Number(value)));
      continue;
    }
    // A key the kind does not take, or a chunk size the strategy does not use, would be an error or an
    // inert key: it goes.
    const applies =
      takes(kind, key) &&
      (key === 'overflow' ? strategy === 'bulk' : key === 'compact_count' ? strategy === 'compact' : true);
    if (!applies) {
      drop(key);
      continue;
    }
    if (!declaring && value === knob.start) continue;
    if (value === null || (key === 'strategy' && value === 'per_item' && raw?.strategy === undefined)) drop(key);
    else set(key, key === 'compact_at' ? percentText(Number(value)) : value);
  }
  return edits;
}

/** The edit that gives `tool` a cap or a route in `stage`, at the key the routing reads first for it. */
function toolEdit(space: Space, stage: string, tool: string, param: KnobParam, value: KnobValue): Edit {
  const routing = ['stages', stage, 'tool_routing'];
  const stageTable = isTable(space.doc.stages) ? space.doc.stages[stage] : undefined;
  const routingTable = isTable(stageTable) && isTable(stageTable.tool_routing) ? stageTable.tool_routing : undefined;
  const overrides = routingTable && isTable(routingTable.overrides) ? routingTable.overrides : {};
  // The override entry routing would read for this tool: its own name first, then its aliases.
  const found = lookupTool(overrides, tool);
  const key = found === undefined ? undefined : Object.keys(overrides).find((k) => overrides[k] === found);
  if (param === 'cap') {
    if (key !== undefined && isTable(found) && found.max_result_tokens !== undefined)
      return { op: 'set', path: [...routing, 'overrides', key, 'max_result_tokens'], value: Number(value) };
    return { op: 'set', path: [...routing, 'max_result_tokens_per_tool', tool], value: Number(value) };
  }
  if (key !== undefined && isTable(found))
    return { op: 'set', path: [...routing, 'overrides', key, 'region'], value: String(value) };
  return { op: 'set', path: [...routing, 'overrides', key ?? tool], value: String(value) };
}

/** The candidate's agent.leviath, edited where its keys stand, and the document it must parse to. */
export function render(
  space: Space,
  genome: Genome,
): { text: string; expected: Record<string, unknown>; edits: Edit[] } {
  const edits = editsFor(space, genome);
  const editor = new TomlEditor(space.source);
  const expected = structuredClone(space.doc);
  for (const edit of edits) {
    if (edit.op === 'set') {
      editor.set(edit.path, edit.value);
      setIn(expected, edit.path, edit.value);
    } else {
      editor.remove(edit.path);
      removeIn(expected, edit.path);
    }
  }
  return { text: editor.text(), expected, edits };
}

function setIn(doc: Record<string, unknown>, path: TomlPath, value: TomlValue): void {
  let table = doc;
  for (const key of path.slice(0, -1)) {
    if (!isTable(table[key])) table[key] = {};
    table = table[key] as Record<string, unknown>;
  }
  table[itemAt(path, path.length - 1)] = value;
}

function removeIn(doc: Record<string, unknown>, path: TomlPath): void {
  let table: unknown = doc;
  for (const key of path.slice(0, -1)) table = isTable(table) ? table[key] : undefined;
  if (isTable(table)) delete table[itemAt(path, path.length - 1)];
}

/** True when `text` parses to exactly `expected`: the edits did what they meant and touched nothing else. */
export function parsesTo(text: string, expected: Record<string, unknown>): boolean {
  try {
    return deepEqual(parse(text), expected);
  } catch {
    return false;
  }
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  }
  if (!isTable(a) || !isTable(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
}

export { AGENT_FILE };
