// One region declaration: kind, common keys, per-kind keys (each kind's own, from its definition in
// regions/<kind>.ts), defaults.
import { REGION_KINDS, type RegionDecl, type RegionKind } from './types.ts';
import type { KeyPath } from './locate.ts';
import { parsePercent, percentProblem } from './percent.ts';
import { boolean, describe, isTable, positiveInt, text, type Reporter, type Table } from './report.ts';
import { compileSeed } from './seedDecl.ts';
import { didYouMean } from './suggest.ts';
import { KINDS, KIND_ALIASES, kindKeys, type KeyDoc } from '../regions/kinds.ts';

export const DEFAULT_MAX_TOKENS = 5000;
export { DEFAULT_MAX_ITEMS } from '../regions/sliding-window.ts';
export { parsePercent };
export const DEFAULT_REQUIRED_MESSAGE =
  'The {region} region is required but still empty. Write to {region} before this stage can finish.';

/** The keys every region accepts, whatever its kind, with what each means (the spec's "Keys every region accepts"). */
export const COMMON_KEY_DOCS = {
  kind: {
    meaning: `How the region behaves when it fills: ${REGION_KINDS.slice(0, -1).join(', ')} or ${REGION_KINDS.at(-1)}. An unknown kind is a hard error.`,
    default: '"temporary"',
  },
  budget: {
    meaning:
      'A share of the model\'s context window, written as "35%". It resolves against the model in front of it, so the blueprint keeps its shape across models.',
    default: 'unset',
  },
  max_tokens: {
    meaning:
      'A token ceiling. On its own a plain ceiling; alongside budget it caps the resolved percentage, so the region gets whichever is smaller.',
    default: String(DEFAULT_MAX_TOKENS),
  },
  min_tokens: {
    meaning: 'A floor for a percentage budget, so the region stays usable on a small model.',
    default: 'unset',
  },
  seed: {
    meaning:
      'What the region starts with, before the first inference: "task_input", "input", a caller key, or { files | glob | literal | command | rhai | caller = ... }.',
    default: 'unset',
  },
  required: { meaning: 'The stage re-runs rather than moving on while this region is empty.', default: 'false' },
  summarizable: {
    meaning: 'Set false to keep an edge transform = "compact" from paraphrasing this region.',
    default: 'true',
  },
  admission: {
    meaning:
      'What happens when a write does not fit: "evict" drops older content; "reject" refuses the write and tells the agent to release something first.',
    default: '"evict"',
    values: {
      evict: 'A write that does not fit drops older content (the default).',
      reject:
        'A write that does not fit is refused and the agent is told to release something first; the region is also exempt from the window cascade.',
    },
  },
  required_message: {
    meaning: 'What the model is told when a required region is empty. Supports {region}.',
    default: 'generated',
  },
} as const satisfies Record<string, KeyDoc>;

export const COMMON_KEYS = Object.keys(COMMON_KEY_DOCS) as readonly (keyof typeof COMMON_KEY_DOCS)[];
export const ADMISSIONS = Object.keys(COMMON_KEY_DOCS.admission.values) as readonly RegionDecl['admission'][];
const ALL_REGION_KEYS = [...new Set([...COMMON_KEYS, ...REGION_KINDS.flatMap(kindKeys)])];

function resolveKind(r: Reporter, raw: unknown, path: KeyPath): { kind: RegionKind; known: boolean } {
  if (raw === undefined) return { kind: 'temporary', known: true };
  if (typeof raw === 'string') {
    if ((REGION_KINDS as readonly string[]).includes(raw)) return { kind: raw as RegionKind, known: true };
    const alias = Object.hasOwn(KIND_ALIASES, raw) ? KIND_ALIASES[raw] : undefined;
    if (alias !== undefined) return { kind: alias, known: true };
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
  const allowed: readonly string[] = [...COMMON_KEYS, ...kindKeys(kind)];
  for (const key of Object.keys(table)) {
    if (allowed.includes(key)) continue;
    const owners = REGION_KINDS.filter((k) => kindKeys(k).includes(key));
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
  KINDS[kind].read?.(r, raw, path, region);
}

function readAdmission(r: Reporter, raw: Table, path: KeyPath): 'evict' | 'reject' {
  const value = raw.admission;
  if (value === undefined || value === 'evict' || value === 'reject') return value ?? 'evict';
  const hint = typeof value === 'string' ? didYouMean(value, ADMISSIONS) : '';
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

function pathText(path: KeyPath): string {
  return path.join('.');
}
