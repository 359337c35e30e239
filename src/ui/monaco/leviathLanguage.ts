// What the editor offers in agent.leviath: completion at a cursor (tables, keys valid there,
// enumerated values, region names, file paths), hover docs, and quick fixes for "did you mean".
// Pure functions over the text, so they are tested without Monaco (leviathLanguage.test.ts).
import {
  ADMISSIONS,
  ALWAYS_VALID_TARGETS,
  COMMON_KEYS,
  CONTEXT_KEYS,
  FILE_TRACKING_KEYS,
  GATE_KEYS,
  KIND_ALIASES,
  OVERRIDE_KEYS,
  READ_PATH_KEYS,
  REGION_KINDS,
  ROUTING_KEYS,
  SAFE_COMMAND_KEYS,
  SECURITY_KEYS,
  SEED_TABLE_KEYS,
  SLIDING_STRATEGIES,
  STAGE_CONTEXT_KEYS,
  STAGE_KEYS,
  TOP_KEYS,
  TRANSITION_KEYS,
  kindKeys,
  type RegionKind,
  itemAt,
} from '../../engine/page.ts';
import { keyDoc, VALUE_DOCS } from './leviathDocs.ts';

export type ItemKind = 'table' | 'key' | 'value' | 'region' | 'file' | 'snippet';

export interface CompletionItem {
  label: string;
  insertText: string;
  kind: ItemKind;
  detail?: string;
  documentation?: string;
}

/** Where the cursor is: the table path, and whether it is at a key or at the value of `key`. */
export interface CursorContext {
  path: string[];
  /** Set when the cursor is in a value; the key it belongs to. */
  valueKey?: string;
  /** Inside an open string literal. */
  inString: boolean;
  /** Inside an array value (`files = [ "a", | ]`). */
  inArray: boolean;
  /** Typing a table header (`[con|`). */
  header: boolean;
}

const HEADER = /^\s*\[\[?\s*([^\]]*?)\s*\]\]?/;

/** `stages."a b".context` -> ['stages', 'a b', 'context']. */
export function splitDotted(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([A-Za-z0-9_-]+))\s*(?:\.|$)/g)) {
    out.push(m[1] ?? m[2] ?? m[3] ?? '');
  }
  return out;
}

function tablePathAt(lines: readonly string[], lineIndex: number): string[] {
  for (let k = lineIndex; k >= 0; k--) {
    const m = HEADER.exec(itemAt(lines, k));
    if (m) return splitDotted(itemAt(m, 1));
  }
  return [];
}

/** Reads the part of the line before the cursor: inline tables opened, the key being valued. */
function scanLine(before: string): { stack: string[]; valueKey?: string; inString: boolean; inArray: boolean } {
  const stack: string[] = [];
  let lastKey = '';
  let valueKey: string | undefined;
  let arrayDepth = 0;
  let k = 0;
  while (k < before.length) {
    const c = before.charAt(k);
    if (c === '"' || c === "'") {
      const end = before.indexOf(c, k + 1);
      if (end < 0) return { stack, valueKey, inString: true, inArray: arrayDepth > 0 };
      if (valueKey === undefined)
        lastKey = lastKey ? `${lastKey}${before.slice(k + 1, end)}` : before.slice(k + 1, end);
      k = end + 1;
      continue;
    }
    if (c === '#') break;
    if (c === '=') {
      valueKey = lastKey;
      lastKey = '';
    } else if (c === '{' && valueKey !== undefined) {
      stack.push(...valueKey.split('.'));
      valueKey = undefined;
      lastKey = '';
    } else if (c === '}') {
      stack.splice(stack.length - 1, 1);
      valueKey = undefined;
      lastKey = '';
    } else if (c === '[' && valueKey !== undefined) arrayDepth++;
    else if (c === ']') arrayDepth = Math.max(0, arrayDepth - 1);
    else if (c === ',' && arrayDepth === 0) {
      valueKey = undefined;
      lastKey = '';
    } else if (valueKey === undefined && /[A-Za-z0-9_.-]/.test(c)) lastKey += c;
    else if (valueKey === undefined && /\s/.test(c) && lastKey && !lastKey.endsWith('.')) {
      // `key =`: the space between a key and its `=` keeps the key.
    }
    k++;
  }
  return { stack, valueKey, inString: false, inArray: arrayDepth > 0 };
}

