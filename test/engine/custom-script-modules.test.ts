// `import` in custom-region hooks and `rhai` seeds, through the engine's public API: modules come
// from the agent directory only, a hook's render uses a module's functions and constants, and a
// failure inside a module is a warning naming the module file, line and column.
import { describe, expect, it } from 'vitest';
import { agentModules } from '../../src/engine/custom-script.ts';
import { ScenarioSchema, type Scenario } from '../../src/engine/scenario.ts';
import { Replay, replay } from '../../src/engine/index.ts';
import { BUILT_IN_TRAFFIC } from '../../src/scenarios/generators.ts';
import { RHAI } from '../../src/engine/custom-script.ts';

const TOML =
  '[context.regions]\ntask = { kind = "pinned", seed = "task_input" }\nbrain = { kind = "custom", script = "context_hooks/brain.rhai" }\n';

function scenario(agent: Record<string, string>, extra: Partial<Scenario> = {}): Scenario {
  return ScenarioSchema.parse({
    version: 1,
    model: { id: 'gpt-4o' },
    agent: { 'agent.leviath': TOML, ...agent },
    inputs: { task: 'fix the bug' },
    traffic: [
      { type: 'context_append', region: 'brain', content: 'first note' },
      { type: 'assistant', content: 'ok' },
    ],
    ...extra,
  });
}

/** The system blocks of the scenario's first inference. */
const systemOf = (s: Scenario): string[] => {
  const timeline = replay(s, { ...BUILT_IN_TRAFFIC, ...RHAI });
  expect(timeline.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return new Replay(s, { ...BUILT_IN_TRAFFIC, ...RHAI }).inspectInference(0).request!.system.map((b) => b.text);
};

describe('agentModules: the module resolver over the agent directory', () => {
  const resolve = agentModules({ 'context_hooks/lib/fmt.rhai': 'x', 'shared.rhai': 'y' });
  it('finds a path relative to the importing file, with the .rhai extension forced (Path::set_extension)', () => {
    expect(resolve('lib/fmt', 'context_hooks/brain.rhai')).toEqual({ id: 'context_hooks/lib/fmt.rhai', source: 'x' });
    expect(resolve('lib/fmt.rhai', 'context_hooks/brain.rhai')).toEqual({
      id: 'context_hooks/lib/fmt.rhai',
      source: 'x',
    });
    expect(resolve('lib/fmt.txt', 'context_hooks/brain.rhai')).toEqual({
      id: 'context_hooks/lib/fmt.rhai',
      source: 'x',
    });
    expect(resolve('../shared', 'context_hooks/brain.rhai')).toEqual({ id: 'shared.rhai', source: 'y' });
    expect(resolve('shared', undefined)).toEqual({ id: 'shared.rhai', source: 'y' }); // a seed: from the agent directory's root
  });

  it('refuses a path that leaves the agent directory, and names a missing file', () => {
    expect(resolve('../../etc/passwd', 'context_hooks/brain.rhai')).toMatchObject({ reason: 'outside' });
    expect(resolve('/etc/passwd', 'context_hooks/brain.rhai')).toMatchObject({ reason: 'outside' });
    expect(resolve('nope', 'context_hooks/brain.rhai')).toEqual({
      error: 'context_hooks/nope.rhai is not in the agent directory',
      reason: 'missing',
    });
  });
});

describe('a hook that imports a module', () => {
  const helpers =
    'export const PREFIX = "note:";\nfn fmt(e) { `${global::PREFIX} ${e.content}` }\nfn bad() {\n  [][1]\n}\n';

  it("renders with the module's functions and constants", () => {
    const s = scenario({
      'context_hooks/brain.rhai':
        'import "lib/helpers" as h;\nfn render(ctx) { ctx.entries.map(|e| h::fmt(e)).reduce(|a, b| a + b, "") + h::PREFIX }\n',
      'context_hooks/lib/helpers.rhai': helpers,
    });
    expect(systemOf(s)).toContain('note: first notenote:');
  });

  it("turns a failure inside the module into a warning at the module's line, and the region falls back", () => {
    const s = scenario({
      'context_hooks/brain.rhai': 'import "lib/helpers" as h;\nfn render(ctx) { h::bad() }\n',
      'context_hooks/lib/helpers.rhai': helpers,
    });
    const timeline = replay(s, { ...BUILT_IN_TRAFFIC, ...RHAI });
    expect(timeline.steps[1]!.warnings.join('\n')).toMatch(
      /render failed at context_hooks\/lib\/helpers\.rhai line 4, column 5: Array index 1 out of bounds/,
    );
  });

  it("reports a missing module at spawn, with the import's line and column", () => {
    const timeline = replay(
      scenario({ 'context_hooks/brain.rhai': '\n\nimport "lib/gone" as g;\nfn render(ctx) { "" }\n' }),
      { ...BUILT_IN_TRAFFIC, ...RHAI },
    );
    expect(timeline.diagnostics.map((d) => [d.code, d.file, d.line, d.column])).toContainEqual([
      'script-import-missing',
      'context_hooks/brain.rhai',
      3,
      8,
    ]);
    expect(timeline.steps).toEqual([]);
  });
});

describe('a rhai seed that imports a module', () => {
  it('takes its modules from the agent directory', () => {
    const toml =
      '[context.regions]\ntask = { kind = "pinned", seed = "task_input" }\nplan = { kind = "pinned", seed = { rhai = "seeds/plan.rhai" } }\n';
    const s = ScenarioSchema.parse({
      version: 1,
      model: { id: 'gpt-4o' },
      inputs: { task: 'fix' },
      agent: { 'agent.leviath': toml, 'seeds/common.rhai': 'fn steps() { ["read", "fix", "test"] }' },
      workdir: { 'seeds/plan.rhai': 'import "seeds/common" as c;\n`plan: ${c::steps().len()} steps`' },
      traffic: [{ type: 'assistant', content: 'ok' }],
    });
    expect(replay(s, { ...BUILT_IN_TRAFFIC, ...RHAI }).diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
    expect(systemOf(s).join('\n')).toContain('plan: 3 steps');
  });

  it("warns with the import's position when the module is missing", () => {
    const toml =
      '[context.regions]\ntask = { kind = "pinned", seed = "task_input" }\nplan = { kind = "pinned", seed = { rhai = "seeds/plan.rhai" } }\n';
    const s = ScenarioSchema.parse({
      version: 1,
      model: { id: 'gpt-4o' },
      inputs: { task: 'fix' },
      agent: { 'agent.leviath': toml },
      workdir: { 'seeds/plan.rhai': '\nimport "seeds/common" as c;\n1' },
      traffic: [{ type: 'assistant', content: 'ok' }],
    });
    const warning = replay(s, { ...BUILT_IN_TRAFFIC, ...RHAI }).diagnostics.find(
      (d) => d.code === 'seed-script-failed',
    );
    expect(warning?.message).toMatch(
      /seeds\/plan\.rhai line 2, column 8: Module not found: seeds\/common \(seeds\/common\.rhai is not in the agent directory\)/,
    );
  });
});
