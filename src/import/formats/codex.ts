// Codex CLI rollout files (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl): one JSON object a line,
// `{ timestamp, type, payload }` with type session_meta (instructions), response_item (a Responses
// API item: message, function_call, function_call_output, reasoning, local_shell_call, ...),
// turn_context, event_msg (a UI echo of the items) and compacted. Older rollouts write a bare
// meta object first and the items unwrapped.
import { at, isObject, objectAt } from '../json.ts';
import { emptyTranscript, ImportError, type Progress, type Transcript, type Where } from '../trace.ts';
import { forEachJsonLine } from './jsonl.ts';
import { ResponsesItemReader } from './openai-responses.ts';

/** User messages Codex writes itself: the environment, AGENTS.md and user instructions. */
const HARNESS_TEXT = /^\s*(<(environment_context|user_instructions|permissions instructions)[\s>]|# AGENTS\.md instructions)/;

const ROLLOUT_TYPES = new Set(['session_meta', 'response_item', 'turn_context', 'event_msg', 'compacted']);
const ITEM_TYPES = new Set(['message', 'function_call', 'function_call_output', 'custom_tool_call', 'custom_tool_call_output', 'local_shell_call', 'reasoning']);

/**
 * A tool output as the model saw it. Older Codex wrote `{"output": "...", "metadata": {"exit_code": 1}}`;
 * newer writes text that starts "Exit code: 1". A non-zero exit code is an error result.
 */
export function readCodexOutput(output: string): { content: string; isError: boolean } {
  if (output.startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(output);
      if (isObject(parsed) && typeof parsed.output === 'string') {
        const code = isObject(parsed.metadata) ? parsed.metadata.exit_code : undefined;
        return { content: parsed.output, isError: typeof code === 'number' && code !== 0 };
      }
    } catch {
      // Not the wrapped form: the text is the output.
    }
  }
  const code = /^Exit code: (-?\d+)/.exec(output);
  return { content: output, isError: code !== null && Number(code[1]) !== 0 };
}

export function parseCodex(text: string, progress?: Progress): Transcript {
  const transcript = emptyTranscript();
  const reader = new ResponsesItemReader(transcript, { isHarnessText: (t) => HARNESS_TEXT.test(t), readOutput: readCodexOutput });
  forEachJsonLine(text, (value, line) => {
    const where: Where = { line, path: '' };
    const entry = objectAt(value, where, 'a rollout entry object');
    if (typeof entry.type === 'string' && ROLLOUT_TYPES.has(entry.type) && 'payload' in entry) {
      readEntry(entry.type, entry.payload, at(where, 'payload'), transcript, reader);
    } else if (typeof entry.type === 'string' && ITEM_TYPES.has(entry.type)) {
      reader.read(entry, where);
    } else if (entry.record_type !== undefined) {
      // Older rollouts' state records: bookkeeping, not conversation.
    } else if (line === firstLine(text) && typeof entry.id === 'string') {
      readMeta(entry, transcript);
    } else {
      throw new ImportError(at(where, 'type'), entry.type === undefined ? 'missing' : `found ${JSON.stringify(entry.type)}`, `a rollout entry type (${[...ROLLOUT_TYPES].join(', ')}) with a "payload"`);
    }
  }, progress);
  return transcript;
}

function readEntry(type: string, payload: unknown, where: Where, transcript: Transcript, reader: ResponsesItemReader): void {
  if (type === 'response_item') return reader.read(payload, where);
  const body = objectAt(payload, where, `the ${type} payload object`);
  if (type === 'session_meta') readMeta(body, transcript);
  else if (type === 'turn_context' && typeof body.model === 'string') transcript.model ??= body.model;
  else if (type === 'compacted' && typeof body.message === 'string' && body.message.length > 0) transcript.notes.push(body.message);
}

function readMeta(meta: Record<string, unknown>, transcript: Transcript): void {
  const base = isObject(meta.base_instructions) ? meta.base_instructions.text : undefined;
  for (const text of [meta.instructions, base]) if (typeof text === 'string' && text.length > 0) transcript.notes.push(text);
}

function firstLine(text: string): number {
  let line = 1;
  for (let i = 0; i < text.length && /\s/.test(text[i]!); i++) if (text[i] === '\n') line++;
  return line;
}

export function looksLikeCodexEntry(value: unknown): boolean {
  return isObject(value) && typeof value.type === 'string' && ROLLOUT_TYPES.has(value.type) && 'payload' in value;
}
