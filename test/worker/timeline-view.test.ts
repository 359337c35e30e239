// The engine worker's view of a timeline: its series carry every column figures.ts declares, each
// a typed array of one value per kept step, equal to the timeline's own figures at that step, and
// every one of them is transferred.
import { describe, expect, it } from 'vitest';
import { CACHE_COLUMNS, REGION_COLUMNS, REQUEST_COLUMNS, ScenarioSchema, replay } from '../../src/engine/index.ts';
import { findExample } from '../../src/scenarios/examples.ts';
import { BUILT_IN_TRAFFIC } from '../../src/scenarios/generators.ts';
import { RHAI } from '../../src/engine/custom-script.ts';
import { timelineView } from '../../src/worker/timeline-view.ts';

const timeline = replay(ScenarioSchema.parse(findExample('checklist-gate')!.scenario), {
  ...BUILT_IN_TRAFFIC,
  ...RHAI,
});

describe('the timeline view', () => {
  it("sends every request and cache column at the kept inferences, with the timeline's own values", () => {
    const { view } = timelineView(timeline, 50);
    const { steps, ...columns } = view.requests;
    expect(Object.keys(columns).sort()).toEqual(
      [...Object.keys(REQUEST_COLUMNS), ...Object.keys(CACHE_COLUMNS)].sort(),
    );
    expect(steps.length).toBeGreaterThan(10);
    for (const column of Object.values(columns)) expect(column.length).toBe(steps.length);
    steps.forEach((step, p) => {
      const request = timeline.steps[step]!.request!;
      expect([
        view.requests.requestTokens[p],
        view.requests.cacheReadTokens[p],
        view.requests.prefixShare[p],
        view.requests.taskInWindow[p],
      ]).toEqual([
        request.requestTokens,
        request.cache.cacheReadTokens,
        request.prefixShare,
        Number(request.taskInWindow),
      ]);
    });
  });

  it("sends every region column of each charted region at its kept steps, with that step's figures", () => {
    const { view } = timelineView(timeline, 50);
    for (const region of view.charted) {
      const { steps, ...columns } = view.regions[region]!;
      expect(Object.keys(columns).sort()).toEqual(Object.keys(REGION_COLUMNS).sort());
      steps.forEach((step, p) => {
        const figures = timeline.steps[step]!.regions[region]!;
        expect([columns.tokens[p], columns.budget[p], columns.entries[p], columns.visible[p]]).toEqual([
          figures.tokens,
          figures.budget,
          figures.entries,
          Number(figures.visible),
        ]);
      });
    }
  });

  it('transfers the buffer of every column it sends, each once', () => {
    const { view, transfer } = timelineView(timeline, 50);
    const sent = [...Object.values(view.requests), ...Object.values(view.regions).flatMap((r) => Object.values(r))].map(
      (a) => a.buffer,
    );
    for (const buffer of sent) expect(transfer).toContain(buffer);
    expect(new Set(transfer).size).toBe(transfer.length);
  });
});
