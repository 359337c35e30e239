// Invariants over every built-in example and a kitchen-sink blueprint, each with generated traffic
// from several seeds: checked after every event against the live region state.
import { describe, expect, it } from 'vitest';
import { EXAMPLES } from '../../src/scenarios/examples.ts';
import { TRAFFIC_GENERATORS } from '../../src/scenarios/generators.ts';
import { RHAI } from '../../src/engine/custom-script.ts';
import { prepare, type Run } from '../../src/engine/replay.ts';
import { systemOrder } from '../../src/engine/assemble.ts';
import { STAGE_PROMPT_KEY } from '../../src/engine/stages.ts';
import { ScenarioSchema, type Scenario, type ScenarioInput } from '../../src/engine/scenario.ts';
import type { Entry, Region } from '../../src/engine/regions/types.ts';

const KITCHEN_SINK = `[context.regions]
notes = { kind = "temporary", budget = "4%" }
task = { kind = "pinned", budget = "5%", seed = "task_input" }
stage_instructions = { kind = "pinned", budget = "3%" }
codebase = { kind = "compacting", budget = "12%", compact_at = "80%", threshold_tokens = 12000 }
history = { kind = "compact_history", budget = "5%", source_region = "codebase" }
scratch = { kind = "clearable", budget = "4%" }
findings = { kind = "hashmap", budget = "5%", max_entries = 8 }
todos = { kind = "checklist", budget = "3%" }
sources = { kind = "temporary", budget = "10%", admission = "reject" }
keep = { kind = "temporary", budget = "3%", summarizable = false, seed = { literal = "keep me" } }
conversation = { kind = "sliding_window", budget = "20%", max_items = 12, strategy = "compact", compact_count = 4 }
tool_results = { kind = "sliding_window", budget = "20%", max_items = 12, strategy = "bulk", overflow = 3 }

[stages.analyze]
system_prompt = "Read the code. Do not edit."
[stages.analyze.tool_routing]
default_region = "scratch"
max_result_tokens = 3000
[stages.analyze.tool_routing.overrides]
read_file = { region = "codebase", max_result_tokens = 20000 }
fetch = "sources"
grep = "tool_results"
[stages.analyze.transitions.implement]
gate = { require_no_open_items = "todos" }
transform = "compact"

[stages.implement]
system_prompt = "Make the change."
[stages.implement.tool_routing.overrides]
read_file = "codebase"
`;

interface Case {
  name: string;
  scenario: Scenario;
}

function withSteps(input: ScenarioInput, seed: number, steps: number): Scenario {
  const generator = input.generator ? { ...input.generator, seed, steps } : undefined;
  return ScenarioSchema.parse(generator ? { ...input, generator } : input);
}

const cases: Case[] = [];
for (const example of EXAMPLES) {
  for (const seed of [1, 2, 3])
    cases.push({ name: `${example.id} seed ${seed}`, scenario: withSteps(example.scenario, seed, 250) });
}
for (const kind of ['coding-agent', 'research-agent', 'long-chat'] as const) {
  for (const [seed, window] of [
    [1, 200_000],
    [2, 32_000],
    [3, 16_385],
  ] as const) {
    cases.push({
      name: `kitchen sink, ${kind}, seed ${seed}, window ${window}`,
      scenario: ScenarioSchema.parse({
        version: 1,
        name: 'sink',
        model: { window },
        agent: { 'agent.leviath': KITCHEN_SINK },
        inputs: { task: 'Fix the failing test in src/parser/header.rs.' },
        generator: { kind, seed, steps: 300 },
      }),
    });
  }
}

function prepared(scenario: Scenario): Run {
  const p = prepare(scenario, { generators: TRAFFIC_GENERATORS, ...RHAI });
  if (!p.run) throw new Error(p.diagnostics.map((d) => d.message).join('; '));
  return p.run;
}

/** Kinds whose own rule keeps them at or under their trigger. */
const BOUNDED = new Set(['temporary', 'sliding_window', 'clearable', 'hashmap']);

function checkCeilings(region: Region, where: string): void {
  const { decl, budget, tokens, entries } = region;
  if (decl.admission === 'reject') {
    expect(tokens, `${where}: reject region ${region.name}`).toBeLessThanOrEqual(budget.trigger);
  }
  if (BOUNDED.has(region.kind)) expect(tokens, `${where}: ${region.name} tokens`).toBeLessThanOrEqual(budget.trigger);
  if (region.kind === 'compacting' || region.kind === 'compact_history') {
    // Over the trigger only as a single summary that cannot shrink further.
    if (tokens > budget.trigger)
      expect(
        entries.map((e) => e.kind),
        `${where}: ${region.name}`,
      ).toEqual(['summary']);
  }
  if (region.kind === 'sliding_window') expect(entries.length).toBeLessThanOrEqual(decl.maxItems ?? 10);
  if (region.kind === 'hashmap' && decl.maxEntries !== undefined)
    expect(entries.length).toBeLessThanOrEqual(decl.maxEntries);
}

