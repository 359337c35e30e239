// The advisor's search space, on every example: any candidate renders to text that parses to exactly
// the document it means, that the validator accepts without a finding the start lacks, and whose
// compiled blueprint has the candidate's values; the comments of the user's file all survive.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildSpace, normalize, parsesTo, render, type Space } from '../../../src/engine/advise/space.ts';
import { compileBlueprint } from '../../../src/engine/blueprint/index.ts';
import { resolveBudget } from '../../../src/engine/budget.ts';
import { resolveModel } from '../../../src/engine/models.ts';
import { routeToolResult } from '../../../src/engine/routing.ts';
import { ScenarioSchema, type Scenario } from '../../../src/engine/scenario.ts';
import { stageLayout, stagesOf } from '../../../src/engine/stages.ts';
import { validateScenario } from '../../../src/engine/validate.ts';
import { EXAMPLES } from '../../../src/scenarios/examples.ts';
import { generateTraffic } from '../../../src/scenarios/generators.ts';
import { checkCustomScript, RHAI } from '../../../src/engine/custom-script.ts';

function spaceOf(scenario: Scenario): Space {
  const source = scenario.agent['agent.leviath']!;
  const blueprint = compileBlueprint(scenario.agent, { checkScript: checkCustomScript }).blueprint!;
  const events = scenario.generator ? generateTraffic({ ...scenario.generator, steps: 200 }) : scenario.traffic;
  const model = resolveModel(scenario.model);
  if (!model.ok) throw new Error(model.error);
  return buildSpace(source, blueprint, events, model.model.window, (e) => e.size_tokens ?? e.content!.length);
}

const findings = (scenario: Scenario, text: string) =>
  validateScenario({ ...scenario, agent: { ...scenario.agent, 'agent.leviath': text } }, RHAI)
    .diagnostics.map((d) => `${d.severity} ${d.code} ${d.path}`)
    .sort();

describe('the search space of each example', () => {
  for (const example of EXAMPLES) {
    const scenario = ScenarioSchema.parse(example.scenario);
    const space = spaceOf(scenario);
    const window = resolveModel(scenario.model);
    const start = findings(scenario, space.source);

    it(`renders any candidate as the user's text with its keys edited, valid and meaning what it says (${example.id})`, () => {
      expect(space.knobs.length).toBeGreaterThan(3);
      const genome = fc.tuple(...space.knobs.map((k) => fc.constantFrom(...k.levels)));
      fc.assert(
        fc.property(genome, (raw) => {
          const candidate = normalize(space, raw);
          const made = render(space, candidate);
          expect(parsesTo(made.text, made.expected)).toBe(true);
          // Every comment line of the user's file is still there, word for word.
          for (const line of space.source.split('\n').filter((l) => l.trimStart().startsWith('#')))
            expect(made.text).toContain(line);
          expect(findings(scenario, made.text)).toEqual(start);
          const blueprint = compileBlueprint(
            { ...scenario.agent, 'agent.leviath': made.text },
            { checkScript: checkCustomScript },
          ).blueprint!;
          space.knobs.forEach((knob, i) => {
            const value = candidate[i];
            if (knob.region !== undefined) {
              const decl = blueprint.regions.find((r) => r.name === knob.region);
              if (!decl) {
                expect(value).toBe(knob.start);
                return;
              }
              if (knob.param === 'kind') expect(decl.kind).toBe(value);
              if (knob.param === 'budget' && window.ok)
                expect(resolveBudget(decl, window.model.window).budget).toBe(
                  Math.floor(Math.round((Number(value) / 100) * window.model.window * 1e6) / 1e6),
                );
              if (knob.param === 'max_items' && decl.maxItems !== undefined) expect(decl.maxItems).toBe(value ?? 10);
              if (knob.param === 'strategy' && decl.strategy !== undefined) expect(decl.strategy).toBe(value);
              if (knob.param === 'compact_at' && value !== null && decl.compactAtShare !== undefined)
                expect(decl.compactAtShare * 100).toBeCloseTo(Number(value), 6);
              return;
            }
            for (const stage of stagesOf(blueprint)) {
              const visible = new Set(stageLayout(blueprint, stage).map((r) => r.name));
              const route = routeToolResult(stage.toolRouting, knob.tool!, visible);
              if (knob.param === 'cap' && value !== null) expect(route.maxResultTokens).toBe(value);
              if (knob.param === 'route' && value !== null) expect(route.region).toBe(value);
            }
          });
        }),
        { numRuns: 40, seed: 29 },
      );
    });
  }

  it('names the keyed regions a tool may be routed to: where a result read again replaces its older copy', () => {
    const keyed = (id: string) =>
      spaceOf(ScenarioSchema.parse(EXAMPLES.find((e) => e.id === id)!.scenario)).keyedTargets;
    // The import's starting layout declares `files = { kind = "hashmap" }`; coding-agent declares no hashmap.
    expect(keyed('imported-run')).toEqual(['files']);
    expect(keyed('coding-agent')).toEqual([]);
  });

  it("gives a cap to the tool's own override when it has a ceiling of its own, and routes by the override routing reads", () => {
    const scenario = ScenarioSchema.parse(EXAMPLES.find((e) => e.id === 'tool-routing')!.scenario);
    const space = spaceOf(scenario);
    const cap = space.knobs.findIndex((k) => k.tool === 'read_file' && k.param === 'cap');
    const genome = space.start.slice();
    genome[cap] = 2000;
    const made = render(space, normalize(space, genome));
    // tool-routing writes read_file = { region = "codebase", max_result_tokens = 20000 }: that ceiling wins over a per-tool one.
    expect(made.text).toContain('read_file = { region = "codebase", max_result_tokens = 2000 }');
  });
});
