// A share link built to inflate to gigabytes is refused by its length, or by the inflate cap,
// quickly and without holding more than the cap in memory.
import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { deflateSync } from 'fflate';
import { decodeFragment, MAX_INFLATED_BYTES, MAX_LINK_CHARS } from '../../src/share/index.ts';
import { toBase64Url } from '../../src/share/base64url.ts';
import { deflateBomb } from '../share/bomb.ts';

describe('a DEFLATE bomb in a share link', () => {
  it('a link that would inflate to 4 GiB is refused by its length before it is decoded', () => {
    const bomb = deflateBomb(4 * 2 ** 30);
    const link = `https://playground.example/#s=1.${toBase64Url(bomb)}`;
    expect(link.length).toBeGreaterThan(30_000_000);
    const value = link.slice(link.indexOf('s=') + 2);
    expect(decodeFragment(link)).toEqual({
      ok: false,
      error: `This link is ${value.length.toLocaleString('en-US')} characters long, more than a scenario of 2 MB can make (${MAX_LINK_CHARS.toLocaleString('en-US')}), so it was not opened. Share big scenarios as a JSON file instead.`,
    });
  });

  it('a link short enough to be decoded that inflates to 256 MiB is refused at the 2 MB cap', () => {
    const bomb = deflateBomb(256 * 2 ** 20);
    const link = `https://playground.example/#s=1.${toBase64Url(bomb)}`;
    expect(link.length).toBeGreaterThan(2_000_000);
    expect(link.length).toBeLessThan(MAX_LINK_CHARS);
    const heapBefore = process.memoryUsage().heapUsed;
    const result = decodeFragment(link);
    expect(result).toEqual({
      ok: false,
      error: `This link's scenario is larger than ${MAX_INFLATED_BYTES / 1024 / 1024} MB once decompressed, so it was not opened. Share big scenarios as a JSON file instead.`,
    });
    // Inflating the bomb would need 256 MiB; stopping at the cap needs a few megabytes beyond the link.
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(100 * 2 ** 20);
  });

  it('the longest link decoded can hold the largest scenario: 2 MB of incompressible bytes stored', () => {
    // DEFLATE at level 0 stores the data as it is: the longest a link to a 2 MB scenario gets.
    const stored = deflateSync(randomBytes(MAX_INFLATED_BYTES), { level: 0 });
    expect(`s=1.${toBase64Url(stored)}`.length).toBeLessThanOrEqual(MAX_LINK_CHARS);
  });

  it('a small bomb just over the cap is refused the same way', () => {
    const result = decodeFragment(`#s=1.${toBase64Url(deflateBomb(MAX_INFLATED_BYTES + 1024))}`);
    expect(result.ok).toBe(false);
    expect(result.ok === false && result.error).toMatch(/^This link's scenario is larger than 2 MB once decompressed/);
  });
});
