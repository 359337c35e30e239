// lev advise's search, held to what it promises: every proposal keeps the hard constraints (the task
// in every request, no request over the window, no required region emptied where the start held
// something, no context tool call of the agent's refused that the start took), is `lev validate` clean, is no worse than the starting layout on all three measures at
// once, and replayed by the ordinary replay gives exactly the figures the advisor reported.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Advice, Proposal } from '../../../src/engine/advise/index.ts';
import { ScenarioSchema, type Scenario, type ScenarioInput } from '../../../src/engine/scenario.ts';
import type { Timeline } from '../../../src/engine/timeline.ts';
import { validateScenario } from '../../../src/engine/validate.ts';
import { advise, replay } from '../../../src/engine/index.ts';
import { BUILT_IN_TRAFFIC } from '../../../src/scenarios/generators.ts';
import { RHAI } from '../../../src/engine/custom-script.ts';
import { EXAMPLES } from '../../../src/scenarios/examples.ts';

const withText = (scenario: Scenario, toml: string): Scenario => ({
  ...scenario,
  agent: { ...scenario.agent, 'agent.leviath': toml },
});

/** The three measures as the timeline gives them, summed the way the timeline is read. */
function measured(t: Timeline) {
  let inputCostUsd = 0;
  for (const step of t.steps) if (step.request) inputCostUsd += step.request.cache.inputCostUsd;
  return {
    peakRequestTokens: t.summary.peakRequestTokens,
    inputCostUsd,
    readAgain: t.summary.readAgain.count,
    taskKept: t.summary.taskLostAt === null,
  };
}

const worseOnAll = (p: Proposal, a: Advice['asRecorded']) =>
  p.peakRequestTokens > a.peakRequestTokens && p.inputCostUsd > a.inputCostUsd && p.readAgain > a.readAgain;

const findings = (s: Scenario) =>
  validateScenario(s, RHAI)
    .diagnostics.map((d) => `${d.severity} ${d.code} ${d.path}`)
    .sort();

/** Every constraint and promise the advisor makes about a proposal, checked with the ordinary replay. */
function checkProposals(scenario: Scenario, advice: Advice): void {
  const start = replay(scenario, { ...BUILT_IN_TRAFFIC, ...RHAI });
  expect(advice.asRecorded).toMatchObject(measured(start));
  const required = new Set(
    start.regions
      .filter((r) => r.declared)
      .map((r) => r.name)
      .filter((name) => validateScenario(scenario, RHAI).blueprint!.regions.find((d) => d.name === name)?.required),
  );
  for (const p of advice.front) {
    const proposed = withText(scenario, p.toml);
    expect(findings(proposed)).toEqual(findings(scenario));
    const t = replay(proposed, { ...BUILT_IN_TRAFFIC, ...RHAI });
    expect(measured(t)).toEqual({
      peakRequestTokens: p.peakRequestTokens,
      inputCostUsd: p.inputCostUsd,
      readAgain: p.readAgain,
      taskKept: p.taskKept,
    });
    if (scenario.inputs.task !== undefined) expect(t.summary.taskLostAt).toBeNull();
    expect(t.steps.some((s) => s.request?.overWindow)).toBe(false);
    for (const name of required) {
      t.steps.forEach((s, i) => {
        const before = start.steps[i]!.regions[name]!;
        if (before.visible && before.entries > 0) expect(s.regions[name]!.entries).toBeGreaterThan(0);
      });
    }
    // The agent's own context tools succeed wherever they did under the starting layout.
    t.steps.forEach((s, i) => {
      if (/^(context_|todo_)/.test(s.event.type) && start.steps[i]!.result?.ok) expect(s.result?.ok).toBe(true);
    });
    expect(worseOnAll(p, advice.asRecorded)).toBe(false);
    expect(p.changes.length).toBeGreaterThan(0);
  }
}

