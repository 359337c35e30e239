// The blueprint compiler: `agent.leviath` TOML -> a typed Blueprint with every default applied,
// plus diagnostics (code, severity, file, line, column, key path, what to do).
import { STAGE_INSTRUCTIONS } from '../implicit-regions.ts';
import { parse, TomlError } from 'smol-toml';
import type { Diagnostic } from '../diagnostics.ts';
import type { Blueprint, RegionDecl } from './types.ts';
import { KeyIndex, type KeyPath } from './locate.ts';
import { boolean, describe, isTable, text, Reporter, type Table } from './report.ts';
import { compileRegionTable, compileStage } from './stageDecl.ts';
import { runChecks, type Layout } from './checks.ts';
import type { ScriptChecker } from './scriptCheck.ts';
import { NO_RHAI } from '../rhai-host.ts';
import { z } from 'zod';
import type { SeedInputs } from '../seeds.ts';
import { fmt } from '../format.ts';
import { MAX_BLUEPRINT_BYTES, MAX_REGIONS } from '../limits.ts';

export type * from './types.ts';
export { REGION_KINDS, SLIDING_STRATEGIES } from './types.ts';
export { ALWAYS_VALID_TARGETS } from './checks.ts';
export { commandIsSafe, readPathCovering } from './policy.ts';
export { matchGlob, normalizeRelative } from './paths.ts';
export { parsePercent, DEFAULT_MAX_TOKENS, DEFAULT_MAX_ITEMS, DEFAULT_REQUIRED_MESSAGE } from './regions.ts';
export type { ScriptChecker, ScriptFinding } from './scriptCheck.ts';

export const AGENT_FILE = 'agent.leviath';
/** Larger blueprints are refused before parsing (limits.ts). */
export { MAX_BLUEPRINT_BYTES };
/** Inline tables/arrays nested deeper than this are a syntax error (no blueprint needs more than ~5). */
const MAX_INLINE_DEPTH = 100;

export interface CompileResult {
  blueprint?: Blueprint;
  diagnostics: Diagnostic[];
}

export interface CompileOptions extends SeedInputs {
  /** Compile-checks custom-region scripts (the hook point; see scriptCheck.ts). Default: DEFAULT_SCRIPT_CHECK. */
  checkScript?: ScriptChecker;
  /** The model's context window, when a scenario names the model; budgets are judged against it. */
  window?: { tokens: number; model: string };
}

/**
 * Without a caller's checker (custom-script.ts's checkCustomScript parses each script with the Rhai
 * interpreter and requires `fn render(ctx)`), a custom region's script is a finding that says so.
 */
export const DEFAULT_SCRIPT_CHECK: ScriptChecker = NO_RHAI.checkScript;

export const TOP_KEYS = ['context', 'stages', 'safe_commands', 'read_paths', 'security'];
export const CONTEXT_KEYS = ['regions', 'file_tracking'];
export const SAFE_COMMAND_KEYS = ['allow', 'commands'];
export const READ_PATH_KEYS = ['paths', 'allow'];
export const SECURITY_KEYS = ['allow_seed_commands'];
export const FILE_TRACKING_KEYS = ['enabled', 'region'];
const stringList = z.array(z.string());

/**
 * `agent` is the blueprint's directory as path -> text and must contain "agent.leviath".
 * The blueprint is returned whenever the TOML parses, even with errors: a value that fails a check
 * falls back to its default (an unknown kind reads as temporary), and the error says so. Callers
 * that must honour the spec's hard errors refuse to run when any diagnostic has severity "error".
 */
