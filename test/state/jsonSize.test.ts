import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonLengthAtLeast, jsonLongerThan } from '../../src/state/jsonSize.ts';

describe('JSON length without writing it', () => {
  it('is a lower bound of the JSON length: its strings and keys, quoted', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => jsonLengthAtLeast(value) <= JSON.stringify(value).length),
      { numRuns: 1000 },
    );
    // {"a":"abc","b":["","é"]} is 24: all but its six brackets and commas are counted.
    expect(jsonLengthAtLeast({ a: 'abc', b: ['', 'é'] })).toBe(18);
    expect(jsonLengthAtLeast({ a: 'abc', b: undefined, c: () => 1 })).toBe(4 + 5); // "a": and "abc"; the rest is left out of JSON
  });

  it('never says longer when the JSON is not, and says so for a value far past the limit', () => {
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.nat(400),
        (value, limit) => !jsonLongerThan(value, limit) || JSON.stringify(value).length > limit,
      ),
      { numRuns: 1000 },
    );
    const big = {
      events: Array.from({ length: 20_000 }, (_, i) => ({ kind: 'tool_result', text: 'x'.repeat(2_500), i })),
    };
    expect(jsonLongerThan(big, 2_000_000)).toBe(true);
    expect(jsonLongerThan(big, 60_000_000)).toBe(false);
    expect(jsonLengthAtLeast(big, 2_000_000)).toBeLessThan(2_100_000); // stopped early
  });
});
