// Random scenarios through the engine: replay and inspect never throw, tool errors are results,
// and the runtime's invariants hold after every event of every scenario that runs.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InspectError, replay, Replay } from '../../src/engine/index.ts';
import { prepare, type Run } from '../../src/engine/replay.ts';
import { TRAFFIC_GENERATORS, BUILT_IN_TRAFFIC } from '../../src/scenarios/generators.ts';
import { RHAI } from '../../src/engine/custom-script.ts';
import { STAGE_PROMPT_KEY } from '../../src/engine/stages.ts';
import type { Entry, Region, RegionContext } from '../../src/engine/regions/types.ts';
import { scenarioArb, SEED } from './arbitraries.ts';
import { checkRequest } from './invariants.ts';
import { enoughRunsToJudge, runs, tried } from './harness.ts';

describe('replay and inspect on random scenarios', () => {
  it('never throw: problems are diagnostics, tool errors are results', () => {
    let ran = 0;
    fc.assert(
      fc.property(scenarioArb(40), fc.nat(), ({ scenario }, pick) => {
        const timeline = tried(
          'scenarios',
          () => replay(scenario, { ...BUILT_IN_TRAFFIC, ...RHAI }),
          (t) => t.diagnostics.some((d) => d.severity === 'error'),
        );
        const errors = timeline.diagnostics.filter((d) => d.severity === 'error');
        for (const d of timeline.diagnostics) {
          expect(d.code).not.toBe('internal-error');
          expect(d.line).toBeGreaterThanOrEqual(1);
          expect(d.column).toBeGreaterThanOrEqual(1);
        }
        const inspector = new Replay(scenario, { ...BUILT_IN_TRAFFIC, ...RHAI });
        if (errors.length) {
          expect(timeline.steps).toEqual([]);
          expect(() => inspector.inspect(0)).toThrow(InspectError);
          return;
        }
        ran++;
        expect(timeline.steps.length).toBe(scenario.traffic.length);
        for (const step of timeline.steps) {
          if (step.result) expect(step.result.message.length, `${step.event.type} result`).toBeGreaterThan(0);
        }
        if (timeline.steps.length === 0) return;
        // inspect agrees with the timeline at a random step, going forwards then backwards.
        const at = pick % timeline.steps.length;
        for (const index of [at, timeline.steps.length - 1, 0]) {
          const detail = inspector.inspect(index);
          const step = timeline.steps[index]!;
          expect(detail.changes).toEqual(step.changes);
          for (const region of detail.regions)
            expect(region.tokens, `${region.name} at ${index}`).toBe(step.regions[region.name]!.tokens);
        }
        expect(() => inspector.inspect(timeline.steps.length)).toThrow(InspectError);
      }),
      { numRuns: runs(120), seed: SEED },
    );
    if (enoughRunsToJudge(runs(120))) expect(ran).toBeGreaterThan(runs(120) / 3);
  });
});

/** Kinds whose own rule keeps them at or under their trigger (the spec's evicting kinds). */
const BOUNDED = new Set(['temporary', 'sliding_window', 'clearable', 'hashmap']);

function checkBudget(region: Region, ctx: RegionContext, where: string): void {
  const { decl, budget, tokens, entries } = region;
  if (decl.admission === 'reject' || BOUNDED.has(region.kind)) {
    expect(tokens, `${where}: ${region.kind} ${region.name} over its trigger ${budget.trigger}`).toBeLessThanOrEqual(
      budget.trigger,
    );
  }
  if (
    (region.kind === 'compacting' || region.kind === 'compact_history') &&
    tokens > budget.budget &&
    entries.length > 1
  ) {
    // Compacting acts at its trigger but only its resolved budget is a ceiling; over it only when
    // folding cannot help (tiny budgets, where a summary's own header outweighs the content).
    const folded = ctx.summarize(entries, region.name, 0).tokens;
    expect(
      folded >= tokens || folded > budget.budget,
      `${where}: ${region.name} at ${tokens} tokens, over its budget ${budget.budget} with ${entries.length} entries that fold to ${folded}`,
    ).toBe(true);
  }
  if (region.kind === 'sliding_window') expect(entries.length).toBeLessThanOrEqual(decl.maxItems ?? 10);
  if (region.kind === 'hashmap' && decl.maxEntries !== undefined)
    expect(entries.length).toBeLessThanOrEqual(decl.maxEntries);
  expect(tokens, `${where}: ${region.name} tokens are the sum of its entries`).toBe(
    entries.reduce((sum, e) => sum + e.tokens, 0),
  );
}

