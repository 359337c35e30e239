// Claude Code session files (~/.claude/projects/<project>/<session>.jsonl): one JSON object a line,
// `type` "user" or "assistant" carrying an Anthropic `message`, plus bookkeeping lines (summary,
// system, file-history-snapshot, ...). One API response is written as several assistant lines that
// share `message.id`; they are joined back into one turn. Side chains (sub-agent runs) and meta
// messages are not the main conversation.
import { at, isObject, objectAt } from '../json.ts';
import { countSkipped, emptyTranscript, ImportError, type Progress, type Transcript, type Where } from '../trace.ts';
import { pushAnthropicMessage, readAnthropicContent } from './anthropic.ts';
import { forEachJsonLine } from './jsonl.ts';

/** Text Claude Code itself puts in user messages (slash commands and their output, reminders). */
const HARNESS_TEXT = /^\s*<(command-name|command-message|command-args|local-command-stdout|local-command-stderr|system-reminder)>/;

export function parseClaudeCode(text: string, progress?: Progress): Transcript {
  const transcript = emptyTranscript();
  let lastAssistantId: string | undefined;
  forEachJsonLine(text, (value, line) => {
    const where: Where = { line, path: '' };
    const entry = objectAt(value, where, 'a session entry object with a "type"');
    if (entry.type !== 'user' && entry.type !== 'assistant') {
      lastAssistantId = undefined;
      if (entry.type === undefined) throw new ImportError(at(where, 'type'), 'missing', 'an entry "type" such as "user", "assistant" or "summary"');
      if (entry.type === 'summary' && typeof entry.summary === 'string') transcript.notes.push(entry.summary);
      return;
    }
    if (entry.isSidechain === true) { countSkipped(transcript, 'sidechain message'); return; }
    const message = objectAt(entry.message, at(where, 'message'), 'the entry\'s Anthropic message { role, content }');
    const content = readAnthropicContent(message.content, at(at(where, 'message'), 'content'), transcript);
    if (entry.type === 'assistant') {
      if (typeof message.model === 'string' && transcript.model === undefined) transcript.model = message.model;
      const id = typeof message.id === 'string' ? message.id : undefined;
      const previous = transcript.turns.at(-1);
      if (id !== undefined && id === lastAssistantId && previous?.kind === 'assistant') {
        previous.text = [previous.text, content.text].filter((t) => t.length > 0).join('\n');
        previous.calls.push(...content.calls);
      } else {
        pushAnthropicMessage('assistant', content, where, transcript);
      }
      lastAssistantId = id;
      return;
    }
    lastAssistantId = undefined;
    if (entry.isMeta === true || HARNESS_TEXT.test(content.text)) {
      if (content.text.length > 0) transcript.notes.push(content.text);
      pushAnthropicMessage('user', { ...content, text: '' }, where, transcript);
      return;
    }
    pushAnthropicMessage('user', content, where, transcript);
  }, progress);
  return transcript;
}

export function looksLikeClaudeCodeEntry(value: unknown): boolean {
  return isObject(value) && typeof value.type === 'string'
    && (typeof value.sessionId === 'string' || typeof value.uuid === 'string' || value.type === 'summary' || value.type === 'file-history-snapshot');
}
