// A Claude Code session's sub-agents: Claude Code 2.1 writes each sub-agent's run to
// `<session>/subagents/agent-<id>.jsonl` beside `<session>.jsonl`. `lev import` lists them with
// their size, each importable on its own (the main session's requests never held their turns).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { importTrace, ImportError, MAX_TRACE_BYTES } from '../import/index.ts';

export interface SubagentRun {
  file: string;
  /** Its inferences, or why it could not be read. */
  inferences?: number;
  recordedCalls?: number;
  error?: string;
}

export function subagentRuns(sessionFile: string): SubagentRun[] {
  const folder = join(dirname(sessionFile), basename(sessionFile, extname(sessionFile)), 'subagents');
  let names: string[];
  try {
    names = readdirSync(folder)
      .filter((f) => f.endsWith('.jsonl') && f.startsWith('agent-'))
      .sort();
  } catch {
    return [];
  }
  return names.map((name) => {
    const file = join(folder, name);
    try {
      if (statSync(file).size > MAX_TRACE_BYTES) return { file, error: 'too large' };
      const { report } = importTrace(readFileSync(file), { format: 'claude-code' });
      return { file, inferences: report.inferences, recordedCalls: report.recordedCalls };
    } catch (error) {
      return { file, error: error instanceof ImportError ? error.message : String(error) };
    }
  });
}
