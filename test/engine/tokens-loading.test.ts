// Encodings load on demand (the page fetches only its model's, about 1 MB gzip each): counting with
// one not loaded yet says which and how to load it, and loading one leaves the other unloaded.
import { describe, expect, it, vi } from 'vitest';
import { countTokens as countWithBothLoaded } from '../../src/engine/tokens.ts';

/** A fresh copy of the module, with no encoding loaded (the test setup loaded both in the shared one). */
async function freshTokens(): Promise<typeof import('../../src/engine/tokens.ts')> {
  vi.resetModules();
  return import('../../src/engine/tokens.ts');
}

const TEXT = 'The context window is a budget: 200,000 tokens, shared by every region.';

describe('loading encodings', () => {
  it('refuses to count with an encoding not loaded, naming it and the call that loads it', async () => {
    const tokens = await freshTokens();
    expect(() => tokens.countTokens(TEXT, 'cl100k_base')).toThrow(
      "the cl100k_base encoding is not loaded: await loadEncoding('cl100k_base') before counting with it",
    );
    expect(() => tokens.encode(TEXT)).toThrow(/o200k_base encoding is not loaded/);
    expect(() => tokens.decode([1, 2, 3], 'cl100k_base')).toThrow(/cl100k_base encoding is not loaded/);
  });

  it('loads only the encoding asked for, once, and then counts as with both loaded', async () => {
    const tokens = await freshTokens();
    const first = tokens.loadEncoding('cl100k_base');
    expect(tokens.loadEncoding('cl100k_base')).toBe(first);
    await first;
    expect(tokens.isEncodingLoaded('cl100k_base')).toBe(true);
    expect(tokens.isEncodingLoaded('o200k_base')).toBe(false);
    expect(tokens.countTokens(TEXT, 'cl100k_base')).toBe(countWithBothLoaded(TEXT, 'cl100k_base'));
    expect(() => tokens.countTokens(TEXT, 'o200k_base')).toThrow(/o200k_base encoding is not loaded/);
  });

  it('counts nothing in an empty text without loading anything', async () => {
    const tokens = await freshTokens();
    expect(tokens.countTokens('', 'o200k_base')).toBe(0);
  });
});
