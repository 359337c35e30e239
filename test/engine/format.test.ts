import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fmt } from '../../src/engine/format.ts';

describe('fmt writes numbers as en-US does, without Intl for integers', () => {
  it('groups integers in threes, negative ones too', () => {
    expect([0, 7, 999, 1000, 12345, 1234567, -1, -1000, -987654321].map(fmt)).toEqual([
      '0',
      '7',
      '999',
      '1,000',
      '12,345',
      '1,234,567',
      '-1',
      '-1,000',
      '-987,654,321',
    ]);
  });

  it('agrees with toLocaleString on every safe integer, and on everything else it hands over', () => {
    fc.assert(fc.property(fc.maxSafeInteger(), (n) => fmt(n) === n.toLocaleString('en-US')));
    for (const n of [-0, 0.5, 1234.5678, -0.0004, 2 ** 60, Infinity, -Infinity, NaN])
      expect(fmt(n)).toBe(n.toLocaleString('en-US'));
  });
});
