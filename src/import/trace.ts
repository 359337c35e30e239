// The one shape every trace format is read into before it becomes scenario traffic: a flat list of
// turns, each remembering where in the file it came from, so a mistake found while mapping (a tool
// result without its call) can still name the line and JSON path.
import type { RecordedUsage } from '../engine/page.ts';

export type FormatName =
  | 'anthropic'
  | 'openai-chat'
  | 'openai-responses'
  | 'claude-code'
  | 'codex'
  | 'claude-stream-json'
  | 'claude-trace'
  | 'swe-agent'
  | 'mini-swe-agent'
  | 'openhands'
  | 'cline'
  | 'gemini-cli';

export const FORMAT_NAMES: readonly FormatName[] = [
  'anthropic',
  'openai-chat',
  'openai-responses',
  'claude-code',
  'codex',
  'claude-stream-json',
  'claude-trace',
  'swe-agent',
  'mini-swe-agent',
  'openhands',
  'cline',
  'gemini-cli',
];

/** Each format in words, for the page's format choice and the CLI's help. */
export const FORMAT_LABELS: Readonly<Record<FormatName, string>> = {
  anthropic: 'Anthropic Messages body or message array',
  'openai-chat': 'OpenAI Chat Completions body or message array',
  'openai-responses': 'OpenAI Responses input items',
  'claude-code': 'Claude Code session (.jsonl, or a sub-agent file)',
  codex: 'Codex CLI rollout (.jsonl)',
  'claude-stream-json': 'claude -p --output-format stream-json log',
  'claude-trace': 'claude-trace request/response log (.jsonl)',
  'swe-agent': 'SWE-agent trajectory (.traj)',
  'mini-swe-agent': 'mini-swe-agent trajectory (.traj.json)',
  openhands: 'OpenHands trajectory (event list)',
  cline: 'Cline / Roo Code / Kilo Code api_conversation_history.json',
  'gemini-cli': 'Gemini CLI chat session (session-*.json or .jsonl)',
};

/** Where something is in the trace: a 1-based line for JSON Lines files, and a JSON path. */
export interface Where {
  line?: number;
  path: string;
}

export interface TraceCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  where: Where;
}

export type TraceTurn =
  | { kind: 'user'; text: string; where: Where }
  | {
      kind: 'assistant';
      text: string;
      calls: TraceCall[];
      where: Where;
      /** What the provider recorded for this API call, when the trace keeps it. */
      recorded?: RecordedUsage;
      /** When the call was made (an ISO 8601 instant in UTC), when the trace records it. */
      at?: string;
      /** Reasoning sent back within the turn (OpenAI reasoning items, Claude's thinking blocks): its text, or its size when encrypted. */
      reasoning?: { text?: string; tokens?: number; encrypted?: boolean };
    }
  | { kind: 'tool_result'; callId: string; content: string; isError: boolean; where: Where }
  /** The harness compacted its context here; `summary` starts the new context. */
  | { kind: 'compaction'; summary: string; preTokens?: number; trigger?: string; where: Where };

export type AssistantTurn = Extract<TraceTurn, { kind: 'assistant' }>;

/** What a format parser hands back: the turns, the harness's own text, and what it could not carry. */
export interface Transcript {
  turns: TraceTurn[];
  /** System prompts and other harness text (instructions, environment context): kept, not replayed. */
  notes: string[];
  /** Content the scenario format cannot express yet, counted by kind (image, document, redacted thinking, ...). */
  skipped: Record<string, number>;
  /** The model the trace names, when it names one. */
  model?: string;
  /** The context window the trace recorded (Codex's model_context_window). */
  window?: number;
  /** Things the import did that the user should know (a truncated last line skipped). */
  warnings: string[];
}

/** A trace that cannot be imported: where, what was found, and what was expected there. */
export class ImportError extends Error {
  constructor(
    readonly where: Where,
    readonly problem: string,
    readonly expected: string,
  ) {
    super(`${describeWhere(where)}: ${problem}; expected ${expected}`);
    this.name = 'ImportError';
  }
}

export function describeWhere(where: Where): string {
  const path = where.path || '(top level)';
  return where.line === undefined ? path : `line ${where.line}, ${path}`;
}

export function emptyTranscript(): Transcript {
  return { turns: [], notes: [], skipped: {}, warnings: [] };
}

export function countSkipped(transcript: Transcript, kind: string): void {
  transcript.skipped[kind] = (transcript.skipped[kind] ?? 0) + 1;
}

/** Reports progress as a share of the input read (0..1); parsers call it every few thousand lines. */
export type Progress = (share: number) => void;