describe('lev advise on the examples', () => {
  const cases: [string, number | undefined][] = [
    ['imported-run', undefined],
    ['coding-agent', 300],
    ['tool-routing', 250],
    ['flat-vs-regions', 300],
  ];
  for (const [id, steps] of cases) {
    it(`proposes only blueprints that replay to the figures it reports and keep every constraint (${id})`, () => {
      const input = structuredClone(EXAMPLES.find((e) => e.id === id)!.scenario) as ScenarioInput;
      if (steps !== undefined && input.generator) input.generator.steps = steps;
      const scenario = ScenarioSchema.parse(input);
      const advice = advise(scenario, { ...BUILT_IN_TRAFFIC, ...RHAI, candidates: 60 });
      expect(advice.diagnostics).toEqual([]);
      expect(advice.front.length).toBeGreaterThan(0);
      expect(advice.search.editsRefused).toBe(0);
      checkProposals(scenario, advice);
    });
  }

  it('says what each change does and what the proposal would be without it', () => {
    const scenario = ScenarioSchema.parse(EXAMPLES.find((e) => e.id === 'imported-run')!.scenario);
    const advice = advise(scenario, { ...BUILT_IN_TRAFFIC, ...RHAI, candidates: 60 });
    expect(advice.front.length).toBeGreaterThan(0);
    for (const p of advice.front) {
      // One sentence per change; a change is one or more edits (a strategy and its chunk size are one).
      expect(p.changes.length).toBeGreaterThan(0);
      expect(p.changes.length).toBeLessThanOrEqual(p.edits.length);
      for (const sentence of p.changes) expect(sentence).toMatch(/; without it, .+\.$/);
    }
  });

  it('reports its progress through the search and then the front', () => {
    const scenario = ScenarioSchema.parse(EXAMPLES.find((e) => e.id === 'imported-run')!.scenario);
    const seen: string[] = [];
    const advice = advise(scenario, {
      ...BUILT_IN_TRAFFIC,
      ...RHAI,
      candidates: 20,
      onProgress: (p) => seen.push(`${p.phase} ${p.done}/${p.total}`),
    });
    expect(seen.slice(0, 20)).toEqual(Array.from({ length: 20 }, (_, i) => `search ${i + 1}/20`));
    const front = seen.slice(20);
    // One message per change tried back: replayed, or the search's own verdict taken.
    const tried = advice.search.simplifying + advice.search.reused;
    expect(tried).toBeGreaterThan(0);
    expect(front.length).toBe(tried);
    expect(front.at(-1)).toMatch(new RegExp(`^front ${tried}/\\d+$`));
  });

  it('is the same search for the same seed, and stops when cancelled with what it found so far', () => {
    const input = structuredClone(EXAMPLES.find((e) => e.id === 'coding-agent')!.scenario) as ScenarioInput;
    input.generator!.steps = 150;
    const scenario = ScenarioSchema.parse(input);
    const once = advise(scenario, { ...BUILT_IN_TRAFFIC, ...RHAI, candidates: 30, seed: 7 });
    expect(advise(scenario, { ...BUILT_IN_TRAFFIC, ...RHAI, candidates: 30, seed: 7 })).toEqual(once);
    const signal = { cancelled: false };
    const progress: number[] = [];
    const cut = advise(scenario, {
      ...BUILT_IN_TRAFFIC,
      ...RHAI,
      candidates: 30,
      seed: 7,
      signal,
      onProgress: (p) => {
        progress.push(p.done);
        if (p.done === 10) signal.cancelled = true;
      },
    });
    expect(cut.search.cancelled).toBe(true);
    expect(cut.search.judged).toBe(10);
    expect(progress).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    checkProposals(scenario, cut);
  });

  it('says why when the starting blueprint cannot run, and proposes nothing', () => {
    const scenario = ScenarioSchema.parse({
      version: 1,
      model: { id: 'gpt-4o' },
      agent: { 'agent.leviath': '[context.regions]\nx = { kind = "nope" }\n' },
    });
    const advice = advise(scenario, { ...BUILT_IN_TRAFFIC, ...RHAI });
    expect(advice.front).toEqual([]);
    expect(advice.diagnostics.map((d) => d.code)).toContain('unknown-region-kind');
  });

  it('starts from the compile it is given, without compiling the blueprint again', () => {
    const scenario = ScenarioSchema.parse(EXAMPLES.find((e) => e.id === 'imported-run')!.scenario);
    const options = { ...BUILT_IN_TRAFFIC, ...RHAI, candidates: 12 };
    // Its own compile: the same advice as compiling it itself.
    const own = advise(scenario, { ...options, compiled: validateScenario(scenario, RHAI) });
    expect(own).toEqual(advise(scenario, options));
    expect(own.front.length).toBeGreaterThan(0);
    // Another blueprint's compile is taken as given: the start is that one's, which cannot run.
    const broken = validateScenario(withText(scenario, '[context.regions]\nx = { kind = "nope" }\n'), RHAI);
    const given = advise(scenario, { ...options, compiled: broken });
    expect(given.front).toEqual([]);
    expect(given.diagnostics.map((d) => d.code)).toContain('unknown-region-kind');
  });
});

