// Cline, Roo Code and Kilo Code task histories (`tasks/<id>/api_conversation_history.json`): the
// Anthropic message list the extension sent. The tools are not API tools: the model writes one call
// per reply as XML in its text (`<read_file><path>src/a.ts</path></read_file>`) and the extension
// answers in the next user message as text blocks, `[read_file for 'src/a.ts'] Result:` and the
// output, followed by an `<environment_details>` block it adds to every message. Those are read
// back into calls and results, so the blueprint can route and evict them like any tool output.
// Histories made with native tool calling carry tool_use / tool_result blocks and read as Anthropic.
import { arrayAt, at, isObject, objectAt } from '../json.ts';
import { emptyTranscript, type TraceCall, type Transcript, type Where } from '../trace.ts';
import { pushAnthropicMessage, readAnthropicContent } from './anthropic.ts';

const RESULT_HEAD = /^\[([\w-]+)(?: for '([^']*)')?\] Result:\s*/;
const ENVIRONMENT = /<environment_details>[\s\S]*?<\/environment_details>/;

export function looksLikeCline(json: unknown): boolean {
  if (!Array.isArray(json)) return false;
  return json
    .slice(0, 4)
    .some(
      (m) =>
        isObject(m) &&
        Array.isArray(m.content) &&
        m.content.some(
          (b) =>
            isObject(b) &&
            typeof b.text === 'string' &&
            (b.text.includes('<environment_details>') || b.text.trimStart().startsWith('<task>')),
        ),
    );
}

export function parseCline(json: unknown): Transcript {
  const transcript = emptyTranscript();
  const root: Where = { path: '' };
  let pending: TraceCall | undefined;
  let n = 0;
  arrayAt(json, root, 'the message list').forEach((raw, i) => {
    const where = at(root, i);
    const message = objectAt(raw, where, 'a message { role, content }');
    const content = readAnthropicContent(message.content, at(where, 'content'), transcript);
    if (message.role === 'assistant') {
      const call = xmlCall(content.text, `cline-${n + 1}`, where);
      if (call) n++;
      pending = call;
      pushAnthropicMessage(
        'assistant',
        { ...content, calls: [...content.calls, ...(call ? [call] : [])] },
        where,
        transcript,
      );
      return;
    }
    let text = content.text;
    if (pending) {
      // The result is everything before the environment details the extension appends.
      const env = ENVIRONMENT.exec(text);
      const body = env ? text.slice(0, env.index) : text;
      transcript.turns.push(...content.results);
      transcript.turns.push({
        kind: 'tool_result',
        callId: pending.id,
        content: body.replace(RESULT_HEAD, '').trim(),
        isError: /^\[ERROR\]/.test(body.replace(RESULT_HEAD, '')),
        where,
      });
      text = env ? env[0] : '';
      pending = undefined;
      if (text.length > 0) transcript.turns.push({ kind: 'user', text, where });
      return;
    }
    pushAnthropicMessage('user', content, where, transcript);
  });
  return transcript;
}

/** The tool call written as XML in a reply: the first element whose children are all elements. */
function xmlCall(text: string, id: string, where: Where): TraceCall | undefined {
  const open = /<([a-z_]+)>\s*\n?/g;
  for (let m = open.exec(text); m; m = open.exec(text)) {
    const name = m[1]!;
    if (name === 'thinking') continue;
    const end = text.indexOf(`</${name}>`, m.index);
    if (end < 0) continue;
    const inner = text.slice(m.index + m[0].length, end);
    const args: Record<string, unknown> = {};
    for (const p of inner.matchAll(/<([a-z_]+)>([\s\S]*?)<\/\1>/g)) args[p[1]!] = p[2]!.replace(/^\n|\n$/g, '');
    if (Object.keys(args).length === 0 && inner.trim().length > 0) continue;
    return { id, name, arguments: args, where };
  }
  return undefined;
}
