// `claude -p --output-format stream-json` logs (the Agent SDK's message stream, one JSON object a
// line): a `system` `init` line (model, tools), `assistant` and `user` lines carrying Anthropic
// messages as in session files (one line per content block, joined by `message.id`), a sub-agent's
// lines marked with the `parent_tool_use_id` of the Task call that started it, `system`
// `compact_boundary` lines, and a closing `result` line with the run's totals.
import { at, isObject, objectAt } from '../json.ts';
import { ImportError, type Progress, type Transcript, type Where } from '../trace.ts';
import { RunReader } from './claude-code.ts';
import { forEachJsonLine } from './jsonl.ts';

export function looksLikeStreamJsonEntry(value: unknown): boolean {
  return (
    isObject(value) &&
    typeof value.session_id === 'string' &&
    typeof value.type === 'string' &&
    value.sessionId === undefined
  );
}

export function parseClaudeStreamJson(text: string, progress?: Progress): Transcript {
  const main = new RunReader();
  let subagentLines = 0;
  const warnings = forEachJsonLine(
    text,
    (value, line) => {
      const where: Where = { line, path: '' };
      const entry = objectAt(value, where, 'a stream message object with a "type"');
      switch (entry.type) {
        case 'system':
          if (entry.subtype === 'init' && typeof entry.model === 'string') main.transcript.model ??= entry.model;
          if (entry.subtype === 'compact_boundary') main.compaction(entry, where);
          return;
        case 'assistant':
        case 'user': {
          // A sub-agent's own conversation: its run is not the main one's requests.
          if (typeof entry.parent_tool_use_id === 'string') {
            subagentLines++;
            return;
          }
          const message = objectAt(
            entry.message,
            at(where, 'message'),
            "the line's Anthropic message { role, content }",
          );
          if (entry.type === 'assistant') main.assistant(message, where);
          else main.user(entry, message, where);
          return;
        }
        case 'result':
          // The run's totals; each call's usage is on its own assistant lines.
          return;
        case undefined:
          throw new ImportError(
            at(where, 'type'),
            'missing',
            'a message "type" such as "system", "assistant", "user" or "result"',
          );
        default:
      }
    },
    progress,
  );
  const transcript = main.transcript;
  if (subagentLines > 0) transcript.skipped['sub-agent message'] = subagentLines;
  transcript.warnings.push(...warnings);
  return transcript;
}
