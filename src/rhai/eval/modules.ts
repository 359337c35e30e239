// Modules (src/module/, module/resolvers/file.rs, eval/stmt.rs Stmt::Import): `import "path" as m`
// loads a script through the embedder's resolver, runs its top level once, and makes its exported
// variables (`m::x`), public functions (`m::f()`) and its own imports (`m::sub::..`) reachable.
// Imports are a stack on the run: a block drops the ones it made, a function call the ones its
// body made; the script's own top-level imports stay for the functions the host calls afterwards.
import { forEachStatement } from '../analysis.ts';
import type { Script, Stmt } from '../ast.ts';
import { RhaiError, type Pos } from '../errors.ts';
import type { Runtime } from '../runtime.ts';
import type { RhaiValue } from '../values.ts';
import { Env, RETURN, NONE } from './frame.ts';
import type { Program } from './program.ts';

/**
 * Finds the script an `import` names: `request` as written, `importer` the id of the importing
 * script (undefined for a script given without one). An id names one file; the same id is the
 * same module.
 */
export type ModuleResolver = (
  request: string,
  importer: string | undefined,
) => { id: string; source: string } | { error: string; reason?: string };

export interface ModuleImport {
  alias: string;
  module: ModuleInstance;
}

/** A module after its top level ran: what it exports, and what its functions run with. */
export interface ModuleInstance {
  readonly id: string;
  readonly program: Program;
  readonly vars: ReadonlyMap<string, RhaiValue>;
  readonly subModules: ReadonlyMap<string, ModuleInstance>;
  /** Its own top-level imports: what its functions see. */
  readonly environ: ModuleImport[];
  /** Its top-level constants: what `global::` means inside its functions. */
  readonly constants: Map<string, RhaiValue>;
}

export const moduleNotFound = (path: string, pos: Pos, why?: string, reason?: string): RhaiError => {
  const err = new RhaiError('ErrorModuleNotFound', `Module not found: ${path}${why ? ` (${why})` : ''}`, pos);
  err.fields = { module: path };
  if (reason !== undefined) err.reason = reason;
  return err;
};

/** ErrorInModule: a failure while loading the module `path`, as Rhai's `{err}\nin module '{path}'`. */
export function inModule(path: string, inner: RhaiError, pos: Pos, id: string): RhaiError {
  const err = new RhaiError('ErrorInModule', `${inner.message}\nin module '${path}'`, pos);
  err.inner = inner;
  err.innerKind = inner.innerKind ?? inner.kind;
  err.source = id;
  err.fields = { module: path };
  return err;
}

/** Errors that end the whole run: a module failing with one is not wrapped. */
const LIMIT_KINDS = new Set([
  'ErrorExit',
  'ErrorTooManyOperations',
  'ErrorStackOverflow',
  'ErrorDataTooLarge',
  'ErrorTerminated',
]);

/**
 * The modules one compiled script can reach: each file compiled once, each module's top level run
 * once (like Rhai's FileModuleResolver with its cache); later runs reuse the module.
 */
export class ModuleRegistry {
  private readonly programs = new Map<string, Program>();
  private readonly instances = new Map<string, ModuleInstance>();
  private readonly loading = new Set<string>();
  private readonly checked = new Set<string>();

  constructor(
    readonly resolve: ModuleResolver,
    private readonly compileModule: (source: string, id: string, registry: ModuleRegistry) => Program,
  ) {}

  /** The compiled module file `id` (a parse error in it is thrown as it is). */
  private programOf(id: string, source: string): Program {
    let program = this.programs.get(id);
    if (!program) {
      program = this.compileModule(source, id, this);
      this.programs.set(id, program);
    }
    return program;
  }

  /**
   * Compile time: every `import` with a literal path, in the script and, in turn, in each module it
   * reaches, must name a module that exists, parses and imports nothing it is imported from.
   * Throws ErrorModuleNotFound or ErrorInModule at the import's path.
   */
  check(script: Script, id: string | undefined, chain: string[] = id === undefined ? [] : [id]): void {
    for (const { request, pos } of literalImports(script)) {
      const found = this.resolve(request, id);
      if ('error' in found) throw moduleNotFound(request, pos, found.error, found.reason);
      if (chain.includes(found.id)) {
        const cycle = [...chain.slice(chain.indexOf(found.id)), found.id].join(' -> ');
        throw new RhaiError(
          'ErrorInModule',
          `Import cycle: ${cycle}; a module cannot import itself, directly or through others`,
          pos,
        );
      }
      if (this.checked.has(found.id)) continue;
      let program: Program;
      try {
        program = this.programOf(found.id, found.source);
        this.check(program.script, found.id, [...chain, found.id]);
      } catch (e) {
        if (e instanceof RhaiError && e.kind === 'ErrorParsing')
          throw inModule(request, withSource(e, found.id), pos, found.id);
        if (e instanceof RhaiError && (e.kind === 'ErrorInModule' || e.kind === 'ErrorModuleNotFound') && !e.source)
          e.source = found.id;
        if (e instanceof RhaiError && (e.kind === 'ErrorInModule' || e.kind === 'ErrorModuleNotFound'))
          throw inModule(request, e, pos, found.id);
        throw e;
      }
      this.checked.add(found.id);
    }
  }

