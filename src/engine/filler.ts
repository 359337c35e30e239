// Deterministic filler for `tool_result { size_tokens }`: text of exactly that many tokens.
//
// Built from words that are one token each with or without a leading space, in both encodings.
// The tokenizers' pre-split keeps every word and every line break apart, so the count is known
// without tokenizing the text at all: the header's own count, then one per word or line break.
//
// The text is cut from one shared pool of lines (12 words and a line break: 13 tokens each), so
// making a million tokens of filler is a few substring slices, not a million string pieces.
import type { Encoding } from './tokens.ts';

const WORDS = ('alpha beta gamma delta river stone cloud paper table window silver market orange yellow '
  + 'purple basket letter number answer simple common system update report value action result module '
  + 'server client buffer stream record filter vector matrix branch commit').split(' ');
const WORDS_PER_LINE = 12;
const TOKENS_PER_LINE = WORDS_PER_LINE + 1;
const POOL_LINES = 8192;

let pool: { text: string; lineStart: Int32Array } | undefined;

/** POOL_LINES lines of pseudo-random words, each ending in a line break, built once. */
function linePool(): { text: string; lineStart: Int32Array } {
  if (pool) return pool;
  let state = 2463534242;
  const lines: string[] = [];
  const lineStart = new Int32Array(POOL_LINES + 1);
  let offset = 0;
  for (let i = 0; i < POOL_LINES; i++) {
    const words: string[] = [];
    for (let w = 0; w < WORDS_PER_LINE; w++) {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      words.push(WORDS[(state >>> 8) % WORDS.length]!);
    }
    const line = `${words.join(' ')}\n`;
    lineStart[i] = offset;
    offset += line.length;
    lines.push(line);
  }
  lineStart[POOL_LINES] = offset;
  pool = { text: lines.join(''), lineStart };
  return pool;
}

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** `count` tokens of pool text starting at line `line` (wrapping around the pool). */
function poolSlice(line: number, count: number): string {
  const { text, lineStart } = linePool();
  const parts: string[] = [];
  let lines = Math.floor(count / TOKENS_PER_LINE);
  const words = count % TOKENS_PER_LINE;
  while (lines > 0) {
    const take = Math.min(lines, POOL_LINES - line);
    parts.push(text.slice(lineStart[line]!, lineStart[line + take]!));
    lines -= take;
    line = (line + take) % POOL_LINES;
  }
  if (words > 0) {
    // The first `words` words of the next line, without the space after the last one.
    const start = lineStart[line]!;
    let end = start;
    if (words === WORDS_PER_LINE) end = lineStart[line + 1]! - 1; // the whole line, not its break
    else for (let w = 0; w < words; w++) end = text.indexOf(' ', end + 1);
    parts.push(text.slice(start, end));
  }
  return parts.join('');
}

/**
 * Tokens of `text.slice(0, end)` when `text` is fillerText's output with its header and `end` falls
 * just after one of its line breaks: the header, then one per word or line break, known without
 * tokenizing. Undefined for any other text or cut.
 */
export function fillerHeadTokens(text: string, end: number, toolName: string, count: (text: string, encoding: Encoding) => number, encoding: Encoding): number | undefined {
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
export function fillerText(tokens: number, toolName: string, seed: string, count: (text: string, encoding: Encoding) => number, encoding: Encoding): string {
  if (tokens <= 0) return '';
  const header = fillerHeader(toolName);
  const headerTokens = count(header, encoding);
  const start = hash(seed) % POOL_LINES;
  if (tokens <= headerTokens + 1) return poolSlice(start, tokens);
  return `${header}\n${poolSlice(start, tokens - headerTokens - 1)}`;
}
