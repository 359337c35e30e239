import { describe, expect, it } from 'vitest';
import {
  changesAt,
  markerClusters,
  regionColors,
  stackedStepBands,
  stageAt,
  stepLinePath,
  windowPoints,
} from '../../src/ui/chartData.ts';
import { regionPoints } from '../../src/ui/seriesPoints.ts';
import { DEFAULT_POINTS, keptSteps, timelineView } from '../../src/worker/timeline-view.ts';
import type { Change, Timeline } from '../../src/engine/index.ts';

/**
 * 900 steps (three per bucket). Region `a` peaks at the middle step of each bucket (100 tokens,
 * else 10); `b` holds 5 tokens throughout. Steps 5 and 600 each carry one change: neither is a
 * bucket's peak, so a downsampler that keeps only peaks drops them (or moves them a step).
 */
function timeline(): Timeline {
  const changeAt: Record<number, Change> = {
    5: { type: 'evict', region: 'a', tokens: 90, entries: ['x'], reason: 'max_items 2 exceeded' },
    600: { type: 'compact', region: 'b', tokens: 3, entries: ['y'] },
  };
  const steps = Array.from({ length: 900 }, (_, index) => ({
    index,
    stage: index < 450 ? 'plan' : 'build',
    regions: {
      a: { tokens: index % 3 === 1 ? 100 : 10, budget: 200, entries: 1, visible: true },
      b: { tokens: 5, budget: 50, entries: 1, visible: true },
    },
    changes: changeAt[index] ? [changeAt[index]] : [],
    warnings: [],
    request:
      index === 0
        ? {
            inference: 0,
            prefixTokens: 7,
            requestTokens: 9,
            prefixShare: 0.7,
            cache: { cacheReadTokens: 0 },
            baselineTokens: 9,
          }
        : undefined,
  }));
  return {
    regions: [
      { name: 'a', declared: true },
      { name: 'b', declared: true },
    ],
    steps,
    warnings: [],
    model: { id: 'm', window: 1000 },
    summary: { inferences: 1, meanPrefixShare: 0 },
    spawn: { regions: {} },
  } as unknown as Timeline;
}

describe('the worker downsamples and the page draws every change at its own step', () => {
  it('keptSteps keeps each bucket peak plus every changed step, in order', () => {
    expect(keptSteps([1, 3, 2, 0, 0, 9, 4], [1, 0, 1, 0, 0, 0, 0], 3)).toEqual([0, 1, 2, 5, 6]);
  });

  it('where changes are denser than the buckets, a bucket keeps its peak and its first changed step only', () => {
    expect(keptSteps([1, 3, 2, 0, 0, 9, 4], [1, 1, 1, 1, 1, 1, 1], 3)).toEqual([0, 1, 3, 5, 6]);
    // A change at every step of the 900: at most two points per bucket, the changes stay in the table.
    const dense = timeline();
    dense.steps.forEach((step, k) => {
      step.changes = [{ type: 'evict', region: 'a', tokens: k, entries: [] }];
    });
    const { view } = timelineView(dense, 100);
    expect(view.window.steps.length).toBeLessThanOrEqual(200);
    expect(view.changes.step.length).toBe(900);
    const points = windowPoints(view);
    expect(points.slice(0, 2)).toEqual([
      { i: 0, tokens: [10, 5], total: 15, prefix: 7 },
      { i: 1, tokens: [100, 5], total: 105, prefix: 7 },
    ]);
    expect(changesAt(view, 899)).toEqual([{ type: 'evict', region: 'a', tokens: 899 }]);
    // One column: one cluster counts all 900 changes and the stage change, and lists only the first dozen.
    const [all] = markerClusters(view, 1);
    expect([all!.count, all!.markers.length, all!.markers[0]!.text, all!.breakdown]).toEqual([
      901,
      12,
      'evict in a: 0 tokens',
      [
        ['evict', 900],
        ['stage', 1],
      ],
    ]);
  });

  it('the window series has the bucket peaks and both change steps with their own figures', () => {
    const points = windowPoints(timelineView(timeline()).view);
    expect(points).toHaveLength(DEFAULT_POINTS + 2);
    expect(points.slice(0, 3)).toEqual([
      { i: 1, tokens: [100, 5], total: 105, prefix: 7 },
      { i: 4, tokens: [100, 5], total: 105, prefix: 7 },
      { i: 5, tokens: [10, 5], total: 15, prefix: 7 },
    ]);
    expect(points.find((p) => p.i === 600)).toEqual({ i: 600, tokens: [10, 5], total: 15, prefix: 7 });
  });

  it('downsamples to the width the page asks for', () => {
    const { view } = timelineView(timeline(), 90);
    // 90 buckets of 10 steps; each keeps its peak, plus the two change steps.
    expect(view.window.steps.length).toBe(92);
    expect(windowPoints(view).every((p) => p.total === 105 || p.i === 5 || p.i === 600)).toBe(true);
  });

  it('a region series carries a change only at the change own step, with that step tokens', () => {
    const { view } = timelineView(timeline());
    const a = regionPoints(view, 'a');
    expect(a).toHaveLength(DEFAULT_POINTS + 1);
    expect(a.filter((p) => p.changes)).toEqual([
      {
        i: 5,
        tokens: 10,
        budget: 200,
        entries: 1,
        visible: true,
        marker: 10,
        changes: [{ type: 'evict', region: 'a', tokens: 90, reason: 'max_items 2 exceeded' }],
      },
    ]);
    expect(
      regionPoints(view, 'b')
        .filter((p) => p.changes)
        .map((p) => p.i),
    ).toEqual([600]);
  });

  it('answers the changes and the stage of any step from the compact columns', () => {
    const { view } = timelineView(timeline());
    expect(changesAt(view, 600)).toEqual([{ type: 'compact', region: 'b', tokens: 3 }]);
    expect(changesAt(view, 601)).toEqual([]);
    expect(changesAt(view, 5, 'b')).toEqual([]);
    expect([stageAt(view, 449), stageAt(view, 450)]).toEqual(['plan', 'build']);
    expect(view.stageChanges).toEqual([{ i: 450, from: 'plan', to: 'build' }]);
  });
});

