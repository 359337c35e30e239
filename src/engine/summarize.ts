// Summaries for compacting, compact_history, sliding_window `strategy = "compact"` and edge
// `transform = "compact"`. Deterministic and extractive, behind one interface so a real model can
// be plugged in later without touching the regions.

export interface SummaryInput {
  content: string;
  key?: string;
  /** The content's first line when known without reading it (generated filler: Entry.head). */
  head?: string;
  /** `summary` for a summary entry: its items are folded in, key or not (a carried history is keyed). */
  kind?: string;
}

export interface SummaryOptions {
  /** List every item, with no `... and K more` tail (compact_history keeps every key and path it carried). */
  everyItem?: boolean;
}

export interface Summarizer {
  /** One summary entry standing for `entries`, which came from the region named `label`. */
  summarize(entries: readonly SummaryInput[], label: string, options?: SummaryOptions): string;
}

/** At most this many items are listed; the rest are counted, so the summary stays small. */
export const SUMMARY_MAX_ITEMS = 24;
/** Each listed item is cut to this many characters. */
export const SUMMARY_ITEM_CHARS = 80;

const HEADER = /^\[summary of (\d+) entr(?:y|ies) from ([^\]]*)\] ?/;

/** What a summary says: how many original entries it stands for, and each item with its count. */
export interface SummaryItems {
  count: number;
  items: Map<string, number>;
}

/**
 * The items `entries` contribute to a summary: each entry its key, or else its first non-blank
 * line, trimmed and cut; a summary entry its own count and items, so folding summaries again never
 * loses the fact that content existed.
 */
export function summaryItems(entries: readonly SummaryInput[]): SummaryItems {
  let count = 0;
  const items = new Map<string, number>();
  const add = (item: string, n = 1) => {
    if (item) items.set(item, (items.get(item) ?? 0) + n);
  };
  for (const entry of entries) {
    // Generated filler (with a head) is never a summary: its text is not read.
    const folded =
      entry.head === undefined && (entry.kind === 'summary' || entry.key === undefined)
        ? HEADER.exec(entry.content)
        : null;
    if (folded) {
      count += Number(folded[1]);
      for (const item of splitItems(entry.content.slice(folded[0].length))) add(item.text, item.count);
    } else {
      count += 1;
      add(itemOf(entry));
    }
  }
  return { count, items };
}

/** `[summary of 4 entries from codebase] src/lib.rs; src/main.rs; grep: 3 matches (x2)`. */
export function formatSummary({ count, items }: SummaryItems, label: string, options: SummaryOptions = {}): string {
  const listed = [...items].map(([text, n]) => (n > 1 ? `${text} (x${n})` : text));
  const shown = options.everyItem ? listed : listed.slice(0, SUMMARY_MAX_ITEMS);
  const more = listed.length - shown.length;
  const tail = more > 0 ? `; ... and ${more} more` : '';
  return `[summary of ${count} ${count === 1 ? 'entry' : 'entries'} from ${label}] ${shown.join('; ')}${tail}`.trimEnd();
}

/**
 * Each entry contributes its key, or else its first non-blank line, trimmed and cut. Identical
 * items are listed once with a count. A folded summary contributes its own count and its items,
 * so folding summaries again never loses the fact that content existed.
 */
export const extractiveSummarizer: Summarizer = {
  summarize(entries, label, options) {
    return formatSummary(summaryItems(entries), label, options);
  },
};

export function summarize(
  entries: readonly SummaryInput[],
  label: string,
  summarizer: Summarizer = extractiveSummarizer,
  options?: SummaryOptions,
): string {
  return summarizer.summarize(entries, label, options);
}

function itemOf(entry: SummaryInput): string {
  const source = entry.key ?? entry.head ?? firstNonBlankLine(entry.content) ?? '';
  const line = source.trim().replace(/\s+/g, ' ').replace(/; /g, ', ');
  return line.length > SUMMARY_ITEM_CHARS ? `${line.slice(0, SUMMARY_ITEM_CHARS - 3)}...` : line;
}

/** Walks line by line rather than splitting, so a large tool result is not cut into an array of every line. */
function firstNonBlankLine(text: string): string | undefined {
  for (let start = 0; ;) {
    const end = text.indexOf('\n', start);
    const line = end < 0 ? text.slice(start) : text.slice(start, end);
    if (line.trim().length > 0) return line;
    if (end < 0) return undefined;
    start = end + 1;
  }
}

/** Items of an earlier summary, with their `(xN)` counts and without its `... and N more` tail. */
function splitItems(body: string): { text: string; count: number }[] {
  return body
    .split('; ')
    .filter((s) => s && !/^\.\.\. and \d+ more$/.test(s))
    .map((s) => {
      const m = / \(x(\d+)\)$/.exec(s);
      return m ? { text: s.slice(0, m.index), count: Number(m[1]) } : { text: s, count: 1 };
    });
}
