import { describe, expect, it } from 'vitest';
import {
  SUMMARY_MAX_ITEMS,
  extractiveSummarizer,
  formatSummary,
  summarize,
  summaryItems,
  type Summarizer,
} from '../../src/engine/summarize.ts';

describe('summarize', () => {
  it('keys, else first non-blank lines, trimmed, with a count', () => {
    expect(
      summarize(
        [
          { content: 'pub fn add() {}', key: 'src/lib.rs' },
          { content: 'fn main() {}', key: 'src/main.rs' },
          { content: '\n\n   grep:  3   matches\nsrc/a.rs:1' },
          { content: 'ok; done' },
        ],
        'codebase',
      ),
    ).toBe('[summary of 4 entries from codebase] src/lib.rs; src/main.rs; grep: 3 matches; ok, done');
  });

  it('one entry, empty input, and long lines cut to 80 characters', () => {
    expect(summarize([{ content: 'x' }], 'chat')).toBe('[summary of 1 entry from chat] x');
    expect(summarize([], 'chat')).toBe('[summary of 0 entries from chat]');
    const long = summarize([{ content: 'y'.repeat(200) }], 'chat');
    expect(long).toBe(`[summary of 1 entry from chat] ${'y'.repeat(77)}...`);
  });

  it('identical items are listed once with a count', () => {
    const entries = [
      { content: 'cargo test: ok' },
      { content: 'cargo test: ok' },
      { content: 'cargo build: ok' },
      { content: 'cargo test: ok' },
    ];
    expect(summarize(entries, 'scratch')).toBe(
      '[summary of 4 entries from scratch] cargo test: ok (x3); cargo build: ok',
    );
  });

  it('lists at most SUMMARY_MAX_ITEMS items and counts the rest', () => {
    const entries = Array.from({ length: 30 }, (_, i) => ({ content: `file ${i}` }));
    const text = summarize(entries, 'codebase');
    expect(text.startsWith('[summary of 30 entries from codebase] file 0; file 1;')).toBe(true);
    expect(text.endsWith(`file ${SUMMARY_MAX_ITEMS - 1}; ... and 6 more`)).toBe(true);
  });

  it('folding a summary again keeps its count and items', () => {
    const first = summarize([{ content: 'a' }, { content: 'b' }, { content: 'a' }], 'codebase');
    expect(first).toBe('[summary of 3 entries from codebase] a (x2); b');
    const second = summarize([{ content: first }, { content: 'c' }, { content: 'a' }], 'codebase');
    expect(second).toBe('[summary of 5 entries from codebase] a (x3); b; c');
    const history = summarize([{ content: second }], 'history');
    expect(history).toBe('[summary of 5 entries from history] a (x3); b; c');
  });

  it('a keyed summary (a carried history) folds in by its items, not its key', () => {
    const carried = {
      content: '[summary of 3 entries from codebase in stage s1] src/a.rs (x2); src/b.rs',
      key: 's1: codebase',
      kind: 'summary',
    };
    expect(summarize([carried, { content: 'x', key: 'src/a.rs' }], 'history')).toBe(
      '[summary of 4 entries from history] src/a.rs (x3); src/b.rs',
    );
    // A keyed entry that is not a summary is its key, whatever its text.
    expect(summarize([{ ...carried, kind: 'text' }], 'history')).toBe('[summary of 1 entry from history] s1: codebase');
  });

  it('everyItem lists every item, with no "... and K more"', () => {
    const entries = Array.from({ length: 30 }, (_, i) => ({ content: `file ${i}` }));
    const text = summarize(entries, 'history', undefined, { everyItem: true });
    expect(text).toBe(`[summary of 30 entries from history] ${entries.map((e) => e.content).join('; ')}`);
    expect(formatSummary(summaryItems(entries), 'history', { everyItem: true })).toBe(text);
  });

  it('is pluggable', () => {
    const counting: Summarizer = { summarize: (entries, label) => `${label}: ${entries.length}` };
    expect(summarize([{ content: 'a' }], 'x', counting)).toBe('x: 1');
    expect(extractiveSummarizer.summarize([{ content: 'a' }], 'x')).toBe('[summary of 1 entry from x] a');
  });
});
