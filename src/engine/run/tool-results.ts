// Where a tool result lands and how much of it: read_file's byte cap, the routing table's region
// and token ceiling, a stub in tool_results when the result is routed away from the message stream,
// and `[context.file_tracking]`'s record of the file the call touched.
import { filler, hash, type Filler } from '../filler.ts';
import { fmt } from '../format.ts';
import { MESSAGE_REGION_NAMES } from '../regions/index.ts';
import type { Entry } from '../regions/types.ts';
import { bothCapsMarker, capReadFile, capToolResult, cutAscii, lookupTool, routeToolResult } from '../routing.ts';
import type { TrafficEvent } from '../scenario.ts';
import { commandLine } from '../shell-reads.ts';
import type { StepResult, ToolCall } from '../timeline.ts';
import { countTokens } from '../tokens.ts';
import type { RunState } from './state.ts';
import { goneText, keptSize } from './written.ts';

const READ_FILE = { read_file: true };
/** What file tracking records a call to each file tool as. */
const FILE_TOOLS: Record<string, string> = { read_file: 'read', write_file: 'written', edit_file: 'edited' };

export function toolResult(run: RunState, event: Extract<TrafficEvent, { type: 'tool_result' }>): StepResult {
  const encoding = run.model.encoding;
  const made =
    event.content === undefined
      ? filler(event.size_tokens!, event.tool_name, event.tool_call_id, countTokens, encoding)
      : undefined;
  let content: string;
  // The filler's first line, while the content is the filler's whole text.
  let head = made?.head;
  let knownTokens = made ? event.size_tokens : undefined;
  /**
   * When read_file's byte cap cut the file: the text it let through (and its tokens, when known
   * from the filler's shape), the whole file's bytes, its notice.
   */
  let byteCut: { text: string; tokens: number | undefined; fileBytes: number; notice: string } | undefined;
  if (lookupTool(READ_FILE, event.tool_name)) {
    // Filler is ASCII: it is cut as such, and the part cut off is never made.
    const capped = made ? (cutAscii(made) ?? { content: made.text() }) : capReadFile(event.content!);
    content = capped.content;
    if (capped.notice !== undefined) {
      // Tokens cut are known only when the size was given (the cut tail is never tokenized).
      const shownTokens = made ? cutFillerTokens(run, made, capped.content.length, '') : undefined;
      byteCut = { text: capped.content, tokens: shownTokens, fileBytes: capped.fileBytes!, notice: capped.notice };
      content = capped.content + capped.notice;
      head = undefined;
      const cutTokens =
        shownTokens === undefined || knownTokens === undefined ? 0 : Math.max(0, knownTokens - shownTokens);
      run.changes.push({
        type: 'truncate',
        region: '(read_file)',
        tokens: cutTokens,
        entries: [event.tool_call_id],
        reason: capped.notice.trim(),
      });
      knownTokens = made ? cutFillerTokens(run, made, capped.content.length, capped.notice) : undefined;
    }
  } else {
    content = event.content ?? made!.text();
  }
  const route = routeToolResult(run.stage.toolRouting, event.tool_name, run.visibleNames());
  let tokens: number;
  const max = route.maxResultTokens;
  if (max !== undefined && (knownTokens === undefined || knownTokens > max)) {
    // A file read both caps cut keeps one marker that names both, so the byte cap's notice is not
    // cut away with the tail, and no count of the capped text is given as the file's. The cut
    // depends only on the event and the cap, so replays of the same traffic share it.
    const capped = run.shared.capped(event, max, () => {
      // The whole result's tokens are the ones an uncut one is stored with, counted once per event.
      const total = knownTokens ?? run.shared.textTokensOf(event, content, run.ctx.count);
      const once = capToolResult(content, max, encoding, { tokens: total });
      return once.truncated && byteCut
        ? capToolResult(byteCut.text, max, encoding, {
            marker: (kept) => bothCapsMarker(kept, byteCut!.fileBytes, max),
            tokens: byteCut.tokens,
          })
        : once;
    });
    if (capped.truncated) {
      // The same count the marker gives the model: the tokens of the result left out.
      run.changes.push({
        type: 'truncate',
        region: route.region,
        tokens: capped.cut!,
        entries: [event.tool_call_id],
        reason: `max_result_tokens ${fmt(max)}`,
      });
      head = undefined;
    }
    content = capped.content;
    tokens = capped.tokens;
  } else {
    tokens = knownTokens ?? run.shared.textTokensOf(event, content, run.ctx.count);
  }
  run.baseline.add(tokens);
  const call = run.shared.callBefore(event.tool_call_id, run.position);
  const path = call?.arguments.path;
  const entry = resultEntry(run.seq++, content, head, tokens, event, typeof path === 'string' ? path : undefined);
  if (typeof path === 'string') trackFile(run, event.tool_name, path, tokens, event.is_error === true, route.region);
  let target = run.layout.find((r) => r.name === route.region);
  if (!target) {
    run.warnings.push(
      `${event.tool_name} result routed to ${route.region}, which stage ${run.stage.name} does not carry; it went to tool_results`,
    );
    target = run.regions.get('tool_results')!;
  }
  if (MESSAGE_REGION_NAMES.has(target.name) || target.section === 'messages') {
    const outcome = run.writeTo(target.name, entry);
    if (!outcome.ok) return { ok: false, message: outcome.message };
    if (!outcome.gone) return { ok: true, message: `${keptSize(tokens, outcome, true)} to ${target.name}` };
    // The result is the message: taken out at once, its call would lose its answer and be stripped.
    // A stub in its place keeps the call paired and tells the model what happened.
    const said = `[${goneText(target.name, 'this result', outcome.stored ?? tokens, outcome.gone)}]`;
    run.writeTo(target.name, stubEntry(run, said, event));
    return { ok: true, message: said };
  }
  // Routed away: the content lives in its region and a stub keeps the call paired.
  const placed = target.keyed && entry.key === undefined ? { ...entry, key: callKey(event, call) } : entry;
  // A refusal here is what the call's result says, so the model reads it.
  const outcome = run.store(target.name, placed, false);
  // What the region kept (after a custom region's on_write), or why it did not keep it.
  let stub: string;
  if (!outcome.ok) stub = outcome.message;
  else if (outcome.gone)
    stub = `[${goneText(`routed to ${target.name}, which`, 'it', outcome.stored ?? tokens, outcome.gone)}]`;
  else stub = `[routed to ${target.name}: ${keptSize(tokens, outcome, true)}]`;
  run.writeTo('tool_results', stubEntry(run, stub, event));
  return outcome.ok ? { ok: true, message: stub } : { ok: false, message: outcome.message };
}

