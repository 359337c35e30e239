// Real traffic: an agent's trace (an API body or a coding agent's session log) -> a scenario whose
// traffic replays that run through a blueprint. Pure: runs in the worker and in Node.
import {
  findModel,
  MODELS,
  DEFAULT_MODEL_ID,
  MAX_TRAFFIC_EVENTS,
  ScenarioSchema,
  SCENARIO_VERSION,
  tooDeep,
  type Scenario,
  fmt,
  jsonErrorPosition,
  locateJson,
} from '../engine/page.ts';
import { issuePath } from '../scenarios/issues.ts';
import { detectFormat, parseWhole } from './detect.ts';
import { parseAnthropic } from './formats/anthropic.ts';
import { parseClaudeCode } from './formats/claude-code.ts';
import { parseCodex } from './formats/codex.ts';
import { parseClaudeStreamJson } from './formats/claude-stream-json.ts';
import { parseClaudeTrace } from './formats/claude-trace.ts';
import { parseCline } from './formats/cline.ts';
import { parseGeminiJsonl, parseGeminiSession } from './formats/gemini-cli.ts';
import { parseMiniSweAgent } from './formats/mini-swe-agent.ts';
import { parseOpenHands } from './formats/openhands.ts';
import { parseSweAgent } from './formats/swe-agent.ts';
import { parseOpenAIChat } from './formats/openai-chat.ts';
import { parseOpenAIResponses } from './formats/openai-responses.ts';
import { toTraffic } from './to-scenario.ts';
import { DEFAULT_TOOL_MAP, type ToolMap } from './tool-map.ts';
import { decodeTrace } from './utf8.ts';
import { traceOf } from './report.ts';
import { FORMAT_NAMES, ImportError, type FormatName, type Progress, type Transcript } from './trace.ts';

export { FORMAT_LABELS, FORMAT_NAMES, ImportError, type FormatName } from './trace.ts';
export { UnknownFormatError } from './detect.ts';
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
  /** Inferences that carry the provider's recorded usage (`lev replay --as-recorded` compares against them). */
  recordedCalls: number;
  /** Harness compactions found (each an event of its own). */
  compactions: number;
  /** The context window the trace recorded, used as the scenario model's window. */
  window?: number;
  /** What the import left out or changed that the user should know (a truncated last line). */
  warnings: string[];
}

export interface ImportResult {
  scenario: Scenario;
  report: ImportReport;
}

const FAMILY_MODEL: Readonly<Record<FormatName, string>> = {
  anthropic: DEFAULT_MODEL_ID,
  'claude-code': DEFAULT_MODEL_ID,
  'claude-stream-json': DEFAULT_MODEL_ID,
  'claude-trace': DEFAULT_MODEL_ID,
  cline: DEFAULT_MODEL_ID,
  openhands: DEFAULT_MODEL_ID,
  'openai-chat': 'gpt-4o',
  'openai-responses': 'gpt-5',
  codex: 'gpt-5',
  'swe-agent': 'gpt-4o',
  'mini-swe-agent': 'gpt-4o',
  'gemini-cli': 'gemini-2.5-pro',
};

/** Formats written as JSON Lines; the rest are one JSON document (Gemini CLI writes either). */
const LINE_PARSERS: Partial<Record<FormatName, (text: string, progress?: Progress) => Transcript>> = {
  'claude-code': parseClaudeCode,
  codex: parseCodex,
  'claude-stream-json': parseClaudeStreamJson,
  'claude-trace': parseClaudeTrace,
};
const DOCUMENT_PARSERS: Record<
  Exclude<FormatName, 'claude-code' | 'codex' | 'claude-stream-json' | 'claude-trace'>,
  (json: unknown) => Transcript
> = {
  anthropic: parseAnthropic,
  'openai-chat': parseOpenAIChat,
  'openai-responses': parseOpenAIResponses,
  'swe-agent': parseSweAgent,
  'mini-swe-agent': parseMiniSweAgent,
  openhands: parseOpenHands,
  cline: parseCline,
  'gemini-cli': parseGeminiSession,
};