  /** Run time: the module `request` names, seen from `importer`, its top level run on first use. */
  load(rt: Runtime, request: string, importer: string | undefined, pos: Pos): ModuleInstance {
    const found = this.resolve(request, importer);
    if ('error' in found) throw moduleNotFound(request, pos, found.error, found.reason);
    const ready = this.instances.get(found.id);
    if (ready) return ready;
    if (this.loading.has(found.id)) {
      throw new RhaiError(
        'ErrorInModule',
        `Import cycle: module '${request}' is imported while it is still loading`,
        pos,
      );
    }
    this.loading.add(found.id);
    try {
      const program = this.programOf(found.id, found.source);
      const instance = evaluateModule(rt, program, found.id);
      this.instances.set(found.id, instance);
      return instance;
    } catch (e) {
      if (e instanceof RhaiError && !LIMIT_KINDS.has(e.kind)) {
        throw inModule(request, e.kind === 'ErrorParsing' ? withSource(e, found.id) : e, pos, found.id);
      }
      throw e;
    } finally {
      this.loading.delete(found.id);
    }
  }
}

function withSource(e: RhaiError, id: string): RhaiError {
  e.source ??= id;
  return e;
}

/** `import "literal" ...` anywhere in the script, its functions included. */
function literalImports(script: Script): { request: string; pos: Pos }[] {
  const out: { request: string; pos: Pos }[] = [];
  const visit = (s: Stmt): void => {
    if (s.kind === 'import' && s.path.kind === 'literal' && typeof s.path.value === 'string')
      out.push({ request: s.path.value, pos: s.path.pos });
  };
  forEachStatement(script.body, visit);
  for (const fn of script.functions) forEachStatement(fn.body, visit);
  return out;
}

/**
 * Module::eval_ast_as_new: runs the module's top level in a frame of its own, with constants and
 * imports of its own; what it exports (at the end), its public functions and its imports (as
 * sub-modules) make the module.
 */
function evaluateModule(rt: Runtime, program: Program, id: string): ModuleInstance {
  const constants = new Map<string, RhaiValue>();
  const env = new Env(program.mainSlots, null, rt);
  env.exports = [];
  const environ = runIn(rt, program, constants, [], () => {
    program.main(env);
    if (rt.signal === RETURN) {
      rt.signal = NONE;
      rt.signalValue = undefined;
    }
    return rt.imports.slice(rt.importsBase);
  });
  const vars = new Map<string, RhaiValue>();
  for (const { alias, read } of env.exports.toReversed()) {
    if (!vars.has(alias)) vars.set(alias, read());
  }
  const subModules = new Map<string, ModuleInstance>();
  for (const { alias, module } of environ) if (alias !== '') subModules.set(alias, module);
  return { id, program, vars, subModules, environ, constants };
}

/**
 * Runs `body` as code of `program`: its functions are the ones Fn pointers name, `constants` are
 * `global::`, `imports` are visible on top of nothing else (a module's code does not see its
 * importer's imports); everything is restored afterwards.
 */
export function runIn<T>(
  rt: Runtime,
  program: Program,
  constants: Map<string, RhaiValue>,
  imports: ModuleImport[],
  body: () => T,
): T {
  const { program: outerProgram, globals, importsBase } = rt;
  const mark = rt.imports.length;
  rt.program = program;
  rt.globals = constants;
  rt.importsBase = mark;
  rt.imports.push(...imports);
  rt.callers.push(outerProgram);
  try {
    return body();
  } finally {
    rt.callers.pop();
    rt.program = outerProgram;
    rt.globals = globals;
    rt.importsBase = importsBase;
    rt.imports.length = mark;
  }
}

/** The module an `m::sub::` path names among the imports in sight, newest first. */
export function findModule(rt: Runtime, path: string[], pos: Pos): ModuleInstance {
  let found: ModuleInstance | undefined;
  for (let i = rt.imports.length - 1; i >= rt.importsBase; i--) {
    const entry = rt.imports[i];
    if (entry && entry.alias === path[0]) {
      found = entry.module;
      break;
    }
  }
  if (!found) throw moduleNotFound(path[0]!, pos);
  let current: ModuleInstance = found;
  for (let k = 1; k < path.length; k++) {
    const sub: ModuleInstance | undefined = current.subModules.get(path[k]!);
    if (!sub) throw moduleNotFound(path.slice(0, k + 1).join('::'), pos);
    current = sub;
  }
  return current;
}

/** A failure inside a module's function names the module file it happened in (Rhai's `source`). */
export function markSource(e: unknown, id: string): unknown {
  if (e instanceof RhaiError && e.source === undefined) {
    e.source = id;
    if (e.kind === 'ErrorInFunctionCall' && e.fields) e.fields = { ...e.fields, source: id };
  }
  return e;
}
