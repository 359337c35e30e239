// The one place that counts tokens. Everything else asks here.
//
// gpt-tokenizer is ~10x faster than js-tiktoken on this machine and yields identical token ids;
// test/engine/tokens.test.ts cross-checks the two on varied text.
//
// Each encoding's ranks are 0.3 to 0.7 MB gzip even packed as pairs (rank-pairs.ts), so they are
// loaded on demand: a page fetches only the one its model needs. Counting stays synchronous;
// `loadEncoding` must have resolved first (Node entry points and the test setup load both up
// front). The tokenizer's code is imported here, so a ranks chunk waits for nothing else once
// fetched.
import { GptEncoding } from 'gpt-tokenizer/GptEncoding';
import type { Ranks } from './rank-pairs.ts';
import { itemAt } from './item-at.ts';

type Tokenizer = Pick<GptEncoding, 'encode' | 'countTokens'>;

export type Encoding = 'o200k_base' | 'cl100k_base';
export const ENCODINGS: readonly Encoding[] = ['o200k_base', 'cl100k_base'];

const IMPORT_RANKS: Record<Encoding, () => Promise<{ default: Ranks }>> = {
  o200k_base: () => import('gpt-tokenizer/bpeRanks/o200k_base'),
  cl100k_base: () => import('gpt-tokenizer/bpeRanks/cl100k_base'),
};
const loadedTokenizers = new Map<Encoding, Tokenizer>();
/** Each loaded encoding's tokens as the tokenizer holds them (index = token id): the token view's byte lengths. */
const loadedRanks = new Map<Encoding, Ranks>();
const pendingLoads = new Map<Encoding, Promise<void>>();

export function isEncodingLoaded(encoding: Encoding): boolean {
  return loadedTokenizers.has(encoding);
}

/** Imports an encoding once; a failed import (the network) is tried again on the next call. */
export function loadEncoding(encoding: Encoding): Promise<void> {
  let pending = pendingLoads.get(encoding);
  if (!pending) {
    pending = IMPORT_RANKS[encoding]().then(
      ({ default: ranks }) => {
        loadedRanks.set(encoding, ranks);
        loadedTokenizers.set(
          encoding,
          GptEncoding.getEncodingApi(encoding, () => ranks),
        );
      },
      (error: unknown) => {
        pendingLoads.delete(encoding);
        throw error;
      },
    );
    pendingLoads.set(encoding, pending);
  }
  return pending;
}

export async function loadEncodings(encodings: readonly Encoding[] = ENCODINGS): Promise<void> {
  await Promise.all(encodings.map(loadEncoding));
}

function tokenizer(encoding: Encoding): Tokenizer {
  const loaded = loadedTokenizers.get(encoding);
  if (!loaded)
    throw new Error(
      `the ${encoding} encoding is not loaded: await loadEncoding('${encoding}') before counting with it`,
    );
  return loaded;
}

// Text from tools may contain "<|endoftext|>" and friends; to a model that is ordinary text.
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

// Small strings repeat a lot (stubs, headers, nudges); caching them makes counting them free.
// Large strings are counted once by their owner and stored on the entry, so they skip the cache.
const CACHE_LIMIT = 20_000;
const CACHEABLE_LENGTH = 4_096;
const caches: Record<Encoding, Map<string, number>> = { o200k_base: new Map(), cl100k_base: new Map() };

// Byte-pair merging is quadratic in the length of one pre-token, and the tokenizers' pre-split
// makes one pre-token of any run of letters, CJK, punctuation or whitespace (`" \n".repeat(N)`
// included). So every text is handed to the tokenizer in pieces of at most PIECE characters, which
// bounds the work per character whatever the text. Each cut is placed, looking back from PIECE to
// PIECE / 2, where the pre-split cuts anyway (SAFE_CUT below), so prose, code, JSON, base64, hex and
// URLs count exactly. Only a stretch with no such place in PIECE / 2 characters (a run of one
// class: letters, CJK, digits, punctuation or mixed whitespace) is cut hard, which changes the count
// by at most HARD_CUT_TOLERANCE tokens per hard cut (test/hostile/tokens.test.ts bounds it).
export const PIECE = 256;
export const HARD_CUT_TOLERANCE = 3;

/** The text in the pieces it is counted in (exported for the tolerance tests). */
export function pieces(text: string): string[] {
  if (text.length <= PIECE) return [text];
  const out: string[] = [];
  let start = 0;
  while (text.length - start > PIECE) {
    const cut = cutPoint(text, start);
    out.push(text.slice(start, cut));
    start = cut;
  }
  out.push(text.slice(start));
  return out;
}

/** How many of the cuts in `pieces(text)` fall where the pre-split would not cut (the tolerance). */
export function hardCuts(text: string): number {
  let hard = 0;
  let start = 0;
  for (const piece of pieces(text).slice(0, -1)) {
    start += piece.length;
    if (!isSafeCut(text, start)) hard++;
  }
  return hard;
}