/** The context at a 1-based line and column. */
export function cursorContext(text: string, line: number, column: number): CursorContext {
  const lines = text.split('\n');
  const current = lines[line - 1] ?? '';
  const before = current.slice(0, column - 1);
  if (/^\s*\[\[?[^\]]*$/.test(before)) return { path: [], inString: false, inArray: false, header: true };
  const path = HEADER.test(current) ? [] : tablePathAt(lines, line - 2);
  const scan = scanLine(before);
  const full = [...path, ...scan.stack];
  if (scan.valueKey === undefined) return { path: full, inString: scan.inString, inArray: scan.inArray, header: false };
  // A dotted key (`conversation.kind = `) adds its leading parts to the path.
  const parts = scan.valueKey.split('.');
  return {
    path: [...full, ...parts.slice(0, -1)],
    valueKey: parts[parts.length - 1],
    inString: scan.inString,
    inArray: scan.inArray,
    header: false,
  };
}

/** Regions the blueprint declares (top level and per stage), in order of appearance. */
export function declaredRegions(text: string): string[] {
  const names: string[] = [];
  const add = (n: string) => {
    if (n && !names.includes(n)) names.push(n);
  };
  let table: string[] = [];
  for (const line of text.split('\n')) {
    const header = HEADER.exec(line);
    if (header) {
      table = splitDotted(itemAt(header, 1));
      const at = table.lastIndexOf('regions');
      if (at >= 0 && table.length === at + 2) add(itemAt(table, at + 1));
      continue;
    }
    if (table[table.length - 1] === 'regions') {
      const key = /^\s*(?:"([^"]+)"|([A-Za-z0-9_-]+))\s*[=.]/.exec(line);
      if (key) add(key[1] ?? itemAt(key, 2));
    }
  }
  return names;
}

/** Stages the blueprint declares. */
export function declaredStages(text: string): string[] {
  const names: string[] = [];
  for (const line of text.split('\n')) {
    const header = HEADER.exec(line);
    if (!header) continue;
    const path = splitDotted(itemAt(header, 1));
    if (path[0] === 'stages' && path[1] && !names.includes(path[1])) names.push(path[1]);
  }
  return names;
}

/** Whether `path` is a region's table; returns the region name. */
function regionOf(path: readonly string[]): string | undefined {
  const at = path.lastIndexOf('regions');
  const ok = at === 1 ? path[0] === 'context' : at === 3 && path[0] === 'stages' && path[2] === 'context';
  return ok && path.length === at + 2 ? path[at + 1] : undefined;
}

/** The kind written for a region, looked up in its header table or inline table. */
function kindOf(text: string, region: string, line: number): RegionKind | undefined {
  const lines = text.split('\n');
  const pick = (value: string | undefined): RegionKind | undefined => {
    if (!value) return undefined;
    if ((REGION_KINDS as readonly string[]).includes(value)) return value as RegionKind;
    return KIND_ALIASES[value];
  };
  // Inline: the cursor's own line.
  const inline = /kind\s*=\s*"([^"]*)"/.exec(lines[line - 1] ?? '');
  if (inline && (lines[line - 1] ?? '').includes('{')) return pick(inline[1]);
  // Header table: the lines under the header above the cursor, up to the next header.
  let start = line - 1;
  while (start > 0 && !HEADER.test(itemAt(lines, start - 1))) start--;
  for (let k = start; k < lines.length && (k === start || !HEADER.test(itemAt(lines, k))); k++) {
    const m = /^\s*kind\s*=\s*"([^"]*)"/.exec(itemAt(lines, k));
    if (m) return pick(m[1]);
  }
  // A dotted form under [context.regions]: `region.kind = "..."`.
  const dotted = new RegExp(
    `^\\s*"?${region.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"?\\s*\\.\\s*kind\\s*=\\s*"([^"]*)"`,
    'm',
  ).exec(text);
  return pick(dotted?.[1]);
}