export function compileBlueprint(agent: Record<string, string>, options: CompileOptions = {}): CompileResult {
  const source = Object.hasOwn(agent, AGENT_FILE) ? agent[AGENT_FILE] : undefined;
  if (typeof source !== 'string') {
    return {
      diagnostics: [
        fileDiagnostic(
          'agent-file-missing',
          'The agent directory has no agent.leviath. Create it with a [context.regions] table.',
        ),
      ],
    };
  }
  const size = byteLength(source);
  if (size > MAX_BLUEPRINT_BYTES) {
    return {
      diagnostics: [
        fileDiagnostic(
          'blueprint-too-large',
          `agent.leviath is ${fmt(size)} bytes; blueprints over ${fmt(MAX_BLUEPRINT_BYTES)} bytes are refused. Is this the right file?`,
        ),
      ],
    };
  }
  const parsed = parseToml(source);
  if ('diagnostic' in parsed) return { diagnostics: [parsed.diagnostic] };

  const r = new Reporter(AGENT_FILE, safeIndex(source));
  const excess = regionPastLimit(parsed.doc);
  if (excess) {
    r.error(
      'too-many-regions',
      excess,
      `A blueprint declares at most ${fmt(MAX_REGIONS)} regions (each name counted once across [context.regions] and every stage), so that the page can draw them; ` +
        `\`${excess.at(-1)}\` is region ${fmt(MAX_REGIONS + 1)}. Merge regions, or split the agent.`,
    );
    return { diagnostics: r.diagnostics };
  }
  try {
    const { blueprint, layouts } = buildBlueprint(r, parsed.doc);
    const { checkScript = DEFAULT_SCRIPT_CHECK, window, ...seedInputs } = options;
    runChecks(r, {
      blueprint,
      layouts,
      agent,
      seedInputs,
      checkScript,
      window,
      regionsForStage: (stage) => regionsForStage(blueprint, stage),
    });
    return { blueprint, diagnostics: sortDiagnostics(r.diagnostics) };
  } catch (err) {
    // A bug here must not take the editor or the CLI down with it: report it like any finding.
    const reason = err instanceof Error ? err.message : String(err);
    return {
      diagnostics: [
        ...r.diagnostics,
        fileDiagnostic(
          'internal-error',
          `The blueprint compiler failed (${reason}). Please report this with the blueprint.`,
        ),
      ],
    };
  }
}

/**
 * The regions visible in a stage: its own layout if it declares one, else the top-level regions.
 * `stage_instructions` is never hidden by a stage that omits it: it holds the entering stage's own
 * prompt. Its first declaration (top-level, else the earliest stage layout declaring it) is carried
 * into every stage declared from that point on whose layout leaves it out.
 */
export function regionsForStage(blueprint: Blueprint, stageName: string | undefined): RegionDecl[] {
  const at = stageName === undefined ? -1 : blueprint.stages.findIndex((s) => s.name === stageName);
  const stage = blueprint.stages[at];
  if (stage === undefined) return blueprint.regions;
  const own = stage.regions ?? blueprint.regions;
  if (own.some((r) => r.name === STAGE_INSTRUCTIONS)) return own;
  const instructions = firstInstructions(blueprint, at);
  return instructions ? [...own, instructions] : own;
}

/** The first `stage_instructions` declaration at the top level or in a stage declared before `before`. */
function firstInstructions(blueprint: Blueprint, before: number): RegionDecl | undefined {
  const top = blueprint.regions.find((r) => r.name === STAGE_INSTRUCTIONS);
  if (top) return top;
  for (const stage of blueprint.stages.slice(0, before)) {
    const found = stage.regions?.find((r) => r.name === STAGE_INSTRUCTIONS);
    if (found) return found;
  }
  return undefined;
}

/**
 * smol-toml notices an unclosed `{` or `[` only where the next line starts (TOML 1.1 lets them
 * span lines). When the line before the error opens one and leaves it open, the missing `}` or `]`
 * belongs at the end of that line: point there, and name the opener.
 */
export function syntaxFaultAt(
  source: string,
  line: number,
  column: number,
): { line: number; column: number; opener?: string } {
  if (column !== 1 || line <= 1) return { line, column };
  const lines = source.split('\n');
  let k = line - 2;
  while (k > 0 && lines[k]?.trim() === '') k--;
  const text = (lines[k] ?? '').replace(/\r$/, '');
  // The last bracket on that line left open (strings skipped).
  const open: { ch: string; col: number }[] = [];
  for (let c = 0; c < text.length; c++) {
    const ch = text.charAt(c);
    if (ch === '"' || ch === "'") {
      const end = text.indexOf(ch, c + 1);
      if (end < 0) break;
      c = end;
      continue;
    }
    if (ch === '#') break;
    if (ch === '{' || ch === '[') open.push({ ch, col: c + 1 });
    else if ((ch === '}' || ch === ']') && open.length) open.pop();
  }
  const opener = open.at(-1);
  return {
    line: k + 1,
    column: text.length + 1,
    opener: opener ? `the \`${opener.ch}\` at line ${k + 1}, column ${opener.col} is never closed` : undefined,
  };
}

/**
 * The key path of the first region name past MAX_REGIONS, counting each name once across the top
 * level and every stage's layout; read off the parsed TOML, so 10,000 regions are never compiled.
 */
function regionPastLimit(doc: Table): KeyPath | undefined {
  const layouts: [KeyPath, unknown][] = [
    [['context', 'regions'], isTable(doc.context) ? doc.context.regions : undefined],
  ];
  if (isTable(doc.stages)) {
    for (const [stage, body] of Object.entries(doc.stages)) {
      if (isTable(body) && isTable(body.context))
        layouts.push([['stages', stage, 'context', 'regions'], body.context.regions]);
    }
  }
  const names = new Set<string>();
  for (const [path, regions] of layouts) {
    if (!isTable(regions)) continue;
    for (const name of Object.keys(regions)) {
      names.add(name);
      if (names.size > MAX_REGIONS) return [...path, name];
    }
  }
  return undefined;
}

