// An encoding's ranks as the page ships them: every token after the single bytes is the
// concatenation of two lower-ranked tokens, so a token is stored as that pair of ranks, not as its
// bytes. Gzipped, o200k_base takes about 0.70 MB this way against 1.0 MB as gpt-tokenizer's module
// (docs/decisions/ui.md has the formats measured). The build writes the file (vite.config.ts);
// the engine worker fetches it and rebuilds gpt-tokenizer's ranks exactly.
//
// Layout: a little-endian u32 count N, then six planes of N bytes each: the left rank's high,
// middle and low bytes, then the right rank's. A single-byte token stores its byte as the left
// rank and its own rank as the right one (no real pair can name itself).
import { itemAt } from './item-at.ts';

/** gpt-tokenizer's ranks: the token's text where its bytes are UTF-8 (and it starts with no BOM), else its bytes. */
export type Ranks = (string | number[])[];

const HEADER = 4;
const PLANES = 6;
const BOM = 0xfeff;

/** The pairs of `ranks`, as laid out above; throws if a token has no pair of lower-ranked tokens. */
export function packRanks(ranks: Ranks): Uint8Array {
  const utf8 = new TextEncoder();
  const tokens = ranks.map((token) => (typeof token === 'string' ? utf8.encode(token) : Uint8Array.from(token)));
  const rankOf = new Map(tokens.map((bytes, rank) => [latin1(bytes), rank]));
  const n = tokens.length;
  const packed = new Uint8Array(HEADER + PLANES * n);
  new DataView(packed.buffer).setUint32(0, n, true);
  const put = (plane: number, rank: number, value: number) => {
    packed[HEADER + plane * n + rank] = value >> 16;
    packed[HEADER + (plane + 1) * n + rank] = (value >> 8) & 0xff;
    packed[HEADER + (plane + 2) * n + rank] = value & 0xff;
  };
  tokens.forEach((bytes, rank) => {
    const [left, right] = bytes.length === 1 ? [itemAt(bytes, 0), rank] : pairOf(bytes, rank, rankOf);
    put(0, rank, left);
    put(3, rank, right);
  });
  return packed;
}

/**
 * Of the splits of a token into two lower-ranked tokens, the one with the lowest right rank: of
 * the choices measured, it gzips smallest.
 */
function pairOf(bytes: Uint8Array, rank: number, rankOf: Map<string, number>): [number, number] {
  let best: [number, number] | undefined;
  for (let cut = 1; cut < bytes.length; cut++) {
    const left = rankOf.get(latin1(bytes.subarray(0, cut)));
    const right = rankOf.get(latin1(bytes.subarray(cut)));
    if (left === undefined || right === undefined || left >= rank || right >= rank) continue;
    if (!best || right < best[1]) best = [left, right];
  }
  if (!best) throw new Error(`token ${rank} is not two lower-ranked tokens joined`);
  return best;
}

function latin1(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return text;
}

/** gpt-tokenizer's ranks from `packRanks`'s bytes (tests check both encodings round-trip exactly). */
export function unpackRanks(packed: Uint8Array): Ranks {
  const n = new DataView(packed.buffer, packed.byteOffset, packed.byteLength).getUint32(0, true);
  if (packed.length !== HEADER + PLANES * n)
    throw new Error(`packed ranks of ${n} tokens take ${HEADER + PLANES * n} bytes, not ${packed.length}`);
  const at = (plane: number, rank: number) =>
    (packed[HEADER + plane * n + rank]! << 16) |
    (packed[HEADER + (plane + 1) * n + rank]! << 8) |
    packed[HEADER + (plane + 2) * n + rank]!;
  const left = new Int32Array(n);
  const right = new Int32Array(n);
  const length = new Int32Array(n);
  const offset = new Int32Array(n);
  let total = 0;
  for (let rank = 0; rank < n; rank++) {
    left[rank] = at(0, rank);
    right[rank] = at(3, rank);
    const single = right[rank] === rank;
    if (!single && (left[rank]! >= rank || right[rank]! >= rank))
      throw new Error(`packed token ${rank} names a later token`);
    length[rank] = single ? 1 : length[left[rank]!]! + length[right[rank]!]!;
    offset[rank] = total;
    total += length[rank]!;
  }
  // All tokens' bytes side by side: a token is built by copying its two parts, already built.
  const bytes = new Uint8Array(total);
  // A token's text where its bytes are UTF-8: two such parts join into their texts joined.
  const texts: (string | undefined)[] = new Array(n);
  const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const ranks: Ranks = new Array(n);
  for (let rank = 0; rank < n; rank++) {
    const a = left[rank]!;
    const b = right[rank]!;
    const start = offset[rank]!;
    const own = bytes.subarray(start, start + length[rank]!);
    let text: string | undefined;
    if (b === rank) {
      bytes[start] = a;
      text = a < 0x80 ? String.fromCharCode(a) : undefined;
    } else {
      bytes.copyWithin(start, offset[a]!, offset[a]! + length[a]!);
      bytes.copyWithin(start + length[a]!, offset[b]!, offset[b]! + length[b]!);
      const textA = texts[a];
      const textB = texts[b];
      text = textA !== undefined && textB !== undefined ? textA + textB : decodeStrict(strict, own);
    }
    texts[rank] = text;
    // gpt-tokenizer keeps a token that starts with a BOM as bytes (a decoder would drop the BOM).
    ranks[rank] = text !== undefined && text.charCodeAt(0) !== BOM ? text : Array.from(own);
  }
  return ranks;
}

function decodeStrict(decoder: TextDecoder, bytes: Uint8Array): string | undefined {
  try {
    return decoder.decode(bytes);
  } catch {
    return undefined;
  }
}

/** The ranks in a gzipped `packRanks` file, as fetched: inflated by the platform's own gzip. */
export async function fetchRanks(url: string | URL): Promise<Ranks> {
  const response = await fetch(url);
  if (!response.ok || !response.body)
    throw new Error(`fetching the tokenizer's ranks (${String(url)}) failed: HTTP ${response.status}`);
  const inflated = response.body.pipeThrough(new DecompressionStream('gzip'));
  return unpackRanks(new Uint8Array(await new Response(inflated).arrayBuffer()));
}
