// Public API of the Rhai interpreter: compile once, run or call many times.
import { parse, type ParseMode } from './parser.ts';
import { Program } from './eval/program.ts';
import { ModuleRegistry, type ModuleResolver } from './eval/modules.ts';
import { isJsStackOverflow, RhaiError } from './errors.ts';
import { resolveLimits, type RhaiLimits } from './limits.ts';
import { Runtime } from './runtime.ts';
import { toRhai, fromRhai } from './convert.ts';
import type { RhaiValue } from './values.ts';
import { adoptValue, cloneValue } from './copy.ts';

export { RhaiError, errorLocation } from './errors.ts';
export type { ModuleResolver } from './eval/modules.ts';
export { DEFAULT_LIMITS, LIMIT_DESCRIPTIONS, PLAYGROUND_LIMITS, type RhaiLimits } from './limits.ts';
export { toRhai, fromRhai } from './convert.ts';
export { debugString, displayString } from './format.ts';
export type { RhaiValue, RhaiMap, RhaiArray } from './values.ts';
export { RhaiFloat, RhaiChar, RhaiRange, FnPtr } from './values.ts';

export interface RunOptions {
  limits?: RhaiLimits;
  onPrint?: (text: string) => void;
  onDebug?: (text: string) => void;
}

export interface CompiledScript {
  hasFunction(name: string, arity: number): boolean;
  functions(): { name: string; arity: number; line: number; column: number }[];
  /** Calls a script function; args are JS values converted with toRhai; result converted with fromRhai. Throws RhaiError. */
  call(name: string, args: unknown[], options?: RunOptions): unknown;
  /** Like call, but Rhai values in and out (no conversion, so FLOAT 2.0 stays a FLOAT). Arguments are copied. */
  callRaw(name: string, args: RhaiValue[], options?: RunOptions): RhaiValue;
  /** Runs the script's top-level statements; returns the raw Rhai value. */
  run(options?: RunOptions): RhaiValue;
}

class Compiled implements CompiledScript {
  constructor(
    private readonly program: Program,
    private readonly limits: RhaiLimits | undefined,
  ) {}

  hasFunction(name: string, arity: number): boolean {
    return this.program.fns.has(`${name}/${arity}`);
  }

  functions(): { name: string; arity: number; line: number; column: number }[] {
    return [...this.program.fns.values()].map((f) => ({
      name: f.name,
      arity: f.arity,
      line: f.def.pos.line,
      column: f.def.pos.column,
    }));
  }

  private runtime(options: RunOptions | undefined): Runtime {
    const limits = resolveLimits(this.limits, options?.limits);
    return new Runtime(limits, options?.onPrint ?? (() => {}), options?.onDebug ?? (() => {}));
  }

  run(options?: RunOptions): RhaiValue {
    return this.program.runMain(this.runtime(options));
  }

  /** Like Rhai's Engine::call_fn: the top-level statements run first, then the function. */
  call(name: string, args: unknown[], options?: RunOptions): unknown {
    // toRhai builds new arrays and maps, so the script may have them without a copy.
    const value = this.callWith(name, args.map(toRhai), adoptValue, options);
    try {
      return fromRhai(value);
    } catch (e) {
      // A result nested too deeply to convert is the function's fault: point at its definition.
      const fn = this.program.fns.get(`${name}/${args.length}`);
      if (e instanceof RhaiError && !e.hasPosition() && fn) e.setPosition(fn.def.pos);
      throw e;
    }
  }

  callRaw(name: string, args: RhaiValue[], options?: RunOptions): RhaiValue {
    return this.callWith(name, args, cloneValue, options);
  }

  private callWith(
    name: string,
    args: RhaiValue[],
    take: (rt: Runtime, v: RhaiValue) => RhaiValue,
    options: RunOptions | undefined,
  ): RhaiValue {
    const runtime = this.runtime(options);
    const rhaiArgs = args.map((arg) => take(runtime, arg));
    this.program.runMain(runtime);
    return this.program.callFunction(runtime, name, rhaiArgs);
  }
}

export interface CompileOptions {
  limits?: RhaiLimits;
  /**
   * Where `import "path"` finds modules, and this script's own id (the path imports are relative
   * to). Without it, an `import` is ErrorModuleNotFound. Every literal import path is checked here,
   * at compile time: a missing module, one that does not parse, and an import cycle are thrown
   * (ErrorModuleNotFound / ErrorInModule) with the import's line and column.
   */
  modules?: { resolve: ModuleResolver; id?: string };
}

/** Parses and compiles a script. Throws RhaiError kind 'ErrorParsing' with line/column. */
export function compile(source: string, options?: CompileOptions): CompiledScript {
  return compileAs(source, 'script', options);
}

/** Parses and compiles one expression (Rhai's `Engine::compile_expression`): statements are a parse error. */
export function compileExpression(source: string, options?: CompileOptions): CompiledScript {
  return compileAs(source, 'expression', options);
}

function compileAs(source: string, mode: ParseMode, options?: CompileOptions): CompiledScript {
  const limits = resolveLimits(options?.limits);
  try {
    const script = parse(source, limits, mode);
    const modules = options?.modules;
    if (!modules) return new Compiled(new Program(script), options?.limits);
    const registry = new ModuleRegistry(
      modules.resolve,
      (text, id, reg) => new Program(parse(text, limits), { id, modules: reg }),
    );
    registry.check(script, modules.id);
    return new Compiled(new Program(script, { id: modules.id, modules: registry }), options?.limits);
  } catch (e) {
    if (isJsStackOverflow(e)) throw new RhaiError('ErrorParsing', 'Script is nested too deeply to parse');
    throw e;
  }
}

/** Compiles and runs a script, collecting `print` output (and also passing it to onPrint). */
export function evaluate(
  source: string,
  options?: RunOptions & Pick<CompileOptions, 'modules'>,
): { value: RhaiValue; prints: string[] } {
  const prints: string[] = [];
  const script = compile(source, { limits: options?.limits, modules: options?.modules });
  const value = script.run({
    ...options,
    onPrint: (text) => {
      prints.push(text);
      options?.onPrint?.(text);
    },
  });
  return { value, prints };
}

/** The first syntax error of a script, for editor markers; null when it compiles. */
export function checkSyntax(
  source: string,
  options?: { limits?: RhaiLimits },
): { message: string; line: number; column: number } | null {
  try {
    parse(source, resolveLimits(options?.limits)); // every syntax error is found by the parser
    return null;
  } catch (e) {
    if (e instanceof RhaiError) return { message: e.detail, line: e.line, column: e.column };
    if (isJsStackOverflow(e)) return { message: 'Script is nested too deeply to parse', line: 1, column: 1 };
    throw e;
  }
}
