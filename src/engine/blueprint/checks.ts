// Checks across declarations: seeds against the working directory and [safe_commands], scripts
// against the agent directory, gates, routing, source regions and file tracking.
import type { Blueprint, RegionDecl, StageDecl } from './types.ts';
import type { KeyPath } from './locate.ts';
import type { Reporter } from './report.ts';
import type { ScriptChecker, ScriptFinding } from './scriptCheck.ts';
import { globCanEscape, matchGlob, normalizeRelative } from './paths.ts';
import { commandIsSafe, readPathCovering, readPathCoveringGlob } from './policy.ts';
import { closest, didYouMean } from './suggest.ts';

/** Targets the runtime always carries, valid in every stage whatever its layout. */
export const ALWAYS_VALID_TARGETS = ['conversation', 'tool_results', 'final_output', 'stage_instructions'] as const;

/** A long list of missing seed files is summarized after this many, so the list stays readable. */
const MAX_MISSING_REPORTED = 10;

/** One `regions` table: the top-level one (no stage) or a stage's own layout. */
export interface Layout {
  stage?: string;
  regions: RegionDecl[];
  path: KeyPath;
}

export interface CheckInput {
  blueprint: Blueprint;
  layouts: Layout[];
  agent: Record<string, string>;
  workdir?: Record<string, string>;
  commands?: Record<string, string>;
  checkScript?: ScriptChecker;
  regionsForStage: (stage: string | undefined) => RegionDecl[];
}

export function runChecks(r: Reporter, input: CheckInput): void {
  for (const layout of input.layouts) {
    for (const region of layout.regions) {
      const path = [...layout.path, region.name];
      checkSeed(r, input, region, path);
      if (region.kind === 'custom') checkScript(r, input, region, path);
      if (region.sourceRegion !== undefined) checkSourceRegion(r, input, region, path);
    }
  }
  checkTaskSeeded(r, input);
  for (const stage of input.blueprint.stages) {
    checkGates(r, input, stage);
    checkRouting(r, input, stage);
  }
  checkFileTracking(r, input);
}

function allRegions(input: CheckInput): RegionDecl[] {
  return input.layouts.flatMap((l) => l.regions);
}

function declaredNames(input: CheckInput): string[] {
  return [...new Set(allRegions(input).map((r) => r.name))];
}

function checkSeed(r: Reporter, input: CheckInput, region: RegionDecl, regionPath: KeyPath): void {
  const seed = region.seed;
  if (!seed) return;
  const { blueprint, workdir } = input;
  const seedPath = [...regionPath, 'seed'];
  switch (seed.type) {
    case 'command': {
      const path = [...seedPath, 'command'];
      r.add('command-seed', 'info', path,
        `Region "${region.name}" is seeded by running \`${seed.command}\` at spawn, before the first inference and before any approval prompt.`, 'value');
      if (!blueprint.security.allowSeedCommands) {
        r.add('command-seed-disabled', 'warning', path,
          `[security] allow_seed_commands = false refuses command seeds, so \`${seed.command}\` will not run and region "${region.name}" starts empty.`, 'value');
      } else if (!commandIsSafe(seed.command, blueprint.safeCommands)) {
        r.error('command-seed-not-safe', path,
          `Command seed \`${seed.command}\` is not covered by [safe_commands], so it does not run at all. Add it (or a prefix such as "${seed.command.trim().split(/\s+/).slice(0, 2).join(' ')}") to [safe_commands] allow = [...].`, 'value');
      } else if (input.commands && !Object.hasOwn(input.commands, seed.command)) {
        r.add('command-seed-no-output', 'warning', path,
          `The scenario records no stdout for \`${seed.command}\`, so region "${region.name}" starts empty (a browser runs no shell). Add it under "commands" in the scenario.`, 'value');
      }
      return;
    }
    case 'files': {
      const missing: string[] = [];
      seed.files.forEach((file, i) => {
        if (!checkSeedFile(r, input, region, file, [...seedPath, 'files', i], missing.length < MAX_MISSING_REPORTED)) missing.push(file);
      });
      if (missing.length > MAX_MISSING_REPORTED) {
        r.add('seed-file-missing', 'warning', [...seedPath, 'files'],
          `${missing.length - MAX_MISSING_REPORTED} more seed files of region "${region.name}" are not in the working directory (${missing.length} in all). Add them or fix the paths.`);
      }
      return;
    }
    case 'glob':
      checkSeedGlob(r, input, region, seed.glob, [...seedPath, 'glob']);
      return;
    case 'rhai': {
      const path = [...seedPath, 'rhai'];
      const inside = normalizeRelative(seed.script);
      if (inside === undefined) {
        r.error('seed-path-escapes', path,
          `Rhai seed script "${seed.script}" leaves the working directory. Seed scripts are code, so [read_paths] does not cover them: move the script inside the working directory.`, 'value');
      } else if (workdir && !Object.hasOwn(workdir, inside) && !Object.hasOwn(workdir, seed.script)) {
        const inAgent = Object.hasOwn(input.agent, inside);
        r.add('seed-file-missing', 'warning', path,
          `Rhai seed script "${seed.script}" is not in the working directory, so region "${region.name}" starts empty.${inAgent ? ' It is in the agent directory, but rhai seeds resolve against the working directory.' : ''} Add the file or fix the path.`, 'value');
      }
      return;
    }
    default:
      return;
  }
}

