// The one status the page renders, and what follows from it: which banner, whether the charts are
// out of date, whether they are drawn for the latest replay.
import { describe, expect, it } from 'vitest';
import { bannerOf, isDrawn, isOutOfDate, replayStarted, settled, type SettledStatus } from '../../src/state/status.ts';
import type { TimelineView } from '../../src/worker/timeline-view.ts';

// The functions only ask whether there is a timeline, and which one: any object stands for one.
const timeline = {} as TimelineView;
const other = {} as TimelineView;

const SETTLED: SettledStatus[] = [
  { kind: 'starting' },
  { kind: 'current' },
  { kind: 'broken' },
  { kind: 'failed', message: 'the worker crashed' },
  { kind: 'waiting' },
  { kind: 'held', reason: 'the replay took longer than 20 s' },
];

describe('replay status', () => {
  it('says, for each settled status, which banner shows and whether the charts are out of date, with a timeline and without', () => {
    const table = SETTLED.map((s) => [
      s.kind,
      bannerOf(s, timeline),
      isOutOfDate(s, timeline),
      bannerOf(s, null),
      isOutOfDate(s, null),
    ]);
    expect(table).toEqual([
      ['starting', null, false, null, false],
      ['current', null, false, null, false],
      // A broken blueprint with nothing on screen is the problems list's to explain.
      ['broken', 'broken', true, null, false],
      ['failed', 'failed', true, 'failed', true],
      ['waiting', 'waiting', true, 'waiting', true],
      ['held', 'held', false, 'held', false],
    ]);
  });

  it("a replay in progress keeps the charts out of date when they were, and shows only the broken blueprint's banner meanwhile", () => {
    const during = SETTLED.map((s) => replayStarted(s)).map((r) => [
      settled(r).kind,
      bannerOf(r, timeline),
      isOutOfDate(r, timeline),
      isOutOfDate(r, null),
    ]);
    expect(during).toEqual([
      ['starting', null, false, false],
      ['current', null, false, false],
      ['broken', 'broken', true, false],
      ['failed', null, true, false],
      ['waiting', null, true, false],
      ['held', null, false, false],
    ]);
  });

  it('a replay started during another keeps where the charts stood before the first', () => {
    const first = replayStarted({ kind: 'broken' });
    const second = replayStarted({ ...first, done: 300, total: 400 });
    expect(second).toEqual({ kind: 'replaying', done: 0, total: 0, before: { kind: 'broken' } });
  });

  it('counts the charts drawn only once the timeline on screen is the one drawn and nothing is replaying', () => {
    expect(isDrawn({ kind: 'current' }, timeline, timeline)).toBe(true);
    expect(isDrawn({ kind: 'current' }, timeline, other)).toBe(false);
    expect(isDrawn(replayStarted({ kind: 'current' }), timeline, timeline)).toBe(false);
    expect(isDrawn({ kind: 'starting' }, null, null)).toBe(false);
  });
});