/** Keys valid in the table at `path` (with the region's kind when it is a region). */
export function keysAt(text: string, path: readonly string[], line: number): readonly string[] {
  const region = regionOf(path);
  if (region !== undefined) {
    const kind = kindOf(text, region, line);
    return kind ? [...COMMON_KEYS, ...kindKeys(kind)] : [...COMMON_KEYS, ...new Set(REGION_KINDS.flatMap(kindKeys))];
  }
  const last = path[path.length - 1];
  if (last === 'seed') return SEED_TABLE_KEYS;
  if (path.length === 0) return TOP_KEYS;
  if (path[0] === 'context')
    return path.length === 1 ? CONTEXT_KEYS : path[1] === 'file_tracking' ? FILE_TRACKING_KEYS : [];
  if (path[0] === 'security') return SECURITY_KEYS;
  if (path[0] === 'safe_commands') return SAFE_COMMAND_KEYS;
  if (path[0] === 'read_paths') return READ_PATH_KEYS;
  if (path[0] !== 'stages' || path.length < 2) return [];
  const rest = path.slice(2);
  if (rest.length === 0) return STAGE_KEYS;
  if (rest[0] === 'context' && rest.length === 1) return STAGE_CONTEXT_KEYS;
  if (rest[0] === 'transitions') return rest.length === 2 ? TRANSITION_KEYS : rest[2] === 'gate' ? GATE_KEYS : [];
  if (rest[0] === 'tool_routing') {
    if (rest.length === 1) return ROUTING_KEYS;
    if (rest[1] === 'overrides' && rest.length === 3) return OVERRIDE_KEYS;
  }
  return [];
}

