// The playground's limits on what it reads, in one table that the page and `lev` both import, so
// that what one writes the other reads: a file the page exports `lev replay` reads, a scenario
// `lev import` writes the page imports, and each refuses the same inputs with the same numbers.
// A leaf module (no imports but the number format), so the page loads it without the engine.
// docs/robustness.md lists each limit with the test that proves it.
import { fmt } from './format.ts';

/** A trace file (API body, Claude Code or Codex session) read by `lev import` or the page's Import. */
export const MAX_TRACE_BYTES = 200_000_000;

/**
 * A scenario JSON file: read by `lev validate`, `replay`, `test`, `share encode` and the page's
 * Import; written by the page's Export and `lev import`, which refuse to write a larger one.
 */
export const MAX_SCENARIO_BYTES = 64_000_000;

/** `agent.leviath`: larger ones are refused before parsing (no real blueprint comes near). */
export const MAX_BLUEPRINT_BYTES = 1_000_000;

/** Any other file of an agent directory `lev` reads (a custom region's script, `lev rhai FILE`). */
export const MAX_AGENT_FILE_BYTES = 2_000_000;

/**
 * Files in a scenario's agent directory (`agent.leviath` and its scripts): the page opens a tab
 * per file, and 10,000 of them froze the tab for seconds at a time.
 */
export const MAX_AGENT_FILES = 200;

/**
 * Regions in a blueprint, counting each name once across the top level and every stage: the page
 * draws a row, a band and a series per region at every step, and 10,000 took 8 to 11 s to show.
 */
export const MAX_REGIONS = 200;

/** A share link's scenario once inflated (it would also be far too long a link). */
export const MAX_INFLATED_BYTES = 2 * 1024 * 1024;

/**
 * The longest share value (`#s=1.` and what follows) decoded at all: the base64url of the largest
 * DEFLATE stream that can hold MAX_INFLATED_BYTES (stored blocks of 65,535 bytes, 5 bytes of
 * header each), plus the prefix. A longer one is refused before it is decoded.
 */
export const MAX_LINK_CHARS =
  Math.ceil(((MAX_INFLATED_BYTES + 5 * Math.ceil(MAX_INFLATED_BYTES / 65_535)) * 4) / 3) + 16;

/**
 * Explicit traffic beyond this is refused, like a generator's `steps`: the timeline keeps a snapshot
 * per event, and 100,000 events already take about 0.5 GB (1,000,000 would exhaust a tab).
 */
export const MAX_TRAFFIC_EVENTS = 100_000;

/**
 * The timeline keeps every region's figures at every step (~100 bytes each), so events × regions
 * bounds its memory; 200 regions under 100,000 events would need ~2 GB.
 */
export const MAX_REGION_SNAPSHOTS = 5_000_000;

/**
 * Free-form JSON (tool arguments, extra inputs) nested deeper than this is refused: serializing it
 * later (token counts, share links) would overflow the stack, and no real value comes near.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * The largest filler a `size_tokens` tool result may ask for: twice the largest model window. The
 * filler is built in memory, so an unbounded size would exhaust it (1e9 tokens crashed the replay).
 */
export const MAX_RESULT_SIZE_TOKENS = 2_000_000;

/** The number of UTF-8 bytes `text` encodes to, without encoding it (a 64 MB export is measured in place). */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2; // a pair: 4 bytes for its 2 units
      i++;
    } else bytes += 2; // the rest of the BMP, and a lone surrogate (written as U+FFFD, 3 bytes)
  }
  return bytes;
}

/** "64 MB" for the limits above (decimal megabytes, as file managers show sizes). */
export function megabytes(bytes: number): string {
  const mb = bytes / 1_000_000;
  return `${Number.isInteger(mb) ? fmt(mb) : mb.toFixed(1)} MB`;
}
