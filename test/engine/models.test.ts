// What a token count or token view says about the tokenizer behind it.
import { describe, expect, it } from 'vitest';
import { approximateNote, findModel } from '../../src/engine/models.ts';

describe('approximateNote', () => {
  it('is silent for a model whose tokenizer is public, and names who does not publish it otherwise', () => {
    const gpt = findModel('gpt-4o')!;
    expect(approximateNote(gpt.id, gpt.encoding, gpt.approximate)).toBeUndefined();
    const claude = findModel('claude-sonnet-4')!;
    expect(approximateNote(claude.id, claude.encoding, claude.approximate)).toBe(
      "Approximate: Anthropic does not publish Claude's tokenizer; these are o200k_base's tokens, not the model's own.",
    );
    const gemini = findModel('gemini-2.5-pro')!;
    expect(approximateNote(gemini.id, gemini.encoding, gemini.approximate)).toContain(
      "Google does not publish Gemini's tokenizer",
    );
    expect(approximateNote('custom-32000', 'o200k_base', true)).toContain("this model's tokenizer is not public");
  });
});