const LETTER = /[\p{L}\p{M}]/u;
const DIGIT = /\p{N}/u;
const SPACE = /\s/u;
const APOSTROPHES: ReadonlySet<string> = new Set(["'", '\u2019']);

/**
 * A place where both tokenizers' pre-split starts a new pre-token, whatever follows: before a space
 * that follows a non-space (` word`), after a line break before a non-space, between a digit and a
 * letter, or before punctuation that follows a letter or digit (not an apostrophe: `it's`).
 */
function isSafeCut(text: string, i: number): boolean {
  const before = text.charAt(i - 1);
  const after = text.charAt(i);
  if (after === ' ') return !SPACE.test(before);
  if (before === '\n' || before === '\r') return !SPACE.test(after);
  const letterBefore = LETTER.test(before);
  const digitBefore = !letterBefore && DIGIT.test(before);
  if (!letterBefore && !digitBefore) return false;
  if (LETTER.test(after)) return digitBefore;
  if (DIGIT.test(after)) return letterBefore;
  return !SPACE.test(after) && !APOSTROPHES.has(after) && !isLowSurrogate(text.charCodeAt(i));
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

function cutPoint(text: string, start: number): number {
  const low = start + PIECE / 2;
  for (let i = start + PIECE; i > low; i--) if (isSafeCut(text, i)) return i;
  // In a whitespace run, just after a line break costs the fewest tokens of the hard cuts measured.
  for (let i = start + PIECE; i > low; i--) if (text.charCodeAt(i - 1) === 0x0a) return i;
  const hard = start + PIECE;
  // Never split a surrogate pair, nor a CRLF.
  const code = text.charCodeAt(hard);
  return isLowSurrogate(code) || (code === 0x0a && text.charCodeAt(hard - 1) === 0x0d) ? hard - 1 : hard;
}

export function encode(text: string, encoding: Encoding = 'o200k_base'): number[] {
  const encoder = tokenizer(encoding);
  const parts = pieces(text);
  if (parts.length === 1) return encoder.encode(text, PLAIN_TEXT);
  return parts.flatMap((part) => encoder.encode(part, PLAIN_TEXT));
}

/** The head of a text as encodeHead tokenized it: its ids, and where each of its pieces starts. */
export interface EncodedHead {
  ids: number[];
  /** Each piece's first character, then the end of the last one. */
  starts: number[];
  /** The ids before each entry of `starts`. */
  idsBefore: number[];
}

/**
 * The first tokens of `text`, at least `atLeast` of them when it has that many: `encode(text)`
 * up to the end of the piece that reaches `atLeast`. The pieces are encoded one by one, so a cut at
 * a few thousand tokens of a long result tokenizes only its head.
 */
export function encodeHead(text: string, atLeast: number, encoding: Encoding = 'o200k_base'): EncodedHead {
  const encoder = tokenizer(encoding);
  const head: EncodedHead = { ids: [], starts: [0], idsBefore: [0] };
  let start = 0;
  while (head.ids.length < atLeast && start < text.length) {
    const end = text.length - start > PIECE ? cutPoint(text, start) : text.length;
    for (const id of encoder.encode(text.slice(start, end), PLAIN_TEXT)) head.ids.push(id);
    head.starts.push((start = end));
    head.idsBefore.push(head.ids.length);
  }
  return head;
}

/**
 * `countTokens(text)` for a text whose first `same` characters are those of the text `head` was
 * encoded from (a cut result: its kept head, then a marker). A piece's cut depends only on the
 * PIECE + 1 characters from its start, so the pieces that lie that far inside the shared part are
 * cut alike in both texts: their tokens are taken from `head`, and only the rest is counted.
 */
export function countAfterHead(
  head: EncodedHead,
  text: string,
  same: number,
  encoding: Encoding = 'o200k_base',
): number {
  let alike = 0;
  while (alike < head.starts.length - 1 && head.starts[alike]! + PIECE < same) alike++;
  const from = head.starts[alike]!;
  return head.idsBefore[alike]! + countTokens(text.slice(from), encoding);
}

// Never given { stream: true }, so it holds no bytes from one call to the next; a text that starts
// with a byte order mark keeps it, as encode counted it.
const utf8Decoder = new TextDecoder('utf-8', { ignoreBOM: true });
const utf8Encoder = new TextEncoder();

/**
 * The text of `tokens`; a character whose bytes the tokens hold only in part is U+FFFD where it is.
 * (gpt-tokenizer's own decode streams through one TextDecoder it shares between calls, so a decode
 * that ended inside a character left its bytes there, to come out in the next call's text.)
 */
export function decode(tokens: readonly number[], encoding: Encoding = 'o200k_base'): string {
  tokenizer(encoding); // says what to await when the encoding is not loaded yet
  const ranks = loadedRanks.get(encoding)!;
  const parts: Uint8Array[] = [];
  let length = 0;
  for (const id of tokens) {
    const token = ranks[id];
    if (token === undefined) throw new Error(`token ${id} is not in ${encoding}`);
    const bytes = typeof token === 'string' ? utf8Encoder.encode(token) : Uint8Array.from(token);
    parts.push(bytes);
    length += bytes.length;
  }
  const joined = new Uint8Array(length);
  let at = 0;
  for (const bytes of parts) {
    joined.set(bytes, at);
    at += bytes.length;
  }
  return utf8Decoder.decode(joined);
}

/** One piece of a text as the model reads it: usually one token; more when a character's bytes span tokens. */
export interface TokenPiece {
  text: string;
  ids: number[];
}

/**
 * The text cut into its tokens, for showing them (the page's token view): the pieces join to the
 * text exactly and their ids, in order, are `encode(text)`. A token holds bytes, not characters, so
 * where a character's UTF-8 bytes span several tokens (an emoji, some CJK) those tokens are one
 * piece with all their ids, and every piece's ids decode to exactly its text.
 */
export function tokenPieces(text: string, encoding: Encoding = 'o200k_base'): TokenPiece[] {
  const ids = encode(text, encoding);
  const ranks = loadedRanks.get(encoding)!;
  const out: TokenPiece[] = [];
  let pieceStart = 0;
  let pieceIds: number[] = [];
  let char = 0;
  // UTF-8 bytes of the text up to `char`, and of the tokens so far.
  let charBytes = 0;
  let tokenBytes = 0;
  for (const id of ids) {
    tokenBytes += byteLength(itemAt(ranks, id));
    pieceIds.push(id);
    while (char < text.length) {
      const code = text.codePointAt(char)!;
      const bytes = utf8Length(code);
      if (charBytes + bytes > tokenBytes) break;
      charBytes += bytes;
      char += code > 0xffff ? 2 : 1;
    }
    if (charBytes === tokenBytes) {
      out.push({ text: text.slice(pieceStart, char), ids: pieceIds });
      pieceStart = char;
      pieceIds = [];
    }
  }
  if (pieceIds.length > 0 || pieceStart < text.length) out.push({ text: text.slice(pieceStart), ids: pieceIds });
  return out;
}

function byteLength(token: string | readonly number[]): number {
  if (typeof token !== 'string') return token.length;
  let n = 0;
  for (let i = 0; i < token.length; i++) {
    const code = token.codePointAt(i)!;
    n += utf8Length(code);
    if (code > 0xffff) i++;
  }
  return n;
}

/** A code point's UTF-8 length; a lone surrogate is encoded as U+FFFD, which is 3 bytes too. */
function utf8Length(code: number): number {
  return code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
}

/** One page of a text's token pieces (`tokenPieces`), with where it stands in the whole. */
export interface TokenPage {
  pieces: TokenPiece[];
  /** The index of the first piece, and the character where it starts. */
  from: number;
  fromChar: number;
  /** Pieces and tokens in the whole text. */
  totalPieces: number;
  totalTokens: number;
}

let lastPaged: { text: string; encoding: Encoding; pieces: TokenPiece[] } | undefined;

/** The pieces `from` to `from + limit` of the text (a long tool result is shown a page at a time). */
export function tokenPage(text: string, encoding: Encoding, from: number, limit: number): TokenPage {
  // Paging on through one text tokenizes it once (a 200 KB text is about 0.2 s of work).
  if (lastPaged?.text !== text || lastPaged.encoding !== encoding)
    lastPaged = { text, encoding, pieces: tokenPieces(text, encoding) };
  const all = lastPaged.pieces;
  const start = Math.max(0, Math.min(from, Math.max(0, all.length - 1)));
  let fromChar = 0;
  let totalTokens = 0;
  for (const [i, piece] of all.entries()) {
    if (i < start) fromChar += piece.text.length;
    totalTokens += piece.ids.length;
  }
  return { pieces: all.slice(start, start + limit), from: start, fromChar, totalPieces: all.length, totalTokens };
}

// Counting without building the token array spares the garbage collector on large tool output.
function countUncached(text: string, encoding: Encoding): number {
  const counter = tokenizer(encoding);
  let n = 0;
  for (const part of pieces(text)) n += counter.countTokens(part, PLAIN_TEXT);
  return n;
}

/** Sees every text counted, when set: the bench's floor is countTokens once on exactly the texts a replay counts. */
let countObserver: ((text: string) => void) | undefined;

/** Sets (or, with undefined, removes) the observer of counted texts, and empties the caches so the next count starts cold. For the bench. */
export function observeCounts(observer: ((text: string) => void) | undefined): void {
  countObserver = observer;
  for (const cache of Object.values(caches)) cache.clear();
}

export function countTokens(text: string, encoding: Encoding = 'o200k_base'): number {
  if (text.length === 0) return 0;
  countObserver?.(text);
  if (text.length > CACHEABLE_LENGTH) return countUncached(text, encoding);
  const cache = caches[encoding];
  const hit = cache.get(text);
  if (hit !== undefined) return hit;
  const n = countUncached(text, encoding);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(text, n);
  return n;
}
