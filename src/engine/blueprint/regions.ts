// One region declaration: kind, common keys, per-kind keys, defaults.
import { REGION_KINDS, type RegionDecl, type RegionKind, type SlidingStrategy } from './types.ts';
import type { KeyPath } from './locate.ts';
import { boolean, describe, isTable, positiveInt, text, type Reporter, type Table } from './report.ts';
import { compileSeed } from './seedDecl.ts';
import { closest, didYouMean } from './suggest.ts';

export const DEFAULT_MAX_TOKENS = 5000;
export const DEFAULT_MAX_ITEMS = 10;
export const DEFAULT_REQUIRED_MESSAGE =
  'The {region} region is required but still empty. Write to {region} before this stage can finish.';

export const COMMON_KEYS = [
  'kind',
  'budget',
  'max_tokens',
  'min_tokens',
  'seed',
  'required',
  'summarizable',
  'admission',
  'required_message',
] as const;

export const KIND_KEYS: Record<RegionKind, readonly string[]> = {
  temporary: [],
  pinned: [],
  sliding_window: ['max_items', 'strategy', 'overflow', 'compact_count'],
  compacting: ['compact_at', 'threshold_tokens'],
  // compact_history rolls forward "compacted", so it takes the same compaction limits.
  compact_history: ['source_region', 'compact_at', 'threshold_tokens'],
  clearable: [],
  hashmap: ['max_entries'],
  checklist: [],
  custom: ['script', 'persistent'],
};

export const KIND_ALIASES: Record<string, RegionKind> = { hash_map: 'hashmap' };
export const STRATEGIES: readonly SlidingStrategy[] = ['per_item', 'bulk', 'compact'];
const ALL_REGION_KEYS = [...new Set([...COMMON_KEYS, ...Object.values(KIND_KEYS).flat()])];

/** `"35%"`, `"12.5 %"` -> 0.35, 0.125; undefined when not a percentage in (0, 100]. */
export function parsePercent(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^\s*(\d+(?:\.\d+)?)\s*%\s*$/.exec(value);
  if (!match) return undefined;
  const percent = Number(match[1]);
  return percent > 0 && percent <= 100 ? percent / 100 : undefined;
}

function percentProblem(key: string, value: unknown): string {
  const bare = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  const hint = /^\d+(\.\d+)?$/.test(bare) && Number(bare) > 0 && Number(bare) <= 100 ? ` Did you mean "${bare}%"?` : '';
  const tail =
    key === 'budget'
      ? 'Write a share of the window like "20%" (more than 0, at most 100); use max_tokens for a fixed number of tokens.'
      : 'Write a share of the resolved budget like "80%" (more than 0, at most 100).';
  return `\`${key}\` must be a percentage string, not ${describe(value)}.${hint} ${tail}`;
}

function resolveKind(r: Reporter, raw: unknown, path: KeyPath): { kind: RegionKind; known: boolean } {
  if (raw === undefined) return { kind: 'temporary', known: true };
  if (typeof raw === 'string') {
    if ((REGION_KINDS as readonly string[]).includes(raw)) return { kind: raw as RegionKind, known: true };
    if (Object.hasOwn(KIND_ALIASES, raw)) return { kind: KIND_ALIASES[raw]!, known: true };
  }
  const hint = typeof raw === 'string' ? didYouMean(raw, [...REGION_KINDS, ...Object.keys(KIND_ALIASES)]) : '';
  r.error(
    'unknown-region-kind',
    [...path, 'kind'],
    `Unknown region kind ${describe(raw)}.${hint} Use one of: ${REGION_KINDS.join(', ')} (hash_map is an alias of hashmap).`,
    'value',
  );
  return { kind: 'temporary', known: false };
}

