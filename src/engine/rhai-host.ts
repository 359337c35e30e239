// The Rhai interpreter as the engine uses it: three functions a caller brings in ReplayOptions (or
// ValidateOptions), never an import. The interpreter is about a third of the engine's code, and
// most scenarios (no custom region, no `rhai` seed) never run a script, so the page's engine worker
// loads it on demand (src/worker/rhai.ts) while Node (the CLI, tests) passes RHAI from
// custom-script.ts directly. This module holds only types and what a caller without the
// interpreter gets; it imports nothing that runs Rhai.
import type { ScriptChecker } from './blueprint/scriptCheck.ts';
import type { RhaiMap, RhaiValue } from '../rhai/values.ts';
import type { ToolCall } from './timeline.ts';

export const HOOK_NAMES = ['render', 'on_write', 'on_overflow'] as const;
export type HookName = (typeof HOOK_NAMES)[number];

/** A runtime problem in one hook call: never breaks an inference, becomes a timeline warning. */
export interface HookFailure {
  hook: HookName;
  file: string;
  /** 1-based; 0 when the interpreter gave no position. */
  line: number;
  column: number;
  detail: string;
}

export type HookCall = { ok: true; value: RhaiValue } | { ok: false; failure: HookFailure };

export interface CustomHooks {
  readonly file: string;
  has(hook: HookName): boolean;
  call(hook: HookName, ctx: RhaiMap): HookCall;
  /** The hooks' `ctx` maps and the reading of their answers (custom-hooks.ts), made of Rhai values. */
  readonly io: HookIO;
}

// ---- what the hooks see and answer (built and read in custom-hooks.ts) ---------------------------

export interface RegionFacts {
  name: string;
  budget: number;
  tokens: number;
  entryCount: number;
}

/** What a hook's ctx shows of an entry (a region's Entry, regions/types.ts, has these fields). */
export interface HookEntry {
  readonly seq: number;
  readonly content: string;
  readonly tokens: number;
  readonly kind: string;
  readonly key?: string;
  readonly toolCalls?: readonly ToolCall[];
  readonly toolCallId?: string;
  readonly toolName?: string;
  readonly isError?: boolean;
}

export interface RenderFacts {
  region: RegionFacts;
  entries: readonly HookEntry[];
  stage: string;
  stageIterations: number;
  model: string;
  windowTokens: number;
  windowMax: number;
}

export interface ScriptMessage {
  role: 'user' | 'assistant' | 'tool';
  content: string;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
}

export interface RenderAnswer {
  /** System text blocks, in order (a string return is one block; "" means none). */
  system: string[];
  messages: ScriptMessage[];
  /** Oddities worth a warning (unknown keys, a part left out), the rest of the answer is still used. */
  notes: string[];
}

export type Read<T> = { ok: true; value: T } | { ok: false; error: string };

export type WriteAnswer = { action: 'accept' } | { action: 'replace'; content: string } | { action: 'drop' };

export interface HookIO {
  renderCtx(facts: RenderFacts): RhaiMap;
  readRender(value: RhaiValue): Read<RenderAnswer>;
  writeCtx(region: RegionFacts, entry: HookEntry): RhaiMap;
  readOnWrite(value: RhaiValue): Read<WriteAnswer>;
  overflowCtx(region: RegionFacts, entries: readonly HookEntry[], needed: number): RhaiMap;
  readOnOverflow(value: RhaiValue, entryCount: number): Read<number[]>;
}

export function describeFailure(failure: HookFailure): string {
  const at =
    failure.line > 0 ? ` at ${failure.file} line ${failure.line}, column ${failure.column}` : ` in ${failure.file}`;
  return `${failure.hook} failed${at}: ${failure.detail}`;
}

/** Runs a `rhai` seed script: its path and source, and the agent directory its imports come from. */
export type RhaiSeedRunner = (path: string, source: string, agent: Readonly<Record<string, string>>) => string;

/**
 * Reads and compile-checks a custom region's script at spawn (`script` as the blueprint names it,
 * the agent directory, the region's name); throws CustomScriptError when it cannot be loaded.
 */
export type HooksLoader = (script: string, agent: Readonly<Record<string, string>>, region: string) => CustomHooks;

/** Everything the engine asks of the interpreter. */
export interface RhaiHost {
  /** Runs `rhai` seeds. */
  runRhaiSeed: RhaiSeedRunner;
  /** Compile-checks custom-region scripts, so a broken one is a diagnostic before the run. */
  checkScript: ScriptChecker;
  /** Makes a custom region's hooks. */
  loadCustomHooks: HooksLoader;
}

const NOT_LOADED = 'the Rhai interpreter is not loaded: pass RHAI (src/engine/custom-script.ts) in the replay options';

/**
 * What the engine uses when the caller brought no interpreter: each part says so where the
 * scenario needed it (a seed-script-failed warning, a custom-script-invalid error, a custom region
 * that falls back to its built-in behaviour), never a silent empty result.
 */
export const NO_RHAI: RhaiHost = {
  runRhaiSeed: () => {
    throw new Error(NOT_LOADED);
  },
  checkScript: (_source, file) => [
    { code: 'custom-script-invalid', message: `${file} could not be checked: ${NOT_LOADED}`, line: 1, column: 1 },
  ],
  loadCustomHooks: () => {
    throw new Error(NOT_LOADED);
  },
};

/**
 * A stand-in that notes whether the engine asked for the interpreter: a caller that loads it on
 * demand runs with this first and, when `asked`, loads it and runs again. Replay is deterministic
 * and nothing before the first question depends on the answer, so a run that never asked is
 * exactly the run the interpreter would have given.
 */
export function rhaiProbe(): { host: RhaiHost; readonly asked: boolean } {
  let asked = false;
  const ask =
    <A extends unknown[], R>(part: (...args: A) => R) =>
    (...args: A): R => {
      asked = true;
      return part(...args);
    };
  return {
    host: {
      runRhaiSeed: ask(NO_RHAI.runRhaiSeed),
      checkScript: ask(NO_RHAI.checkScript),
      loadCustomHooks: ask(NO_RHAI.loadCustomHooks),
    },
    get asked() {
      return asked;
    },
  };
}
