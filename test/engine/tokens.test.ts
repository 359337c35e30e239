import { describe, expect, it } from 'vitest';
import { Tiktoken } from 'js-tiktoken/lite';
import o200kRanks from 'js-tiktoken/ranks/o200k_base';
import cl100kRanks from 'js-tiktoken/ranks/cl100k_base';
import { readFileSync } from 'node:fs';
import {
  countTokens,
  encode,
  encodeHead,
  countAfterHead,
  decode,
  hardCuts,
  observeCounts,
  tokenPage,
  tokenPieces,
  type Encoding,
} from '../../src/engine/tokens.ts';

// The engine counts with gpt-tokenizer; js-tiktoken is the reference it must agree with.
const reference: Record<Encoding, Tiktoken> = {
  o200k_base: new Tiktoken(o200kRanks),
  cl100k_base: new Tiktoken(cl100kRanks),
};

const samples: Record<string, string> = {
  prose: 'The usual way to give a model its history is one flat list of messages. That has a failure mode.',
  code: 'fn main() {\n    let v: Vec<u32> = (0..10).map(|x| x * 2).collect();\n    println!("{:?}", v);\n}\n',
  json: JSON.stringify({ region: 'codebase', tokens: 2431, entries: [{ key: 'src/lib.rs', ok: true }, null, 3.5] }),
  unicode: 'Größe — 日本語のテキスト, emoji 🧪🚀, combining é, RTL עברית, zero\u200bwidth',
  special: 'a literal <|endoftext|> and <|im_start|> inside tool output',
  whitespace: '\n\n\t  indented\r\n   trailing   \n',
  empty: '',
};

describe('token counting', () => {
  for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
    for (const [name, text] of Object.entries(samples)) {
      it(`${encoding}: ${name} matches js-tiktoken exactly`, () => {
        const expected = reference[encoding].encode(text, [], []);
        expect(encode(text, encoding)).toEqual(expected);
        expect(countTokens(text, encoding)).toBe(expected.length);
      });
    }
  }

  it('round-trips through decode', () => {
    for (const text of Object.values(samples)) expect(decode(encode(text))).toBe(text);
  });

  it('decodes a character held only in part as U+FFFD, and keeps nothing of it for the next decode', () => {
    for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
      const ids = encode('🧪', encoding);
      expect(ids.length).toBeGreaterThan(1);
      expect(decode(ids.slice(0, 1), encoding)).toBe('\uFFFD');
      expect(decode(encode(samples.unicode!, encoding), encoding)).toBe(samples.unicode);
      // A text that starts with a byte order mark keeps it.
      expect(decode(encode('\uFEFFhello', encoding), encoding)).toBe('\uFEFFhello');
    }
  });

  it('counts a known sentence with a known number', () => {
    expect(countTokens('hello world')).toBe(2);
    expect(countTokens('')).toBe(0);
  });

  it('counts long text (past the cache) the same as the reference', () => {
    const long = samples.code!.repeat(200);
    expect(countTokens(long)).toBe(reference.o200k_base.encode(long, [], []).length);
  });
});

describe('encodeHead and countAfterHead (the head a cut needs, and the cut text counted)', () => {
  // A real file's text, long enough for many pieces: the head must be exactly encode's first ids.
  const long = readFileSync('src/engine/assemble.ts', 'utf8');
  for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
    it(`${encoding}: the first ids of encode, at least as many as asked, and all of a shorter text`, () => {
      const all = encode(long, encoding);
      for (const atLeast of [0, 1, 60, 61, 500, 2_000]) {
        const { ids } = encodeHead(long, atLeast, encoding);
        expect(ids.length).toBeGreaterThanOrEqual(atLeast);
        expect(ids.length).toBeLessThan(all.length);
        expect(ids).toEqual(all.slice(0, ids.length));
      }
      expect(encodeHead(long, all.length + 1, encoding).ids).toEqual(all);
      expect(encodeHead(samples.unicode!, 5, encoding).ids).toEqual(
        reference[encoding].encode(samples.unicode!, [], []),
      );
    });

    it(`${encoding}: a head of the text with anything after it counts as countTokens does`, () => {
      const head = encodeHead(long, 3_000, encoding);
      const end = head.starts.at(-1)!;
      for (const same of [0, 1, 255, 256, 257, 300, 1_000, 4_000, end - 1, end])
        for (const after of ['', '\n[truncated: 1 of 2 tokens]', 'x', ' \n\n', '🧪']) {
          const text = long.slice(0, same) + after;
          expect(countAfterHead(head, text, same, encoding)).toBe(reference[encoding].encode(text, [], []).length);
        }
    });
  }
});

