// Which format a trace is in, from its content alone. A whole-file JSON document is one of the
// three API shapes; otherwise the first line of a JSON Lines file says which session log it is.
import { jsonErrorPosition } from '../engine/page.ts';
import { isObject } from './json.ts';
import { looksLikeClaudeCodeEntry } from './formats/claude-code.ts';
import { looksLikeStreamJsonEntry } from './formats/claude-stream-json.ts';
import { looksLikeClaudeTraceEntry } from './formats/claude-trace.ts';
import { looksLikeCline } from './formats/cline.ts';
import { looksLikeCodexEntry } from './formats/codex.ts';
import { looksLikeGeminiSession } from './formats/gemini-cli.ts';
import { looksLikeMiniSweAgent } from './formats/mini-swe-agent.ts';
import { looksLikeOpenHands } from './formats/openhands.ts';
import { looksLikeSweAgent } from './formats/swe-agent.ts';
import { ImportError, type FormatName } from './trace.ts';

export type Detected = { format: FormatName; json?: unknown };

const EXPECTED =
  'an agent trace: an Anthropic or OpenAI API body or message list, a Claude Code session, stream-json or claude-trace log, ' +
  'a Codex CLI rollout, a SWE-agent, mini-swe-agent or OpenHands trajectory, a Cline / Roo / Kilo task history, or a Gemini CLI chat';

/**
 * The file matches no format the importer knows. Each surface says what to do in its own words:
 * the CLI names `--format`, the page offers its format choice.
 */
export class UnknownFormatError extends ImportError {}

const RESPONSES_ITEM_TYPES = new Set([
  'message',
  'function_call',
  'function_call_output',
  'reasoning',
  'custom_tool_call',
  'custom_tool_call_output',
  'item_reference',
]);
const ANTHROPIC_BLOCK_TYPES = new Set([
  'tool_use',
  'tool_result',
  'thinking',
  'redacted_thinking',
  'image',
  'document',
]);
const RESPONSES_PART_TYPES = new Set(['input_text', 'output_text', 'input_image', 'input_file']);
const CHAT_PART_TYPES = new Set(['image_url', 'input_audio', 'file', 'refusal']);

/** Parses the whole text as JSON when it is one document; undefined when it is not (JSON Lines, or broken). */
export function parseWhole(text: string): { ok: true; json: unknown } | { ok: false; error: unknown } {
  try {
    return { ok: true, json: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error };
  }
}

export function detectFormat(text: string): Detected {
  const trimmed = text.trimStart();
  if (trimmed.length === 0) throw new ImportError({ line: 1, path: '' }, 'the file is empty', EXPECTED);
  const whole = parseWhole(text);
  if (whole.ok) {
    const format = documentFormat(whole.json);
    if (!format)
      throw new UnknownFormatError(
        { path: '' },
        `this JSON matches no trace format (${shapeOf(whole.json)})`,
        EXPECTED,
      );
    return { format, json: whole.json };
  }
  const firstEnd = trimmed.indexOf('\n');
  const first = (firstEnd < 0 ? trimmed : trimmed.slice(0, firstEnd)).trim();
  const line = text.slice(0, text.length - trimmed.length).split('\n').length;
  let value: unknown;
  try {
    value = JSON.parse(first);
  } catch (error) {
    const at =
      firstEnd < 0 ? jsonErrorPosition(text, whole.error) : { line, column: jsonErrorPosition(first, error).column };
    throw new UnknownFormatError(
      { line: at.line, path: '' },
      `not valid JSON at column ${at.column} (${(error as Error).message})`,
      EXPECTED,
    );
  }
  if (firstEnd < 0) throw new UnknownFormatError({ path: '' }, 'not valid JSON', EXPECTED);
  const format = linesFormat(value);
  if (format) return { format };
  throw new UnknownFormatError(
    { line, path: '' },
    `a JSON Lines file whose first entry is ${shapeOf(value)}`,
    EXPECTED,
  );
}

