// A region's `seed`, in every form the spec lists. A seed that matches no form is ignored at run time
// (the region starts empty), so it is a warning here: `region-seed-not-understood`.
import type { Seed } from './types.ts';
import type { KeyPath } from './locate.ts';
import { describe, isTable, type Reporter } from './report.ts';
import { closest } from './suggest.ts';

export const SEED_TABLE_KEYS = ['files', 'glob', 'literal', 'command', 'rhai', 'caller'] as const;
type SeedTableKey = (typeof SEED_TABLE_KEYS)[number];

const FORMS =
  'seed = "task_input", "input", "<caller key>", or a table with exactly one of files, glob, literal, command, rhai, caller';

function notUnderstood(r: Reporter, path: KeyPath, message: string, at: 'key' | 'value' = 'value'): undefined {
  r.add(
    'region-seed-not-understood',
    'warning',
    path,
    `${message} The seed is ignored and the region starts empty.`,
    at,
  );
  return undefined;
}

export function compileSeed(r: Reporter, region: string, raw: unknown, path: KeyPath): Seed | undefined {
  if (typeof raw === 'string') return stringSeed(r, region, raw, path);
  if (!isTable(raw)) return notUnderstood(r, path, `Seed of region "${region}" is ${describe(raw)}; write ${FORMS}.`);

  const keys = Object.keys(raw);
  const unknown = keys.filter((k) => !(SEED_TABLE_KEYS as readonly string[]).includes(k));
  for (const key of unknown) {
    const suggestion = closest(key, SEED_TABLE_KEYS);
    const hint = suggestion ? ` Did you mean { ${suggestion} = ... }?` : ` Use one of: ${SEED_TABLE_KEYS.join(', ')}.`;
    notUnderstood(r, [...path, key], `Seed key \`${key}\` is not a seed form.${hint}`, 'key');
  }
  if (unknown.length > 0) return undefined;
  const [key] = keys;
  if (key === undefined || keys.length > 1) {
    return notUnderstood(
      r,
      path,
      keys.length === 0
        ? `Seed of region "${region}" is an empty table; write ${FORMS}.`
        : `Seed of region "${region}" has ${keys.join(' and ')}; a seed table takes exactly one of them. Split them across regions.`,
    );
  }
  return tableSeed(r, key as SeedTableKey, raw[key], [...path, key]);
}

function stringSeed(r: Reporter, region: string, raw: string, path: KeyPath): Seed | undefined {
  if (raw === 'task_input') return { type: 'task_input' };
  if (raw === 'input') return { type: 'input' };
  if (raw.trim() === '')
    return notUnderstood(
      r,
      path,
      `Seed of region "${region}" is an empty string; name a caller key, or write ${FORMS}.`,
    );
  // Any other string names a caller key. A near-miss of a keyword is almost always a typo.
  const keyword = raw === 'task' ? undefined : closest(raw, ['task_input', 'input']);
  if (keyword !== undefined) {
    r.add(
      'region-seed-suspicious',
      'warning',
      path,
      `seed = ${describe(raw)} reads the caller key named ${describe(raw)}. Did you mean seed = "${keyword}"?`,
      'value',
    );
  }
  return { type: 'key', key: raw };
}

function tableSeed(r: Reporter, form: SeedTableKey, value: unknown, path: KeyPath): Seed | undefined {
  if (form === 'files') {
    if (typeof value === 'string')
      return notUnderstood(r, path, `\`files\` takes an array: write files = [${describe(value)}] (or use glob).`);
    if (!Array.isArray(value) || value.length === 0 || !value.every((f) => typeof f === 'string' && f.trim() !== '')) {
      return notUnderstood(
        r,
        path,
        `\`files\` must be a non-empty array of paths like ["README.md"], not ${describe(value)}.`,
      );
    }
    return { type: 'files', files: value as string[] };
  }
  if (typeof value !== 'string' || (form !== 'literal' && value.trim() === '')) {
    const wanted = form === 'literal' ? 'a string' : 'a non-empty string';
    return notUnderstood(r, path, `\`${form}\` must be ${wanted}, not ${describe(value)}.`);
  }
  switch (form) {
    case 'glob':
      return { type: 'glob', glob: value };
    case 'literal':
      return { type: 'literal', text: value };
    case 'command':
      return { type: 'command', command: value };
    case 'rhai':
      return { type: 'rhai', script: value };
    case 'caller':
      return { type: 'caller', name: value };
  }
}
