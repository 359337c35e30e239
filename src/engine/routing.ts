// Tool routing: which region a tool's result lands in, and how many tokens of it survive.
import { ALWAYS_VALID_TARGETS } from './blueprint/checks.ts';
import type { ToolRouting } from './blueprint/types.ts';
import { countAfterHead, countTokens, decode, encodeHead, type Encoding } from './tokens.ts';
import { fmt } from './format.ts';
import { itemAt } from './item-at.ts';

/** Where a result goes when nothing routes it. */
export const DEFAULT_TOOL_REGION = 'tool_results';

/** Regions the runtime always carries: valid routing targets whatever a stage declares. */
const ALWAYS_VISIBLE_REGIONS: ReadonlySet<string> = new Set(ALWAYS_VALID_TARGETS);

/**
 * Names for the same tool. A routing table entry written with any name of a group matches a call
 * to any other (`bash` covers the `shell` the model actually calls, and the other way round).
 * An entry for the exact name called always wins over one for an alias.
 */
export const TOOL_ALIAS_GROUPS: readonly (readonly string[])[] = [
  ['shell', 'bash', 'sh', 'run_shell', 'exec'],
  ['read_file', 'read', 'cat'],
  ['write_file', 'write'],
  ['edit_file', 'edit', 'str_replace'],
  ['list_dir', 'ls', 'list_files'],
  ['grep', 'search', 'rg'],
  ['glob', 'find_files'],
  ['web_fetch', 'fetch', 'http_get'],
  ['web_search', 'search_web'],
];

const aliasesByName: ReadonlyMap<string, readonly string[]> = new Map(
  TOOL_ALIAS_GROUPS.flatMap((group) => group.map((name) => [name, group.filter((other) => other !== name)] as const)),
);

/** The value for `toolName` in a table keyed by tool name: exact name first, then its aliases in TOOL_ALIAS_GROUPS order. */
export function lookupTool<T>(table: Readonly<Record<string, T>>, toolName: string): T | undefined {
  if (Object.hasOwn(table, toolName)) return table[toolName];
  for (const alias of aliasesByName.get(toolName) ?? []) if (Object.hasOwn(table, alias)) return table[alias];
  return undefined;
}

export interface ToolRoute {
  region: string;
  /** The ceiling on the result's tokens, when any applies. */
  maxResultTokens?: number;
}

/**
 * Routes one tool result. Region: the override's region, else `default_region`, else
 * `tool_results`; a target the stage cannot see falls through to the next one (`lev validate`
 * refuses such a blueprint, so this only guards a stage that changed under a run).
 * Ceiling: the override's own `max_result_tokens`, else `max_result_tokens_per_tool`, else the
 * stage-level `max_result_tokens`.
 */
export function routeToolResult(
  routing: ToolRouting | undefined,
  toolName: string,
  visible: ReadonlySet<string>,
): ToolRoute {
  if (!routing) return { region: DEFAULT_TOOL_REGION };
  const override = lookupTool(routing.overrides, toolName);
  const region = canSee(override?.region, visible)
    ? override!.region!
    : canSee(routing.defaultRegion, visible)
      ? routing.defaultRegion!
      : DEFAULT_TOOL_REGION;
  const maxResultTokens =
    override?.maxResultTokens ?? lookupTool(routing.maxResultTokensPerTool, toolName) ?? routing.maxResultTokens;
  return maxResultTokens === undefined ? { region } : { region, maxResultTokens };
}

/** A routing target the stage can see (a module function: a closure made per result cost a define per call under tsx). */
function canSee(region: string | undefined, visible: ReadonlySet<string>): boolean {
  return region !== undefined && (visible.has(region) || ALWAYS_VISIBLE_REGIONS.has(region));
}

export interface CappedResult {
  content: string;
  /** Tokens of `content` as returned (marker included): store it, do not count again. */
  tokens: number;
  truncated: boolean;
  /** When truncated: the tokens of the whole result before capping (so the cut can be reported). */
  originalTokens?: number;
  /** When truncated: the tokens of the result left out, the number the marker names. */
  cut?: number;
}

export function truncationMarker(cut: number, total: number, maxTokens: number): string {
  return `\n[truncated: ${fmt(cut)} of ${fmt(total)} tokens cut by max_result_tokens = ${fmt(maxTokens)}]`;
}

/** What a marker may say about a cut: the kept head, its tokens, and the tokens of the whole result. */
export interface KeptHead {
  text: string;
  kept: number;
  total: number;
}

/** How a cut is worded, and what is known of the content beforehand. */
export interface CapOptions {
  /** Words the cut (default: truncationMarker); it is sized with an empty head. */
  marker?: (head: KeptHead) => string;
  /** The content's tokens, when the caller knows them (a generated result's size, a count it holds). */
  tokens?: number;
}

/**
 * Caps a tool result at `maxTokens`, marker included. The content is counted (unless its tokens
 * are given); a capped result is the decoded head of its tokens plus a marker saying how much was
 * cut. Only the head is tokenized (encodeHead), and the capped text is counted again, because a
 * token boundary can merge differently once the marker follows it: its last pieces, since the ones
 * before are the head's own (countAfterHead).
 */