function checkKeys(r: Reporter, table: Table, path: KeyPath, name: string, kind: RegionKind, kindKnown: boolean): void {
  const allowed = [...COMMON_KEYS, ...KIND_KEYS[kind]];
  for (const key of Object.keys(table)) {
    if (allowed.includes(key)) continue;
    const owners = REGION_KINDS.filter((k) => KIND_KEYS[k].includes(key));
    if (owners.length > 0) {
      // With an unknown kind we cannot tell which per-kind keys belong; the kind error says enough.
      if (!kindKnown) continue;
      r.error(
        'unknown-key',
        [...path, key],
        `\`${key}\` applies only to ${owners.join(' and ')} regions, and region "${name}" is ${kind}. Remove it or change the kind.`,
      );
      continue;
    }
    const hint = didYouMean(key, kindKnown ? allowed : ALL_REGION_KEYS);
    r.error(
      'unknown-key',
      [...path, key],
      `Unknown key \`${key}\` in region "${name}".${hint || ` Keys a ${kind} region accepts: ${allowed.join(', ')}.`} Remove or rename it.`,
    );
  }
}

export function compileRegion(r: Reporter, name: string, raw: unknown, path: KeyPath): RegionDecl | undefined {
  const loc = r.loc(path);
  if (!isTable(raw)) {
    r.error(
      'invalid-value',
      path,
      `Region "${name}" must be a table, not ${describe(raw)}: write \`${name} = { kind = "pinned", budget = "10%" }\` or a [${pathText(path)}] section.`,
      'value',
    );
    return undefined;
  }
  const { kind, known } = resolveKind(r, raw.kind, path);
  checkKeys(r, raw, path, name, kind, known);

  const region: RegionDecl = {
    name,
    kind,
    maxTokens: DEFAULT_MAX_TOKENS,
    maxTokensExplicit: false,
    seedImplicit: false,
    required: r.read(raw, 'required', path, boolean, 'true or false') ?? false,
    requiredMessage:
      r.read(raw, 'required_message', path, text, 'a string (it may contain {region})') ?? DEFAULT_REQUIRED_MESSAGE,
    summarizable: r.read(raw, 'summarizable', path, boolean, 'true or false') ?? true,
    admission: readAdmission(r, raw, path),
    loc,
  };
  readBudgetKeys(r, raw, path, region);

  if (raw.seed !== undefined) region.seed = compileSeed(r, name, raw.seed, [...path, 'seed']);
  else if (name === 'task') {
    region.seed = { type: 'task_input' };
    region.seedImplicit = true;
  }

  readKindKeys(r, raw, path, region, kind);
  // With an unknown kind, per-kind values are still checked (on a copy) so every mistake shows at once.
  if (!known) for (const other of REGION_KINDS) readKindKeys(r, raw, path, { ...region }, other);
  return region;
}

function readKindKeys(r: Reporter, raw: Table, path: KeyPath, region: RegionDecl, kind: RegionKind): void {
  if (kind === 'sliding_window') readSliding(r, raw, path, region);
  if (kind === 'compacting' || kind === 'compact_history') {
    if (raw.compact_at !== undefined) {
      region.compactAtShare = parsePercent(raw.compact_at);
      if (region.compactAtShare === undefined)
        r.error('malformed-budget', [...path, 'compact_at'], percentProblem('compact_at', raw.compact_at), 'value');
    }
    region.thresholdTokens = r.read(
      raw,
      'threshold_tokens',
      path,
      positiveInt,
      'a positive whole number of tokens',
      'malformed-budget',
    );
  }
  if (kind === 'compact_history') region.sourceRegion = r.read(raw, 'source_region', path, text, 'a region name');
  if (kind === 'hashmap') region.maxEntries = r.read(raw, 'max_entries', path, positiveInt, 'a positive whole number');
  if (kind === 'custom') {
    region.script = r.read(raw, 'script', path, text, 'a path relative to the agent directory');
    region.persistent = r.read(raw, 'persistent', path, boolean, 'true or false') ?? false;
  }
}

function readAdmission(r: Reporter, raw: Table, path: KeyPath): 'evict' | 'reject' {
  const value = raw.admission;
  if (value === undefined || value === 'evict' || value === 'reject') return value ?? 'evict';
  const hint = typeof value === 'string' ? didYouMean(value, ['evict', 'reject']) : '';
  r.error(
    'invalid-value',
    [...path, 'admission'],
    `\`admission\` must be "evict" or "reject", not ${describe(value)}.${hint}`,
    'value',
  );
  return 'evict';
}

