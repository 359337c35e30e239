// Saved settings: an entry from an older visit or a hand edit loads, keeping only what is valid.
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, parseSettings } from '../../src/state/ui.ts';

describe('parseSettings', () => {
  it('ignores the vim key saved before vim mode was removed, keeping the rest', () => {
    const saved = JSON.stringify({ fontSize: 16, wordWrap: true, minimap: false, vim: true, theme: 'dark' });
    expect(parseSettings(saved)).toEqual({ fontSize: 16, wordWrap: true, minimap: false, theme: 'dark' });
  });

  it('falls back per key on wrong types, and wholesale on unreadable text', () => {
    expect(parseSettings(JSON.stringify({ fontSize: 15, theme: 'sepia', minimap: true }))).toEqual({ ...DEFAULT_SETTINGS, minimap: true });
    expect(parseSettings('{not json')).toEqual(DEFAULT_SETTINGS);
    expect(parseSettings(null)).toEqual(DEFAULT_SETTINGS);
  });
});
