// Codex CLI rollout files (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl): one JSON object a line,
// `{ timestamp, type, payload }` with type session_meta (instructions), response_item (a Responses
// API item: message, function_call, function_call_output, reasoning, local_shell_call, ...),
// turn_context, event_msg (a UI echo of the items) and compacted. Older rollouts write a bare
// meta object first and the items unwrapped.
import { at, isObject, objectAt } from '../json.ts';
import type { RecordedUsage } from '../../engine/page.ts';
import {
  countSkipped,
  emptyTranscript,
  ImportError,
  type AssistantTurn,
  type Progress,
  type Transcript,
  type Where,
} from '../trace.ts';
import { forEachJsonLine } from './jsonl.ts';
import { callInstant, responsesUsage } from '../usage.ts';
import { ResponsesItemReader, RESPONSES_PARTS } from './openai-responses.ts';
import { partsText } from './parts.ts';

/** User messages Codex writes itself: the environment, AGENTS.md and user instructions. */
const HARNESS_TEXT =
  /^\s*(<(environment_context|user_instructions|permissions instructions)[\s>]|# AGENTS\.md instructions)/;

const ROLLOUT_TYPES = new Set(['session_meta', 'response_item', 'turn_context', 'event_msg', 'compacted']);
const ITEM_TYPES = new Set([
  'message',
  'function_call',
  'function_call_output',
  'custom_tool_call',
  'custom_tool_call_output',
  'local_shell_call',
  'reasoning',
]);

/**
 * A tool output as the model saw it. Older Codex (0.3x-0.5x) sends the model the JSON text
 * `{"output": "...", "metadata": {"exit_code": 1, ...}}` itself, so that text is the content (its
 * escapes and metadata are tokens of the prompt); newer writes text that starts "Exit code: 1". A
 * non-zero exit code is an error result.
 */
export function readCodexOutput(output: string): { content: string; isError: boolean } {
  if (output.startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(output);
      if (isObject(parsed) && typeof parsed.output === 'string') {
        const code = isObject(parsed.metadata) ? parsed.metadata.exit_code : undefined;
        return { content: output, isError: typeof code === 'number' && code !== 0 };
      }
    } catch {
      // Not the wrapped form: the text is the output.
    }
  }
  // Newer exec output starts with a header: "Exit code: N" (0.6x-0.70) or "Process exited with code N" (0.1xx).
  const code = EXIT_CODE.exec(output.slice(0, 400));
  return { content: output, isError: code !== null && Number(code[1]) !== 0 };
}

const EXIT_CODE = /^(?:Exit code: |Process exited with code )(-?\d+)/m;

export function parseCodex(text: string, progress?: Progress): Transcript {
  const transcript = emptyTranscript();
  let usage: UsageReader | undefined;
  // The line being read's timestamp: a response's first item gives its call's time.
  let time: string | undefined;
  const reader = new ResponsesItemReader(transcript, {
    isHarnessText: (t) => HARNESS_TEXT.test(t),
    readOutput: readCodexOutput,
    opened: (turn) => {
      if (time !== undefined) turn.at = time;
      usage?.opened(turn);
    },
  });
  usage = new UsageReader(transcript, reader);
  const warnings = forEachJsonLine(
    text,
    (value, line) => {
      const where: Where = { line, path: '' };
      const entry = objectAt(value, where, 'a rollout entry object');
      time = callInstant(entry.timestamp);
      if (typeof entry.type === 'string' && ROLLOUT_TYPES.has(entry.type) && 'payload' in entry) {
        readEntry(entry.type, entry.payload, at(where, 'payload'), transcript, reader, usage);
      } else if (typeof entry.type === 'string' && ITEM_TYPES.has(entry.type)) {
        reader.read(entry, where);
      } else if (entry.record_type !== undefined) {
        // Older rollouts' state records: bookkeeping, not conversation.
      } else if (line === firstLine(text) && typeof entry.id === 'string') {
        readMeta(entry, transcript);
      } else {
        throw new ImportError(
          at(where, 'type'),
          entry.type === undefined ? 'missing' : `found ${JSON.stringify(entry.type)}`,
          `a rollout entry type (${[...ROLLOUT_TYPES].join(', ')}) with a "payload"`,
        );
      }
    },
    progress,
  );
  transcript.warnings.push(...warnings);
  return transcript;
}

/**
 * Codex's `token_count` events: one per API response, with that call's usage (`last_token_usage`)
 * and the window in force (`model_context_window`). A repeat with the same running total is the
 * same call reported again (rate-limit updates), not a new one. Codex 0.3x-0.6x write the event
 * before the response's items, as soon as the response completes; 0.70 and later after its reply
 * and calls (before their outputs). So
 * an event that arrives after the response's items belongs to them, and one that arrives before
 * any (the last thing read was an input: a prompt or a tool output) belongs to the items that follow.
 */
