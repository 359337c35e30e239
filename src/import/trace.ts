// The one shape every trace format is read into before it becomes scenario traffic: a flat list of
// turns, each remembering where in the file it came from, so a mistake found while mapping (a tool
// result without its call) can still name the line and JSON path.
export type FormatName = 'anthropic' | 'openai-chat' | 'openai-responses' | 'claude-code' | 'codex';

export const FORMAT_NAMES: readonly FormatName[] = ['anthropic', 'openai-chat', 'openai-responses', 'claude-code', 'codex'];

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
  | { kind: 'assistant'; text: string; calls: TraceCall[]; where: Where }
  | { kind: 'tool_result'; callId: string; content: string; isError: boolean; where: Where };

/** What a format parser hands back: the turns, the harness's own text, and what it could not carry. */
export interface Transcript {
  turns: TraceTurn[];
  /** System prompts and other harness text (instructions, environment context): kept, not replayed. */
  notes: string[];
  /** Content the scenario format cannot express yet, counted by kind (image, document, thinking, ...). */
  skipped: Record<string, number>;
  /** The model the trace names, when it names one. */
  model?: string;
}

/** A trace that cannot be imported: where, what was found, and what was expected there. */
export class ImportError extends Error {
  constructor(readonly where: Where, readonly problem: string, readonly expected: string) {
    super(`${describeWhere(where)}: ${problem}; expected ${expected}`);
    this.name = 'ImportError';
  }
}

export function describeWhere(where: Where): string {
  const path = where.path || '(top level)';
  return where.line === undefined ? path : `line ${where.line}, ${path}`;
}

export function emptyTranscript(): Transcript {
  return { turns: [], notes: [], skipped: {} };
}

export function countSkipped(transcript: Transcript, kind: string): void {
  transcript.skipped[kind] = (transcript.skipped[kind] ?? 0) + 1;
}

/** Reports progress as a share of the input read (0..1); parsers call it every few thousand lines. */
export type Progress = (share: number) => void;