/** A JSON Lines file's format, from its first entry. */
function linesFormat(value: unknown): FormatName | undefined {
  if (
    looksLikeCodexEntry(value) ||
    (isObject(value) && value.type === undefined && typeof value.id === 'string' && 'instructions' in value)
  )
    return 'codex';
  if (looksLikeClaudeTraceEntry(value)) return 'claude-trace';
  if (looksLikeStreamJsonEntry(value)) return 'claude-stream-json';
  if (isObject(value) && value.type === undefined && typeof value.sessionId === 'string' && 'projectHash' in value)
    return 'gemini-cli';
  if (looksLikeClaudeCodeEntry(value)) return 'claude-code';
  return undefined;
}

function shapeOf(value: unknown): string {
  if (Array.isArray(value)) return `an array of ${value.length} item${value.length === 1 ? '' : 's'}`;
  if (isObject(value)) {
    const keys = Object.keys(value).slice(0, 6);
    return keys.length ? `an object with keys ${keys.map((k) => JSON.stringify(k)).join(', ')}` : 'an empty object';
  }
  return `a ${value === null ? 'null' : typeof value}`;
}

/** The format of a whole JSON document, or undefined. */
function documentFormat(json: unknown): FormatName | undefined {
  // Harness logs first: each is also a list of messages or events the API shapes would half-read.
  if (looksLikeSweAgent(json)) return 'swe-agent';
  if (looksLikeMiniSweAgent(json)) return 'mini-swe-agent';
  if (looksLikeOpenHands(json)) return 'openhands';
  if (looksLikeGeminiSession(json)) return 'gemini-cli';
  if (looksLikeCline(json)) return 'cline';
  if (Array.isArray(json)) return listFormat(json);
  if (!isObject(json)) return undefined;
  if (json.type === 'message' && json.role === 'assistant' && Array.isArray(json.content)) return 'anthropic';
  if (json.object === 'chat.completion' || (Array.isArray(json.choices) && json.messages === undefined))
    return 'openai-chat';
  if (json.object === 'response' || (json.input !== undefined && json.messages === undefined))
    return 'openai-responses';
  if (!Array.isArray(json.messages)) return undefined;
  if (json.system !== undefined || json.anthropic_version !== undefined) return 'anthropic';
  return listFormat(json.messages) ?? undefined;
}

/** A list of messages or items: the first telling feature decides (block, part or item types, roles). */
function listFormat(list: readonly unknown[]): FormatName | undefined {
  let messages = 0;
  for (const item of list) {
    if (!isObject(item)) return undefined;
    if (
      typeof item.type === 'string' &&
      RESPONSES_ITEM_TYPES.has(item.type) &&
      (item.type !== 'message' || item.role !== undefined)
    )
      return 'openai-responses';
    if (
      ['system', 'developer', 'tool'].includes(String(item.role)) ||
      item.tool_calls !== undefined ||
      item.tool_call_id !== undefined
    ) {
      return item.role === 'system' || item.role === 'developer' ? (partsFormat(list) ?? 'openai-chat') : 'openai-chat';
    }
    if (item.role !== 'user' && item.role !== 'assistant') return undefined;
    messages++;
    const parts = partsFormat([item]);
    if (parts) return parts;
  }
  // Only plain user/assistant text: both APIs read it the same way.
  return messages > 0 ? 'anthropic' : undefined;
}

function partsFormat(list: readonly unknown[]): FormatName | undefined {
  for (const item of list) {
    if (!isObject(item) || !Array.isArray(item.content)) continue;
    for (const part of item.content) {
      if (!isObject(part) || typeof part.type !== 'string') continue;
      if (ANTHROPIC_BLOCK_TYPES.has(part.type)) return 'anthropic';
      if (RESPONSES_PART_TYPES.has(part.type)) return 'openai-responses';
      if (CHAT_PART_TYPES.has(part.type)) return 'openai-chat';
    }
  }
  return undefined;
}