class UsageReader {
  private lastTotal: number | undefined;
  private model: string | undefined;
  private pending: RecordedUsage | undefined;

  constructor(
    private readonly transcript: Transcript,
    private readonly reader: ResponsesItemReader,
  ) {}

  /** A response's first item was read: it takes the usage recorded ahead of it, if any. */
  opened(turn: AssistantTurn): void {
    if (this.pending) turn.recorded = this.pending;
    this.pending = undefined;
  }

  turnContext(body: Record<string, unknown>): void {
    if (typeof body.model === 'string') {
      this.model = body.model;
      this.transcript.model ??= body.model;
    }
  }

  window(value: unknown): void {
    if (typeof value === 'number' && Number.isInteger(value) && value > 0) this.transcript.window = value;
  }

  tokenCount(body: Record<string, unknown>): void {
    const info = isObject(body.info) ? body.info : undefined;
    if (!info) return;
    this.window(info.model_context_window);
    const total =
      isObject(info.total_token_usage) && typeof info.total_token_usage.total_tokens === 'number'
        ? info.total_token_usage.total_tokens
        : undefined;
    if (total !== undefined && total === this.lastTotal) return;
    this.lastTotal = total;
    const recorded = responsesUsage(info.last_token_usage, this.model, this.transcript.window);
    if (!recorded) return;
    const turn = this.reader.currentResponse;
    if (!turn) this.pending = recorded;
    else turn.recorded ??= recorded;
  }
}

function readEntry(
  type: string,
  payload: unknown,
  where: Where,
  transcript: Transcript,
  reader: ResponsesItemReader,
  usage: UsageReader,
): void {
  if (type === 'response_item') return reader.read(payload, where);
  const body = objectAt(payload, where, `the ${type} payload object`);
  if (type === 'session_meta') readMeta(body, transcript);
  else if (type === 'turn_context') usage.turnContext(body);
  else if (type === 'compacted') readCompacted(body, where, transcript);
  else if (type === 'event_msg') readEvent(body, where, reader, usage);
}

/** UI events: the usage of each call, the window, and user prompts some versions write only here. */
function readEvent(body: Record<string, unknown>, where: Where, reader: ResponsesItemReader, usage: UsageReader): void {
  if (body.type === 'token_count') usage.tokenCount(body);
  else if (body.type === 'task_started') usage.window(body.model_context_window);
  else if (
    body.type === 'user_message' &&
    typeof body.message === 'string' &&
    body.message.trim().length > 0 &&
    !HARNESS_TEXT.test(body.message)
  ) {
    reader.userText(body.message, where);
  }
}

/**
 * Codex compacted its history. Older versions write the summary the new context starts with as
 * `message`; newer ones (0.1xx) leave `message` empty and write the new context itself as
 * `replacement_history`: the user and assistant messages kept, word for word, and an encrypted
 * `compaction` item. The new context is then those messages' text (the harness's own texts, which
 * the calibrated overhead already holds, left out); an encrypted item has no size the file gives,
 * so it is counted as skipped.
 */
function readCompacted(body: Record<string, unknown>, where: Where, transcript: Transcript): void {
  let summary = typeof body.message === 'string' ? body.message : '';
  if (Array.isArray(body.replacement_history)) {
    const texts: string[] = [];
    body.replacement_history.forEach((raw, i) => {
      const here = at(at(where, 'replacement_history'), i);
      const item = objectAt(raw, here, 'a history item object');
      if (item.type !== 'message') return countSkipped(transcript, `compacted ${String(item.type)} item`);
      const text = partsText(item.content, at(here, 'content'), transcript, RESPONSES_PARTS);
      if (text.length > 0 && !HARNESS_TEXT.test(text)) texts.push(text);
    });
    if (texts.length > 0) summary = [summary, ...texts].filter((t) => t.length > 0).join('\n\n');
  }
  transcript.turns.push({ kind: 'compaction', summary, where, trigger: 'auto' });
}

function readMeta(meta: Record<string, unknown>, transcript: Transcript): void {
  const base = isObject(meta.base_instructions) ? meta.base_instructions.text : undefined;
  for (const text of [meta.instructions, base])
    if (typeof text === 'string' && text.length > 0) transcript.notes.push(text);
}

function firstLine(text: string): number {
  let line = 1;
  for (let i = 0; i < text.length && /\s/.test(text.charAt(i)); i++) if (text[i] === '\n') line++;
  return line;
}

export function looksLikeCodexEntry(value: unknown): boolean {
  return isObject(value) && typeof value.type === 'string' && ROLLOUT_TYPES.has(value.type) && 'payload' in value;
}
