// The tests' one builders module: a scenario and its traffic in a few lines, a blueprint compiled
// from its TOML, a replay or a spawned Run of one, and the declarations, entries and region context
// the engine's unit tests drive its parts with. A scenario is the smallest valid one on gpt-4o
// (128,000 tokens, o200k_base), parsed as the page and the CLI parse it.
import { readFileSync } from 'node:fs';
import { compileBlueprint, type Blueprint, type CompileOptions } from '../src/engine/blueprint/index.ts';
import type { RegionDecl, Seed } from '../src/engine/blueprint/types.ts';
import { checkCustomScript, RHAI } from '../src/engine/custom-script.ts';
import type { Diagnostic } from '../src/engine/diagnostics.ts';
import { replay, Replay } from '../src/engine/index.ts';
import { resolveModel } from '../src/engine/models.ts';
import type { Entry, RegionContext } from '../src/engine/regions/types.ts';
import { Run } from '../src/engine/run/run.ts';
import { ScenarioSchema, type Scenario, type ScenarioInput, type TrafficEvent } from '../src/engine/scenario.ts';
import { summarize } from '../src/engine/summarize.ts';
import type { Timeline, TimelineStep } from '../src/engine/timeline.ts';
import { countTokens } from '../src/engine/tokens.ts';
import { validateScenario } from '../src/engine/validate.ts';
import { BUILT_IN_TRAFFIC } from '../src/scenarios/generators.ts';

// ---- Scenarios and their traffic

/** `agent` is `agent.leviath`'s text, or every file of the agent directory. */
export function scenario(
  agent: string | Record<string, string> = '',
  traffic: TrafficEvent[] = [],
  extra: Partial<ScenarioInput> = {},
): Scenario {
  return ScenarioSchema.parse({
    version: 1,
    name: 'test',
    model: { id: 'gpt-4o' },
    agent: typeof agent === 'string' ? { 'agent.leviath': agent } : agent,
    traffic,
    ...extra,
  });
}

export const user = (content: string): TrafficEvent => ({ type: 'user', content });
export const assistant = (
  content: string,
  ...calls: [id: string, name: string, args?: Record<string, unknown>][]
): TrafficEvent =>
  calls.length
    ? { type: 'assistant', content, tool_calls: calls.map(([id, name, args]) => ({ id, name, arguments: args ?? {} })) }
    : { type: 'assistant', content };
export const result = (id: string, name: string, size: number): TrafficEvent => ({
  type: 'tool_result',
  tool_call_id: id,
  tool_name: name,
  size_tokens: size,
});
export const append = (region: string, content: string, key?: string): TrafficEvent =>
  key === undefined ? { type: 'context_append', region, content } : { type: 'context_append', region, content, key };
/** An assistant turn calling `name`, then its result of `size` tokens. */
export const call = (id: string, name: string, size: number, args: Record<string, unknown> = {}): TrafficEvent[] => [
  assistant('', [id, name, args]),
  result(id, name, size),
];
export const transition = (to: string): TrafficEvent => ({ type: 'transition', to });

/** Exactly `n` tokens: " alpha" is one token, and the pre-split keeps words apart. */
export const words = (n: number, word = 'alpha') => Array.from({ length: n }, () => word).join(' ');

/** What the custom-region tests' scenarios share (`scenario` writes the rest): Claude's 200,000-token window. */
export const CUSTOM_TEST = { name: 'custom-test', model: { id: 'claude-sonnet-4' } } as const;

/** A compacting codebase, a region that is not summarizable and a history of the codebase, across an edge whose transform is compact. */
export const COMPACT_EDGE = `[context.regions]
codebase = { kind = "compacting", max_tokens = 10000 }
keep = { kind = "temporary", summarizable = false }
history = { kind = "compact_history", source_region = "codebase" }

[stages.explore.transitions.build]
transform = "compact"
[stages.build]
`;

/** One of the example hook scripts under src/scenarios/hooks/. */
export function hookScript(name: string): string {
  return readFileSync(new URL(`../src/scenarios/hooks/${name}.rhai`, import.meta.url), 'utf8');
}

// ---- Replays

/** The scenario's timeline with the built-in traffic and the Rhai interpreter; throws when it does not run. */
export function run(toml: string, traffic: TrafficEvent[], extra: Partial<ScenarioInput> = {}): Timeline {
  const timeline = replay(scenario(toml, traffic, extra), { ...BUILT_IN_TRAFFIC, ...RHAI });
  const errors = timeline.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length)
    throw new Error(`scenario did not run: ${errors.map((d) => `${d.code}: ${d.message}`).join('; ')}`);
  return timeline;
}

export function detail(toml: string, traffic: TrafficEvent[], step: number, extra: Partial<ScenarioInput> = {}) {
  return new Replay(scenario(toml, traffic, extra), { ...BUILT_IN_TRAFFIC, ...RHAI }).inspect(step);
}

/** `name: tokens/entries` for the listed regions at a step. */
export function figures(step: TimelineStep, ...names: string[]): Record<string, [number, number]> {
  return Object.fromEntries(names.map((n) => [n, [step.regions[n]!.tokens, step.regions[n]!.entries]]));
}

