// Deterministic filler for `tool_result { size_tokens }`: text of exactly that many tokens.
//
// Built from words that are one token each with or without a leading space, in both encodings.
// The tokenizers' pre-split keeps every word and every line break apart, so the count is known
// without tokenizing the text at all: the header's own count, then one per word or line break.
import type { Encoding } from './tokens.ts';

const WORDS = ('alpha beta gamma delta river stone cloud paper table window silver market orange yellow '
  + 'purple basket letter number answer simple common system update report value action result module '
  + 'server client buffer stream record filter vector matrix branch commit').split(' ');
const WORDS_PER_LINE = 12;

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/**
 * `tokens` tokens of text for a tool result; the first line names the tool so summaries and
 * change lists read sensibly. `count` measures the (short) header, cached by the caller.
 */
export function fillerText(tokens: number, toolName: string, seed: string, count: (text: string, encoding: Encoding) => number, encoding: Encoding): string {
  if (tokens <= 0) return '';
  const header = `${toolName.replace(/[^A-Za-z0-9_]/g, '_')} output`;
  const headerTokens = count(header, encoding);
  const withHeader = tokens > headerTokens + 1;
  const words = withHeader ? tokens - headerTokens - 1 : tokens;
  let state = hash(seed) || 1;
  const parts: string[] = withHeader ? [header, '\n'] : [];
  let column = 0;
  for (let slot = 0; slot < words; slot++) {
    // Every WORDS_PER_LINE words a line break takes one token's slot (never first or last).
    if (column === WORDS_PER_LINE && slot < words - 1) {
      parts.push('\n');
      column = 0;
      continue;
    }
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    const word = WORDS[(state >>> 8) % WORDS.length]!;
    parts.push(column === 0 ? word : ` ${word}`);
    column++;
  }
  return parts.join('');
}