/** Reports an escaping path; returns false when the file is missing from the working directory. */
function checkSeedFile(r: Reporter, input: CheckInput, region: RegionDecl, file: string, path: KeyPath, reportMissing: boolean): boolean {
  const inside = normalizeRelative(file);
  if (inside === undefined) {
    reportEscape(r, input, file, readPathCovering(file, input.blueprint.readPaths), path);
    return true;
  }
  if (!input.workdir || Object.hasOwn(input.workdir, inside) || Object.hasOwn(input.workdir, file)) return true;
  if (reportMissing) {
    r.add('seed-file-missing', 'warning', path,
      `Seed file "${file}" is not in the working directory, so region "${region.name}" gets nothing from it. Add the file or fix the path.`, 'value');
  }
  return false;
}

function checkSeedGlob(r: Reporter, input: CheckInput, region: RegionDecl, glob: string, path: KeyPath): void {
  if (globCanEscape(glob)) {
    reportEscape(r, input, glob, readPathCoveringGlob(glob, input.blueprint.readPaths), path);
    return;
  }
  if (!input.workdir) return;
  const matches = matchGlob(glob, input.workdir);
  // Matches are checked one by one: a working-directory map may itself name paths like `../x`.
  const escaping = matches.filter((m) => normalizeRelative(m) === undefined && !readPathCovering(m, input.blueprint.readPaths));
  for (const match of escaping) {
    r.error('seed-path-escapes', path,
      `Glob "${glob}" matches "${match}", which is outside the working directory. Narrow the pattern, or declare the directory under [read_paths] paths = [...].`, 'value');
  }
  if (matches.length === 0) {
    r.add('seed-glob-no-match', 'warning', path,
      `Glob "${glob}" matches no file in the working directory, so region "${region.name}" starts empty. Check the pattern.`, 'value');
  }
}

function reportEscape(r: Reporter, input: CheckInput, target: string, coveredBy: string | undefined, path: KeyPath): void {
  if (coveredBy !== undefined) {
    r.add('seed-path-via-read-paths', 'info', path,
      `"${target}" is outside the working directory and allowed by [read_paths] entry "${coveredBy}". A real run also needs that path granted in your config.`, 'value');
    return;
  }
  const declared = input.blueprint.readPaths.length > 0 ? ` (current entries: ${input.blueprint.readPaths.join(', ')})` : '';
  r.error('seed-path-escapes', path,
    `Seed path "${target}" leaves the working directory and is refused at spawn. Use a path inside it, or declare the directory under [read_paths] paths = [...]${declared}.`, 'value');
}

function checkScript(r: Reporter, input: CheckInput, region: RegionDecl, regionPath: KeyPath): void {
  if (region.script === undefined) {
    r.error('custom-script-missing', regionPath,
      `Custom region "${region.name}" needs a script: add script = "context_hooks/${region.name}.rhai" (relative to the agent directory) defining fn render(ctx).`);
    return;
  }
  const path = [...regionPath, 'script'];
  const file = normalizeRelative(region.script);
  if (file === undefined) {
    r.error('script-outside-agent-dir', path,
      `Script "${region.script}" is outside the agent directory. Scripts must live in the blueprint's own directory (there is no [read_paths] escape for code): move it there and use a relative path.`, 'value');
    return;
  }
  const source = [file, region.script].filter((f) => Object.hasOwn(input.agent, f)).map((f) => input.agent[f]!)[0];
  if (source === undefined) {
    r.error('custom-script-missing', path,
      `Script "${region.script}" for custom region "${region.name}" does not exist in the agent directory. Create it (with fn render(ctx)) or fix the path.`, 'value');
    return;
  }
  for (const finding of runScriptCheck(input.checkScript, source, file)) {
    r.diagnostics.push({ code: finding.code, severity: 'error', message: finding.message, file, line: finding.line, column: finding.column, path: '' });
  }
}

// A checker that throws (a parser overwhelmed by a pathological script) still yields a finding.
function runScriptCheck(check: ScriptChecker | undefined, source: string, file: string): ScriptFinding[] {
  if (!check) return [];
  try {
    return check(source, file);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return [{ code: 'custom-script-invalid', message: `${file} could not be checked (${reason}). Simplify the script.`, line: 1, column: 1 }];
  }
}

function checkSourceRegion(r: Reporter, input: CheckInput, region: RegionDecl, regionPath: KeyPath): void {
  const names = declaredNames(input);
  if (names.includes(region.sourceRegion!)) return;
  r.error('source-region-undeclared', [...regionPath, 'source_region'],
    `source_region "${region.sourceRegion}" names no declared region.${didYouMean(region.sourceRegion!, names)} Name the region whose summaries roll forward.`, 'value');
}