/** Compiles `toml`, spawns its Run on gpt-4o (128,000 tokens, o200k_base), and clears the spawn's step. */
export function spawn(toml: string, extra: Partial<ScenarioInput> = {}, events: TrafficEvent[] = []): Run {
  const s = scenario(toml, events, extra);
  const compiled = validateScenario(s);
  const resolved = resolveModel(s.model);
  if (!compiled.blueprint || !resolved.ok)
    throw new Error(`does not compile: ${compiled.diagnostics.map((d) => d.message).join('; ')}`);
  const run = new Run(resolved.model, compiled.blueprint, events, s);
  const errors = run.spawn({});
  if (errors.length) throw new Error(`does not spawn: ${errors.map((d) => d.message).join('; ')}`);
  return run;
}

/** What a region of a Run holds, as `[key or content, tokens]` pairs. */
export function held(run: Run, name: string): [string, number][] {
  return run.regions.get(name)!.entries.map((e) => [e.key ?? e.content, e.tokens]);
}

// ---- Blueprints: compiled from TOML, and what came out

/** With the Rhai interpreter's script check (as `lev validate` runs it) unless `options` brings another. */
export function compile(toml: string, extra: Record<string, string> = {}, options: CompileOptions = {}) {
  return compileBlueprint({ 'agent.leviath': toml, ...extra }, { checkScript: checkCustomScript, ...options });
}

/** The blueprint; throws with the diagnostics when there is none. */
export function blueprintOf(toml: string, extra: Record<string, string> = {}, options: CompileOptions = {}): Blueprint {
  const compiled = compile(toml, extra, options);
  if (!compiled.blueprint) throw new Error(`no blueprint: ${JSON.stringify(compiled.diagnostics)}`);
  return compiled.blueprint;
}

/** Diagnostics with one code. */
export function withCode(
  toml: string,
  code: string,
  extra: Record<string, string> = {},
  options: CompileOptions = {},
): Diagnostic[] {
  return compile(toml, extra, options).diagnostics.filter((d) => d.code === code);
}

/** The single diagnostic with this code; throws with every diagnostic when there is not exactly one. */
export function only(
  toml: string,
  code: string,
  extra: Record<string, string> = {},
  options: CompileOptions = {},
): Diagnostic {
  const [found, ...more] = withCode(toml, code, extra, options);
  if (!found || more.length)
    throw new Error(`expected exactly one ${code}; got ${JSON.stringify(compile(toml, extra, options).diagnostics)}`);
  return found;
}

/** `code severity line:column path` for compact whole-list assertions. */
export function summary(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.map((d) => `${d.code} ${d.severity} ${d.line}:${d.column} ${d.path}`);
}

/** A region named task so task-not-seeded stays quiet in tests about other rules. */
export const TASK = 'task = { kind = "pinned" }\n';

// ---- Declarations and entries, built without the TOML compiler so a test pins one module alone

/** A region's declaration: a temporary region of 5,000 tokens unless `extra` says otherwise. */
export function decl(name: string, extra: Partial<RegionDecl> = {}): RegionDecl {
  return {
    name,
    kind: 'temporary',
    maxTokens: 5000,
    maxTokensExplicit: false,
    seedImplicit: false,
    required: false,
    requiredMessage: `Region ${name} is empty`,
    summarizable: true,
    admission: 'evict',
    loc: { file: 'agent.leviath', line: 1, column: 1 },
    ...extra,
  };
}

export function seeded(name: string, seed: Seed, extra: Partial<RegionDecl> = {}): RegionDecl {
  return decl(name, { seed, ...extra });
}

export function blueprint(regions: RegionDecl[], extra: Partial<Blueprint> = {}): Blueprint {
  return { regions, stages: [], safeCommands: [], readPaths: [], security: { allowSeedCommands: true }, ...extra };
}

export function budgetOf(tokens: number) {
  return { budget: tokens, trigger: tokens };
}

let nextSeq = 0;
export function text(content: string, extra: Partial<Entry> = {}): Entry {
  return { seq: nextSeq++, content, tokens: countTokens(content), kind: 'text', ...extra };
}

export function toolResult(id: string, content: string, extra: Partial<Entry> = {}): Entry {
  return text(content, { kind: 'tool_result', toolCallId: id, toolName: 'shell', ...extra });
}

export type TestContext = RegionContext & { warnings: string[]; windowTokens?: number };

/** A RegionContext for driving a region directly: Claude's 200,000-token window, warnings kept. */
export function testContext(extra: Partial<RegionContext> = {}): TestContext {
  let seq = 10_000;
  const warnings: string[] = [];
  return {
    encoding: 'o200k_base',
    nextSeq: () => seq++,
    summarize: (entries: readonly Entry[], label: string, at: number): Entry => {
      const content = summarize(entries, label);
      return {
        seq: at,
        content,
        tokens: countTokens(content),
        kind: 'summary',
        folded: { entries: entries.length, tokens: entries.reduce((s, e) => s + e.tokens, 0) },
      };
    },
    count: (text: string) => countTokens(text),
    stage: 'main',
    stageIterations: 1,
    model: 'claude-sonnet-4',
    window: 200_000,
    warn: (message: string) => warnings.push(message),
    warnings,
    ...extra,
  };
}
