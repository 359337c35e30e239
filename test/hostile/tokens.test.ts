// Every text reaches the byte-pair step in pieces of at most PIECE characters, so counting is
// linear in the text's length whatever it holds (time per MB is in the bench, `npm run bench`).
// The counts stay within HARD_CUT_TOLERANCE tokens per hard cut of js-tiktoken's, and are exact where no cut is hard.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Tiktoken } from 'js-tiktoken/lite';
import o200kRanks from 'js-tiktoken/ranks/o200k_base';
import cl100kRanks from 'js-tiktoken/ranks/cl100k_base';
import {
  countTokens,
  decode,
  encode,
  hardCuts,
  HARD_CUT_TOLERANCE,
  pieces,
  PIECE,
  type Encoding,
} from '../../src/engine/tokens.ts';
import { runs, SEED, tried } from '../fuzz/harness.ts';

const reference: Record<Encoding, Tiktoken> = {
  o200k_base: new Tiktoken(o200kRanks),
  cl100k_base: new Tiktoken(cl100kRanks),
};
const ENCODINGS: Encoding[] = ['o200k_base', 'cl100k_base'];
const referenceCount = (text: string, encoding: Encoding) => reference[encoding].encode(text, [], []).length;

/**
 * HARD_CUT_TOLERANCE tokens per hard cut, plus two per byte-order mark: gpt-tokenizer reads U+FEFF
 * as two tokens where tiktoken has one or merges it with its neighbours, cut or not.
 */
const tolerance = (text: string) => HARD_CUT_TOLERANCE * hardCuts(text) + 2 * (text.match(/\ufeff/g)?.length ?? 0);

/** Every character JavaScript's `\s` matches (the tokenizers' pre-split uses it), plus near misses. */
const WHITESPACE = [
  ' ',
  '\t',
  '\n',
  '\v',
  '\f',
  '\r',
  '\r\n',
  '\u00a0',
  '\u1680',
  '\u2000',
  '\u2001',
  '\u2002',
  '\u2003',
  '\u2004',
  '\u2005',
  '\u2006',
  '\u2007',
  '\u2008',
  '\u2009',
  '\u200a',
  '\u2028',
  '\u2029',
  '\u202f',
  '\u205f',
  '\u3000',
  '\ufeff',
  '\u0085',
  '\u200b',
  '\u180e',
];
const OTHER = [
  'a',
  'Z',
  'é',
  'e\u0301',
  '7',
  '42',
  '.',
  ',',
  "'",
  '’',
  '!?',
  '漢',
  'ー',
  '🧪',
  '\ud83d',
  '{"k":',
  '<|endoftext|>',
  "it's",
  'http://x.io/',
];

const whitespaceArb = fc.constantFrom(...WHITESPACE);
const atomArb = fc.oneof({ weight: 3, arbitrary: whitespaceArb }, { weight: 1, arbitrary: fc.constantFrom(...OTHER) });
/** Runs and alternations: a short unit repeated (`" \n"`, `"  \n"`, `" \u00a0"`, …) or a random mix. */
const textArb = fc.oneof(
  fc
    .tuple(fc.array(atomArb, { minLength: 1, maxLength: 4 }), fc.integer({ min: 1, max: 900 }))
    .map(([unit, times]) => unit.join('').repeat(Math.ceil(times / unit.join('').length) || 1)),
  fc.array(atomArb, { maxLength: 700 }).map((atoms) => atoms.join('')),
  fc
    .array(fc.tuple(fc.array(whitespaceArb, { minLength: 1, maxLength: 3 }), fc.integer({ min: 1, max: 150 })), {
      minLength: 1,
      maxLength: 4,
    })
    .map((runsOf) => runsOf.map(([unit, times]) => unit.join('').repeat(times)).join('x')),
);

