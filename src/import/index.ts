// Real traffic: an agent's trace (an API body or a coding agent's session log) -> a scenario whose
// traffic replays that run through a blueprint. Pure: runs in the worker and in Node.
import { findModel, MODELS, DEFAULT_MODEL_ID } from '../engine/models.ts';
import { ScenarioSchema, SCENARIO_VERSION, type Scenario } from '../engine/scenario.ts';
import { issuePath } from '../scenarios/issues.ts';
import { detectFormat, parseWhole } from './detect.ts';
import { parseAnthropic } from './formats/anthropic.ts';
import { parseClaudeCode } from './formats/claude-code.ts';
import { parseCodex } from './formats/codex.ts';
import { parseOpenAIChat } from './formats/openai-chat.ts';
import { parseOpenAIResponses } from './formats/openai-responses.ts';
import { jsonErrorPosition, locateJson } from '../engine/blueprint/jsonLocate.ts';
import { toTraffic } from './to-scenario.ts';
import { DEFAULT_TOOL_MAP, type ToolMap } from './tool-map.ts';
import { decodeTrace } from './utf8.ts';
import { traceOf } from './report.ts';
import { FORMAT_NAMES, ImportError, type FormatName, type Progress, type Transcript } from './trace.ts';

export { FORMAT_NAMES, ImportError, type FormatName } from './trace.ts';
export { DEFAULT_TOOL_MAP, parseToolMap, type ToolMap } from './tool-map.ts';
export { describeReport } from './report.ts';

/** Traces larger than this are refused before reading (the page and `lev import`). */
export const MAX_TRACE_BYTES = 200_000_000;

/** The input name the harness's own system prompt is kept under (a blueprint may seed it; nothing replays it). */
export const HARNESS_PROMPT_INPUT = 'harness_system_prompt';

/**
 * The layout an import gets when no blueprint is given: the task pinned, the files the agent
 * touched tracked by path, the conversation in a sliding window. A starting point to edit.
 */
export const IMPORT_BLUEPRINT = `# A starting layout for an imported run: edit it and watch the same run replay.
# The task is pinned; file_tracking records every file the agent read or wrote, by path;
# the conversation (tool results included) slides.
[context.regions]
task = { kind = "pinned", budget = "10%", seed = "task_input" }
files = { kind = "hashmap", budget = "10%" }
conversation = { kind = "sliding_window", budget = "60%", max_items = 60 }

[context.file_tracking]
region = "files"
`;

export interface ImportOptions {
  /** Force a format instead of detecting it. */
  format?: FormatName;
  toolMap?: ToolMap;
  /** The blueprint's directory (`agent.leviath` plus scripts); IMPORT_BLUEPRINT when not given. */
  agent?: Record<string, string>;
  /** Scenario name (e.g. the file's name). */
  name?: string;
  progress?: Progress;
}

export interface ImportReport {
  format: FormatName;
  events: number;
  inferences: number;
  toolResults: number;
  userMessages: number;
  /** Whether a task was found (the first user text before the first assistant turn). */
  task: boolean;
  /** Harness text kept aside (system prompts, instructions): count and tokens are in the scenario input. */
  notes: number;
  skipped: Record<string, number>;
  unansweredCalls: string[];
  tools: { name: string; mappedTo: string; calls: number }[];
  /** The model the trace named, and the built-in model the scenario uses. */
  model: { trace?: string; used: string };
  /** The byte offset of the first sequence that is not valid UTF-8 (read as U+FFFD); absent when the file is valid. */
  invalidUtf8At?: number;
}

export interface ImportResult {
  scenario: Scenario;
  report: ImportReport;
}

const FAMILY_MODEL: Readonly<Record<FormatName, string>> = {
  'anthropic': DEFAULT_MODEL_ID, 'claude-code': DEFAULT_MODEL_ID,
  'openai-chat': 'gpt-4o', 'openai-responses': 'gpt-5', 'codex': 'gpt-5',
};