/**
 * smol-toml reads integers as JavaScript numbers and refuses one it cannot hold exactly. Past
 * 2^53 - 1 the value is often valid TOML (which allows 64-bit integers), so it is called too large,
 * at its key, with the largest whole number the playground reads.
 */
function numberTooLarge(source: string, line: number, column: number): Diagnostic {
  const text = source.split(/\r?\n/)[line - 1] ?? '';
  const number =
    /^[+-]?(?:0x[0-9a-fA-F_]+|0o[0-7_]+|0b[01_]+|[0-9_]+)/.exec(text.slice(column - 1))?.[0] ?? 'this number';
  const key = /([A-Za-z0-9_-]+|"[^"]*"|'[^']*')\s*=\s*$/.exec(text.slice(0, column - 1))?.[1];
  let value: bigint | undefined;
  try {
    value = BigInt(number.replace(/_/g, '').replace(/^\+/, ''));
  } catch {
    value = undefined;
  }
  const beyondToml = value !== undefined && (value > 2n ** 63n - 1n || value < -(2n ** 63n));
  const message =
    `${key ? `\`${key}\` = ${number}` : number} is too large: the playground reads whole numbers from ${fmt(Number.MIN_SAFE_INTEGER)} to ${fmt(Number.MAX_SAFE_INTEGER)} (2^53 - 1)` +
    `${beyondToml ? ', and TOML itself stops at 64-bit integers (9,223,372,036,854,775,807)' : ''}. Use a smaller number.`;
  return {
    ...fileDiagnostic('number-too-large', message),
    line,
    column,
    endLine: line,
    endColumn: column + number.length,
  };
}

/** Keys smol-toml refuses although the TOML is valid: JavaScript gives them a meaning on every object. */
const RESERVED_KEYS = /__proto__|constructor/;

function reservedKey(source: string, line: number, column: number): Diagnostic {
  const text = source.split(/\r?\n/)[line - 1] ?? '';
  const name =
    RESERVED_KEYS.exec(text.slice(Math.max(0, column - 1)))?.[0] ?? RESERVED_KEYS.exec(text)?.[0] ?? '__proto__';
  const message =
    `The name "${name}" is reserved here: the file is valid TOML, but JavaScript gives "${name}" a special meaning on every object, ` +
    `so the playground cannot use it as a key. Rename it (for example "my_${name.replace(/_/g, '')}").`;
  return { ...fileDiagnostic('toml-reserved-key', message), line, column };
}

function parseToml(source: string): { doc: Table } | { diagnostic: Diagnostic } {
  try {
    return { doc: parse(source, { maxDepth: MAX_INLINE_DEPTH, unsafeKeyBehaviour: 'throw' }) };
  } catch (err) {
    if (err instanceof TomlError) {
      const [firstLine = ''] = err.message.replace(/^Invalid TOML document:\s*/, '').split('\n');
      const reason = firstLine.trim().replace(/\.+$/, '');
      if (reason === 'document contains an unsafe property')
        return { diagnostic: reservedKey(source, err.line, err.column) };
      if (reason === 'integer value cannot be represented losslessly')
        return { diagnostic: numberTooLarge(source, err.line, err.column) };
      const at = syntaxFaultAt(source, err.line, err.column);
      if (!at.opener)
        return {
          diagnostic: {
            ...fileDiagnostic('toml-syntax', `TOML syntax error: ${reason}. Fix this line so the file is valid TOML.`),
            line: err.line,
            column: err.column,
          },
        };
      return {
        diagnostic: {
          ...fileDiagnostic(
            'toml-syntax',
            `TOML syntax error: ${reason}: ${at.opener}. Fix this line: close it (or add the missing comma).`,
          ),
          line: at.line,
          column: at.column,
        },
      };
    }
    // A stack overflow or similar inside the parser: still a located, readable answer.
    const reason = err instanceof Error ? err.message : String(err);
    return {
      diagnostic: fileDiagnostic(
        'toml-syntax',
        `agent.leviath could not be parsed (${reason}). Is it TOML? Simplify deeply nested tables.`,
      ),
    };
  }
}

// The locator only runs on TOML the parser accepted; should it ever trip, positions fall back to 1:1.
function safeIndex(source: string): KeyIndex | undefined {
  try {
    return new KeyIndex(source);
  } catch {
    return undefined;
  }
}

function buildBlueprint(r: Reporter, doc: Table): { blueprint: Blueprint; layouts: Layout[] } {
  r.unknownKeys(doc, [], TOP_KEYS, 'the blueprint', 'open');
  const context = tableAt(r, doc, 'context', []);
  r.unknownKeys(context, ['context'], CONTEXT_KEYS, '[context]', 'open');
  const regionsPath = ['context', 'regions'];
  const blueprint: Blueprint = {
    regions: compileRegionTable(r, context.regions, regionsPath),
    stages: [],
    safeCommands: readList(r, doc, 'safe_commands', SAFE_COMMAND_KEYS, 'commands like "git log"'),
    readPaths: readList(r, doc, 'read_paths', READ_PATH_KEYS, 'paths like "../shared"'),
    security: readSecurity(r, doc),
  };
  const fileTracking = readFileTracking(r, context);
  if (fileTracking) blueprint.fileTracking = fileTracking;

  const layouts: Layout[] = [{ regions: blueprint.regions, path: regionsPath }];
  const stages = tableAt(r, doc, 'stages', []);
  const stageNames = r.inSourceOrder(stages, ['stages']);
  for (const name of stageNames) {
    const stage = compileStage(r, name, stages[name], stageNames);
    if (!stage) continue;
    blueprint.stages.push(stage);
    if (stage.regions)
      layouts.push({ stage: name, regions: stage.regions, path: ['stages', name, 'context', 'regions'] });
  }
  return { blueprint, layouts };
}

/** `doc[key]` when it is a table; an empty table (and an error if it is something else) otherwise. */
function tableAt(r: Reporter, parent: Table, key: string, path: KeyPath): Table {
  const value = parent[key];
  if (value === undefined) return {};
  if (isTable(value)) return value;
  r.error(
    'invalid-value',
    [...path, key],
    `\`${[...path, key].join('.')}\` must be a table ([${[...path, key].join('.')}]), not ${describe(value)}.`,
    'value',
  );
  return {};
}