/**
 * The key of a result routed into a keyed region with no path to key it by: the call, as its tool
 * and what it ran (a shell's command line, else its arguments), with any other arguments (a
 * `workdir`). The same call made again replaces its older output, as a file read again replaces
 * its older copy: the latest `cat README.md`, the latest `cargo test`. A result whose call the
 * traffic does not hold is keyed by its call id.
 */
function callKey(event: Extract<TrafficEvent, { type: 'tool_result' }>, call: ToolCall | undefined): string {
  if (!call) return `${event.tool_name}:${event.tool_call_id}`;
  const line = commandLine(call.arguments);
  const { command: _command, cmd: _cmd, ...rest } = call.arguments;
  const extra = Object.keys(rest).length ? JSON.stringify(rest) : '';
  const made = line === undefined ? extra : extra ? `${line} ${extra}` : line;
  return made ? `${event.tool_name} ${shortKey(made)}` : event.tool_name;
}

/** Longest call text a key shows whole; the model reads every key, so a patch or a script is not repeated as one. */
const KEY_CHARS = 120;

/** `text` as a key: whole when short and on one line, else its first line's start and a hash of all of it. */
function shortKey(text: string): string {
  if (text.length <= KEY_CHARS && !text.includes('\n')) return text;
  const lineEnd = text.indexOf('\n');
  const start = text.slice(0, Math.min(KEY_CHARS - 40, lineEnd < 0 ? text.length : lineEnd));
  return `${start} … #${hash(text).toString(16).padStart(8, '0')}`;
}

/** A short result standing for the call's real one, so the call stays paired in the message stream. */
function stubEntry(run: RunState, content: string, event: Extract<TrafficEvent, { type: 'tool_result' }>): Entry {
  return {
    seq: run.seq++,
    content,
    tokens: run.ctx.count(content),
    kind: 'stub',
    toolCallId: event.tool_call_id,
    toolName: event.tool_name,
  };
}

/**
 * The result's entry, one literal per shape (a spread of optional fields takes a slow path in V8);
 * `head` is always a field, undefined unless the content is generated filler.
 */
function resultEntry(
  seq: number,
  content: string,
  head: string | undefined,
  tokens: number,
  event: Extract<TrafficEvent, { type: 'tool_result' }>,
  key: string | undefined,
): Entry {
  const toolCallId = event.tool_call_id;
  const toolName = event.tool_name;
  if (key === undefined) {
    return event.is_error
      ? { seq, content, head, tokens, kind: 'tool_result', toolCallId, toolName, isError: true }
      : { seq, content, head, tokens, kind: 'tool_result', toolCallId, toolName };
  }
  return event.is_error
    ? { seq, content, head, tokens, kind: 'tool_result', toolCallId, toolName, key, isError: true }
    : { seq, content, head, tokens, kind: 'tool_result', toolCallId, toolName, key };
}

/**
 * Tokens of a cut filler read (its first `shown` characters + notice) without tokenizing that head:
 * its whole lines but the last are known from the filler's shape; only the last line and the
 * notice are counted. Counting is additive across a line start, where the tokenizers' pre-split
 * always cuts.
 */
function cutFillerTokens(run: RunState, made: Filler, shown: number, notice: string): number | undefined {
  const lastLine = made.lastLineBreak(shown - 2) + 1;
  const known = made.headTokens(lastLine);
  return known === undefined ? undefined : known + run.ctx.count(made.slice(lastLine, shown) + notice);
}

/**
 * `[context.file_tracking]`: one entry per file the agent read, wrote or edited, keyed by path,
 * rewritten on every touch, so the hashmap says what the agent has seen without holding content.
 */
function trackFile(
  run: RunState,
  toolName: string,
  path: string,
  tokens: number,
  failed: boolean,
  routedTo: string,
): void {
  const tracking = run.blueprint.fileTracking;
  const verb = lookupTool(FILE_TOOLS, toolName);
  // A result routed into the tracking region is already there under its path.
  if (!tracking?.enabled || tracking.region === undefined || verb === undefined || tracking.region === routedTo) return;
  const region = run.regions.get(tracking.region);
  if (!region) return;
  const content = failed
    ? `${path}: ${verb} failed`
    : `${path}: ${verb}${verb === 'read' ? ` (${fmt(tokens)} tokens)` : ''}`;
  run.writeTo(region.name, { seq: run.seq++, content, tokens: run.ctx.count(content), kind: 'text', key: path });
}
