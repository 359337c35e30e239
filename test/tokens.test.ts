import { describe, expect, it } from 'vitest';
import { Tiktoken } from 'js-tiktoken/lite';
import o200kRanks from 'js-tiktoken/ranks/o200k_base';
import cl100kRanks from 'js-tiktoken/ranks/cl100k_base';
import { countTokens, encode, decode, observeCounts, type Encoding } from '../src/engine/tokens.ts';

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

  it('counts a known sentence with a known number', () => {
    expect(countTokens('hello world')).toBe(2);
    expect(countTokens('')).toBe(0);
  });

  it('counts long text (past the cache) the same as the reference', () => {
    const long = samples.code!.repeat(200);
    expect(countTokens(long)).toBe(reference.o200k_base.encode(long, [], []).length);
  });
});

describe('observeCounts (the bench floor\'s recorder)', () => {
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
