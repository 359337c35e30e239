// Seeds: what each region holds before the first inference, in every form the spec lists, and every
// finding about them. The one place seed rules live: `lev validate`, the page and a run all call
// `resolveSeed` with the same inputs, so they report the same codes with the same words.
//
// Pure: reads only what it is given (the working directory, recorded command output, caller inputs)
// and runs `rhai` seed scripts through the runner passed in. Nothing outside the working directory
// is read unless `[read_paths]` grants it, and a seed whose paths escape reads nothing.
import type { Blueprint, RegionDecl, Seed } from './blueprint/types.ts';
import type { KeyPath } from './blueprint/locate.ts';
import type { Scenario } from './scenario.ts';
import type { Severity } from './diagnostics.ts';
import { commandIsSafe, readPathCovering } from './blueprint/policy.ts';
import { matchGlob, normalizeAny, normalizeRelative } from './blueprint/paths.ts';
import { closest } from './blueprint/suggest.ts';
import { own } from './names.ts';
import { itemAt } from './item-at.ts';

export interface SeedEntry {
  content: string;
  /** The file path for `files` / `glob` seeds, so a later write to the same key can find it. */
  key?: string;
  /** Where the content came from, e.g. `task_input`, `files:README.md`, `command:git log`. */
  source: string;
}

export interface SeedFinding {
  region: string;
  severity: Severity;
  /** A stable diagnostic code (`seed-path-escapes`, `command-seed-not-safe`, ...). */
  code: string;
  message: string;
  /** Where in the seed the finding points, below `...regions.<name>.seed` (`['files', 1]`). */
  at: KeyPath;
}

/** Everything a seed can read besides the blueprint. An absent field is unknown: its checks are skipped. */
export interface SeedInputs {
  /** The run's working directory, path -> text. */
  workdir?: Readonly<Record<string, string>>;
  /** Recorded stdout per command (a browser runs no shell). */
  commands?: Readonly<Record<string, string>>;
  /** The caller's inputs (`task`, keys named after regions, `caller`). */
  inputs?: Scenario['inputs'];
  /** Runs a `rhai` seed script (its normalized path and source) and returns the content. */
  runRhaiSeed?: (path: string, source: string) => string;
}

export interface ResolvedSeed {
  entries: SeedEntry[];
  findings: SeedFinding[];
}

/** One region's seed: its entries and every finding about it. */
export function resolveSeed(blueprint: Blueprint, region: RegionDecl, inputs: SeedInputs): ResolvedSeed {
  const findings: SeedFinding[] = [];
  if (!region.seed) return { entries: [], findings };
  const ctx: SeedContext = { blueprint, inputs, region: region.name, findings };
  const entries = resolveOne(region.seed, ctx).filter((e) => e.content.length > 0);
  return { entries, findings };
}

interface SeedContext {
  blueprint: Blueprint;
  inputs: SeedInputs;
  region: string;
  findings: SeedFinding[];
}

function report(ctx: SeedContext, severity: Severity, code: string, at: KeyPath, message: string): void {
  ctx.findings.push({ region: ctx.region, severity, code, message, at });
}

function resolveOne(seed: Seed, ctx: SeedContext): SeedEntry[] {
  switch (seed.type) {
    case 'task_input':
      return fromInput(ctx, 'task', 'task_input');
    case 'input':
      return fromInput(ctx, ctx.region, `input:${ctx.region}`);
    case 'key':
      return fromInput(ctx, seed.key, `input:${seed.key}`);
    case 'caller':
      return fromCaller(ctx, seed.name);
    case 'literal':
      return [{ content: seed.text, source: 'literal' }];
    case 'files':
      return fromFiles(ctx, seed.files);
    case 'glob':
      return fromGlob(ctx, seed.glob);
    case 'command':
      return fromCommand(ctx, seed.command);
    case 'rhai':
      return fromRhai(ctx, seed.script);
  }
}

// ---- caller inputs -------------------------------------------------------------------------

function fromInput(ctx: SeedContext, key: string, source: string): SeedEntry[] {
  const inputs = ctx.inputs.inputs;
  if (!inputs) return [];
  const value = own(inputs, key);
  const field = key === 'task' ? 'inputs.task' : `inputs["${key}"]`;
  if (value === undefined) {
    report(
      ctx,
      'warning',
      'seed-input-missing',
      [],
      `Region "${ctx.region}" is seeded from the caller key "${key}", but the scenario gives no ${field}, so it starts empty. Set ${field} in the scenario.`,
    );
    return [];
  }
  if (typeof value !== 'string') {
    report(
      ctx,
      'error',
      'seed-input-invalid',
      [],
      `${field} must be a string to seed region "${ctx.region}", not ${describeType(value)}.`,
    );
    return [];
  }
  return [{ content: value, source }];
}

