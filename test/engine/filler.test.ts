// A cut filler read is counted from the filler's shape plus its last line: the same count as
// tokenizing the whole cut text.
import { describe, expect, it } from 'vitest';
import { fillerHeadTokens, fillerText } from '../../src/engine/filler.ts';
import { capReadFile } from '../../src/engine/routing.ts';
import { ENCODINGS, countTokens } from '../../src/engine/tokens.ts';

describe('fillerHeadTokens', () => {
  for (const encoding of ENCODINGS) {
    it(`counts a filler's head up to any line break as the tokenizer does (${encoding})`, () => {
      const text = fillerText(5_000, 'read_file', 'call-7', countTokens, encoding);
      for (let end = text.indexOf('\n') + 1; end > 0 && end < text.length; end = text.indexOf('\n', end) + 1) {
        expect(fillerHeadTokens(text, end, 'read_file', countTokens, encoding)).toBe(countTokens(text.slice(0, end), encoding));
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