describe('markers', () => {
  it('changes in one pixel column become one cluster with a count and a breakdown', () => {
    const { view } = timelineView(timeline());
    // Nine columns over 900 steps: 100 steps per column; each change lands in its own.
    expect(markerClusters(view, 9).map((c) => [c.i, c.count, c.kind])).toEqual([
      [5, 1, 'evict'],
      [450, 1, 'stage'],
      [600, 1, 'compact'],
    ]);
    // Three columns: 300 steps per column. The stage change (450, middle column) and the compaction
    // (600, last column) are in columns of their own but only half a marker apart, so their glyphs
    // and counts would overlap: the later joins the earlier.
    expect(markerClusters(view, 3).map((c) => [c.i, c.last, c.count, c.kind])).toEqual([
      [5, 5, 1, 'evict'],
      [450, 600, 2, 'stage'],
    ]);
    // One column: one cluster at the first change, counting every kind, focusing the first real region.
    const [one] = markerClusters(view, 1);
    expect([one!.i, one!.last, one!.count, one!.breakdown, one!.region]).toEqual([
      5,
      600,
      3,
      [
        ['evict', 1],
        ['stage', 1],
        ['compact', 1],
      ],
      'a',
    ]);
    expect(one!.markers.map((m) => m.text)).toEqual([
      'evict in a: 90 tokens (max_items 2 exceeded)',
      'stage plan → build',
      'compact in b: 3 tokens',
    ]);
  });
});

describe('region colours', () => {
  it('follow the region name: adding a region before another does not repaint it', () => {
    // `notes` hashes to the colour `codebase` has: the name seen before keeps it.
    const before = regionColors(['task', 'codebase', 'history']);
    expect([...before]).toEqual([
      ['task', '#BBBBBB'],
      ['codebase', '#E69F00'],
      ['history', '#F0E442'],
    ]);
    const after = regionColors(['notes', 'task', 'codebase', 'history'], before);
    expect([...after]).toEqual([
      ['notes', '#009E73'],
      ['task', '#BBBBBB'],
      ['codebase', '#E69F00'],
      ['history', '#F0E442'],
    ]);
  });

  it('do not depend on the order of declaration', () => {
    const one = regionColors(['notes', 'codebase', 'task']);
    const other = regionColors(['task', 'codebase', 'notes']);
    for (const r of ['notes', 'codebase', 'task']) expect(one.get(r)).toBe(other.get(r));
    expect(new Set(one.values()).size).toBe(3);
  });

  it('a remembered colour another region of the timeline already holds is given up, not shared', () => {
    const colours = regionColors(
      ['a', 'b'],
      new Map([
        ['a', '#0072B2'],
        ['b', '#0072B2'],
      ]),
    );
    expect(colours.get('a')).toBe('#0072B2');
    expect(colours.get('b')).not.toBe('#0072B2');
  });
});

describe('the stacked window chart', () => {
  const point = (i: number, tokens: number[]) => ({
    i,
    tokens,
    total: tokens.reduce((a, b) => a + b, 0),
    prefix: null,
  });
  // x: a step is 10 px; y: 100 px tall for 100 tokens, pointing down.
  const x = (step: number) => step * 10;
  const y = (tokens: number) => 100 - tokens;

  it('stacks the regions in order as step areas, each holding its value to the next point', () => {
    const bands = stackedStepBands([point(0, [10, 5]), point(2, [20, 5]), point(3, [0, 40])], 2, x, y);
    expect(bands).toEqual([
      // a: 10 from step 0, 20 from step 2, 0 at step 3; its floor is the axis.
      { top: 'M0,90H20V80H30V100', area: 'M0,90H20V80H30V100V100V100H20V100H0Z' },
      // b sits on a: 15, 25, 40.
      { top: 'M0,85H20V75H30V60', area: 'M0,85H20V75H30V60V100V80H20V90H0Z' },
    ]);
  });

  it('draws nothing without points', () => {
    expect(stackedStepBands([], 3, x, y)).toEqual([]);
  });
});

describe('stepLinePath', () => {
  const x = (step: number) => step * 10;
  const y = (v: number) => 100 - v;
  const at = (i: number, v: number | null) => ({ i, v });
  it('holds each value to the next point and breaks the line where the value is missing', () => {
    const points = [at(0, null), at(1, 20), at(2, 30), at(4, null), at(5, 10), at(7, 15)];
    expect(stepLinePath(points, (p) => p.v, x, y)).toBe('M10,80H20V70M50,90H70V85');
  });
  it('is empty when no point has a value', () => {
    expect(stepLinePath([at(0, null)], (p) => p.v, x, y)).toBe('');
  });
});
