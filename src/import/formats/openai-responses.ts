// OpenAI Responses API input items: message (role + content string or input_text/output_text
// parts), function_call { call_id, name, arguments }, function_call_output { call_id, output };
// also custom_tool_call(_output) and reasoning (kept with its turn as the reply's reasoning).
// Accepted as a request body ({ instructions, input }), a response ({ object: "response", output })
// or a bare item array.
// Codex CLI rollouts carry the same items, so codex.ts reads them with this reader.
import { argumentsFromText, arrayAt, at, isObject, objectAt, stringAt, type JsonObject } from '../json.ts';
import { partsText, type PartKinds } from './parts.ts';
import {
  countSkipped,
  emptyTranscript,
  ImportError,
  type AssistantTurn,
  type TraceCall,
  type Transcript,
  type Where,
} from '../trace.ts';

const REASONING_PARTS: PartKinds = { text: new Set(['summary_text', 'reasoning_text', 'text']), skipped: {} };

export const RESPONSES_PARTS: PartKinds = {
  text: new Set(['input_text', 'output_text', 'text', 'summary_text', 'refusal']),
  skipped: { input_image: 'image', input_file: 'document', input_audio: 'audio' },
};

export interface ItemHooks {
  /** User text the harness wrote (environment, instructions): a note, not a turn. */
  isHarnessText?: (text: string) => boolean;
  /** A tool's output text as the model saw it, and whether it reports a failure. */
  readOutput?: (output: string) => { content: string; isError: boolean };
  /** A response's first item was read (its turn is new). */
  opened?: (turn: AssistantTurn) => void;
}

/**
 * Reads items in order. An assistant turn is every assistant message and call between two inputs
 * (a user message or a tool output): the model's one response, however many items it was split into.
 */
export class ResponsesItemReader {
  private open: AssistantTurn | undefined;

  constructor(
    readonly transcript: Transcript,
    private readonly hooks: ItemHooks = {},
  ) {}

  read(raw: unknown, where: Where): void {
    const item = objectAt(raw, where, 'an input item object (message, function_call or function_call_output)');
    const type = item.type ?? (item.role !== undefined ? 'message' : undefined);
    switch (type) {
      case 'message':
        return this.message(item, where);
      case 'function_call':
        return this.call({
          id: callId(item, where),
          name: stringAt(item.name, at(where, 'name'), "the function's name"),
          arguments: argumentsFromText(item.arguments, at(where, 'arguments')),
          where,
        });
      case 'custom_tool_call':
        return this.call({
          id: callId(item, where),
          name: stringAt(item.name, at(where, 'name'), "the tool's name"),
          arguments: { input: item.input ?? '' },
          where,
        });
      case 'local_shell_call': {
        const action = isObject(item.action) ? item.action : {};
        const args: JsonObject = { command: action.command ?? [] };
        if (action.working_directory !== undefined) args.workdir = action.working_directory;
        return this.call({ id: callId(item, where), name: 'shell', arguments: args, where });
      }
      case 'function_call_output':
      case 'custom_tool_call_output':
      case 'local_shell_call_output':
        return this.output(item, where);
      case 'reasoning':
        return this.reasoning(item, where);
      case undefined:
        throw new ImportError(
          at(where, 'type'),
          'missing',
          'an item "type" (message, function_call, function_call_output, ...)',
        );
      default:
        countSkipped(this.transcript, String(type));
    }
  }

  private message(item: JsonObject, where: Where): void {
    const text = partsText(item.content, at(where, 'content'), this.transcript, RESPONSES_PARTS);
    switch (item.role) {
      case 'assistant':
        if (this.open) this.open.text = [this.open.text, text].filter((t) => t.length > 0).join('\n');
        else this.openTurn(text, where);
        return;
      case 'user':
        this.open = undefined;
        if (this.hooks.isHarnessText?.(text)) this.transcript.notes.push(text);
        else if (text.length > 0) this.userText(text, where);
        return;
      case 'system':
      case 'developer':
        if (text.length > 0) this.transcript.notes.push(text);
        return;
      default:
        throw new ImportError(
          at(where, 'role'),
          `found role ${JSON.stringify(item.role)}`,
          'one of "user", "assistant", "system" or "developer"',
        );
    }
  }

