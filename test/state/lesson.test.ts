// Every example's lesson lands where its sentence says: the step it resolves to on the worker's
// timeline view is checked against the engine's own run (its steps' events, changes and stages),
// read here without the view or the resolver.
import { describe, expect, it } from 'vitest';
import { type Timeline, replay } from '../../src/engine/index.ts';
import { EXAMPLES } from '../../src/scenarios/examples.ts';
import { BUILT_IN_TRAFFIC } from '../../src/scenarios/generators.ts';
import { RHAI } from '../../src/engine/custom-script.ts';
import { describeAt } from '../../src/scenarios/lessons.ts';
import { CHART_VIEWS } from '../../src/share/view.ts';
import { landingStep } from '../../src/state/lesson.ts';
import { exampleContent } from '../../src/state/scenario.ts';
import { timelineView } from '../../src/worker/timeline-view.ts';

const runs = new Map<string, Timeline>();
function run(id: string): Timeline {
  if (!runs.has(id)) runs.set(id, replay(exampleContent(id)!, { ...BUILT_IN_TRAFFIC, ...RHAI }));
  return runs.get(id)!;
}

describe('each example declares its lesson', () => {
  for (const example of EXAMPLES) {
    it(`${example.id}: a view the page has, one sentence, a region the run has, and a landing the run reaches`, () => {
      const { lesson } = example;
      expect(CHART_VIEWS).toContain(lesson.view);
      // One sentence: no full stop inside it.
      expect(lesson.look.trim().split(/\.\s/)).toHaveLength(1);
      expect(lesson.look.length).toBeGreaterThan(60);
      const timeline = run(example.id);
      if (lesson.region) expect(timeline.regions.map((r) => r.name)).toContain(lesson.region);
      const step = landingStep(lesson.at, timelineView(timeline, 600).view);
      expect(step, describeAt(lesson.at)).not.toBeNull();
      expect(step).toBeGreaterThan(0);
      const at = lesson.at;
      const landed = timeline.steps[step!]!;
      if ('step' in at) return;
      switch (at.event) {
        case 'change': {
          // The first such change of the run is at this step, and none before it.
          const matches = (s: Timeline['steps'][number]) =>
            s.changes.some((c) => c.type === at.type && (at.region === undefined || c.region === at.region));
          expect(matches(landed)).toBe(true);
          expect(timeline.steps.slice(0, step!).filter(matches)).toHaveLength((at.nth ?? 1) - 1);
          break;
        }
        case 'task-lost':
          expect(landed.request?.inference).toBe(timeline.summary.baselineLosesTaskAt);
          expect(landed.request?.taskInBaselineWindow).toBe(false);
          break;
        case 'stage': {
          const first = timeline.steps.findIndex((s) => s.stage === at.to);
          expect(first).toBeGreaterThan(0);
          // The first request sent in that stage.
          expect(landed.stage).toBe(at.to);
          expect(landed.request).toBeDefined();
          expect(timeline.steps.slice(first, step!).some((s) => s.request !== undefined)).toBe(false);
          break;
        }
        case 'last':
          expect(step).toBe(timeline.steps.length - 1);
          break;
      }
    });
  }

  it('checklist-gate lands on the refused attempt, whose refusal names the four open todos', () => {
    const timeline = run('checklist-gate');
    const lesson = EXAMPLES.find((e) => e.id === 'checklist-gate')!.lesson;
    const step = landingStep(lesson.at, timelineView(timeline, 600).view)!;
    const landed = timeline.steps[step]!;
    expect(landed.event.type).toBe('transition');
    expect(landed.result?.ok).toBe(false);
    expect(landed.result?.message.match(/#\d+ /g)).toHaveLength(4);
    expect(lesson.look).toContain('four todos');
    // The second attempt passes a few steps later.
    const passed = timeline.steps.findIndex((s, i) => i > step && s.event.type === 'transition' && s.result?.ok);
    expect(passed - step).toBeLessThan(10);
  });

  it('a step past the run lands on its last step; an event the run lacks lands nowhere', () => {
    const view = timelineView(run('imported-run'), 600).view;
    expect(landingStep({ step: 10_000 }, view)).toBe(view.steps.count - 1);
    expect(landingStep({ step: 1 }, view)).toBe(0);
    expect(landingStep({ event: 'task-lost' }, view)).toBeNull();
    expect(landingStep({ event: 'change', type: 'reject' }, view)).toBeNull();
    expect(landingStep({ event: 'stage' }, view)).toBeNull();
  });
});