describe('invariants over generated scenarios', () => {
  it.each(cases)('$name', ({ scenario }) => {
    const run = prepared(scenario);
    const pinnedSeen = new Map<string, Entry[]>();
    const rejectHeld = new Map<string, Set<Entry>>();
    const todoIds = new Map<string, Set<number>>();
    const snapshotPinned = () => {
      for (const r of run.regions.values()) {
        if (r.kind === 'pinned')
          pinnedSeen.set(
            r.name,
            r.entries.filter((e) => e.key !== STAGE_PROMPT_KEY),
          );
        if (r.decl.admission === 'reject') rejectHeld.set(r.name, new Set(r.entries));
      }
    };
    snapshotPinned();
    let inferences = 0;
    let prefixChecks = 0;
    while (!run.done) {
      const event = run.events[run.position]!;
      const before = event.type === 'transition' ? systemBlocksBeforeInstructions(run) : undefined;
      const step = run.step();
      const where = `step ${step.index} (${event.type})`;

      for (const region of run.regions.values()) {
        checkCeilings(region, where);
        if (region.kind === 'pinned') {
          // Pinned content never changes: every earlier entry is still there, unchanged and in order.
          const now = region.entries.filter((e) => e.key !== STAGE_PROMPT_KEY);
          const earlier = pinnedSeen.get(region.name) ?? [];
          expect(now.slice(0, earlier.length), `${where}: pinned ${region.name}`).toEqual(earlier);
          expect(now.slice(0, earlier.length).every((e, i) => e === earlier[i])).toBe(true);
        }
        if (region.decl.admission === 'reject') {
          const held = rejectHeld.get(region.name) ?? new Set<Entry>();
          const deleted = event.type === 'context_delete' && event.region === region.name;
          const lost = [...held].filter((e) => !region.entries.includes(e));
          if (!deleted) expect(lost, `${where}: reject region ${region.name} lost entries`).toEqual([]);
        }
      }
      snapshotPinned();

      if (event.type === 'todo_add' && step.result?.ok) {
        const id = Number(/#(\d+)/.exec(step.result.message)![1]);
        const ids = todoIds.get(event.region) ?? new Set<number>();
        expect(ids.has(id), `${where}: checklist id ${id} reused`).toBe(false);
        ids.add(id);
        todoIds.set(event.region, ids);
      }

      if (step.request) {
        inferences++;
        const system = run.lastAssembly!.request.system;
        const at = system.findIndex((b) => b.region === 'stage_instructions');
        if (at >= 0) {
          const pinned = system
            .map((b, i) => [i, run.regions.get(b.region)!.kind] as const)
            .filter(([, k]) => k === 'pinned');
          for (const [i] of pinned)
            if (system[i]!.region !== 'stage_instructions')
              expect(i, `${where}: pinned after stage_instructions`).toBeLessThan(at);
        }
        expect(step.request.requestTokens).toBe(run.lastAssembly!.request.tokens);
        // Incremental renders equal a full re-join of the region's entries (a hashmap's under their keys).
        for (const region of run.layout) {
          if (region.section !== 'system' || region.kind === 'custom' || region.entries.length === 0) continue;
          const header = `[${region.name}]:\n`;
          const prefix = (e: Entry) =>
            region.keyed && e.key !== undefined && !e.content.startsWith(`${e.key}: `) ? `${e.key}: ` : '';
          const rendered = region.render(run.ctx).system!;
          expect(rendered.text, `${where}: ${region.name} render`).toBe(
            header + region.entries.map((e) => prefix(e) + e.content).join('\n'),
          );
          expect(rendered.tokens).toBe(
            run.ctx.count(header) +
              region.entries.length -
              1 +
              region.entries.reduce((a, e) => a + e.tokens + run.ctx.count(prefix(e)), 0),
          );
        }
        expect(step.request.prefixTokens).toBeLessThanOrEqual(step.request.requestTokens);
      }

      if (before && step.result?.ok && run.blueprint.regions.some((r) => r.name === 'stage_instructions')) {
        // With stage_instructions declared, a stage change leaves everything in front of it byte-identical.
        expect(systemBlocksBeforeInstructions(run), `${where}: prefix before stage_instructions`).toEqual(before);
        prefixChecks++;
      }
    }
    expect(inferences).toBeGreaterThan(0);
    // The coding agent moves to implement: the stage-change check must have run.
    if (scenario.name === 'sink' && scenario.generator?.kind === 'coding-agent')
      expect(prefixChecks).toBeGreaterThan(0);
  });
});

function systemBlocksBeforeInstructions(run: Run): string[] {
  const out: string[] = [];
  for (const region of systemOrder(run.layout)) {
    if (region.name === 'stage_instructions') break;
    const text = region.render(run.ctx).system?.text;
    if (text) out.push(text);
  }
  return out;
}
