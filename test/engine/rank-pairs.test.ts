// The ranks the page ships as pairs must rebuild gpt-tokenizer's ranks exactly, for both
// encodings: a single token different would change counts only on the page.
import { createServer } from 'node:http';
import { gzipSync } from 'node:zlib';
import o200k from 'gpt-tokenizer/bpeRanks/o200k_base';
import cl100k from 'gpt-tokenizer/bpeRanks/cl100k_base';
import { describe, expect, it } from 'vitest';
import { fetchRanks, packRanks, unpackRanks, type Ranks } from '../../src/engine/rank-pairs.ts';

const ENCODINGS: [string, Ranks][] = [
  ['o200k_base', o200k],
  ['cl100k_base', cl100k],
];

/** Serves `body` (or a 404) on a local port for the length of `use`. */
async function serving<T>(body: Uint8Array | undefined, use: (url: string) => Promise<T>): Promise<T> {
  const server = createServer((_, response) => {
    if (body) response.end(body);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  try {
    return await use(`http://127.0.0.1:${port}/o200k_base.bin`);
  } finally {
    server.close();
  }
}

describe('ranks packed as pairs', () => {
  it.each(ENCODINGS)(
    '%s round-trips exactly: every token, as text or as bytes where gpt-tokenizer has bytes',
    (_, ranks) => {
      const packed = packRanks(ranks);
      expect(packed.length).toBe(4 + 6 * ranks.length);
      expect(unpackRanks(packed)).toEqual(ranks);
    },
  );

  it('keeps a token that starts with a byte-order mark as bytes, as gpt-tokenizer does', () => {
    const unpacked = unpackRanks(packRanks(o200k));
    const withBom = unpacked.findIndex(
      (token) => Array.isArray(token) && token[0] === 0xef && token[1] === 0xbb && token[2] === 0xbf,
    );
    expect(withBom).toBeGreaterThan(0);
    expect(o200k[withBom]).toEqual(unpacked[withBom]);
  });

  it('packs o200k_base under 0.75 MB gzipped', () => {
    expect(gzipSync(packRanks(o200k), { level: 9 }).length).toBeLessThan(750_000);
  });

  it('refuses a token that is not two lower-ranked tokens joined', () => {
    expect(() => packRanks(['a', 'b', 'abc'])).toThrow('token 2 is not two lower-ranked tokens joined');
  });

  it('refuses a file cut short or naming a later token', () => {
    const packed = packRanks(['a', 'b', 'ab']);
    expect(() => unpackRanks(packed.subarray(0, packed.length - 1))).toThrow(
      'packed ranks of 3 tokens take 22 bytes, not 21',
    );
    const forward = packed.slice();
    forward[4 + 2 * 3 + 1] = 2; // token 1's left rank's low byte: itself is not a pair, so a later one
    forward[4 + 5 * 3 + 1] = 0;
    expect(() => unpackRanks(forward)).toThrow('packed token 1 names a later token');
  });

  it('fetches and inflates the gzipped file', async () => {
    const ranks: Ranks = ['a', 'b', 'ab', [0xe2], [0x82], [0xe2, 0x82], [0xac], '€'];
    const fetched = await serving(gzipSync(packRanks(ranks)), (url) => fetchRanks(url));
    expect(fetched).toEqual(ranks);
  });

  it('says which file failed and how when the fetch does', async () => {
    await expect(serving(undefined, (url) => fetchRanks(url))).rejects.toThrow(
      /fetching the tokenizer's ranks \(http:\/\/127\.0\.0\.1:\d+\/o200k_base\.bin\) failed: HTTP 404/,
    );
  });
});
