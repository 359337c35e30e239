// Loading custom-region scripts: read and compile-check once at spawn, call hooks with limits, and
// turn interpreter errors into positions. Also the compile check `lev validate` runs and the
// runner for `rhai` seeds. The engine never imports this module: RHAI is what callers pass it
// (rhai-host.ts), and the page's worker loads it on demand.
import { compile, type CompiledScript, type ModuleResolver } from '../rhai/index.ts';
import { RhaiError, errorLocation, innermost, isJsStackOverflow } from '../rhai/errors.ts';
import { displayString } from '../rhai/format.ts';
import { PLAYGROUND_LIMITS, type RhaiLimits } from '../rhai/limits.ts';
import type { ScriptChecker, ScriptFinding } from './blueprint/scriptCheck.ts';
import { normalizeRelative } from './blueprint/paths.ts';
import { inScript } from './script-activity.ts';
import { HOOK_NAMES, type CustomHooks, type HookFailure, type HookName, type RhaiHost } from './rhai-host.ts';
import { HOOK_IO } from './custom-hooks.ts';

/** DESIGN.md: every hook call runs with these limits (the same as `lev rhai`); hitting one is an ordinary script error. */
export const HOOK_LIMITS: RhaiLimits = PLAYGROUND_LIMITS;

/** A load-time problem: spawn fails, and `lev validate` reports the same code. */
export class CustomScriptError extends Error {
  constructor(
    readonly code: 'custom-script-missing' | ScriptFinding['code'],
    message: string,
    /** The script's path inside the agent directory. */
    readonly file: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(message);
    this.name = 'CustomScriptError';
  }
}

/**
 * Where a RhaiError points: the innermost position the error has, in the file it is in (the hook
 * script, or a module it imports when the error happened in that module's code).
 */
function errorPosition(error: RhaiError, file: string): { file: string; line: number; column: number } {
  return errorLocation(error, file);
}

/**
 * Modules for `import "path"` in agent scripts: files of the agent directory only. A path is
 * relative to the importing file's directory (the agent directory for a `rhai` seed, which lives in
 * the working directory), its extension is always `.rhai` (Rhai's FileModuleResolver), and one
 * that leaves the agent directory is refused, as script paths are. `readMissing` finds a module the
 * table lacks (lev reads the agent directory's modules as its scripts import them).
 */
export function agentModules(
  agent: Readonly<Record<string, string>>,
  readMissing?: (id: string) => string | undefined,
): ModuleResolver {
  return (request, importer) => {
    const dir = importer?.includes('/') ? importer.slice(0, importer.lastIndexOf('/') + 1) : '';
    const named = /^[a-zA-Z]:|^[\\/~]/.test(request) ? request : dir + request;
    const lastSlash = Math.max(named.lastIndexOf('/'), named.lastIndexOf('\\'));
    const dot = named.lastIndexOf('.');
    const withExtension = `${dot > lastSlash + 1 ? named.slice(0, dot) : named}.rhai`; // Path::set_extension
    const id = normalizeRelative(withExtension);
    if (id === undefined)
      return { error: `"${request}" leaves the agent directory; a module must live inside it`, reason: 'outside' };
    const source = findAgentFile(agent, id) ?? readMissing?.(id);
    if (source === undefined) return { error: `${id} is not in the agent directory`, reason: 'missing' };
    return { id, source };
  };
}

/** A module problem found when the script was compiled, as its diagnostic code. */
function moduleFindingCode(error: RhaiError): ScriptFinding['code'] {
  let cause: RhaiError = error;
  while (cause.inner && cause.kind === 'ErrorInModule') cause = cause.inner;
  if (cause.kind === 'ErrorModuleNotFound')
    return cause.reason === 'outside' ? 'script-outside-agent-dir' : 'script-import-missing';
  if (cause.kind === 'ErrorInModule') return 'script-import-cycle';
  return 'custom-script-invalid';
}

function errorDetail(error: RhaiError): string {
  return innermost(error).detail;
}

/** Resolves `script` inside the agent directory; scripts have no escape hatch. */
export function resolveScriptPath(script: string): string | undefined {
  return normalizeRelative(script);
}

/**
 * Reads and compile-checks a custom region's script once, at spawn. Throws CustomScriptError for a
 * missing file, a parse error (with the script's line and column) or no `fn render(ctx)`.
 */
export function loadCustomHooks(script: string, agent: Readonly<Record<string, string>>, region: string): CustomHooks {
  const file = resolveScriptPath(script);
  if (file === undefined) {
    throw new CustomScriptError(
      'script-outside-agent-dir',
      `custom region ${region}: script "${script}" leaves the agent directory; a custom-region script must live inside it`,
      script,
      0,
      0,
    );
  }
  const source = findAgentFile(agent, file);
  if (source === undefined) {
    throw new CustomScriptError(
      'custom-script-missing',
      `custom region ${region}: script "${script}" is not in the agent directory; create it with at least fn render(ctx)`,
      file,
      0,
      0,
    );
  }
  const finding = checkCustomScript(source, file, agent)[0];
  if (finding)
    throw new CustomScriptError(
      finding.code,
      `custom region ${region}: ${finding.message}`,
      finding.file ?? file,
      finding.line,
      finding.column,
    );
  return hooksOf(compile(source, { limits: HOOK_LIMITS, modules: { resolve: agentModules(agent), id: file } }), file);
}