/** Blueprints the generated scenarios run through: a small window, a required region, a gate. */
const BLUEPRINTS = [
  `[context.regions]
task = { kind = "pinned", budget = "5%", seed = "task_input" }
codebase = { kind = "compacting", budget = "25%" }
conversation = { kind = "sliding_window", budget = "35%", max_items = 20 }

[stages.work.tool_routing.overrides]
read_file = "codebase"
fetch = "codebase"
`,
  `# scratch must hold something before the stage may end
[context.regions]
task = { kind = "pinned", budget = "5%", seed = "task_input" }
scratch = { kind = "clearable", budget = "20%", required = true }
conversation = { kind = "sliding_window", budget = "40%", max_items = 30 }

[stages.work.tool_routing]
default_region = "scratch"
`,
  `[context.regions]
task = { kind = "pinned", budget = "5%", seed = "task_input" }
notes = { kind = "temporary", budget = "10%" }
conversation = { kind = "sliding_window", budget = "60%", max_items = 40, strategy = "bulk", overflow = 10 }
`,
];

describe('lev advise on generated scenarios (property)', () => {
  it('keeps every constraint on every proposal, and reports what the replay gives', () => {
    let checked = 0;
    const scenarios = fc.record({
      kind: fc.constantFrom('coding-agent' as const, 'research-agent' as const, 'long-chat' as const),
      seed: fc.integer({ min: 1, max: 1_000 }),
      steps: fc.integer({ min: 40, max: 140 }),
      blueprint: fc.integer({ min: 0, max: BLUEPRINTS.length - 1 }),
      window: fc.constantFrom(16_000, 32_000, 128_000),
      search: fc.integer({ min: 1, max: 100 }),
    });
    fc.assert(
      fc.property(scenarios, ({ kind, seed, steps, blueprint, window, search }) => {
        const params = kind === 'coding-agent' ? { todos: null, transitionTo: null } : undefined;
        const scenario = ScenarioSchema.parse({
          version: 1,
          name: 'generated',
          model: { window },
          agent: { 'agent.leviath': BLUEPRINTS[blueprint] },
          inputs: { task: 'Fix the failing parser test and keep the public API unchanged.' },
          generator: { kind, seed, steps, ...(params ? { params } : {}) },
        });
        const start = replay(scenario, { ...BUILT_IN_TRAFFIC, ...RHAI });
        if (start.diagnostics.some((d) => d.severity === 'error')) return; // the generator's own traffic does not fit this blueprint
        const advice = advise(scenario, { ...BUILT_IN_TRAFFIC, ...RHAI, candidates: 25, seed: search });
        checkProposals(scenario, advice);
        checked += advice.front.length;
      }),
      { numRuns: 8, seed: 2029 },
    );
    expect(checked).toBeGreaterThan(8);
  });
});