function fromCaller(ctx: SeedContext, name: string): SeedEntry[] {
  const inputs = ctx.inputs.inputs;
  if (!inputs) return [];
  const value = inputs.caller ? own(inputs.caller, name) : undefined;
  if (value === undefined) {
    report(
      ctx,
      'warning',
      'seed-input-missing',
      ['caller'],
      `Region "${ctx.region}" is seeded from the parent's value "${name}", but inputs.caller has no "${name}", so it starts empty. Set inputs.caller["${name}"] in the scenario.`,
    );
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
export function seedsFromTask(region: RegionDecl): boolean {
  const seed = region.seed;
  return (
    seed?.type === 'task_input' ||
    (seed?.type === 'key' && seed.key === 'task') ||
    (seed?.type === 'input' && region.name === 'task')
  );
}

/**
 * No region seeded from the task: a run given a task is refused. An error when the inputs give a
 * task (the run will not start), a warning when they do not or are unknown (a run given one would be).
 */
export function taskSeedFinding(
  regions: readonly RegionDecl[],
  inputs: Scenario['inputs'] | undefined,
): { severity: Severity; message: string } | undefined {
  if (regions.some(seedsFromTask)) return undefined;
  // A region named almost `task` (tsk, tasks, Task) lost its implicit seed to the typo.
  const nearMiss = regions.find(
    (region) => region.name !== 'task' && region.seed === undefined && closest(region.name, ['task']) !== undefined,
  );
  const hint = nearMiss ? ` Region "${nearMiss.name}" would be, if it were named "task".` : '';
  const fix =
    ' Add a pinned region for it: task = { kind = "pinned", seed = "task_input" } (a region named task is seeded from the task implicitly).';
  if (inputs?.task !== undefined) {
    return {
      severity: 'error',
      message: `The scenario gives a task (inputs.task) but no region is seeded from it, so the run is refused rather than run without it.${hint}${fix}`,
    };
  }
  return {
    severity: 'warning',
    message: `No region is seeded from the task, so a run given a task is refused.${hint}${fix}`,
  };
}

// ---- working-directory paths -----------------------------------------------------------------

function pathAllowed(normalized: string, blueprint: Blueprint): boolean {
  return normalizeRelative(normalized) !== undefined || readPathCovering(normalized, blueprint.readPaths) !== undefined;
}

/** The working directory keyed by normalized path. */
function workdirIndex(workdir: Readonly<Record<string, string>>): Map<string, string> {
  const index = new Map<string, string>();
  for (const [path, content] of Object.entries(workdir)) index.set(normalizeAny(path), content);
  return index;
}

/** A long list of missing seed files is summarized after this many, so the list stays readable. */
const MAX_MISSING_REPORTED = 10;

const READ_PATHS_HINT = 'Use a path inside it, or declare the directory under [read_paths] paths = [...]';

function readPathsListed(blueprint: Blueprint): string {
  return blueprint.readPaths.length > 0 ? ` (current entries: ${blueprint.readPaths.join(', ')})` : '';
}

function reportGranted(ctx: SeedContext, at: KeyPath, paths: readonly string[]): void {
  const [first] = paths;
  if (first === undefined) return;
  const entry = readPathCovering(first, ctx.blueprint.readPaths);
  const list = paths.map((p) => `"${p}"`).join(', ');
  report(
    ctx,
    'info',
    'seed-path-via-read-paths',
    at,
    `${list} ${paths.length === 1 ? 'is' : 'are'} outside the working directory and allowed by [read_paths] entry "${entry}". A real run also needs that path granted in your config.`,
  );
}

function fromFiles(ctx: SeedContext, files: readonly string[]): SeedEntry[] {
  const normalized = files.map(normalizeAny);
  let refused = false;
  normalized.forEach((path, i) => {
    if (pathAllowed(path, ctx.blueprint)) {
      if (normalizeRelative(path) === undefined) reportGranted(ctx, ['files', i], [itemAt(files, i)]);
      return;
    }
    refused = true;
    report(
      ctx,
      'error',
      'seed-path-escapes',
      ['files', i],
      `Seed path "${files[i]}" leaves the working directory, so the seed of region "${ctx.region}" is refused at spawn and nothing is read. ${READ_PATHS_HINT}${readPathsListed(ctx.blueprint)}.`,
    );
  });
  const workdir = ctx.inputs.workdir;
  if (!workdir) return [];
  const index = workdirIndex(workdir);
  const entries: SeedEntry[] = [];
  let missing = 0;
  normalized.forEach((path, i) => {
    if (!pathAllowed(path, ctx.blueprint)) return;
    const content = index.get(path);
    if (content !== undefined) entries.push({ content, key: path, source: `files:${path}` });
    else if (++missing <= MAX_MISSING_REPORTED) {
      report(
        ctx,
        'warning',
        'seed-file-missing',
        ['files', i],
        `Seed file "${files[i]}" is not in the working directory, so region "${ctx.region}" gets nothing from it. Add the file or fix the path.`,
      );
    }
  });
  if (missing > MAX_MISSING_REPORTED) {
    report(
      ctx,
      'warning',
      'seed-file-missing',
      ['files'],
      `${missing - MAX_MISSING_REPORTED} more seed files of region "${ctx.region}" are not in the working directory (${missing} in all). Add them or fix the paths.`,
    );
  }
  return refused ? [] : entries;
}

/** Expanded first, then checked per match: `../*.toml` cannot be judged before it is expanded. */
function fromGlob(ctx: SeedContext, glob: string): SeedEntry[] {
  const workdir = ctx.inputs.workdir;
  if (!workdir) return [];
  const matches = matchGlob(glob, workdir);
  if (matches.length === 0) {
    report(
      ctx,
      'warning',
      'seed-glob-no-match',
      ['glob'],
      `Glob "${glob}" matches no file in the working directory, so region "${ctx.region}" starts empty. Check the pattern.`,
    );
    return [];
  }
  const escaping = matches.filter((path) => !pathAllowed(path, ctx.blueprint));
  for (const path of escaping) {
    report(
      ctx,
      'error',
      'seed-path-escapes',
      ['glob'],
      `Glob "${glob}" matches "${path}", which is outside the working directory, so the seed of region "${ctx.region}" is refused at spawn and nothing is read. Narrow the pattern, or declare the directory under [read_paths] paths = [...]${readPathsListed(ctx.blueprint)}.`,
    );
  }
  reportGranted(
    ctx,
    ['glob'],
    matches.filter((path) => normalizeRelative(path) === undefined && pathAllowed(path, ctx.blueprint)),
  );
  if (escaping.length > 0) return [];
  const index = workdirIndex(workdir);
  return matches.map((path) => ({ content: index.get(path)!, key: path, source: `glob:${path}` }));
}

// ---- commands ----------------------------------------------------------------------------------

/**
 * A refused command does not run and its region starts empty; the run goes on (spec: "it does not
 * run at all"). So every refusal is a warning, in validate and on the run's timeline alike.
 */
function fromCommand(ctx: SeedContext, command: string): SeedEntry[] {
  const at = ['command'];
  report(
    ctx,
    'info',
    'command-seed',
    at,
    `Region "${ctx.region}" is seeded by running \`${command}\` at spawn, before the first inference and before any approval prompt.`,
  );
  if (!ctx.blueprint.security.allowSeedCommands) {
    report(
      ctx,
      'warning',
      'command-seed-disabled',
      at,
      `[security] allow_seed_commands = false refuses command seeds, so \`${command}\` does not run and region "${ctx.region}" starts empty; the run goes on.`,
    );
    return [];
  }
  if (!commandIsSafe(command, ctx.blueprint.safeCommands)) {
    const prefix = command.trim().split(/\s+/).slice(0, 2).join(' ');
    report(
      ctx,
      'warning',
      'command-seed-not-safe',
      at,
      `Command seed \`${command}\` is not covered by [safe_commands], so it does not run at all and region "${ctx.region}" starts empty; the run goes on. It runs at spawn, before anyone can approve it: add it (or a prefix such as "${prefix}") to [safe_commands] allow = [...].`,
    );
    return [];
  }
  const commands = ctx.inputs.commands;
  if (!commands) return [];
  const output = Object.hasOwn(commands, command) ? commands[command] : undefined;
  if (output === undefined) {
    report(
      ctx,
      'warning',
      'command-seed-no-output',
      at,
      `The scenario records no stdout for \`${command}\`, so region "${ctx.region}" starts empty (a browser runs no shell). Add it under "commands" in the scenario.`,
    );
    return [];
  }
  return [{ content: output, source: `command:${command}` }];
}

// ---- rhai --------------------------------------------------------------------------------------

/**
 * A `rhai` seed script resolves against the working directory, like every seed path. It is code,
 * so `[read_paths]` does not let it leave (custom-region hook scripts are a different rule: they
 * live in the agent directory).
 */
function fromRhai(ctx: SeedContext, script: string): SeedEntry[] {
  const at = ['rhai'];
  const path = normalizeRelative(script);
  if (path === undefined) {
    report(
      ctx,
      'error',
      'seed-path-escapes',
      at,
      `Rhai seed script "${script}" leaves the working directory. Seed scripts are code, so [read_paths] does not cover them: move the script inside the working directory.`,
    );
    return [];
  }
  const workdir = ctx.inputs.workdir;
  if (!workdir) return [];
  const source = workdirIndex(workdir).get(path);
  if (source === undefined) {
    report(
      ctx,
      'warning',
      'seed-file-missing',
      at,
      `Rhai seed script "${script}" is not in the working directory, so region "${ctx.region}" starts empty. Add the file there or fix the path (rhai seeds resolve against the working directory, not the agent directory).`,
    );
    return [];
  }
  if (!ctx.inputs.runRhaiSeed) return [];
  try {
    return [{ content: ctx.inputs.runRhaiSeed(path, source), source: `rhai:${path}` }];
  } catch (error) {
    report(
      ctx,
      'warning',
      'seed-script-failed',
      at,
      `Rhai seed script "${script}" failed (${error instanceof Error ? error.message : String(error)}), so region "${ctx.region}" starts empty. Fix the script.`,
    );
    return [];
  }
}