export function capToolResult(
  content: string,
  maxTokens: number | undefined,
  encoding: Encoding,
  options: CapOptions = {},
): CappedResult {
  const total = options.tokens ?? countTokens(content, encoding);
  if (maxTokens === undefined || total <= maxTokens) return { content, tokens: total, truncated: false };
  const marker =
    options.marker ?? ((head: KeptHead) => truncationMarker(head.total - head.kept, head.total, maxTokens));
  // Size the marker for the largest possible cut; real markers are never longer.
  let keep = Math.max(0, maxTokens - countTokens(marker({ text: '', kept: 0, total }), encoding));
  // `keep` only shrinks from here, so the head it first needs serves every later try.
  const encoded = encodeHead(content, keep, encoding);
  for (;;) {
    const head = decodeWhole(encoded.ids, keep, encoding);
    const capped = head.text + marker({ ...head, total });
    // The head is the content's own text unless the content holds a lone surrogate (decoded as U+FFFD).
    const same = content.startsWith(head.text) ? head.text.length : 0;
    const tokens = countAfterHead(encoded, capped, same, encoding);
    if (tokens <= maxTokens || head.kept === 0)
      return { content: capped, tokens, truncated: true, originalTokens: total, cut: total - head.kept };
    keep = head.kept - (tokens - maxTokens);
  }
}

/** Decodes the first `keep` tokens, backing off so no multi-byte character is split. */
function decodeWhole(ids: readonly number[], keep: number, encoding: Encoding): { text: string; kept: number } {
  for (let n = Math.max(0, keep); n > 0; n--) {
    const text = decode(ids.slice(0, n), encoding);
    if (!text.endsWith('\uFFFD')) return { text, kept: n };
  }
  return { text: '', kept: 0 };
}

/** `read_file`'s own hard cap, in UTF-8 bytes, independent of any routing ceiling. */
export const READ_FILE_BYTE_CAP = 100_000;

export interface CappedFile {
  /** The (possibly cut) file text, without the notice. */
  content: string;
  /** When cut: a line to append to the tool result so the model knows it saw part of the file. */
  notice?: string;
  /** When cut: the whole file's size in UTF-8 bytes. */
  fileBytes?: number;
}

/**
 * Cuts a file read at READ_FILE_BYTE_CAP bytes, on the last line break in the second half of the
 * allowance when there is one (so the model sees whole lines), else on a character boundary.
 * Callers append `notice` to the result: `content + notice`.
 */
export function capReadFile(content: string): CappedFile {
  // A UTF-16 unit is at most 3 UTF-8 bytes: short strings need no encoding to be judged.
  if (content.length * 3 <= READ_FILE_BYTE_CAP) return { content };
  if (ASCII.test(content)) return capAscii(content);
  const bytes = new TextEncoder().encode(content);
  if (bytes.length <= READ_FILE_BYTE_CAP) return { content };
  let end = READ_FILE_BYTE_CAP;
  while (end > 0 && (itemAt(bytes, end) & 0xc0) === 0x80) end--; // never split a character
  const lineEnd = bytes.lastIndexOf(0x0a, end - 1);
  if (lineEnd >= READ_FILE_BYTE_CAP / 2) end = lineEnd + 1;
  const head = new TextDecoder().decode(bytes.subarray(0, end));
  return { content: head, notice: readFileNotice(end, bytes.length), fileBytes: bytes.length };
}

const ASCII = /^[\x00-\x7f]*$/;

/** capReadFile for ASCII text, one byte per character: the same cut without encoding the text. */
function capAscii(content: string): CappedFile {
  return (
    cutAscii({
      length: content.length,
      lastLineBreak: (position) => content.lastIndexOf('\n', position),
      slice: (start, end) => content.slice(start, end),
    }) ?? { content }
  );
}

/** What cutting an ASCII text at the byte cap reads of it: a string's, or generated filler's that is never made whole (filler.ts). */
export interface AsciiText {
  readonly length: number;
  /** As String.prototype.lastIndexOf('\n', position). */
  lastLineBreak(position: number): number;
  /** As String.prototype.slice. */
  slice(start: number, end: number): string;
}

/** capReadFile's cut of ASCII text (one byte per character), or undefined when it fits under the cap. */
export function cutAscii(text: AsciiText): Required<CappedFile> | undefined {
  if (text.length <= READ_FILE_BYTE_CAP) return undefined;
  let end = READ_FILE_BYTE_CAP;
  const lineEnd = text.lastLineBreak(end - 1);
  if (lineEnd >= READ_FILE_BYTE_CAP / 2) end = lineEnd + 1;
  return { content: text.slice(0, end), notice: readFileNotice(end, text.length), fileBytes: text.length };
}

function readFileNotice(shown: number, total: number): string {
  return `\n[read_file: showing the first ${fmt(shown)} of ${fmt(total)} bytes; the file is longer than read_file's ${fmt(READ_FILE_BYTE_CAP)}-byte cap]`;
}

/**
 * The one marker of a file read that both caps cut: read_file's byte cap let its first bytes
 * through and max_result_tokens then kept the head of those. It says how much of the whole file the
 * model sees, in bytes (the file's size in tokens is not known: the cut tail is never tokenized),
 * and which two limits cut the rest, so neither notice is lost to the other.
 */
export function bothCapsMarker(head: KeptHead, fileBytes: number, maxTokens: number): string {
  return (
    `\n[truncated: showing the first ${fmt(utf8Length(head.text))} of ${fmt(fileBytes)} bytes (${fmt(head.kept)} tokens); ` +
    `read_file's ${fmt(READ_FILE_BYTE_CAP)}-byte cap and max_result_tokens = ${fmt(maxTokens)} cut the rest]`
  );
}

function utf8Length(text: string): number {
  return ASCII.test(text) ? text.length : new TextEncoder().encode(text).length;
}