describe('counts stay within three tokens per hard cut of js-tiktoken', () => {
  it('texts from every whitespace class, long runs and alternations', () => {
    for (const encoding of ENCODINGS) countTokens('warm up: the first call loads the rank table', encoding);
    fc.assert(
      fc.property(textArb, fc.constantFrom(...ENCODINGS), (text, encoding) => {
        const ours = tried('tokenizer', () => countTokens(text, encoding));
        expect(Math.abs(ours - referenceCount(text, encoding))).toBeLessThanOrEqual(tolerance(text));
        expect(encode(text, encoding).length).toBe(ours);
      }),
      { numRuns: runs(200), seed: SEED },
    );
  });

  it('no piece handed to the tokenizer is longer than PIECE characters, and the pieces are the text', () => {
    fc.assert(
      fc.property(textArb, (text) => {
        const parts = pieces(text);
        expect(parts.join('')).toBe(text);
        for (const part of parts) expect(part.length).toBeLessThanOrEqual(PIECE);
      }),
      { numRuns: runs(300), seed: SEED + 1 },
    );
  });

  it.each([' \n', '  \n', ' \u00a0', '\t\n', '\r\n '])(
    '%j repeated to 1,200 characters: cut hard, within the bound',
    (unit) => {
      const text = unit.repeat(Math.ceil(1_200 / unit.length));
      for (const encoding of ENCODINGS) {
        const diff = Math.abs(countTokens(text, encoding) - referenceCount(text, encoding));
        expect(diff).toBeLessThanOrEqual(tolerance(text));
      }
      expect(hardCuts(text)).toBeGreaterThan(0); // no natural break: these are cut hard
      expect(hardCuts(text)).toBeLessThanOrEqual(Math.ceil(text.length / (PIECE / 2)));
    },
  );
});

describe('a megabyte of any pathological run is counted (each used to take minutes or hours)', () => {
  const RUNS: [string, string][] = [
    ['letters', 'abcdefghij'.repeat(100_000)],
    ['one letter', 'a'.repeat(1_000_000)],
    ['punctuation', '!?'.repeat(500_000)],
    ['spaces', ' '.repeat(1_000_000)],
    ['space and newline', ' \n'.repeat(500_000)],
    ['two spaces and a newline', '  \n'.repeat(333_334)],
    ['space and no-break space', ' \u00a0'.repeat(500_000)],
    ['CJK', '漢字'.repeat(500_000)],
    ['emoji', '🧪'.repeat(500_000)],
  ];

  it.each(RUNS)('%s: counted and encoded alike, with every piece bounded', (_name, text) => {
    for (const encoding of ENCODINGS) {
      const count = countTokens(text, encoding);
      expect(count).toBeGreaterThan(0);
      expect(encode(text, encoding).length).toBe(count);
    }
    expect(Math.max(...pieces(text).map((p) => p.length))).toBeLessThanOrEqual(PIECE);
  });

  // gpt-tokenizer's decode is itself slow on hundreds of thousands of multi-byte tokens (the engine
  // only decodes the kept head of a capped result), so the round trip is checked on shorter runs.
  it.each(RUNS)('a 20,000-character run of %s decodes back to itself', (_name, text) => {
    const run = text.slice(0, 20_000);
    expect(decode(encode(run, 'o200k_base'), 'o200k_base')).toBe(run);
  });
});

/** Deterministic pseudo-random bytes (the LCG's high byte, so runs of one value stay short). */
function bytes(n: number, seed = 1): Buffer {
  let x = seed;
  return Buffer.from(Array.from({ length: n }, () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 24));
}

describe('long ordinary text is cut only where the pre-split cuts, so it counts exactly', () => {
  const url = `See https://example.com/${'path/segment-'.repeat(300)}?q=1 for details. ${'Normal prose here. '.repeat(200)}`;
  const json = JSON.stringify(
    Array.from({ length: 400 }, (_, i) => ({
      id: i,
      name: `item-${i}`,
      "it's": [i * 1.5, null, true],
      nested: { key: 'value' },
    })),
  );
  const code =
    'fn main() {\n    let v: Vec<u32> = (0..10).map(|x| x * 2).collect();\n\tprintln!("{:?}", v);\r\n}\n\n'.repeat(100);
  const prose =
    "Größe — 日本語のテキスト, emoji 🧪🚀. The usual way to give a model its history is one flat list; it's got a failure mode.\n".repeat(
      100,
    );
  const TEXTS: [string, string][] = [
    ['base64', bytes(75_000).toString('base64')],
    ['hex', bytes(50_000, 7).toString('hex')],
    ['a long URL', url],
    ['minified JSON', json],
    ['code', code],
    ['prose in several scripts', prose],
  ];
  it.each(TEXTS)('%s', (_name, text) => {
    expect(text.length).toBeGreaterThan(1_000);
    expect(hardCuts(text)).toBe(0);
    for (const encoding of ENCODINGS) expect(countTokens(text, encoding)).toBe(referenceCount(text, encoding));
    expect(encode(text, 'o200k_base')).toEqual(reference.o200k_base.encode(text, [], []));
  });
});
