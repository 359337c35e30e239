// Seeds: what each region holds before the first inference, in every form the spec lists.
//
// Pure: reads only the scenario (its `workdir`, `commands`, `inputs`) and the agent map through
// `runRhaiSeed`. Nothing outside the working directory is read unless `[read_paths]` grants it,
// and a seed whose paths escape is refused before any of them is read.
import type { Blueprint, RegionDecl, Seed } from './blueprint/types.ts';
import type { Scenario } from './scenario.ts';
// The blueprint compiler judges commands and paths with these same functions, so `lev validate`
// and a run never disagree.
import { commandIsSafe, readPathCovering } from './blueprint/policy.ts';
import { globToRegExp } from './blueprint/paths.ts';

export interface SeedEntry {
  content: string;
  /** The file path for `files` / `glob` seeds, so a later write to the same key can find it. */
  key?: string;
  /** Where the content came from, e.g. `task_input`, `files:README.md`, `command:git log`. */
  source: string;
}

export type SeedSeverity = 'error' | 'warning' | 'info';

export interface SeedFinding {
  region: string;
  severity: SeedSeverity;
  message: string;
  /** A DESIGN.md diagnostic code when one fits (`seed-path-escapes`, `command-seed-not-safe`, ...). */
  code?: string;
}

export interface SeedResult {
  seeds: { region: string; entries: SeedEntry[] }[];
  findings: SeedFinding[];
  /** Set when the scenario gives a task but no region is seeded from it: the run must not start. */
  taskRefused?: string;
}

export interface SeedOptions {
  /** Runs a `rhai` seed script (path inside the agent map, and its source); returns the content. */
  runRhaiSeed?: (path: string, source: string) => string;
  /** `lev run --no-seed-commands`: refuse command seeds for this run only. */
  noSeedCommands?: boolean;
}

export function resolveSeeds(
  blueprint: Blueprint,
  regions: readonly RegionDecl[],
  scenario: Scenario,
  options: SeedOptions = {},
): SeedResult {
  const findings: SeedFinding[] = [];
  const seeds: SeedResult['seeds'] = [];
  for (const region of regions) {
    if (!region.seed) continue;
    const ctx: SeedContext = { blueprint, scenario, options, region: region.name, findings };
    const entries = resolveOne(region.seed, ctx).filter((e) => e.content.length > 0);
    seeds.push({ region: region.name, entries });
  }
  const taskRefused = refuseUnseededTask(regions, scenario);
  return taskRefused === undefined ? { seeds, findings } : { seeds, findings, taskRefused };
}

interface SeedContext {
  blueprint: Blueprint;
  scenario: Scenario;
  options: SeedOptions;
  region: string;
  findings: SeedFinding[];
}

function report(ctx: SeedContext, severity: SeedSeverity, message: string, code?: string): void {
  ctx.findings.push(code === undefined ? { region: ctx.region, severity, message } : { region: ctx.region, severity, message, code });
}

function resolveOne(seed: Seed, ctx: SeedContext): SeedEntry[] {
  switch (seed.type) {
    case 'task_input': return fromInput(ctx, 'task', 'task_input');
    case 'input': return fromInput(ctx, ctx.region, `input:${ctx.region}`);
    case 'key': return fromInput(ctx, seed.key, `input:${seed.key}`);
    case 'caller': return fromCaller(ctx, seed.name);
    case 'literal': return [{ content: seed.text, source: 'literal' }];
    case 'files': return fromFiles(ctx, seed.files);
    case 'glob': return fromGlob(ctx, seed.glob);
    case 'command': return fromCommand(ctx, seed.command);
    case 'rhai': return fromRhai(ctx, seed.script);
  }
}

// ---- caller inputs -------------------------------------------------------------------------

