// Text that makes byte-pair merging quadratic (one enormous pre-token) is counted in bounded time,
// and ordinary long text without spaces is still counted exactly.
import { describe, expect, it } from 'vitest';
import * as o200k from 'gpt-tokenizer/encoding/o200k_base';
import * as cl100k from 'gpt-tokenizer/encoding/cl100k_base';
import { countTokens, decode, encode } from '../../src/engine/tokens.ts';

const PLAIN = { disallowedSpecial: new Set<string>() };

/** Deterministic pseudo-random bytes (the LCG's high byte, so runs of one value stay short). */
function bytes(n: number, seed = 1): Buffer {
  let x = seed;
  return Buffer.from(Array.from({ length: n }, () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 24)));
}

describe('pathological runs', () => {
  // Each of these took 2-18 s at 50,000 characters and grows with the square of the length.
  const RUNS: [string, string][] = [
    ['letters', 'abcdefghij'.repeat(100_000)],
    ['one letter', 'a'.repeat(1_000_000)],
    ['punctuation', '!?'.repeat(500_000)],
    ['spaces', ' '.repeat(1_000_000)],
    ['CJK', '漢字'.repeat(500_000)],
    ['emoji', '🧪'.repeat(500_000)],
  ];

  it.each(RUNS)('a 1,000,000-character run of %s is counted and encoded alike', (_name, text) => {
    for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
      const count = countTokens(text, encoding);
      expect(count).toBeGreaterThan(0);
      expect(encode(text, encoding).length).toBe(count);
    }
  });

  // gpt-tokenizer's decode is itself slow on hundreds of thousands of multi-byte tokens (the engine
  // only decodes the kept head of a capped result), so the round trip is checked on shorter runs.
  it.each(RUNS)('a 20,000-character run of %s decodes back to itself', (_name, text) => {
    const run = text.slice(0, 20_000);
    expect(decode(encode(run, 'o200k_base'), 'o200k_base')).toBe(run);
  });

  it('a short run is counted exactly as the tokenizer does', () => {
    const text = 'abcdefghij'.repeat(50);
    expect(countTokens(text, 'o200k_base')).toBe(o200k.countTokens(text, PLAIN));
  });
});

describe('long text without spaces that is not pathological is counted exactly', () => {
  const url = `See https://example.com/${'path/segment-'.repeat(300)}?q=1 for details. ${'Normal prose here. '.repeat(200)}`;
  const json = JSON.stringify(Array.from({ length: 400 }, (_, i) => ({ id: i, name: `item-${i}`, "it's": [i * 1.5, null, true], nested: { key: 'value' } })));
  const TEXTS: [string, string][] = [
    ['base64', bytes(75_000).toString('base64')],
    ['hex', bytes(50_000, 7).toString('hex')],
    ['a long URL', url],
    ['minified JSON', json],
  ];
  it.each(TEXTS)('%s', (_name, text) => {
    expect(text.length).toBeGreaterThan(1_000);
    expect(countTokens(text, 'o200k_base')).toBe(o200k.countTokens(text, PLAIN));
    expect(countTokens(text, 'cl100k_base')).toBe(cl100k.countTokens(text, PLAIN));
    expect(encode(text, 'o200k_base')).toEqual(o200k.encode(text, PLAIN));
  });
});