function findAgentFile(agent: Readonly<Record<string, string>>, file: string): string | undefined {
  if (Object.hasOwn(agent, file)) return agent[file];
  for (const [path, source] of Object.entries(agent)) if (normalizeRelative(path) === file) return source;
  return undefined;
}

/**
 * A hook that hits a limit this many calls in a row is switched off for the rest of the run: each
 * runaway call costs a full operation budget (about half a second), and a replay calls hooks on
 * every event, so without this a `loop {}` in on_write would make a replay take minutes.
 */
export const RUNAWAY_STRIKES = 3;
const LIMIT_ERRORS: ReadonlySet<string> = new Set([
  'ErrorTooManyOperations',
  'ErrorDataTooLarge',
  'ErrorStackOverflow',
]);

function hooksOf(compiled: CompiledScript, file: string): CustomHooks {
  const present = new Set<HookName>(HOOK_NAMES.filter((h) => compiled.hasFunction(h, 1)));
  const strikes = new Map<HookName, { count: number; failure: HookFailure }>();
  return {
    file,
    io: HOOK_IO,
    has: (hook) => present.has(hook),
    call(hook, ctx) {
      const record = strikes.get(hook);
      if (record && record.count >= RUNAWAY_STRIKES) {
        const detail = `switched off for the rest of the run after ${RUNAWAY_STRIKES} calls in a row hit a limit (${record.failure.detail})`;
        return { ok: false, failure: { ...record.failure, detail } };
      }
      try {
        // Rhai values both ways: the readers judge the script's own types, so an on_overflow
        // answer of [1.0] is a FLOAT, refused like [1.5], not an integer that a JS round trip made.
        const value = inScript({ file, hook }, () => compiled.callRaw(hook, [ctx]));
        strikes.delete(hook);
        return { ok: true, value };
      } catch (error) {
        if (!(error instanceof RhaiError)) throw error;
        const failure: HookFailure = { hook, ...errorPosition(error, file), detail: errorDetail(error) };
        if (LIMIT_ERRORS.has(innermost(error).kind)) strikes.set(hook, { count: (record?.count ?? 0) + 1, failure });
        else strikes.delete(hook);
        return { ok: false, failure };
      }
    },
  };
}

/** The blueprint compiler's hook (`compileBlueprint(agent, { checkScript: checkCustomScript })`). */
export const checkCustomScript: ScriptChecker = (source, file, agent = {}) => {
  let compiled: CompiledScript;
  try {
    compiled = compile(source, { limits: HOOK_LIMITS, modules: { resolve: agentModules(agent), id: file } });
  } catch (error) {
    if (!(error instanceof RhaiError)) throw error;
    return [scriptFinding(error, file)];
  }
  if (compiled.hasFunction('render', 1)) return [];
  const wrong = compiled.functions().find((f) => f.name === 'render');
  const other = wrong
    ? ` (the render at line ${wrong.line} takes ${wrong.arity} parameter${wrong.arity === 1 ? '' : 's'}; it must take exactly ctx)`
    : '';
  const finding: ScriptFinding = {
    code: 'custom-render-missing',
    message: `${file} defines no fn render(ctx)${other}; render is the one required hook`,
    line: wrong?.line ?? 1,
    column: wrong?.column ?? 1,
  };
  return [finding];
};

/** A script that does not compile, as its finding: in the script itself, or in a module it imports. */
function scriptFinding(error: RhaiError, file: string): ScriptFinding {
  const at = errorPosition(error, file);
  const line = Math.max(1, at.line);
  const column = Math.max(1, at.column);
  const code = moduleFindingCode(error);
  const where = `(line ${line}, column ${column}${at.file === file ? '' : ` of ${at.file}`})`;
  const message =
    code === 'custom-script-invalid'
      ? `${at.file} does not parse: ${errorDetail(error)} ${where}`
      : `${file}: ${errorDetail(error)} ${where}`;
  return at.file === file ? { code, message, line, column } : { code, message, line, column, file: at.file };
}

/**
 * The runner seeds.ts takes for `seed = { rhai = "..." }`: runs the script once and uses its value.
 * A string is the content; an array gives one line per element; () is empty; anything else is its
 * Rhai `to_string` form. Its `import`s come from the agent directory. Errors are thrown with the
 * file, line and column they happened at.
 */
export function runRhaiSeed(path: string, source: string, agent: Readonly<Record<string, string>> = {}): string {
  try {
    const value = inScript({ file: path, hook: 'seed' }, () =>
      compile(source, { limits: HOOK_LIMITS, modules: { resolve: agentModules(agent) } }).run(),
    );
    if (Array.isArray(value)) return value.map(displayString).join('\n');
    return displayString(value);
  } catch (error) {
    // Text of a value nested thousands of levels deep overflows the JS stack: say so, by file.
    if (isJsStackOverflow(error)) throw new Error(`${path}: the script's value is nested too deeply to turn into text`);
    if (!(error instanceof RhaiError)) throw error;
    const at = errorPosition(error, path);
    throw new Error(`${at.file} line ${at.line}, column ${at.column}: ${errorDetail(error)}`);
  }
}

/** The interpreter as the engine takes it (rhai-host.ts): spread into ReplayOptions, e.g. `replay(scenario, { ...BUILT_IN_TRAFFIC, ...RHAI })`. */
export const RHAI: RhaiHost = { runRhaiSeed, checkScript: checkCustomScript, loadCustomHooks };