function fromInput(ctx: SeedContext, key: string, source: string): SeedEntry[] {
  const value = ctx.scenario.inputs[key];
  if (value === undefined) {
    const hint = key === 'task' ? 'set inputs.task (what `lev run --task` sets)' : `set inputs["${key}"]`;
    report(ctx, 'warning', `region "${ctx.region}" is seeded from the caller key "${key}", but the scenario gives none, so it starts empty; ${hint}`);
    return [];
  }
  if (typeof value !== 'string') {
    report(ctx, 'error', `inputs["${key}"] must be a string to seed region "${ctx.region}", got ${describeType(value)}`);
    return [];
  }
  return [{ content: value, source }];
}

function fromCaller(ctx: SeedContext, name: string): SeedEntry[] {
  const value = ctx.scenario.inputs.caller?.[name];
  if (value === undefined) {
    report(ctx, 'warning', `region "${ctx.region}" is seeded from the parent's value "${name}", but inputs.caller has no "${name}", so it starts empty`);
    return [];
  }
  return [{ content: value, source: `caller:${name}` }];
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Regions that take the task: `task_input`, `seed = "task"`, or `seed = "input"` on a region named task. */
function seedsFromTask(region: RegionDecl): boolean {
  const seed = region.seed;
  if (!seed) return false;
  return seed.type === 'task_input' || (seed.type === 'key' && seed.key === 'task') || (seed.type === 'input' && region.name === 'task');
}

function refuseUnseededTask(regions: readonly RegionDecl[], scenario: Scenario): string | undefined {
  if (scenario.inputs.task === undefined) return undefined;
  if (regions.some(seedsFromTask)) return undefined;
  return 'task refused: the scenario gives a task (inputs.task) but no region is seeded from it, so the agent would run without it; '
    + 'add seed = "task_input" to a region (a region named "task" gets it implicitly)';
}

// ---- working-directory paths -----------------------------------------------------------------

/**
 * Normalizes a seed path against the working directory: `\` becomes `/`, `.` and empty segments go,
 * `..` pops. The result is relative when it stays inside (`src/lib.rs`); a path that climbs out keeps
 * its leading `../` segments (`../notes.md`), and an absolute path stays absolute.
 */
export function normalizePath(path: string): string {
  const unified = path.replace(/\\/g, '/');
  const absolute = unified.startsWith('/') || /^[A-Za-z]:\//.test(unified);
  const out: string[] = [];
  let climbs = 0;
  for (const segment of unified.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (out.length > 0) out.pop();
      else if (!absolute) climbs++;
      continue;
    }
    out.push(segment);
  }
  const body = out.join('/');
  if (absolute) return unified.startsWith('/') ? `/${body}` : body;
  return '../'.repeat(climbs) + body;
}

export function isInsideWorkdir(normalized: string): boolean {
  return !normalized.startsWith('../') && normalized !== '..' && !normalized.startsWith('/') && !/^[A-Za-z]:/.test(normalized);
}

function pathAllowed(normalized: string, blueprint: Blueprint): boolean {
  return isInsideWorkdir(normalized) || readPathCovering(normalized, blueprint.readPaths) !== undefined;
}

/** The scenario's working directory keyed by normalized path (computed once per call site). */
function workdirIndex(scenario: Scenario): Map<string, string> {
  const index = new Map<string, string>();
  for (const [path, content] of Object.entries(scenario.workdir)) index.set(normalizePath(path), content);
  return index;
}

function escapeMessage(region: string, paths: readonly string[], what: string): string {
  const list = paths.map((p) => `"${p}"`).join(', ');
  return `${what} for region "${region}" refused: ${list} ${paths.length === 1 ? 'leaves' : 'leave'} the working directory; `
    + 'nothing was read. To read there on purpose, declare the path under [read_paths]';
}

function fromFiles(ctx: SeedContext, files: readonly string[]): SeedEntry[] {
  const normalized = files.map(normalizePath);
  const escaping = files.filter((_, i) => !pathAllowed(normalized[i]!, ctx.blueprint));
  if (escaping.length > 0) {
    report(ctx, 'error', escapeMessage(ctx.region, escaping, 'files seed'), 'seed-path-escapes');
    return [];
  }
  const workdir = workdirIndex(ctx.scenario);
  const entries: SeedEntry[] = [];
  normalized.forEach((path, i) => {
    const content = workdir.get(path);
    if (content === undefined) {
      report(ctx, 'warning', `files seed for region "${ctx.region}": "${files[i]}" is not in the working directory (scenario.workdir), so it is skipped`);
      return;
    }
    entries.push({ content, key: path, source: `files:${path}` });
  });
  return entries;
}

