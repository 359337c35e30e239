// Deterministic filler for `tool_result { size_tokens }`: text of exactly that many tokens.
//
// Built from words that are one token each with or without a leading space, in both encodings.
// The tokenizers' pre-split keeps every word and every line break apart, so the count is known
// without tokenizing the text at all: the header's own count, then one per word or line break.
//
// The text is cut from one shared pool of lines (12 words and a line break: 13 tokens each), so
// making a million tokens of filler is a few substring slices, not a million string pieces.
import type { Encoding } from './tokens.ts';
import { itemAt } from './item-at.ts';

const WORDS = (
  'alpha beta gamma delta river stone cloud paper table window silver market orange yellow ' +
  'purple basket letter number answer simple common system update report value action result module ' +
  'server client buffer stream record filter vector matrix branch commit'
).split(' ');
const WORDS_PER_LINE = 12;
const TOKENS_PER_LINE = WORDS_PER_LINE + 1;
const POOL_LINES = 8192;

let pool: { text: string; lineStart: Int32Array } | undefined;

/**
 * POOL_LINES lines of pseudo-random words, each ending in a line break, built once. `text` holds
 * them twice over, so any run of fewer than POOL_LINES lines (wrapping past the last line included)
 * is one contiguous substring: V8 keeps such a slice as a reference into the pool, not a copy.
 */
function linePool(): { text: string; lineStart: Int32Array } {
  if (pool) return pool;
  let state = 2463534242;
  const lines: string[] = [];
  const lineStart = new Int32Array(2 * POOL_LINES + 1);
  let offset = 0;
  for (let i = 0; i < POOL_LINES; i++) {
    const words: string[] = [];
    for (let w = 0; w < WORDS_PER_LINE; w++) {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      words.push(itemAt(WORDS, (state >>> 8) % WORDS.length));
    }
    const line = `${words.join(' ')}\n`;
    lineStart[i] = offset;
    offset += line.length;
    lines.push(line);
  }
  for (let i = 0; i <= POOL_LINES; i++) lineStart[POOL_LINES + i] = itemAt(lineStart, i) + offset;
  const once = lines.join('');
  pool = { text: once + once, lineStart };
  return pool;
}

/** FNV-1a over the text's UTF-16 code units: a stable 32-bit name for a text, not a secure one. */
export function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/**
 * Where `count` tokens of pool text starting at line `line` lie in the doubled pool text, when
 * they are one contiguous slice of it (fewer lines than the pool); undefined otherwise.
 */
function poolSpan(line: number, count: number): { from: number; to: number } | undefined {
  const lines = Math.floor(count / TOKENS_PER_LINE);
  if (lines >= POOL_LINES) return undefined;
  return { from: itemAt(linePool().lineStart, line), to: wordsEnd(line + lines, count % TOKENS_PER_LINE) };
}

/** `count` tokens of pool text starting at line `line` (wrapping around the pool). */
function poolSlice(line: number, count: number): string {
  const { text, lineStart } = linePool();
  // Fewer lines than the pool: one slice of the doubled pool text, which V8 does not copy.
  const span = poolSpan(line, count);
  if (span) return text.slice(span.from, span.to);
  let lines = Math.floor(count / TOKENS_PER_LINE);
  const words = count % TOKENS_PER_LINE;
  const parts: string[] = [];
  while (lines > 0) {
    const take = Math.min(lines, POOL_LINES - line);
    parts.push(text.slice(itemAt(lineStart, line), itemAt(lineStart, line + take)));
    lines -= take;
    line = (line + take) % POOL_LINES;
  }
  if (words > 0) parts.push(text.slice(itemAt(lineStart, line), wordsEnd(line, words)));
  return parts.join('');
}

/** Where the first `words` words of pool line `line` end (without the space after the last one). */
function wordsEnd(line: number, words: number): number {
  const { text, lineStart } = linePool();
  const start = itemAt(lineStart, line);
  if (words === 0) return start;
  if (words === WORDS_PER_LINE) return itemAt(lineStart, line + 1) - 1; // the whole line, not its break
  let end = start;
  for (let w = 0; w < words; w++) end = text.indexOf(' ', end + 1);
  return end;
}

/**
 * Tokens of `text.slice(0, end)` when `text` is fillerText's output with its header and `end` falls
 * just after one of its line breaks: the header, then one per word or line break, known without
 * tokenizing. Undefined for any other text or cut.
 */
export function fillerHeadTokens(
  text: string,
  end: number,
  toolName: string,
  count: (text: string, encoding: Encoding) => number,
  encoding: Encoding,
): number | undefined {
  const header = fillerHeader(toolName);
  if (!text.startsWith(`${header}\n`) || text.charCodeAt(end - 1) !== 0x0a) return undefined;
  let lines = 0;
  for (let at = header.length + 1; at < end; at = text.indexOf('\n', at) + 1) lines++;
  return count(header, encoding) + 1 + lines * TOKENS_PER_LINE;
}

