// Where a lesson (src/scenarios/lessons.ts) or a link's `step=` lands on a replayed timeline: a
// lookup in what the engine worker answered (its step columns and change table), never a figure
// computed here.
import { CHANGE_TYPES, itemAt } from '../engine/page.ts';
import type { LessonAt } from '../scenarios/lessons.ts';
import type { TimelineView } from '../worker/timeline-view.ts';

/** The step index (from 0) `at` names on `timeline`, within its steps; null when the run has no such event. */
export function landingStep(at: LessonAt, timeline: TimelineView): number | null {
  const count = timeline.steps.count;
  if (count === 0) return null;
  const within = (step: number) => Math.min(Math.max(0, step), count - 1);
  if ('step' in at) return within(at.step - 1);
  switch (at.event) {
    case 'last':
      return count - 1;
    case 'task-lost': {
      const inference = timeline.header.summary.baselineLosesTaskAt;
      if (inference === null) return null;
      const step = timeline.steps.inference.indexOf(inference);
      return step < 0 ? null : step;
    }
    case 'stage': {
      const change = timeline.stageChanges.find((c) => at.to === undefined || c.to === at.to);
      if (!change) return null;
      if (!at.inference) return change.i;
      for (let step = change.i; step < count; step++) if (itemAt(timeline.steps.inference, step) >= 0) return step;
      return null;
    }
    case 'change': {
      const type = CHANGE_TYPES.indexOf(at.type);
      const { changes } = timeline;
      let left = at.nth ?? 1;
      for (let row = 0; row < changes.step.length; row++) {
        if (changes.type[row] !== type) continue;
        if (at.region !== undefined && changes.names[itemAt(changes.region, row)] !== at.region) continue;
        if (--left === 0) return itemAt(changes.step, row);
      }
      return null;
    }
  }
}
