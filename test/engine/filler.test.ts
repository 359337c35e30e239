// A cut filler read is counted from the filler's shape plus its last line: the same count as
// tokenizing the whole cut text.
import { describe, expect, it } from 'vitest';
import { filler, fillerHeadTokens, fillerText } from '../../src/engine/filler.ts';
import { capReadFile, cutAscii } from '../../src/engine/routing.ts';
import { ENCODINGS, countTokens } from '../../src/engine/tokens.ts';

describe('fillerHeadTokens', () => {
  for (const encoding of ENCODINGS) {
    it(`counts a filler's head up to any line break as the tokenizer does (${encoding})`, () => {
      const text = fillerText(5_000, 'read_file', 'call-7', countTokens, encoding);
      for (let end = text.indexOf('\n') + 1; end > 0 && end < text.length; end = text.indexOf('\n', end) + 1) {
        expect(fillerHeadTokens(text, end, 'read_file', countTokens, encoding)).toBe(
          countTokens(text.slice(0, end), encoding),
        );
      }
    });
  }

  it('knows nothing of a cut inside a line, nor of text without the header', () => {
    const text = fillerText(500, 'grep', 'g1', countTokens, 'o200k_base');
    expect(fillerHeadTokens(text, text.indexOf('\n') + 5, 'grep', countTokens, 'o200k_base')).toBeUndefined();
    expect(fillerHeadTokens(text, text.indexOf('\n') + 1, 'read_file', countTokens, 'o200k_base')).toBeUndefined();
  });

  it('a read cut at the byte cap: the head known, the last line and the notice counted, equals counting it all', () => {
    const text = fillerText(24_000, 'read_file', 'call-9', countTokens, 'o200k_base');
    const capped = capReadFile(text);
    expect(capped.notice).toBeDefined();
    const content = capped.content + capped.notice!;
    const lastLine = capped.content.lastIndexOf('\n', capped.content.length - 2) + 1;
    const known = fillerHeadTokens(content, lastLine, 'read_file', countTokens, 'o200k_base')!;
    expect(known + countTokens(content.slice(lastLine), 'o200k_base')).toBe(countTokens(content, 'o200k_base'));
  });
});

// `filler` describes fillerText's text without making it (a read cut at the byte cap makes only
// the head it keeps): every answer must be what the same question asks of the whole text.
describe('filler', () => {
  const sizes = [0, 1, 2, 14, 15, 500, 5_000, 16_500, 24_000, 8192 * 13 - 1, 8192 * 13 + 12, 8192 * 13 * 2 + 25];
  const seeds = ['call-1', 'call-9', 'x', 'toolu_01'];

  it('is fillerText: its length and its text', () => {
    for (const tokens of sizes) {
      for (const seed of seeds) {
        const text = fillerText(tokens, 'read_file', seed, countTokens, 'o200k_base');
        const made = filler(tokens, 'read_file', seed, countTokens, 'o200k_base');
        expect(made.length).toBe(text.length);
        expect(made.text()).toBe(text);
      }
    }
  });

  it('gives its header line as head, the text unread; no head when the text is too short for a header', () => {
    for (const tokens of sizes) {
      for (const seed of seeds) {
        const text = fillerText(tokens, 'read_file', seed, countTokens, 'o200k_base');
        const { head } = filler(tokens, 'read_file', seed, countTokens, 'o200k_base');
        if (text.startsWith('read_file output\n')) expect(head).toBe('read_file output');
        else expect(head).toBeUndefined();
      }
    }
    expect(filler(2, 'bash', 'x', countTokens, 'o200k_base').head).toBeUndefined();
    expect(filler(500, 'bash', 'x', countTokens, 'o200k_base').head).toBe('bash output');
  });

  it('answers slice, lastLineBreak and headTokens as the whole text would', () => {
    for (const tokens of sizes) {
      for (const seed of seeds.slice(0, 2)) {
        const text = fillerText(tokens, 'read_file', seed, countTokens, 'o200k_base');
        const made = filler(tokens, 'read_file', seed, countTokens, 'o200k_base');
        const points = [
          -1,
          0,
          1,
          15,
          16,
          17,
          18,
          200,
          50_000,
          99_999,
          100_000,
          text.length - 2,
          text.length - 1,
          text.length,
          text.length + 5,
        ];
        for (let i = 0; i < 40; i++) points.push(Math.floor((text.length * i) / 40));
        for (const p of points) {
          expect(made.lastLineBreak(p)).toBe(text.lastIndexOf('\n', p));
          for (const q of [p, p + 1, p + 77, text.length]) {
            if (p >= 0 && q >= p) expect(made.slice(p, q)).toBe(text.slice(p, q));
          }
          expect(made.headTokens(p)).toBe(fillerHeadTokens(text, p, 'read_file', countTokens, 'o200k_base'));
        }
      }
    }
  });

  it('knows the tokens of its head at every line start, as fillerHeadTokens does', () => {
    const text = fillerText(5_000, 'read_file', 'call-7', countTokens, 'cl100k_base');
    const made = filler(5_000, 'read_file', 'call-7', countTokens, 'cl100k_base');
    for (let end = text.indexOf('\n') + 1; end > 0; end = text.indexOf('\n', end) + 1) {
      expect(made.headTokens(end)).toBe(fillerHeadTokens(text, end, 'read_file', countTokens, 'cl100k_base'));
    }
  });

  it('is cut by cutAscii exactly as capReadFile cuts the whole text', () => {
    for (const tokens of [100, 16_000, 16_300, 16_500, 20_000, 24_000, 8192 * 13 + 12]) {
      for (const seed of seeds) {
        const text = fillerText(tokens, 'read_file', seed, countTokens, 'o200k_base');
        const made = filler(tokens, 'read_file', seed, countTokens, 'o200k_base');
        const whole = capReadFile(text);
        expect(cutAscii(made) ?? { content: made.text() }).toEqual(whole);
      }
    }
  });
});
