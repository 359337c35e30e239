// The engine takes its Rhai interpreter from its caller (src/engine/rhai-host.ts): without one, each
// place a scenario needs it says so; with RHAI it is the interpreter; and a probe host tells a caller
// that loads it on demand whether a scenario needs it, without changing what a compile says.
import { describe, expect, it } from 'vitest';
import { compile, replay } from '../../src/engine/index.ts';
import { prepare } from '../../src/engine/replay.ts';
import { ScenarioSchema, type Scenario } from '../../src/engine/scenario.ts';
import { RHAI } from '../../src/engine/custom-script.ts';
import { rhaiProbe } from '../../src/engine/rhai-host.ts';
import { DEFAULT_EXAMPLE_ID, findExample } from '../../src/scenarios/examples.ts';
import { BUILT_IN_TRAFFIC } from '../../src/scenarios/generators.ts';
import { assistant, scenario, user } from '../builders.ts';

const example = (id: string): Scenario => ScenarioSchema.parse(findExample(id)!.scenario);
const NOT_LOADED = /the Rhai interpreter is not loaded/;

const TASK = 'task = { kind = "pinned", seed = "task_input" }\n';
/** A pinned region seeded by a Rhai script in the working directory (spec: seeds, `rhai`). */
const rhaiSeeded = (source: string) =>
  scenario(
    `[context.regions]\n${TASK}plan = { kind = "pinned", seed = { rhai = "seeds/plan.rhai" } }\n`,
    [user('go'), assistant('ok')],
    {
      inputs: { task: 'Fix the test' },
      workdir: { 'seeds/plan.rhai': source },
    },
  );

describe('the engine without an interpreter', () => {
  it("a custom region's script is a custom-script-invalid error naming the script and what is missing", () => {
    const found = compile(example('brain-custom')).diagnostics.filter((d) => d.severity === 'error');
    expect(found.map((d) => [d.code, d.file])).toEqual([['custom-script-invalid', 'context_hooks/brain.rhai']]);
    expect(found[0]!.message).toMatch(NOT_LOADED);
  });

  it('a rhai seed is a seed-script-failed warning saying so, and its region starts empty', () => {
    const s = rhaiSeeded('"step " + 1');
    const warned = compile(s).diagnostics.filter((d) => d.code === 'seed-script-failed');
    expect(warned.map((d) => [d.severity, d.path])).toEqual([['warning', 'context.regions.plan.seed.rhai']]);
    expect(warned[0]!.message).toMatch(NOT_LOADED);
    expect(replay(s, BUILT_IN_TRAFFIC).spawn.regions.plan).toMatchObject({ entries: 0 });
  });

  it('a custom region spawned without hooks falls back to its built-in behaviour and says why', () => {
    const s = example('brain-custom');
    // The compile check is given, the hooks are not: the region cannot load its script at spawn.
    const prepared = prepare(s, { ...BUILT_IN_TRAFFIC, checkScript: RHAI.checkScript });
    expect(prepared.run?.runWarnings.find((w) => w.startsWith('custom region brain:'))).toMatch(
      /^custom region brain: its script could not be loaded \(the Rhai interpreter is not loaded.*\), so it behaves as temporary \(persistent = false\)/,
    );
  });
});

describe('the engine with RHAI', () => {
  it('runs the seed script: the region holds its value', () => {
    // "step " + 1 is the string "step 1" in Rhai (string + integer appends the number's text).
    const timeline = replay(rhaiSeeded('"step " + 1'), { ...BUILT_IN_TRAFFIC, ...RHAI });
    expect(timeline.diagnostics).toEqual([]);
    expect(timeline.spawn.regions.plan).toMatchObject({ entries: 1 });
  });

  it("checks a custom region's script with the interpreter: a parse error at its line", () => {
    const s = example('brain-custom');
    const broken = { ...s, agent: { ...s.agent, 'context_hooks/brain.rhai': 'fn render(ctx) {\n  let x = ;\n}\n' } };
    const found = compile(broken, RHAI).diagnostics.filter((d) => d.severity === 'error');
    expect(found.map((d) => [d.code, d.file, d.line])).toEqual([
      ['custom-script-invalid', 'context_hooks/brain.rhai', 2],
    ]);
  });
});

describe('a probe host', () => {
  const probed = (s: Scenario) => {
    const probe = rhaiProbe();
    return { diagnostics: compile(s, probe.host).diagnostics, asked: probe.asked };
  };

  it("is not asked by a scenario with no script, whose compile is the interpreter's", () => {
    const s = example(DEFAULT_EXAMPLE_ID);
    expect(probed(s)).toEqual({ diagnostics: compile(s, RHAI).diagnostics, asked: false });
  });

  it("is not asked when a custom region's script is missing, which is found before any Rhai runs", () => {
    const s = example('brain-custom');
    const missing = { ...s, agent: { 'agent.leviath': s.agent['agent.leviath']! } };
    const seen = probed(missing);
    expect(seen.asked).toBe(false);
    expect(seen.diagnostics).toEqual(compile(missing, RHAI).diagnostics);
    expect(seen.diagnostics.map((d) => d.code)).toContain('custom-script-missing');
  });

  it('is asked by a custom region and by a rhai seed', () => {
    expect(probed(example('brain-custom')).asked).toBe(true);
    expect(probed(rhaiSeeded('"x"')).asked).toBe(true);
  });
});
