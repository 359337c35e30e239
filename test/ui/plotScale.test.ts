import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { linearScale, nearestPoint, niceTicks, stepTicks } from '../../src/ui/plotScale.ts';

describe('linearScale', () => {
  it('maps 0 and the end onto the pixel range, either way up', () => {
    const y = linearScale(200, 150, 10);
    expect([y(0), y(100), y(200)]).toEqual([150, 80, 10]);
    expect(linearScale(0, 0, 50)(0)).toBe(0);
  });
});

describe('niceTicks', () => {
  it('places ticks at round spacings, as an axis would', () => {
    expect(niceTicks(200_000, 5)).toEqual([0, 50_000, 100_000, 150_000, 200_000]);
    expect(niceTicks(137_500, 5)).toEqual([0, 50_000, 100_000]);
    expect(niceTicks(90, 5)).toEqual([0, 25, 50, 75]);
    expect(niceTicks(1, 5)).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(niceTicks(0, 5)).toEqual([0]);
  });
  it('gives whole numbers for steps', () => {
    expect(niceTicks(1, 5, true)).toEqual([0, 1]);
    expect(niceTicks(399, 5, true)).toEqual([0, 100, 200, 300]);
    expect(niceTicks(9, 5, true)).toEqual([0, 5]);
  });
  it('never gives more than the count, and (with three or more) covers at least half the range', () => {
    // Found by the property below: an end a hair past a round number keeps the round spacing.
    expect(niceTicks(4.000000000000001, 3, true)).toEqual([0, 2, 4]);
    expect(niceTicks(4.2, 3, true)).toEqual([0, 2, 4]);
    fc.assert(
      fc.property(
        fc.double({ min: 1e-3, max: 1e9, noNaN: true }),
        fc.integer({ min: 3, max: 10 }),
        fc.boolean(),
        (end, count, whole) => {
          const ticks = niceTicks(end, count, whole);
          expect(ticks.length).toBeLessThanOrEqual(count);
          expect(ticks[0]).toBe(0);
          expect(ticks[ticks.length - 1]!).toBeLessThanOrEqual(end * (1 + 1e-9));
          if (!whole || end >= count) expect(ticks[ticks.length - 1]!).toBeGreaterThanOrEqual(end / 2);
          if (whole) for (const t of ticks) expect(Number.isInteger(t)).toBe(true);
        },
      ),
    );
  });
});

describe('stepTicks', () => {
  it('ends on the last step when the round ticks stop well short of it', () => {
    expect(stepTicks(399, 5)).toEqual([0, 100, 200, 300, 399]);
    expect(stepTicks(320, 5)).toEqual([0, 100, 200, 300]);
    expect(stepTicks(1, 5)).toEqual([0, 1]);
  });
});

describe('nearestPoint', () => {
  const steps = [0, 4, 5, 10];
  it('finds the point nearest a step, the earlier one on a tie', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 50].map((s) => nearestPoint(steps, s))).toEqual([
      0, 0, 0, 1, 1, 2, 2, 2, 3, 3, 3, 3,
    ]);
    expect(nearestPoint([], 3)).toBe(-1);
  });
});