function fillerHeader(toolName: string): string {
  return `${toolName.replace(/[^A-Za-z0-9_]/g, '_')} output`;
}

/**
 * `tokens` tokens of text for a tool result; the first line names the tool so summaries and
 * change lists read sensibly. `count` measures the (short) header, cached by the caller.
 */
export function fillerText(
  tokens: number,
  toolName: string,
  seed: string,
  count: (text: string, encoding: Encoding) => number,
  encoding: Encoding,
): string {
  return filler(tokens, toolName, seed, count, encoding).text();
}

/**
 * fillerText's text, described without making it whole: its length, where its line breaks are,
 * any part of it, and the tokens of a head of it. A read cut at read_file's byte cap
 * (routing.ts's cutAscii: filler is ASCII) takes only the head it keeps; the rest is never made.
 */
export interface Filler {
  readonly length: number;
  /** The whole text (fillerText). */
  text(): string;
  /** The text's first line when it has a header, known without making the text (Entry.head). */
  readonly head: string | undefined;
  /** As `text().slice(start, end)`, for 0 <= start. */
  slice(start: number, end: number): string;
  /** As `text().lastIndexOf('\n', position)`. */
  lastLineBreak(position: number): number;
  /** As `fillerHeadTokens(text(), end, ...)`: the tokens of `slice(0, end)` when known from the shape. */
  headTokens(end: number): number | undefined;
}

/** The filler fillerText would make for these arguments. */
export function filler(
  tokens: number,
  toolName: string,
  seed: string,
  count: (text: string, encoding: Encoding) => number,
  encoding: Encoding,
): Filler {
  if (tokens <= 0) return textFiller('', undefined, toolName, count, encoding);
  const header = fillerHeader(toolName);
  const headerTokens = count(header, encoding);
  // `| 0`: the hash is an unsigned 32-bit number, which V8 may hold as a double; a line number (and
  // the token counts made from it, stored on every entry and region figure) must stay an integer.
  const start = (hash(seed) % POOL_LINES) | 0;
  const withHeader = tokens > headerTokens + 1;
  const bodyTokens = withHeader ? tokens - headerTokens - 1 : tokens;
  const span = poolSpan(start, bodyTokens);
  if (!span) return textFiller(`${header}\n${poolSlice(start, bodyTokens)}`, header, toolName, count, encoding);
  return new PoolFiller(withHeader ? `${header}\n` : '', start, span.from, span.to - span.from, headerTokens);
}

/** A filler whose body is one slice of the pool: every part of it is a slice, never a copy. */
class PoolFiller implements Filler {
  readonly length: number;
  readonly head: string | undefined;

  /** `prefix` (the header line, or nothing), then `bodyLength` characters of the pool from line `startLine` (at `from`). */
  constructor(
    private readonly prefix: string,
    private readonly startLine: number,
    private readonly from: number,
    bodyLength: number,
    private readonly headerTokens: number,
  ) {
    this.length = prefix.length + bodyLength;
    this.head = prefix ? prefix.slice(0, -1) : undefined;
  }

  text(): string {
    return this.slice(0, this.length);
  }

  slice(start: number, end: number): string {
    const { text } = linePool();
    const cut = this.prefix.length;
    end = Math.min(end, this.length);
    start = Math.min(start, end);
    if (start >= cut) return text.slice(this.from + start - cut, this.from + end - cut);
    if (end <= cut) return this.prefix.slice(start, end);
    return this.prefix.slice(start) + text.slice(this.from, this.from + end - cut);
  }

  lastLineBreak(position: number): number {
    const cut = this.prefix.length;
    const at = Math.min(Math.floor(position), this.length - 1);
    if (at >= cut) {
      const found = linePool().text.lastIndexOf('\n', this.from + at - cut);
      if (found >= this.from) return found - this.from + cut;
    }
    return this.prefix.lastIndexOf('\n', Math.min(at, cut - 1));
  }

  headTokens(end: number): number | undefined {
    const cut = this.prefix.length;
    if (cut === 0 || end < cut || end > this.length || this.lastLineBreak(end - 1) !== end - 1) return undefined;
    // `end` is a line start: the whole lines before it are its line's index less the first line's.
    const { lineStart } = linePool();
    const at = this.from + end - cut;
    let low = this.startLine;
    let high = lineStart.length - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (itemAt(lineStart, mid) < at) low = mid + 1;
      else high = mid;
    }
    return this.headerTokens + 1 + (low - this.startLine) * TOKENS_PER_LINE;
  }
}

/** A filler held as its text (empty, or longer than the pool). */
function textFiller(
  text: string,
  head: string | undefined,
  toolName: string,
  count: (text: string, encoding: Encoding) => number,
  encoding: Encoding,
): Filler {
  return {
    length: text.length,
    text: () => text,
    head,
    slice: (start, end) => text.slice(start, end),
    lastLineBreak: (position) => text.lastIndexOf('\n', position),
    headTokens: (end) => fillerHeadTokens(text, end, toolName, count, encoding),
  };
}
