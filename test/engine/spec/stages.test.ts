// Issue 10, point 2: `stage_instructions` is never hidden by a stage that omits it, wherever it was
// first declared, so a later stage's prompt never falls into the pinned task region.
import { describe, expect, it } from 'vitest';
import { compileBlueprint, regionsForStage } from '../../../src/engine/blueprint/index.ts';
import { assistant, detail, run, transition } from '../../builders.ts';

const inputs = { inputs: { task: 'Fix the failing test' } };

const toml = `[stages.plan]
system_prompt = "Plan the work."
[stages.plan.context.regions]
task = { kind = "pinned" }
stage_instructions = { kind = "pinned", budget = "3%" }
[stages.plan.transitions.build]

[stages.build]
system_prompt = "Build it."
[stages.build.context.regions]
task = { kind = "pinned" }
notes = { kind = "temporary" }
[stages.build.transitions.ship]

[stages.ship]
system_prompt = "Ship it."
`;

describe("2. stage_instructions declared in one stage's own layout", () => {
  it('is carried into every later stage, whether it has its own layout or none', () => {
    const blueprint = compileBlueprint({ 'agent.leviath': toml }).blueprint!;
    expect(regionsForStage(blueprint, 'plan').map((r) => r.name)).toEqual(['task', 'stage_instructions']);
    expect(regionsForStage(blueprint, 'build').map((r) => r.name)).toEqual(['task', 'notes', 'stage_instructions']);
    expect(regionsForStage(blueprint, 'ship').map((r) => r.name)).toEqual(['stage_instructions']);
    // The same declaration, so the run keeps the same region (its budget) across the stages.
    expect(regionsForStage(blueprint, 'build')[2]).toBe(regionsForStage(blueprint, 'plan')[1]);
  });

  it("the later stage's prompt replaces the earlier one there, and the task block stays byte-identical", () => {
    const traffic = [assistant('one'), transition('build'), assistant('two'), transition('ship'), assistant('three')];
    const first = detail(toml, traffic, 0, inputs).request.system;
    const second = detail(toml, traffic, 2, inputs).request.system;
    expect(first.map((b) => [b.region, b.text])).toEqual([
      ['task', '[task]:\nFix the failing test'],
      ['stage_instructions', '[stage_instructions]:\nPlan the work.'],
    ]);
    expect(second.map((b) => [b.region, b.text])).toEqual([
      ['task', '[task]:\nFix the failing test'],
      ['stage_instructions', '[stage_instructions]:\nBuild it.'],
    ]);
    expect(second[0]).toEqual(first[0]);
    const t = run(toml, traffic, inputs);
    expect(t.stages).toEqual([
      { name: 'plan', regions: ['task', 'stage_instructions', 'conversation', 'tool_results', 'final_output'] },
      {
        name: 'build',
        regions: ['task', 'notes', 'stage_instructions', 'conversation', 'tool_results', 'final_output'],
      },
      { name: 'ship', regions: ['stage_instructions', 'conversation', 'tool_results', 'final_output'] },
    ]);
    // The ledger charges each prompt to stage_instructions, never to task.
    expect(t.summary.ledger.build).toEqual({ stage_instructions: 3, conversation: 1 });
    expect(t.steps[2]!.regions.task).toMatchObject({ tokens: 4, entries: 1, visible: true });
    expect(t.steps[2]!.regions.stage_instructions).toMatchObject({ entries: 1, visible: true });
  });
});