function fromGlob(ctx: SeedContext, glob: string): SeedEntry[] {
  const pattern = globToRegExp(normalizePath(glob));
  const matches = [...workdirIndex(ctx.scenario)].filter(([path]) => pattern.test(path)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  // Checked per match: `../*.toml` cannot be judged before it is expanded.
  const escaping = matches.filter(([path]) => !pathAllowed(path, ctx.blueprint)).map(([path]) => path);
  if (escaping.length > 0) {
    report(ctx, 'error', escapeMessage(ctx.region, escaping, `glob seed "${glob}"`), 'seed-path-escapes');
  }
  const allowed = matches.filter(([path]) => pathAllowed(path, ctx.blueprint));
  if (matches.length === 0) {
    report(ctx, 'warning', `glob seed "${glob}" for region "${ctx.region}" matches no file in the working directory, so the region starts empty`);
  }
  return allowed.map(([path, content]) => ({ content, key: path, source: `glob:${path}` }));
}

// ---- commands ----------------------------------------------------------------------------------

function fromCommand(ctx: SeedContext, command: string): SeedEntry[] {
  const why = commandRefusal(ctx, command);
  if (why !== undefined) {
    report(ctx, 'error', `command seed "${command}" for region "${ctx.region}" did not run: ${why}`, 'command-seed-not-safe');
    return [];
  }
  const stdout = ctx.scenario.commands[command];
  if (stdout === undefined) {
    report(ctx, 'warning', `command seed "${command}" for region "${ctx.region}": the scenario records no stdout for it; add it under "commands" (a browser runs no shell)`);
    return [];
  }
  return [{ content: stdout, source: `command:${command}` }];
}

function commandRefusal(ctx: SeedContext, command: string): string | undefined {
  if (!ctx.blueprint.security.allowSeedCommands) return '[security] allow_seed_commands = false refuses every command seed';
  if (ctx.options.noSeedCommands) return 'command seeds are refused for this run (--no-seed-commands)';
  if (!commandIsSafe(command, ctx.blueprint.safeCommands)) {
    return 'it runs at spawn, before anyone can approve it, so it must be covered by [safe_commands]; add it (or a prefix of it) there';
  }
  return undefined;
}

// ---- rhai --------------------------------------------------------------------------------------

function fromRhai(ctx: SeedContext, script: string): SeedEntry[] {
  const path = normalizePath(script);
  // Scripts have no [read_paths] escape: code the agent ships lives in the agent's own directory.
  if (!isInsideWorkdir(path)) {
    report(ctx, 'error', `rhai seed "${script}" for region "${ctx.region}" refused: a seed script must live inside the agent directory`, 'script-outside-agent-dir');
    return [];
  }
  const source = agentFile(ctx.scenario, path);
  if (source === undefined) {
    report(ctx, 'error', `rhai seed "${script}" for region "${ctx.region}": no such file in the agent directory`, 'custom-script-missing');
    return [];
  }
  if (!ctx.options.runRhaiSeed) {
    report(ctx, 'warning', `rhai seed "${script}" for region "${ctx.region}" was not run: no Rhai runner is available here`);
    return [];
  }
  try {
    return [{ content: ctx.options.runRhaiSeed(path, source), source: `rhai:${path}` }];
  } catch (error) {
    report(ctx, 'error', `rhai seed "${script}" for region "${ctx.region}" failed: ${error instanceof Error ? error.message : String(error)}`);
    return [];
  }
}

function agentFile(scenario: Scenario, normalized: string): string | undefined {
  for (const [path, source] of Object.entries(scenario.agent)) if (normalizePath(path) === normalized) return source;
  return undefined;
}