/** The built-in model a trace's model id names: the longest built-in id it starts with (`claude-sonnet-4-20250514`). */
export function builtInModel(traceModel: string | undefined, format: FormatName): string {
  const id = traceModel?.replace(/^.*\//, '').toLowerCase();
  if (id !== undefined && findModel(id)) return id;
  const match =
    id === undefined
      ? undefined
      : MODELS.filter((m) => id.startsWith(`${m.id}-`)).sort((a, b) => b.id.length - a.id.length)[0];
  return match?.id ?? FAMILY_MODEL[format];
}

export function parseTrace(
  text: string,
  format: FormatName | undefined,
  progress?: Progress,
): { format: FormatName; transcript: Transcript } {
  if (format !== undefined && !FORMAT_NAMES.includes(format))
    throw new Error(`unknown format "${String(format)}": use one of ${FORMAT_NAMES.join(', ')}`);
  // Detection parses a JSON document once; a forced format parses it here.
  const { format: detected, json } = format === undefined ? detectFormat(text) : { format, json: undefined };
  const lines = LINE_PARSERS[detected];
  if (lines) return { format: detected, transcript: lines(text, progress) };
  const whole = json === undefined ? parseWhole(text) : { ok: true as const, json };
  if (!whole.ok && detected === 'gemini-cli') return { format: detected, transcript: parseGeminiJsonl(text, progress) };
  if (!whole.ok) {
    const { line, column } = jsonErrorPosition(text, whole.error);
    throw new ImportError(
      { line, path: '' },
      `not valid JSON at column ${column} (${(whole.error as Error).message})`,
      `one JSON document (the ${detected} format is a single JSON body or array)`,
    );
  }
  progress?.(0.5);
  const parse = DOCUMENT_PARSERS[detected as keyof typeof DOCUMENT_PARSERS];
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
  const { text, invalidUtf8At } =
    typeof source === 'string' ? { text: source, invalidUtf8At: undefined } : decodeTrace(source);
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
    throw new ImportError(
      { path: '' },
      `the ${format} trace holds no conversation (no user, assistant or tool turns)`,
      'at least one message',
    );
  }
  const inputs: Scenario['inputs'] = {};
  if (mapped.task !== undefined) inputs.task = mapped.task;
  if (transcript.notes.length) inputs[HARNESS_PROMPT_INPUT] = transcript.notes.join('\n\n');
  const used = builtInModel(transcript.model, format);
  // The events are built in the schema's own shape (to-scenario.ts); of the schema's checks, the
  // ones untrusted content can fail are the event count and the nesting depth of tool arguments,
  // done here on the events directly: zod's walk of a 50 MB session's events was 0.4 s of CPU.
  const parsed = ScenarioSchema.safeParse({
    version: SCENARIO_VERSION,
    name: options.name ?? `imported-${format}`,
    description: `Imported from ${traceOf(format)}${transcript.model ? ` (${transcript.model})` : ''}.`,
    model: transcript.window === undefined ? { id: used } : { id: used, window: transcript.window },
    agent: options.agent ?? { 'agent.leviath': IMPORT_BLUEPRINT },
    inputs,
  });
  const trafficProblem =
    mapped.traffic.length > MAX_TRAFFIC_EVENTS
      ? {
          path: 'traffic',
          message: `${fmt(mapped.traffic.length)} events; at most ${fmt(MAX_TRAFFIC_EVENTS)} fit one scenario (split the trace)`,
        }
      : tooDeep({ traffic: mapped.traffic }).map((d) => ({
          path: issuePath(d.path),
          message: `nested more than ${d.limit} levels deep; flatten it`,
        }))[0];
  if (!parsed.success || trafficProblem) {
    const issue = parsed.error?.issues[0];
    const problem = trafficProblem ?? {
      path: issue ? issuePath(issue.path) : '',
      message: issue?.message ?? 'is not a scenario the playground can replay',
    };
    throw new ImportError(
      { path: problem.path },
      `the imported scenario is not valid: ${problem.message}`,
      'a trace the scenario format can hold',
    );
  }
  const count = (type: string) => mapped.traffic.filter((e) => e.type === type).length;
  return {
    scenario: { ...parsed.data, traffic: mapped.traffic },
    report: {
      format,
      events: mapped.traffic.length,
      inferences: count('assistant'),
      toolResults: count('tool_result'),
      userMessages: count('user'),
      task: mapped.task !== undefined,
      notes: transcript.notes.length,
      skipped: transcript.skipped,
      unansweredCalls: mapped.unansweredCalls,
      tools: mapped.tools,
      model: { ...(transcript.model ? { trace: transcript.model } : {}), used },
      ...(invalidUtf8At === undefined ? {} : { invalidUtf8At }),
      recordedCalls: mapped.traffic.filter((e) => e.type === 'assistant' && e.recorded !== undefined).length,
      compactions: count('compaction'),
      ...(transcript.window === undefined ? {} : { window: transcript.window }),
      warnings: transcript.warnings,
    },
  };
}