/**
 * `[safe_commands] allow = [...]` / `[read_paths] paths = [...]`, or the bare array form
 * `safe_commands = [...]`. Either list key of a section is accepted and they are merged.
 */
function readList(r: Reporter, doc: Table, section: string, keys: readonly string[], what: string): string[] {
  const value = doc[section];
  if (value === undefined) return [];
  const example = `[${section}] ${keys[0]} = [...]`;
  if (Array.isArray(value))
    return r.read(doc, section, [], stringList, `an array of ${what}, or a table: ${example}`) ?? [];
  if (!isTable(value)) {
    r.error(
      'invalid-value',
      [section],
      `\`${section}\` must be written as ${example} with ${what}, not ${describe(value)}.`,
      'value',
    );
    return [];
  }
  r.unknownKeys(value, [section], keys, `[${section}]`);
  return keys.flatMap((key) => r.read(value, key, [section], stringList, `an array of ${what}`) ?? []);
}

function readSecurity(r: Reporter, doc: Table): Blueprint['security'] {
  const security = tableAt(r, doc, 'security', []);
  r.unknownKeys(security, ['security'], SECURITY_KEYS, '[security]');
  return { allowSeedCommands: r.read(security, 'allow_seed_commands', ['security'], boolean, 'true or false') ?? true };
}

function readFileTracking(r: Reporter, context: Table): Blueprint['fileTracking'] {
  if (context.file_tracking === undefined) return undefined;
  const table = tableAt(r, context, 'file_tracking', ['context']);
  const path = ['context', 'file_tracking'];
  r.unknownKeys(table, path, FILE_TRACKING_KEYS, '[context.file_tracking]');
  const tracking: NonNullable<Blueprint['fileTracking']> = {
    enabled: r.read(table, 'enabled', path, boolean, 'true or false') ?? true,
  };
  const region = r.read(table, 'region', path, text, 'the name of a hashmap region');
  if (region !== undefined) tracking.region = region;
  return tracking;
}

function fileDiagnostic(code: string, message: string): Diagnostic {
  return { code, severity: 'error', message, file: AGENT_FILE, line: 1, column: 1, path: '' };
}

function byteLength(source: string): number {
  return new TextEncoder().encode(source).length;
}

/** By file (agent.leviath first), line, column; ties keep report order (sort is stable). */
function sortDiagnostics(diagnostics: Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) =>
      (a.file === b.file ? 0 : a.file === AGENT_FILE ? -1 : b.file === AGENT_FILE ? 1 : a.file < b.file ? -1 : 1) ||
      a.line - b.line ||
      a.column - b.column,
  );
}