/** Keys written already in the table the cursor is in (so completion does not offer them again). */
function writtenKeys(text: string, line: number, inline: boolean): Set<string> {
  const lines = text.split('\n');
  const out = new Set<string>();
  if (inline) {
    for (const m of (lines[line - 1] ?? '').matchAll(/[{,]\s*([A-Za-z0-9_-]+)\s*=/g)) out.add(itemAt(m, 1));
    return out;
  }
  let start = line - 1;
  while (start > 0 && !HEADER.test(itemAt(lines, start - 1))) start--;
  for (let k = start; k < lines.length && (k === start || !HEADER.test(itemAt(lines, k))); k++) {
    if (k === line - 1) continue;
    const m = /^\s*([A-Za-z0-9_-]+)\s*=/.exec(itemAt(lines, k));
    if (m) out.add(itemAt(m, 1));
  }
  return out;
}

const ROUTING_REGION_KEYS = new Set(['default_region']);
const REGION_VALUED_KEYS = new Set(['source_region', 'require_no_open_items', 'default_region', 'region']);
const BOOLEAN_KEYS = new Set(['required', 'summarizable', 'persistent', 'enabled', 'allow_seed_commands']);

function strings(
  values: readonly string[],
  ctx: CursorContext,
  kind: ItemKind,
  docs?: Record<string, string>,
  detail?: string,
): CompletionItem[] {
  return values.map((v) => ({
    label: v,
    kind,
    insertText: ctx.inString ? v : `"${v}"`,
    detail,
    documentation: docs?.[v],
  }));
}

function valuesFor(ctx: CursorContext, text: string, files: readonly string[]): CompletionItem[] {
  const key = ctx.valueKey!;
  const path = ctx.path;
  const last = path[path.length - 1];
  if (key === 'kind' && regionOf(path) !== undefined)
    return strings([...REGION_KINDS, ...Object.keys(KIND_ALIASES)], ctx, 'value', VALUE_DOCS.kind, 'region kind');
  if (key === 'strategy')
    return strings(SLIDING_STRATEGIES, ctx, 'value', VALUE_DOCS.strategy, 'sliding_window strategy');
  if (key === 'admission') return strings(ADMISSIONS, ctx, 'value', VALUE_DOCS.admission, 'admission');
  if (key === 'transform') return strings(['compact'], ctx, 'value', VALUE_DOCS.transform, 'edge transform');
  if (BOOLEAN_KEYS.has(key) && !ctx.inString)
    return ['true', 'false'].map((v) => ({ label: v, insertText: v, kind: 'value' as const }));
  const regions = declaredRegions(text);
  const routing =
    last === 'overrides' || ROUTING_REGION_KEYS.has(key) || (key === 'region' && path.includes('tool_routing'));
  if (REGION_VALUED_KEYS.has(key) || last === 'overrides') {
    const names = routing ? [...regions, ...ALWAYS_VALID_TARGETS.filter((t) => !regions.includes(t))] : regions;
    return strings(names, ctx, 'region', undefined, 'region');
  }
  if (key === 'script' || (key === 'rhai' && last === 'seed'))
    return strings(
      files.filter((f) => f.endsWith('.rhai')),
      ctx,
      'file',
      undefined,
      'agent file',
    );
  if (key === 'files' && last === 'seed' && ctx.inArray) return strings(files, ctx, 'file', undefined, 'file');
  if (key === 'seed' && !ctx.inString) {
    const forms: CompletionItem[] = [
      { label: '"task_input"', insertText: '"task_input"', kind: 'value', documentation: VALUE_DOCS.seed?.task_input },
      { label: '"input"', insertText: '"input"', kind: 'value', documentation: VALUE_DOCS.seed?.input },
    ];
    for (const form of SEED_TABLE_KEYS) {
      forms.push({
        label: `{ ${form} = … }`,
        insertText: form === 'files' ? '{ files = [""] }' : `{ ${form} = "" }`,
        kind: 'snippet',
        documentation: keyDoc(form)?.meaning,
      });
    }
    return forms;
  }
  if (key === 'seed' && ctx.inString) return strings(['task_input', 'input'], ctx, 'value', VALUE_DOCS.seed);
  return [];
}

function tableNames(text: string): string[] {
  const regions = declaredRegions(text);
  const stages = declaredStages(text);
  const out = ['context.regions', 'context.file_tracking', 'safe_commands', 'read_paths', 'security'];
  for (const r of regions) out.push(`context.regions.${r}`);
  for (const s of stages) {
    out.push(
      `stages.${s}`,
      `stages.${s}.context.regions`,
      `stages.${s}.tool_routing`,
      `stages.${s}.tool_routing.overrides`,
      `stages.${s}.tool_routing.max_result_tokens_per_tool`,
    );
    for (const t of stages) if (t !== s) out.push(`stages.${s}.transitions.${t}`);
  }
  if (stages.length === 0) out.push('stages.main');
  return out;
}

/** Completion items at a 1-based line and column; `files` are the agent directory's paths. */
export function completeLeviath(
  text: string,
  line: number,
  column: number,
  files: readonly string[],
): CompletionItem[] {
  const ctx = cursorContext(text, line, column);
  if (ctx.header) return tableNames(text).map((t) => ({ label: t, insertText: t, kind: 'table' }));
  if (ctx.valueKey !== undefined) return valuesFor(ctx, text, files);
  if (ctx.inString) return [];
  const inline = (text.split('\n')[line - 1] ?? '').slice(0, column - 1).includes('{');
  const written = writtenKeys(text, line, inline);
  return keysAt(text, ctx.path, line)
    .filter((k) => !written.has(k))
    .map((k) => {
      const doc = keyDoc(k);
      return {
        label: k,
        insertText: `${k} = `,
        kind: 'key',
        detail: doc?.default ? `default ${doc.default}` : undefined,
        documentation: doc?.meaning,
      };
    });
}

/** Hover text for the word at a 1-based line and column, or null. */
export function hoverLeviath(text: string, line: number, column: number): { word: string; markdown: string } | null {
  const current = text.split('\n')[line - 1] ?? '';
  let start = column - 1;
  let end = column - 1;
  while (start > 0 && /[A-Za-z0-9_-]/.test(current.charAt(start - 1))) start--;
  while (end < current.length && /[A-Za-z0-9_-]/.test(current.charAt(end))) end++;
  const word = current.slice(start, end);
  if (!word) return null;
  const ctx = cursorContext(text, line, start + 1);
  // A value: the word sits in a string after `key =`.
  if (ctx.valueKey !== undefined && ctx.inString) {
    const doc = VALUE_DOCS[ctx.valueKey]?.[word];
    return doc ? { word, markdown: `**${ctx.valueKey} = "${word}"**\n\n${doc}` } : null;
  }
  const doc = keyDoc(word);
  if (!doc) return null;
  return { word, markdown: `**${word}**${doc.default ? ` (default ${doc.default})` : ''}\n\n${doc.meaning}` };
}

/**
 * The replacement a did-you-mean diagnostic proposes for the text it underlines, or null.
 * Keys are replaced bare; values keep TOML's quotes.
 */
export function didYouMeanFix(message: string, underlined: string, lineAfter: string): string | null {
  const table = /Did you mean \{ ([A-Za-z0-9_]+) = \.\.\. \}\?/.exec(message);
  if (table) return itemAt(table, 1);
  const quoted = /Did you mean "([^"]+)"\?/.exec(message);
  if (!quoted) return null;
  const isKey = /^\s*=/.test(lineAfter) && /^[A-Za-z0-9_-]+$/.test(underlined);
  return isKey ? itemAt(quoted, 1) : `"${quoted[1]}"`;
}
