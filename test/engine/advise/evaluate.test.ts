// The hard constraints as the evaluator applies them: a candidate that drops the task, sends a
// request over the window or empties a required region where the start held something is refused
// at the step it does so; one that adds a validator finding is refused before it runs.
import { describe, expect, it } from 'vitest';
import { Evaluator } from '../../../src/engine/advise/evaluate.ts';
import { RunNames } from '../../../src/engine/read-again.ts';
import { ScenarioSchema, type TrafficEvent } from '../../../src/engine/scenario.ts';
import { validateScenario } from '../../../src/engine/validate.ts';
import { assistant, result, user } from '../../builders.ts';

const TRAFFIC: TrafficEvent[] = [
  user('start'),
  assistant('', ['c1', 'read_file', { path: 'src/a.rs' }]),
  result('c1', 'read_file', 400),
  assistant('', ['c2', 'read_file', { path: 'src/b.rs' }]),
  result('c2', 'read_file', 400),
  { type: 'transition', to: 'done' },
  assistant('done'),
];

function evaluator(toml: string, window = 128_000, traffic = TRAFFIC) {
  const scenario = ScenarioSchema.parse({
    version: 1,
    model: { window },
    agent: { 'agent.leviath': toml },
    inputs: { task: 'Fix it.' },
    traffic,
  });
  const names = new RunNames(traffic);
  const compiled = validateScenario(scenario);
  const probe = new Evaluator(scenario, {}, names, compiled.diagnostics);
  const started = probe.startRun(toml, compiled);
  if ('why' in started) throw new Error(started.why);
  return {
    started,
    evaluator: new Evaluator(scenario, {}, names, validateScenario(scenario).diagnostics, started.facts),
  };
}

const BASE = (scratch: string, task = 'kind = "pinned", seed = "task_input"') => `[context.regions]
task = { ${task} }
scratch = { ${scratch} }

[stages.work.tool_routing]
default_region = "scratch"

[stages.work.transitions.done]
[stages.done]
`;

describe('Evaluator', () => {
  it('replays a candidate to the figures of its run', () => {
    const { started, evaluator: e } = evaluator(BASE('kind = "clearable", max_tokens = 2000, required = true'));
    expect(started.verdict).toMatchObject({ status: 'ok', figures: { inferences: 3, taskKept: true, readAgain: 0 } });
    expect(started.facts.required.get('scratch')).toEqual(Uint8Array.from([0, 0, 1, 1, 1, 1, 1]));
    expect(e.evaluate(BASE('kind = "clearable", max_tokens = 3000, required = true'))).toMatchObject({ status: 'ok' });
  });

  it('refuses a candidate that empties a required region where the start held something', () => {
    const { evaluator: e } = evaluator(BASE('kind = "clearable", max_tokens = 2000, required = true'));
    // 300 tokens cannot hold a 400-token result: it is dropped on arrival and scratch stays empty.
    expect(e.evaluate(BASE('kind = "clearable", max_tokens = 300, required = true'))).toMatchObject({
      status: 'infeasible',
      step: 2,
      why: 'required region scratch is empty at step 2, where the starting blueprint holds something in it',
    });
  });

  it('refuses a candidate whose request loses the task, or goes over the window', () => {
    const { started, evaluator: e } = evaluator(BASE('kind = "clearable", max_tokens = 2000'), 600);
    // Two 400-token results pass 600 tokens: the start's cascade clears scratch and keeps the pinned task.
    expect(started.verdict).toMatchObject({ status: 'ok', figures: { taskKept: true } });
    // A temporary task region is the first the cascade sheds; a pinned scratch cannot be shed at all.
    expect(
      e.evaluate(BASE('kind = "clearable", max_tokens = 2000', 'kind = "temporary", seed = "task_input"')),
    ).toMatchObject({
      status: 'infeasible',
      why: expect.stringMatching(/^the task leaves the window at inference \d+$/),
    });
    expect(e.evaluate(BASE('kind = "pinned", max_tokens = 2000'))).toMatchObject({
      status: 'infeasible',
      why: expect.stringMatching(/^inference \d+ is over the window \(\d+ tokens\)$/),
    });
  });

  it("refuses a candidate under which the agent's own context tool is refused where the start took it", () => {
    const traffic: TrafficEvent[] = [
      { type: 'context_append', region: 'scratch', key: 'plan', content: 'alpha '.repeat(300) },
      assistant('noted'),
      { type: 'context_delete', region: 'scratch', key: 'plan' },
      assistant('done'),
    ];
    const { evaluator: e } = evaluator(BASE('kind = "temporary", max_tokens = 2000'), 128_000, traffic);
    // 100 tokens cannot hold the 300-token plan: it is dropped on arrival, so deleting it later fails.
    expect(e.evaluate(BASE('kind = "temporary", max_tokens = 100'))).toMatchObject({
      status: 'infeasible',
      step: 2,
      why: expect.stringMatching(
        /^the agent's context_delete at step 2 is refused \(scratch has no entry with key "plan".*\), where the starting blueprint took it$/,
      ),
    });
  });

  it('refuses, before running it, a candidate the validator finds something new in', () => {
    const { evaluator: e } = evaluator(BASE('kind = "clearable", max_tokens = 2000'));
    expect(e.evaluate(BASE('kind = "clearable", max_tokens = 2000, overflow = 3'))).toMatchObject({
      status: 'invalid',
      why: expect.stringContaining('unknown-key at context.regions.scratch.overflow'),
    });
    expect(e.evaluate(BASE('kind = "sliding_window", max_tokens = 2000, overflow = 3'))).toMatchObject({
      status: 'invalid',
      why: 'lev validate: new info inert-key at context.regions.scratch.overflow',
    });
  });

  it('holds a running candidate against the bound every 8 steps, and stops it when it cannot win', () => {
    const long = Array.from({ length: 12 }, (_, i) => [
      assistant('', [`r${i}`, 'read_file', { path: `src/f${i}.rs` }]),
      result(`r${i}`, 'read_file', 100),
    ]).flat();
    const { evaluator: e } = evaluator(BASE('kind = "clearable", max_tokens = 2000'), 128_000, long);
    const seen: number[] = [];
    expect(
      e.evaluate(BASE('kind = "clearable", max_tokens = 3000'), {
        bound: (_, p) => {
          seen.push(p.inferences);
          return false;
        },
      }),
    ).toMatchObject({ status: 'ok' });
    // Steps 7, 15 and 23 (4, 8 and 12 inferences made): 24 events in all.
    expect(seen).toEqual([4, 8, 12]);
    expect(e.evaluate(BASE('kind = "clearable", max_tokens = 3000'), { bound: () => true })).toMatchObject({
      status: 'dominated',
      step: 7,
    });
  });
});
