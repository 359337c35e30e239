// `lev validate PATH [--json] [--workdir DIR]`: check an agent directory, an agent.leviath file or a
// scenario JSON. Exit 0 when clean (warnings and info allowed), 1 with errors, 2 on bad usage.
import { readdirSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import {
  compileBlueprint,
  normalizeRelative,
  AGENT_FILE,
  type Blueprint,
  hasErrors,
  type Diagnostic,
  ScenarioSchema,
  validateScenario,
  jsonErrorPosition,
  locateJson,
  nameTable,
  itemAt,
} from '../engine/index.ts';
import { agentModules, checkCustomScript, RHAI } from '../engine/custom-script.ts';
import { compile, RhaiError } from '../rhai/index.ts';
import { scenarioIssueDiagnostics } from '../scenarios/issues.ts';
import {
  BLUEPRINT_INPUT,
  EXIT_FINDINGS,
  EXIT_OK,
  inputFinding,
  parseArgs,
  readProblem,
  readText,
  SCENARIO_INPUT,
  SCRIPT_INPUT,
  unknownFlag,
  usageError,
  type Command,
  type InputLimit,
} from './io.ts';

export const USAGE =
  'usage: lev validate PATH [--json] [--workdir DIR]  (PATH: agent directory, agent.leviath or scenario .json)';
/** Directory walks stop here: enough for any agent or project, bounded for a mistaken `lev validate /`. */
const MAX_WALK_FILES = 20_000;
const SKIPPED_DIRS = new Set(['node_modules', '.git', 'dist', '.hg', '.svn']);

interface Target {
  /** Prefix for human output so editors and terminals can open the file. */
  displayDir: string;
  diagnostics: Diagnostic[];
}

export const run: Command = async (args) => {
  const parsed = parseArgs(args, ['workdir']);
  const bad = unknownFlag(parsed, ['json', 'workdir']);
  if (bad) return usageError(`validate: unknown option --${bad}\n${USAGE}`);
  if (parsed.positional.length !== 1) return usageError(`validate: expected one PATH\n${USAGE}`);
  const workdirFlag = parsed.flags.get('workdir');
  if (workdirFlag === true) return usageError(`validate: --workdir needs a directory\n${USAGE}`);

  const path = itemAt(parsed.positional, 0);
  const stats = statOrUndefined(path);
  if (!stats) return usageError(`validate: ${path}: no such file or directory`);
  if (workdirFlag !== undefined && !statOrUndefined(workdirFlag)?.isDirectory()) {
    return usageError(`validate: --workdir ${workdirFlag}: not a directory`);
  }

  let target: Target;
  try {
    if (stats.isDirectory()) {
      if (!statOrUndefined(join(path, AGENT_FILE))?.isFile()) {
        return usageError(
          `validate: ${path} has no ${AGENT_FILE}; pass an agent directory, an ${AGENT_FILE} file or a scenario .json`,
        );
      }
      target = validateAgentDir(path, readAgentDir(path), workdirFlag);
    } else if (path.endsWith('.json')) {
      target = validateScenarioFile(path);
    } else {
      target = validateAgentDir(dirname(path), readAgentDir(dirname(path), readBlueprintFile(path)), workdirFlag);
      target = reportAs(target, basename(path));
    }
  } catch (error) {
    if (!(error instanceof AgentFileError)) throw error;
    target = {
      displayDir: error.dir,
      diagnostics: [
        { code: error.code, severity: 'error', message: error.message, file: error.file, line: 1, column: 1, path: '' },
      ],
    };
  }

  if (parsed.flags.has('json')) console.log(JSON.stringify({ diagnostics: target.diagnostics.map(designFields) }));
  else printHuman(target);
  return hasErrors(target.diagnostics) ? EXIT_FINDINGS : EXIT_OK;
};

// The working directory is where a run would start: the current directory unless --workdir says.
function validateAgentDir(dir: string, agent: Record<string, string>, workdirFlag: string | undefined): Target {
  const workdir = listFiles(workdirFlag ?? process.cwd());
  return {
    displayDir: dir,
    diagnostics: compileBlueprint(agent, { workdir, checkScript: checkCustomScript }).diagnostics,
  };
}

function validateScenarioFile(path: string): Target {
  const display = basename(path);
  const fail = (code: string, message: string, line = 1, column = 1, key = ''): Target => ({
    displayDir: '',
    diagnostics: [{ code, severity: 'error', message, file: display, line, column, path: key }],
  });
  let source: string;
  try {
    source = readText(path, SCENARIO_INPUT);
  } catch (error) {
    const finding = inputFinding(error, path, 'scenario-too-large');
    if (!finding) throw error;
    return fail(finding.code, finding.message);
  }
  let json: unknown;
  try {
    json = JSON.parse(source);
  } catch (err) {
    const { line, column } = jsonErrorPosition(source, err);
    return fail(
      'json-syntax',
      `Scenario is not valid JSON: ${(err as Error).message}. Fix the JSON at this position.`,
      line,
      column,
    );
  }
  const scenario = ScenarioSchema.safeParse(json);
  if (!scenario.success) {
    return {
      displayDir: '',
      diagnostics: scenarioIssueDiagnostics(scenario.error, display, (keyPath) => locateJson(source, keyPath)),
    };
  }
  return {
    displayDir: '',
    diagnostics: validateScenario(scenario.data, RHAI).diagnostics,
  };
}

/** A blueprint passed under another name (`lev validate staging.leviath`) is reported under that name. */
function reportAs(target: Target, blueprintFile: string): Target {
  if (blueprintFile === AGENT_FILE) return target;
  return {
    ...target,
    diagnostics: target.diagnostics.map((d) => (d.file === AGENT_FILE ? { ...d, file: blueprintFile } : d)),
  };
}

/** Exactly the fields DESIGN.md promises (the editor-only end positions are left out). */
function designFields({ code, severity, message, file, line, column, path }: Diagnostic) {
  return { code, severity, message, file, line, column, path };
}

function printHuman({ displayDir, diagnostics }: Target): void {
  for (const d of diagnostics) {
    const file = displayDir && displayDir !== '.' ? join(displayDir, d.file) : d.file;
    console.log(`${file}:${d.line}:${d.column} ${d.severity} ${d.code}: ${d.message}`);
  }
  const count = (severity: Diagnostic['severity']): number => diagnostics.filter((d) => d.severity === severity).length;
  const errors = count('error');
  const warnings = count('warning');
  console.log(
    diagnostics.length === 0
      ? 'ok: no problems found'
      : `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}, ${count('info')} info`,
  );
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** A file of an agent directory that cannot be read: its diagnostic code, and where it is. */
export class AgentFileError extends Error {
  constructor(
    readonly dir: string,
    readonly file: string,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'AgentFileError';
  }
}

/** One file of an agent directory (`name` is how diagnostics call it), read within `limit`. */
function readAgentFile(path: string, name: string, limit: InputLimit, dir = dirname(path)): string {
  try {
    return readText(path, limit);
  } catch (error) {
    const finding = inputFinding(
      error,
      name,
      limit === BLUEPRINT_INPUT ? 'blueprint-too-large' : 'agent-file-too-large',
    );
    const problem = finding ?? { code: 'agent-file-unreadable', message: readProblem(error, name) };
    if (problem.message === undefined) throw error;
    throw new AgentFileError(dir, name, problem.code, problem.message);
  }
}

/** A blueprint given by its path (`lev validate staging.leviath`, `lev import --agent`); diagnostics call it by its name. */
export function readBlueprintFile(path: string): string {
  return readAgentFile(path, basename(path), BLUEPRINT_INPUT);
}

/**
 * The agent directory as path -> text: agent.leviath and the scripts its custom regions name
 * (nothing else of an agent directory is read by a run), each read within its limit, so pointing
 * at a large project reads neither its files nor its file list. Throws AgentFileError.
 */
export function readAgentDir(dir: string, blueprintText?: string): Record<string, string> {
  const agent = nameTable<string>([
    [AGENT_FILE, blueprintText ?? readAgentFile(join(dir, AGENT_FILE), AGENT_FILE, BLUEPRINT_INPUT, dir)],
  ]);
  const { blueprint } = compileBlueprint(agent, { checkScript: checkCustomScript });
  const read = (file: string): string | undefined => {
    const full = join(dir, file);
    if (!statOrUndefined(full)?.isFile()) return undefined;
    return (agent[file] = readAgentFile(full, file, SCRIPT_INPUT, dir));
  };
  for (const script of blueprint ? customScripts(blueprint) : []) {
    const file = normalizeRelative(script);
    if (file === undefined || Object.hasOwn(agent, file)) continue;
    const source = read(file);
    if (source === undefined) continue;
    // The modules it imports, and theirs in turn, are read as the compile check resolves them; a
    // script that does not compile is reported by the validation that follows.
    try {
      compile(source, { modules: { resolve: agentModules(agent, read), id: file } });
    } catch (error) {
      if (!(error instanceof RhaiError)) throw error;
    }
  }
  return agent;
}

function customScripts(blueprint: Blueprint): string[] {
  const regions = [...blueprint.regions, ...blueprint.stages.flatMap((s) => s.regions ?? [])];
  return regions.flatMap((r) => (r.kind === 'custom' && r.script !== undefined ? [r.script] : []));
}

/**
 * The working directory's file names (contents are not needed to validate). Over the walk limit the
 * listing is incomplete, so undefined is returned and existence checks are skipped rather than wrong.
 */
function listFiles(dir: string): Record<string, string> | undefined {
  const files = walk(dir);
  if (files.length >= MAX_WALK_FILES) return undefined;
  return nameTable<string>(files.map((f) => [f, '']));
}

function walk(root: string): string[] {
  const out: string[] = [];
  const pending = [root];
  while (pending.length > 0 && out.length < MAX_WALK_FILES) {
    const dir = pending.pop()!;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue; // unreadable directories are simply not part of the listing
    }
    for (const entry of entries) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) pending.push(full);
      } else if (entry.isFile()) {
        out.push(relative(root, full).split(sep).join('/'));
      }
    }
  }
  return out;
}
