import { describe, expect, it } from 'vitest';
import {
  MAX_POINTS, clusterMarkers, keptSteps, regionColors, regionSeries, timelineMarkers, windowSeries,
} from '../../src/ui/chartData.ts';
import type { Change, Timeline } from '../../src/engine/timeline.ts';

/**
 * 900 steps (three per bucket). Region `a` peaks at the middle step of each bucket (100 tokens,
 * else 10); `b` holds 5 tokens throughout. Steps 5 and 600 each carry one change: neither is a
 * bucket's peak, so a downsampler that keeps only peaks drops them (or moves them a step).
 */
function timeline(): Timeline {
  const changeAt: Record<number, Change> = {
    5: { type: 'evict', region: 'a', tokens: 90, entries: ['x'] },
    600: { type: 'compact', region: 'b', tokens: 3, entries: ['y'] },
  };
  const steps = Array.from({ length: 900 }, (_, index) => ({
    index,
    stage: 'main',
    regions: {
      a: { tokens: index % 3 === 1 ? 100 : 10, budget: 200, entries: 1, visible: true },
      b: { tokens: 5, budget: 50, entries: 1, visible: true },
    },
    changes: changeAt[index] ? [changeAt[index]] : [],
    request: index === 0 ? { prefixTokens: 7 } : undefined,
  }));
  return { regions: [{ name: 'a', declared: true }, { name: 'b', declared: true }], steps } as unknown as Timeline;
}

describe('downsampling keeps every change at its own step', () => {
  it('keptSteps keeps each bucket peak plus every changed step, in order', () => {
    expect(keptSteps(7, 3, (k) => [1, 3, 2, 0, 0, 9, 4][k], (k) => k === 0 || k === 2)).toEqual([0, 1, 2, 5, 6]);
  });

  it('the window series has the bucket peaks and both change steps with their own figures', () => {
    const points = windowSeries(timeline(), ['a', 'b']);
    expect(points).toHaveLength(MAX_POINTS + 2);
    expect(points.slice(0, 3)).toEqual([
      { i: 1, tokens: [100, 5], total: 105, prefix: 7 },
      { i: 4, tokens: [100, 5], total: 105, prefix: 7 },
      { i: 5, tokens: [10, 5], total: 15, prefix: 7 },
    ]);
    expect(points.find((p) => p.i === 600)).toEqual({ i: 600, tokens: [10, 5], total: 15, prefix: 7 });
  });

  it('a region series carries a change only at the change own step, with that step tokens', () => {
    const a = regionSeries(timeline(), 'a');
    expect(a).toHaveLength(MAX_POINTS + 1);
    expect(a.filter((p) => p.changes)).toEqual([
      { i: 5, tokens: 10, budget: 200, marker: 10, changes: [{ type: 'evict', region: 'a', tokens: 90, entries: ['x'] }] },
    ]);
    const b = regionSeries(timeline(), 'b');
    expect(b.filter((p) => p.changes).map((p) => p.i)).toEqual([600]);
  });
});

describe('markers', () => {
  it('changes in one pixel column become one cluster with a count and a breakdown', () => {
    const markers = timelineMarkers(timeline());
    expect(markers.map((m) => [m.i, m.kind, m.region])).toEqual([[5, 'evict', 'a'], [600, 'compact', 'b']]);
    // Three columns over 900 steps: 300 steps per column; both land in different columns.
    expect(clusterMarkers(markers, 900, 3).map((c) => [c.i, c.count])).toEqual([[5, 1], [600, 1]]);
    // One column: one cluster at the first change, counting both kinds.
    const [one] = clusterMarkers(markers, 900, 1);
    expect([one.i, one.last, one.count, one.breakdown]).toEqual([5, 600, 2, [['evict', 1], ['compact', 1]]]);
  });
});

describe('region colours', () => {
  it('follow the region name: adding a region before another does not repaint it', () => {
    // `notes` hashes to the colour `codebase` has: the name seen before keeps it.
    const before = regionColors(['task', 'codebase', 'history']);
    expect([...before]).toEqual([['task', '#BBBBBB'], ['codebase', '#E69F00'], ['history', '#F0E442']]);
    const after = regionColors(['notes', 'task', 'codebase', 'history'], before);
    expect([...after]).toEqual([['notes', '#009E73'], ['task', '#BBBBBB'], ['codebase', '#E69F00'], ['history', '#F0E442']]);
  });

  it('do not depend on the order of declaration', () => {
    const one = regionColors(['notes', 'codebase', 'task']);
    const other = regionColors(['task', 'codebase', 'notes']);
    for (const r of ['notes', 'codebase', 'task']) expect(one.get(r)).toBe(other.get(r));
    expect(new Set(one.values()).size).toBe(3);
  });

  it('a remembered colour another region of the timeline already holds is given up, not shared', () => {
    const colours = regionColors(['a', 'b'], new Map([['a', '#0072B2'], ['b', '#0072B2']]));
    expect(colours.get('a')).toBe('#0072B2');
    expect(colours.get('b')).not.toBe('#0072B2');
  });
});