function readBudgetKeys(r: Reporter, raw: Table, path: KeyPath, region: RegionDecl): void {
  if (raw.budget !== undefined) {
    region.budgetShare = parsePercent(raw.budget);
    if (region.budgetShare === undefined)
      r.error('malformed-budget', [...path, 'budget'], percentProblem('budget', raw.budget), 'value');
  }
  const maxTokens = r.read(
    raw,
    'max_tokens',
    path,
    positiveInt,
    'a positive whole number of tokens',
    'malformed-budget',
  );
  if (maxTokens !== undefined) {
    region.maxTokens = maxTokens;
    region.maxTokensExplicit = true;
  }
  region.minTokens = r.read(
    raw,
    'min_tokens',
    path,
    positiveInt,
    'a positive whole number of tokens',
    'malformed-budget',
  );
  if (region.minTokens === undefined) return;
  if (raw.budget === undefined) {
    r.add(
      'malformed-budget',
      'warning',
      [...path, 'min_tokens'],
      `\`min_tokens\` floors a percentage budget, and region "${region.name}" has no \`budget\`, so it has no effect. Add a budget like "10%" or remove min_tokens.`,
    );
  } else if (region.maxTokensExplicit && region.minTokens > region.maxTokens) {
    r.add(
      'malformed-budget',
      'warning',
      [...path, 'min_tokens'],
      `\`min_tokens\` (${region.minTokens}) is above \`max_tokens\` (${region.maxTokens}); max_tokens is a hard limit and wins, so the region never gets more than ${region.maxTokens} and the floor is never met. Lower min_tokens or raise max_tokens.`,
    );
  }
}

function readSliding(r: Reporter, raw: Table, path: KeyPath, region: RegionDecl): void {
  region.maxItems = r.read(raw, 'max_items', path, positiveInt, 'a positive whole number') ?? DEFAULT_MAX_ITEMS;
  region.strategy = readStrategy(r, raw.strategy, [...path, 'strategy']);
  const overflow = r.read(raw, 'overflow', path, positiveInt, 'a positive whole number');
  const compactCount = r.read(raw, 'compact_count', path, positiveInt, 'a positive whole number');
  if (overflow !== undefined && region.strategy !== 'bulk') {
    r.add(
      'inert-key',
      'info',
      [...path, 'overflow'],
      `\`overflow\` only takes effect with strategy = "bulk", and this region uses "${region.strategy}". Set strategy = "bulk" or remove overflow.`,
    );
  }
  if (compactCount !== undefined && region.strategy !== 'compact') {
    r.add(
      'inert-key',
      'info',
      [...path, 'compact_count'],
      `\`compact_count\` only takes effect with strategy = "compact", and this region uses "${region.strategy}". Set strategy = "compact" or remove compact_count.`,
    );
  }
  // Unset counts default to half the window of items (the spec's example pairs max_items 20 with 10).
  const half = Math.max(1, Math.floor(region.maxItems / 2));
  if (region.strategy === 'bulk') region.overflow = overflow ?? half;
  if (region.strategy === 'compact') region.compactCount = compactCount ?? half;
}

function readStrategy(r: Reporter, value: unknown, path: KeyPath): SlidingStrategy {
  if (value === undefined) return 'per_item';
  if ((STRATEGIES as readonly unknown[]).includes(value)) return value as SlidingStrategy;
  const suggestion = typeof value === 'string' ? closest(value, STRATEGIES) : undefined;
  const hint = suggestion ? ` Did you mean "${suggestion}"?` : '';
  r.error(
    'unknown-strategy',
    path,
    `Unknown strategy ${describe(value)}.${hint} Use one of: ${STRATEGIES.join(', ')} (with underscores).`,
    'value',
  );
  return 'per_item';
}

function pathText(path: KeyPath): string {
  return path.join('.');
}