describe("observeCounts (the bench floor's recorder)", () => {
  it('sees every text counted, cached or not, and stops when removed', () => {
    const seen: string[] = [];
    observeCounts((text) => seen.push(text));
    countTokens('hello world');
    countTokens('hello world');
    countTokens('');
    observeCounts(undefined);
    countTokens('not seen');
    expect(seen).toEqual(['hello world', 'hello world']);
  });
});

// Real text a token view shows: a harness's recorded request bodies and an agent's trajectory
// (test/import/fixtures/real/SOURCES.md says where each comes from).
const realTexts: Record<string, string> = {
  'claude-trace request bodies (207 KB)': readFileSync(
    new URL('../import/fixtures/real/claude-trace-first-calls.jsonl', import.meta.url),
    'utf8',
  ),
  'SWE-agent trajectory': readFileSync(
    new URL('../import/fixtures/real/swe-agent-commands.traj', import.meta.url),
    'utf8',
  ),
};

describe('tokenPieces (the token view)', () => {
  for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
    for (const [name, text] of Object.entries({ ...samples, ...realTexts })) {
      it(`${encoding}: ${name}: the pieces join to the text and their ids are js-tiktoken's`, () => {
        const pieces = tokenPieces(text, encoding);
        expect(pieces.map((p) => p.text).join('')).toBe(text);
        // Where the engine cuts a text before encoding it only where the pre-split cuts anyway, its ids are js-tiktoken's exactly.
        expect(hardCuts(text)).toBe(0);
        expect(pieces.flatMap((p) => p.ids)).toEqual(reference[encoding].encode(text, [], []));
        for (const piece of pieces) expect(piece.ids.length).toBeGreaterThan(0);
      });
    }
  }

  it('each piece is the text of exactly its ids, an emoji split across tokens included', () => {
    const pieces = tokenPieces(samples.unicode!, 'cl100k_base');
    for (const piece of pieces) expect(reference.cl100k_base.decode(piece.ids)).toBe(piece.text);
    // cl100k_base has no token for 🧪: its four bytes are more than one token, shown as one piece.
    const emoji = pieces.find((p) => p.text.includes('🧪'))!;
    expect(reference.cl100k_base.encode('🧪', [], []).length).toBeGreaterThan(1);
    expect(emoji.ids.length).toBeGreaterThan(1);
  });

  it('a lone surrogate (not valid Unicode) still joins back to the text', () => {
    const text = 'before \ud800 after';
    expect(
      tokenPieces(text)
        .map((p) => p.text)
        .join(''),
    ).toBe(text);
  });

  it('pages through a long text: the pages are the pieces in order, each placed where it starts', () => {
    const text = realTexts['claude-trace request bodies (207 KB)']!;
    const all = tokenPieces(text, 'o200k_base');
    const tokens = countTokens(text, 'o200k_base');
    const seen: string[] = [];
    for (let from = 0; from < all.length; from += 2000) {
      const page = tokenPage(text, 'o200k_base', from, 2000);
      expect(page.from).toBe(from);
      expect(page.fromChar).toBe(seen.join('').length);
      expect(page.totalPieces).toBe(all.length);
      expect(page.totalTokens).toBe(tokens);
      seen.push(...page.pieces.map((p) => p.text));
    }
    expect(seen.join('')).toBe(text);
  });
});
