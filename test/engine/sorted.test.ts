import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { lowerBound } from '../../src/engine/sorted.ts';

describe('lowerBound', () => {
  it('finds the first value at or above the one asked for', () => {
    const steps = Int32Array.from([2, 4, 4, 9]);
    expect([0, 2, 3, 4, 5, 9, 10].map((v) => lowerBound(steps, v))).toEqual([0, 0, 1, 1, 3, 3, 4]);
    expect(lowerBound([], 1)).toBe(0);
  });
  it('agrees with a linear scan on any ascending column', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -50, max: 50 })), fc.integer({ min: -60, max: 60 }), (values, value) => {
        const sorted = [...values].sort((a, b) => a - b);
        const scan = sorted.findIndex((v) => v >= value);
        expect(lowerBound(sorted, value)).toBe(scan < 0 ? sorted.length : scan);
      }),
    );
  });
});