function prepared(scenario: Parameters<typeof prepare>[0]): Run | undefined {
  return prepare(scenario, { generators: TRAFFIC_GENERATORS, ...RHAI }).run;
}

describe('runtime invariants on random valid scenarios', () => {
  it('hold after every event', () => {
    let checkedSteps = 0;
    fc.assert(
      fc.property(scenarioArb(60), ({ scenario }) => {
        const run = prepared(scenario);
        if (!run) return;
        const pinned = new Map<string, Entry[]>();
        const rejectHeld = new Map<string, Entry[]>();
        const todoIds = new Map<string, Set<number>>();
        const remember = () => {
          for (const r of run.regions.values()) {
            if (r.kind === 'pinned')
              pinned.set(
                r.name,
                r.entries.filter((e) => e.key !== STAGE_PROMPT_KEY),
              );
            // The stage prompt is the runtime's own entry, replaced on every stage change by design.
            if (r.decl.admission === 'reject')
              rejectHeld.set(
                r.name,
                r.entries.filter((e) => e.key !== STAGE_PROMPT_KEY),
              );
          }
        };
        remember();
        while (!run.done) {
          const event = run.events[run.position]!;
          const step = run.step();
          const where = `step ${step.index} (${JSON.stringify(event).slice(0, 120)})`;
          checkedSteps++;
          for (const region of run.regions.values()) {
            checkBudget(region, run.ctx, where);
            if (region.kind === 'pinned') {
              const earlier = pinned.get(region.name) ?? [];
              const now = region.entries.filter((e) => e.key !== STAGE_PROMPT_KEY);
              expect(
                now.slice(0, earlier.length).every((e, i) => e === earlier[i]),
                `${where}: pinned ${region.name} changed`,
              ).toBe(true);
            }
            if (region.decl.admission === 'reject') {
              const told = event.type === 'context_delete' && event.region === region.name;
              // A keyed write replaces the entry with that key (hashmap upsert, context_append with a
              // key): the writer named what it displaces.
              const keys = new Set<string | undefined>(region.entries.map((e) => e.key).filter((k) => k !== undefined));
              // Entries are immutable: an in-place change (a todo ticked off) is a new object with the same seq.
              const seqs = new Set(region.entries.map((e) => e.seq));
              const lost = (rejectHeld.get(region.name) ?? []).filter((e) => !seqs.has(e.seq) && !keys.has(e.key));
              if (!told)
                expect(
                  lost.map((e) => e.content.slice(0, 40)),
                  `${where}: reject region ${region.name} lost entries`,
                ).toEqual([]);
            }
            if (region.kind === 'checklist') {
              const ids = region.entries.map((e) => e.todo?.id);
              expect(new Set(ids).size, `${where}: checklist ${region.name} ids repeat`).toBe(ids.length);
            }
          }
          remember();
          if (event.type === 'todo_add' && step.result?.ok) {
            const id = Number(/#(\d+)/.exec(step.result.message)?.[1]);
            const ids = todoIds.get(event.region) ?? new Set<number>();
            expect(ids.has(id), `${where}: checklist id ${id} handed out twice`).toBe(false);
            ids.add(id);
            todoIds.set(event.region, ids);
          }
          if (step.request) {
            const request = run.lastAssembly!.request;
            expect(step.request.requestTokens).toBe(request.tokens);
            expect(step.request.prefixTokens).toBeLessThanOrEqual(step.request.requestTokens);
            checkRequest(request, where);
          }
          checkRequest(run.preview(), `${where} (preview)`);
        }
      }),
      { numRuns: runs(120), seed: SEED + 1 },
    );
    if (enoughRunsToJudge(runs(120))) expect(checkedSteps).toBeGreaterThan(runs(120) * 8);
  });
});