  /**
   * A reasoning item stays in the prompt for the rest of its turn (the harness sends it back with
   * the tool outputs). Its text is the summary or content when given; an encrypted item's size is
   * the call's recorded reasoning tokens (set with the usage, see codex.ts).
   */
  private reasoning(item: JsonObject, where: Where): void {
    const parts = [item.summary, item.content].filter((p) => Array.isArray(p));
    const text = parts
      .map((p, i) =>
        partsText(
          p,
          at(where, i === 0 && Array.isArray(item.summary) ? 'summary' : 'content'),
          this.transcript,
          REASONING_PARTS,
        ),
      )
      .filter((t) => t.length > 0)
      .join('\n');
    const turn = this.open ?? this.openTurn('', where);
    const encrypted = typeof item.encrypted_content === 'string' && item.encrypted_content.length > 0;
    const reasoning = turn.reasoning ?? {};
    if (text.length > 0)
      reasoning.text = [reasoning.text, text].filter((t) => t !== undefined && t.length > 0).join('\n');
    if (encrypted) reasoning.encrypted = true;
    turn.reasoning = reasoning;
  }

  /** The response being read: its items came after the last input (a prompt or a tool output). */
  get currentResponse(): AssistantTurn | undefined {
    return this.open;
  }

  /**
   * A user prompt. Codex writes one as a response item and again as an event_msg (some versions
   * only the latter): the same text right after the same text is one prompt.
   */
  userText(text: string, where: Where): void {
    this.open = undefined;
    const previous = this.transcript.turns.at(-1);
    if (previous?.kind === 'user' && previous.text === text) return;
    this.transcript.turns.push({ kind: 'user', text, where });
  }

  private openTurn(text: string, where: Where): AssistantTurn {
    const turn: AssistantTurn = { kind: 'assistant', text, calls: [], where };
    this.open = turn;
    this.transcript.turns.push(turn);
    this.hooks.opened?.(turn);
    return turn;
  }

  private call(call: TraceCall): void {
    (this.open ?? this.openTurn('', call.where)).calls.push(call);
  }

  private output(item: JsonObject, where: Where): void {
    this.open = undefined;
    const raw =
      typeof item.output === 'string'
        ? item.output
        : partsText(item.output, at(where, 'output'), this.transcript, RESPONSES_PARTS);
    const { content, isError } = this.hooks.readOutput?.(raw) ?? { content: raw, isError: false };
    this.transcript.turns.push({ kind: 'tool_result', callId: callId(item, where), content, isError, where });
  }
}

function callId(item: JsonObject, where: Where): string {
  return stringAt(item.call_id ?? item.id, at(where, 'call_id'), 'the call_id that pairs a call with its output');
}

export function parseOpenAIResponses(json: unknown): Transcript {
  const transcript = emptyTranscript();
  const reader = new ResponsesItemReader(transcript);
  const root: Where = { path: '' };
  if (Array.isArray(json)) {
    json.forEach((item, i) => reader.read(item, at(root, i)));
    return transcript;
  }
  const body = objectAt(
    json,
    root,
    'a Responses request ({ "input": [...] }), a response ({ "output": [...] }) or an array of input items',
  );
  if (typeof body.model === 'string') transcript.model = body.model;
  if (typeof body.instructions === 'string' && body.instructions.length > 0) transcript.notes.push(body.instructions);
  const key = body.input === undefined && body.output !== undefined ? 'output' : 'input';
  const items = body[key];
  if (typeof items === 'string') {
    reader.read({ type: 'message', role: 'user', content: items }, at(root, key));
    return transcript;
  }
  arrayAt(items, at(root, key), 'the input as a string or an array of items').forEach((item, i) =>
    reader.read(item, at(at(root, key), i)),
  );
  return transcript;
}
