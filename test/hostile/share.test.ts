// A share link built to inflate to gigabytes is refused by the inflate cap, quickly and without
// holding more than the cap in memory.
import { describe, expect, it } from 'vitest';
import { decodeFragment, MAX_INFLATED_BYTES } from '../../src/share/index.ts';
import { toBase64Url } from '../../src/share/base64url.ts';
import { deflateBomb } from '../share/bomb.ts';

describe('a DEFLATE bomb in a share link', () => {
  it('a link that inflates to 4 GiB is refused at the 2 MB cap', () => {
    const bomb = deflateBomb(4 * 2 ** 30);
    const link = `https://playground.example/#s=1.${toBase64Url(bomb)}`;
    expect(link.length).toBeGreaterThan(30_000_000);
    const heapBefore = process.memoryUsage().heapUsed;
    const result = decodeFragment(link);
    expect(result).toEqual({
      ok: false,
      error: `This link's scenario is larger than ${MAX_INFLATED_BYTES / 1024 / 1024} MB once decompressed, so it was not opened. Share big scenarios as a JSON file instead.`,
    });
    // Inflating the bomb would need 4 GiB; stopping at the cap needs a few megabytes beyond the link.
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(200 * 2 ** 20);
  });

  it('a small bomb just over the cap is refused the same way', () => {
    const result = decodeFragment(`#s=1.${toBase64Url(deflateBomb(MAX_INFLATED_BYTES + 1024))}`);
    expect(result.ok).toBe(false);
    expect(result.ok === false && result.error).toMatch(/^This link's scenario is larger than 2 MB once decompressed/);
  });
});