/** The built-in model a trace's model id names: the longest built-in id it starts with (`claude-sonnet-4-20250514`). */
export function builtInModel(traceModel: string | undefined, format: FormatName): string {
  const id = traceModel?.replace(/^.*\//, '').toLowerCase();
  if (id !== undefined && findModel(id)) return id;
  const match = id === undefined ? undefined : MODELS.filter((m) => id.startsWith(`${m.id}-`)).sort((a, b) => b.id.length - a.id.length)[0];
  return match?.id ?? FAMILY_MODEL[format];
}

export function parseTrace(text: string, format: FormatName | undefined, progress?: Progress): { format: FormatName; transcript: Transcript } {
  if (format !== undefined && !FORMAT_NAMES.includes(format)) throw new Error(`unknown format "${String(format)}": use one of ${FORMAT_NAMES.join(', ')}`);
  // Detection parses a JSON document once; a forced format parses it here.
  const { format: detected, json } = format === undefined ? detectFormat(text) : { format, json: undefined };
  if (detected === 'claude-code') return { format: detected, transcript: parseClaudeCode(text, progress) };
  if (detected === 'codex') return { format: detected, transcript: parseCodex(text, progress) };
  const whole = json === undefined ? parseWhole(text) : { ok: true as const, json };
  if (!whole.ok) {
    const { line, column } = jsonErrorPosition(text, whole.error);
    throw new ImportError({ line, path: '' }, `not valid JSON at column ${column} (${(whole.error as Error).message})`, `one JSON document (the ${detected} format is a single JSON body or array)`);
  }
  progress?.(0.5);
  const parse = { 'anthropic': parseAnthropic, 'openai-chat': parseOpenAIChat, 'openai-responses': parseOpenAIResponses }[detected];
  return { format: detected, transcript: parse(whole.json) };
}

/** A JSON path as written in a Where (`messages[3].content[1].tool_use_id`) -> its keys and indexes. */
function pathSegments(path: string): (string | number)[] {
  return [...path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map((m) => (m[2] === undefined ? m[1]! : Number(m[2])));
}

/** A JSON document's errors name a path; this adds the line the path starts on, as JSON Lines errors have. */
function withLine(error: unknown, text: string): unknown {
  if (!(error instanceof ImportError) || error.where.line !== undefined || error.where.path === '') return error;
  const { line } = locateJson(text, pathSegments(error.where.path));
  return new ImportError({ line, path: error.where.path }, error.problem, error.expected);
}

/**
 * A trace -> a scenario and a report of what was imported and what was left out. Throws ImportError
 * on bad input. Given the file's bytes, it also reports where they stop being valid UTF-8.
 */
export function importTrace(source: string | Uint8Array, options: ImportOptions = {}): ImportResult {
  const { text, invalidUtf8At } = typeof source === 'string' ? { text: source, invalidUtf8At: undefined } : decodeTrace(source);
  let read: ReturnType<typeof parseTrace>;
  let mapped: ReturnType<typeof toTraffic>;
  try {
    read = parseTrace(text, options.format, options.progress);
    mapped = toTraffic(read.transcript, options.toolMap ?? DEFAULT_TOOL_MAP);
  } catch (error) {
    throw withLine(error, text);
  }
  const { format, transcript } = read;
  if (mapped.traffic.length === 0 && mapped.task === undefined) {
    throw new ImportError({ path: '' }, `the ${format} trace holds no conversation (no user, assistant or tool turns)`, 'at least one message');
  }
  const inputs: Scenario['inputs'] = {};
  if (mapped.task !== undefined) inputs.task = mapped.task;
  if (transcript.notes.length) inputs[HARNESS_PROMPT_INPUT] = transcript.notes.join('\n\n');
  const used = builtInModel(transcript.model, format);
  const parsed = ScenarioSchema.safeParse({
    version: SCENARIO_VERSION,
    name: options.name ?? `imported-${format}`,
    description: `Imported from ${traceOf(format)}${transcript.model ? ` (${transcript.model})` : ''}.`,
    model: { id: used },
    agent: options.agent ?? { 'agent.leviath': IMPORT_BLUEPRINT },
    inputs,
    traffic: mapped.traffic,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ImportError({ path: issuePath(issue.path) }, `the imported scenario is not valid: ${issue.message}`, 'a trace the scenario format can hold');
  }
  const count = (type: string) => mapped.traffic.filter((e) => e.type === type).length;
  return {
    scenario: parsed.data,
    report: {
      format, events: mapped.traffic.length, inferences: count('assistant'), toolResults: count('tool_result'), userMessages: count('user'),
      task: mapped.task !== undefined, notes: transcript.notes.length, skipped: transcript.skipped,
      unansweredCalls: mapped.unansweredCalls, tools: mapped.tools,
      model: { ...(transcript.model ? { trace: transcript.model } : {}), used },
      ...(invalidUtf8At === undefined ? {} : { invalidUtf8At }),
    },
  };
}