// What the spec's "seeds a region from the task" means: task_input, the caller's `task` key by name,
// or `input` on a region named task (the caller key named after the region).
function seedsFromTask(region: RegionDecl): boolean {
  const seed = region.seed;
  return seed?.type === 'task_input' || (seed?.type === 'key' && seed.key === 'task') ||
    (seed?.type === 'input' && region.name === 'task');
}

function checkTaskSeeded(r: Reporter, input: CheckInput): void {
  const regions = allRegions(input);
  if (regions.some(seedsFromTask)) return;
  const anchor = input.layouts[0]?.path ?? ['context', 'regions'];
  // A region named almost `task` (tsk, tasks, Task) lost its implicit seed to the typo.
  const nearMiss = regions.find((region) => region.name !== 'task' && region.seed === undefined && closest(region.name, ['task']) !== undefined);
  const hint = nearMiss ? ` Region "${nearMiss.name}" would be, if it were named "task".` : '';
  r.add('task-not-seeded', 'warning', anchor,
    `No region is seeded from the task, so a run given a task is refused.${hint} Add a pinned region for it: task = { kind = "pinned", seed = "task_input" } (a region named task is seeded from the task implicitly).`);
}

function checkGates(r: Reporter, input: CheckInput, stage: StageDecl): void {
  const names = declaredNames(input);
  for (const transition of stage.transitions) {
    const wanted = transition.gate?.requireNoOpenItems;
    if (wanted === undefined) continue;
    const path = ['stages', stage.name, 'transitions', transition.to, 'gate', 'require_no_open_items'];
    const region = input.regionsForStage(stage.name).find((x) => x.name === wanted) ?? allRegions(input).find((x) => x.name === wanted);
    if (!region) {
      r.error('gate-region-undeclared', path,
        `Gate requires no open items in "${wanted}", but no stage declares a region by that name, so it would always pass.${didYouMean(wanted, names)} Declare ${wanted} = { kind = "checklist" } or fix the name.`, 'value');
    } else if (region.kind !== 'checklist') {
      r.error('gate-region-not-checklist', path,
        `Gate requires no open items in "${wanted}", which is a ${region.kind} region; only a checklist has open items, so the gate would always pass. Make ${wanted} kind = "checklist" or gate on a checklist.`, 'value');
    }
  }
}

function checkRouting(r: Reporter, input: CheckInput, stage: StageDecl): void {
  const routing = stage.toolRouting;
  if (!routing) return;
  const base = ['stages', stage.name, 'tool_routing'];
  const visible = input.regionsForStage(stage.name).map((x) => x.name);
  const check = (target: string, path: KeyPath, what: string): void => {
    if (visible.includes(target) || (ALWAYS_VALID_TARGETS as readonly string[]).includes(target)) return;
    const declaredElsewhere = declaredNames(input).includes(target);
    const where = stage.regions !== undefined ? `[stages.${stage.name}.context.regions]` : '[context.regions]';
    const reason = declaredElsewhere
      ? `stage "${stage.name}" cannot see region "${target}" (its layout leaves it out), so results written there could not be read back. Add ${target} to ${where}.`
      : `no region named "${target}" is declared.${didYouMean(target, [...visible, ...ALWAYS_VALID_TARGETS])} Declare it in ${where} or route to a region stage "${stage.name}" can see.`;
    r.error('routing-target-not-visible', path, `${what} routes into "${target}", but ${reason}`, 'value');
  };
  if (routing.defaultRegion !== undefined) check(routing.defaultRegion, [...base, 'default_region'], 'default_region');
  for (const [tool, override] of Object.entries(routing.overrides)) {
    if (override.region === undefined) continue;
    const path = [...base, 'overrides', tool];
    // A table override points at its `region` key's value, a plain name at the value itself.
    const at = r.has([...path, 'region']) ? [...path, 'region'] : path;
    check(override.region, at, `The override for \`${tool}\``);
  }
}

function checkFileTracking(r: Reporter, input: CheckInput): void {
  const tracking = input.blueprint.fileTracking;
  if (!tracking?.enabled) return;
  const path = ['context', 'file_tracking'];
  const regions = allRegions(input);
  if (tracking.region !== undefined) {
    const region = regions.find((x) => x.name === tracking.region);
    if (region?.kind === 'hashmap') return;
    const problem = region ? `"${tracking.region}" is a ${region.kind} region` : `no region named "${tracking.region}" is declared`;
    r.error('file-tracking-needs-hashmap', [...path, 'region'],
      `[context.file_tracking] needs a hashmap region, and ${problem}. Point region at a kind = "hashmap" region.`, 'value');
    return;
  }
  const hashmap = regions.find((x) => x.kind === 'hashmap');
  if (hashmap) {
    tracking.region = hashmap.name;
    return;
  }
  r.error('file-tracking-needs-hashmap', path,
    '[context.file_tracking] requires a hashmap region to record files in, and none is declared. Add files = { kind = "hashmap" } (or set enabled = false).');
}
