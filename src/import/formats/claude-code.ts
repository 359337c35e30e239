// Claude Code session files (~/.claude/projects/<project>/<session>.jsonl, and a session's
// sub-agent files <session>/subagents/agent-*.jsonl): one JSON object a line, `type` "user" or
// "assistant" carrying an Anthropic `message`, plus bookkeeping lines (summary, system, progress,
// file-history-snapshot, attachment, queue-operation, ...).
//
// One API response is written as several assistant lines sharing `message.id`, one per content
// block, and Claude Code 2.1 writes each tool_result line as soon as its tool ran, while later
// blocks of the same response are still arriving (hook `progress` lines land in between too). So
// lines are joined by `message.id` wherever they are, never only when adjacent: one id, one call.
import { at, isObject, objectAt } from '../json.ts';
import {
  countSkipped,
  emptyTranscript,
  ImportError,
  type AssistantTurn,
  type Progress,
  type Transcript,
  type Where,
} from '../trace.ts';
import { anthropicUsage, callInstant } from '../usage.ts';
import { addThinking, pushAnthropicMessage, readAnthropicContent } from './anthropic.ts';
import { forEachJsonLine } from './jsonl.ts';

/** Text Claude Code itself puts in user messages (slash commands and their output, reminders). */
const HARNESS_TEXT =
  /^\s*<(command-name|command-message|command-args|local-command-stdout|local-command-stderr|system-reminder)>/;

/** The model Claude Code names on lines it writes itself, with no API call behind them ("No response requested."). */
const SYNTHETIC_MODEL = '<synthetic>';

/** One run being read: the main session's, or the side chain's (a sub-agent's lines). */
export class RunReader {
  readonly transcript = emptyTranscript();
  private readonly byId = new Map<string, AssistantTurn>();

  /** `time`: the line's timestamp; the response's first line gives the call's. */
  assistant(message: Record<string, unknown>, where: Where, time?: string): void {
    const content = readAnthropicContent(message.content, at(at(where, 'message'), 'content'), this.transcript);
    const model = typeof message.model === 'string' ? message.model : undefined;
    if (model === SYNTHETIC_MODEL) {
      countSkipped(this.transcript, 'synthetic message (no API call)');
      return;
    }
    if (model !== undefined) this.transcript.model ??= model;
    const id = typeof message.id === 'string' ? message.id : undefined;
    const recorded = anthropicUsage(message.usage, model);
    const earlier = id === undefined ? undefined : this.byId.get(id);
    if (earlier) {
      earlier.text = [earlier.text, content.text].filter((t) => t.length > 0).join('\n');
      earlier.calls.push(...content.calls);
      addThinking(earlier, content);
      // Every line of a response repeats its usage; the last has the final output count.
      if (recorded) earlier.recorded = recorded;
      return;
    }
    pushAnthropicMessage('assistant', content, where, this.transcript);
    const turn = this.transcript.turns.at(-1) as AssistantTurn;
    if (recorded) turn.recorded = recorded;
    if (time !== undefined) turn.at = time;
    if (id !== undefined) this.byId.set(id, turn);
  }

  user(entry: Record<string, unknown>, message: Record<string, unknown>, where: Where): void {
    const content = readAnthropicContent(message.content, at(at(where, 'message'), 'content'), this.transcript);
    if (entry.isCompactSummary === true) {
      // The summary that starts the context after a compaction: it belongs to the compaction event.
      const last = this.transcript.turns.at(-1);
      if (last?.kind === 'compaction' && last.summary === '') last.summary = content.text;
      else this.transcript.turns.push({ kind: 'compaction', summary: content.text, where });
      return;
    }
    if (entry.isMeta === true || HARNESS_TEXT.test(content.text)) {
      if (content.text.length > 0) this.transcript.notes.push(content.text);
      pushAnthropicMessage('user', { ...content, text: '' }, where, this.transcript);
      return;
    }
    pushAnthropicMessage('user', content, where, this.transcript);
  }

  compaction(entry: Record<string, unknown>, where: Where): void {
    // Session files write compactMetadata.preTokens; the SDK's stream writes compact_metadata.pre_tokens.
    const meta = isObject(entry.compactMetadata)
      ? entry.compactMetadata
      : isObject(entry.compact_metadata)
        ? entry.compact_metadata
        : {};
    const pre = meta.preTokens ?? meta.pre_tokens;
    const preTokens = typeof pre === 'number' ? pre : undefined;
    this.transcript.turns.push({
      kind: 'compaction',
      summary: '',
      where,
      ...(preTokens === undefined ? {} : { preTokens }),
      ...(typeof meta.trigger === 'string' ? { trigger: meta.trigger } : {}),
    });
  }

  get conversational(): boolean {
    return this.transcript.turns.length > 0;
  }
}

export function parseClaudeCode(text: string, progress?: Progress): Transcript {
  const main = new RunReader();
  // A sub-agent's lines (isSidechain): skipped in a main session, the run itself in a sub-agent file.
  const side = new RunReader();
  let sidechainLines = 0;
  const warnings = forEachJsonLine(
    text,
    (value, line) => {
      const where: Where = { line, path: '' };
      const entry = objectAt(value, where, 'a session entry object with a "type"');
      const reader = entry.isSidechain === true ? side : main;
      switch (entry.type) {
        case 'user':
        case 'assistant': {
          if (reader === side) sidechainLines++;
          const message = objectAt(
            entry.message,
            at(where, 'message'),
            "the entry's Anthropic message { role, content }",
          );
          if (entry.type === 'assistant') reader.assistant(message, where, callInstant(entry.timestamp));
          else reader.user(entry, message, where);
          return;
        }
        case 'system':
          if (entry.subtype === 'compact_boundary') reader.compaction(entry, where);
          return;
        case 'summary':
          if (typeof entry.summary === 'string') main.transcript.notes.push(entry.summary);
          return;
        case 'attachment': {
          // A prompt typed while the agent worked reaches the model with the next request.
          const attachment = isObject(entry.attachment) ? entry.attachment : {};
          if (
            attachment.type === 'queued_command' &&
            typeof attachment.prompt === 'string' &&
            attachment.prompt.length > 0
          ) {
            reader.transcript.turns.push({ kind: 'user', text: attachment.prompt, where });
          }
          return;
        }
        case undefined:
          throw new ImportError(
            at(where, 'type'),
            'missing',
            'an entry "type" such as "user", "assistant" or "summary"',
          );
        default:
        // progress, file-history-snapshot, queue-operation, last-prompt, ...: bookkeeping.
      }
    },
    progress,
  );
  const run = !main.conversational && side.conversational ? side : main;
  if (run === main && sidechainLines > 0) main.transcript.skipped['sidechain message'] = sidechainLines;
  if (run === side) main.transcript.notes.forEach((n) => side.transcript.notes.push(n));
  run.transcript.warnings.push(...warnings);
  return run.transcript;
}

export function looksLikeClaudeCodeEntry(value: unknown): boolean {
  return (
    isObject(value) &&
    typeof value.type === 'string' &&
    (typeof value.sessionId === 'string' ||
      typeof value.uuid === 'string' ||
      value.type === 'summary' ||
      value.type === 'file-history-snapshot')
  );
}
