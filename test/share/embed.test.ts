// The embed view's address: `?embed` or an `embed` part of the fragment, and back to the playground.
import { describe, expect, it } from 'vitest';
import { embedUrl, isEmbed, playgroundUrl } from '../../src/ui/embed.ts';

const LINK = 'https://leviath.dev/playground/#s=1.q1YqS8wpTVWyUlAqLU4tUqoFAA';

describe('embed addresses', () => {
  it('recognises ?embed and an embed part of the fragment, and nothing else', () => {
    expect(isEmbed({ search: '?embed', hash: '#s=1.abc' })).toBe(true);
    expect(isEmbed({ search: '', hash: '#embed&s=1.abc' })).toBe(true);
    expect(isEmbed({ search: '', hash: '#s=1.abc&embed' })).toBe(true);
    expect(isEmbed({ search: '', hash: '#embed' })).toBe(true);
    expect(isEmbed({ search: '', hash: '#s=1.embed' })).toBe(false);
    expect(isEmbed({ search: '?embedded', hash: '' })).toBe(false);
    expect(isEmbed({ search: '', hash: '' })).toBe(false);
  });

  it('makes the embed link of a share link as ?embed before the fragment, kept byte for byte', () => {
    expect(embedUrl(LINK)).toBe('https://leviath.dev/playground/?embed#s=1.q1YqS8wpTVWyUlAqLU4tUqoFAA');
  });

  it('opens the playground at the same link, whichever way the embed was asked for', () => {
    expect(playgroundUrl(embedUrl(LINK))).toBe(LINK);
    expect(playgroundUrl('https://leviath.dev/playground/#embed&s=1.q1YqS8wpTVWyUlAqLU4tUqoFAA')).toBe(LINK);
    expect(playgroundUrl('https://leviath.dev/playground/#s=1.q1YqS8wpTVWyUlAqLU4tUqoFAA&embed')).toBe(LINK);
  });
});
