import { describe, expect, it } from 'vitest';
import { compileBlueprint, ScenarioSchema } from '../../src/engine/index.ts';
import { DEFAULT_EXAMPLE_ID, EXAMPLES, findExample } from '../../src/scenarios/examples.ts';
import { generateTraffic } from '../../src/scenarios/generators.ts';
import { checkCustomScript } from '../../src/engine/custom-script.ts';

describe('built-in examples', () => {
  it('have unique ids, and the default is one of them', () => {
    expect(new Set(EXAMPLES.map((e) => e.id)).size).toBe(EXAMPLES.length);
    expect(findExample(DEFAULT_EXAMPLE_ID)?.title).toBe("The spec's coding-agent layout");
  });

  for (const example of EXAMPLES) {
    describe(example.id, () => {
      const scenario = ScenarioSchema.parse(example.scenario);

      it('is a valid scenario named after its id, with a title and a summary', () => {
        expect(scenario.name).toBe(example.id);
        expect(example.title.length).toBeGreaterThan(5);
        expect(example.summary.length).toBeGreaterThan(150);
      });

      it('has a blueprint that compiles without errors or warnings', () => {
        const { blueprint, diagnostics } = compileBlueprint(scenario.agent, {
          checkScript: checkCustomScript,
          workdir: scenario.workdir,
        });
        expect(blueprint).toBeDefined();
        expect(diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
      });

      it('generates traffic that only targets regions and stages the blueprint declares', () => {
        const { blueprint } = compileBlueprint(scenario.agent, {
          checkScript: checkCustomScript,
          workdir: scenario.workdir,
        });
        const regions = new Set(blueprint!.regions.map((r) => r.name));
        const stages = new Set(blueprint!.stages.map((s) => s.name));
        const events = [...(scenario.generator ? generateTraffic(scenario.generator) : []), ...scenario.traffic];
        for (const event of events) {
          if ('region' in event) expect(regions, `${event.type} targets ${event.region}`).toContain(event.region);
          if (event.type === 'transition') expect(stages).toContain(event.to);
        }
      });
    });
  }

  it('the spec layout is exactly the spec table', () => {
    const { blueprint } = compileBlueprint(ScenarioSchema.parse(findExample('coding-agent')!.scenario).agent, {
      checkScript: checkCustomScript,
    });
    expect(blueprint!.regions.map((r) => [r.name, r.kind, r.budgetShare, r.maxItems, r.sourceRegion])).toEqual([
      ['task', 'pinned', 0.12, undefined, undefined],
      ['codebase', 'compacting', 0.2, undefined, undefined],
      ['conversation', 'sliding_window', 0.33, 20, undefined],
      ['history', 'compact_history', 0.15, undefined, 'codebase'],
    ]);
  });

  it('the checklist example gates its transition on the todos checklist', () => {
    const { blueprint } = compileBlueprint(ScenarioSchema.parse(findExample('checklist-gate')!.scenario).agent, {
      checkScript: checkCustomScript,
    });
    const analyze = blueprint!.stages.find((s) => s.name === 'analyze')!;
    expect(analyze.maxAttempts).toBe(3);
    expect(analyze.transitions[0]!.gate?.requireNoOpenItems).toBe('todos');
  });

  it('the command seed is covered by [safe_commands] and its output is in the scenario', () => {
    const scenario = ScenarioSchema.parse(findExample('stage-instructions-cache')!.scenario);
    const { diagnostics } = compileBlueprint(scenario.agent, {
      checkScript: checkCustomScript,
      workdir: scenario.workdir,
    });
    expect(diagnostics.map((d) => d.code)).toEqual(['command-seed']);
    expect(Object.keys(scenario.commands)).toEqual(['git log --oneline -20']);
  });

  it("the brain example carries the spec's brain.rhai verbatim", () => {
    const script = findExample('brain-custom')!.scenario.agent['context_hooks/brain.rhai']!;
    expect(script.startsWith('// context_hooks/brain.rhai\n\nfn render(ctx) {')).toBe(true);
    expect(script).toContain('xml += `<event kind="${entry.kind}">${entry.content}</event>`;');
    expect(script).toContain('if entry.kind == "tool_result" && !entry.content.contains("ERROR") {');
    expect(script.endsWith('    drops\n}\n')).toBe(true);
  });
});
