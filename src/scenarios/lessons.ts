// What each example is meant to show, and where: the chart view, the step (or the event that marks
// it), the zoom and the region that make its point, and one sentence saying what to look at.
// Opening an example lands there (src/state/lesson.ts resolves the event against its timeline);
// `#example/<id>` links open it the same way.
import type { ChangeType } from '../engine/page.ts';
import type { ChartView, Zoom } from '../share/view.ts';

/** Where a lesson lands: a step (from 1, as the page numbers them) or an event of the run. */
export type LessonAt =
  | { step: number }
  /** The inference at which the flat-list baseline loses the task. */
  | { event: 'task-lost' }
  /** The first stage change (to `to`, when given); with `inference`, the first inference from it on. */
  | { event: 'stage'; to?: string; inference?: boolean }
  /** The `nth` (from 1, default 1) change of `type`, in `region` when given. */
  | { event: 'change'; type: ChangeType; region?: string; nth?: number }
  /** The last step of the run. */
  | { event: 'last' };

export interface Lesson {
  view: ChartView;
  at: LessonAt;
  /** The token axis, when the lesson needs one; otherwise the person's own choice stands. */
  zoom?: Zoom;
  /** The region the inspector shows. */
  region?: string;
  /** One sentence: what to look at, there. */
  look: string;
}

/** The lesson's landing in words, for the lesson bar and the docs ("step 107", "the first compact in codebase"). */
export function describeAt(at: LessonAt): string {
  if ('step' in at) return `step ${at.step}`;
  switch (at.event) {
    case 'task-lost':
      return 'where the flat list loses the task';
    case 'stage':
      return `${at.inference ? 'the first request after ' : ''}the transition${at.to ? ` to ${at.to}` : ''}`;
    case 'change':
      return `the ${at.nth && at.nth > 1 ? `${ordinal(at.nth)} ` : 'first '}${at.type}${at.region ? ` in ${at.region}` : ''}`;
    case 'last':
      return 'the last step';
  }
}

function ordinal(n: number): string {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}
