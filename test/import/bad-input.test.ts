// Bad traces stop the import with where (line, JSON path) and what was expected there.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importTrace, ImportError, parseToolMap, DEFAULT_TOOL_MAP } from '../../src/import/index.ts';
import { detectFormat } from '../../src/import/detect.ts';
import { MAX_JSON_DEPTH, MAX_TRAFFIC_EVENTS, ScenarioSchema } from '../../src/engine/index.ts';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

function failure(text: string, options: Parameters<typeof importTrace>[1] = {}): ImportError {
  try {
    importTrace(text, options);
  } catch (error) {
    if (error instanceof ImportError) return error;
    throw error;
  }
  throw new Error('imported without an error');
}

describe('format detection', () => {
  it('tells every fixture apart by content alone', () => {
    expect(
      Object.fromEntries(
        [
          'anthropic-request.json',
          'anthropic-response.json',
          'anthropic-messages.json',
          'openai-chat.json',
          'openai-responses.json',
          'claude-code-session.jsonl',
          'rollout-2026-11-30T10-01-00-0199a8f2.jsonl',
        ].map((f) => [f, detectFormat(fixture(f)).format]),
      ),
    ).toEqual({
      'anthropic-request.json': 'anthropic',
      'anthropic-response.json': 'anthropic',
      'anthropic-messages.json': 'anthropic',
      'openai-chat.json': 'openai-chat',
      'openai-responses.json': 'openai-responses',
      'claude-code-session.jsonl': 'claude-code',
      'rollout-2026-11-30T10-01-00-0199a8f2.jsonl': 'codex',
    });
  });

  it('a JSON document that matches no format says what it is and what is expected', () => {
    const e = failure('{"name": "x", "steps": [1, 2]}');
    expect(e.message).toBe(
      '(top level): this JSON matches no trace format (an object with keys "name", "steps"); expected an agent trace: an Anthropic or OpenAI API body or message list, a Claude Code session, stream-json or claude-trace log, a Codex CLI rollout, a SWE-agent, mini-swe-agent or OpenHands trajectory, a Cline / Roo / Kilo task history, or a Gemini CLI chat',
    );
  });

  it('an empty file, and text that is not JSON, name line and column', () => {
    expect(failure('  \n').message).toMatch(/^line 1, \(top level\): the file is empty; expected an agent trace/);
    expect(failure('\nhello world\nmore').message).toMatch(/^line 2, \(top level\): not valid JSON at column 1 /);
  });

  it('--format forces a format: a Chat body read as Responses fails on the missing input', () => {
    expect(failure(fixture('openai-chat.json'), { format: 'openai-responses' }).message).toBe(
      'line 1, input: missing; expected the input as a string or an array of items',
    );
  });
});

describe('broken traces', () => {
  it('a JSON Lines file with a broken line names the line and column, and nothing is imported', () => {
    const lines = fixture('claude-code-session.jsonl').split('\n');
    lines[6] = lines[6]!.slice(0, 50);
    const e = failure(lines.join('\n'));
    expect(e.where).toEqual({ line: 7, path: '' });
    expect(e.message).toMatch(
      /^line 7, \(top level\): not valid JSON at column 51 \(.*\); expected one complete JSON object per line \(a hand-edited line\?\)$/,
    );
  });

  it('a cut-off last line (a session still being written) is left out with a warning; the rest imports', () => {
    const whole = fixture('claude-code-session.jsonl').trimEnd().split('\n');
    const cut = [...whole.slice(0, -1), whole.at(-1)!.slice(0, 40)].join('\n');
    const { report } = importTrace(cut);
    const full = importTrace(whole.slice(0, -1).join('\n')).report;
    expect(report.inferences).toBe(full.inferences);
    expect(report.warnings).toEqual([
      `the last line (${whole.length}) is cut off at column 41 (a session still being written?); it was left out`,
    ]);
  });

  it('a usage count past 2^53 is no record (it is not the figure the provider wrote); the rest of the record stays', () => {
    const text = fixture('real/openhands-basic.json');
    const first = JSON.parse(text).find((e: { tool_call_metadata?: unknown }) => e.tool_call_metadata)
      .tool_call_metadata.model_response.usage;
    const output = `"completion_tokens": ${first.completion_tokens},`;
    const write = `"cache_creation_input_tokens": ${first.cache_creation_input_tokens},`;
    expect(text).toContain(output);
    const huge = importTrace(text.replace(output, '"completion_tokens": 9007199254740992,')).scenario;
    expect(() => ScenarioSchema.parse(huge)).not.toThrow();
    const recorded = huge.traffic.find((e) => e.type === 'assistant' && e.recorded)!;
    expect(recorded.type === 'assistant' && recorded.recorded).toEqual({
      promptTokens: first.prompt_tokens,
      cacheReadTokens: first.cache_read_input_tokens,
      cacheWriteTokens: first.cache_creation_input_tokens,
      model: expect.any(String),
    });
    // Parts that are each a count but whose sum is not: the whole record is left out.
    const summed = importTrace(
      text.replace(write, '"cache_creation_input_tokens": 9007199254740000, "cache_read_input_tokens": 9000,'),
    ).scenario;
    expect(() => ScenarioSchema.parse(summed)).not.toThrow();
  });

  it('tool arguments nested past the scenario limit are refused with their path, and too many events with the limit', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < MAX_JSON_DEPTH + 5; i++) deep = { d: deep };
    const body = {
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'f', input: { x: deep } }] },
      ],
    };
    expect(failure(JSON.stringify(body)).message).toBe(
      `traffic[0].tool_calls[0].arguments: the imported scenario is not valid: nested more than ${MAX_JSON_DEPTH} levels deep; flatten it; expected a trace the scenario format can hold`,
    );
    const many = [
      { role: 'user', content: 'go' },
      ...Array.from({ length: MAX_TRAFFIC_EVENTS + 1 }, (_, i) => ({
        role: i % 2 ? 'user' : 'assistant',
        content: 'x',
      })),
    ];
    expect(failure(JSON.stringify(many)).message).toMatch(
      /^traffic: the imported scenario is not valid: 100,001 events; at most 100,000 fit one scenario \(split the trace\)/,
    );
  });

  it('a tool result whose call is missing names the line and path of the result', () => {
    const lines = fixture('rollout-2026-11-30T10-01-00-0199a8f2.jsonl')
      .split('\n')
      .filter(
        (l) => !l.includes('"call_id":"call_A3","name"') && !(l.includes('"function_call"') && l.includes('call_A3')),
      );
    const e = failure(lines.join('\n'));
    expect(e.message).toBe(
      'line 14, payload: a tool result for call "call_A3", but no earlier tool call has that id; expected the assistant turn that made call "call_A3" before its result (was the trace cut at the start, or an id mistyped?)',
    );
  });

  it('in a JSON body, the line and path of the result block', () => {
    const body = JSON.stringify(
      {
        messages: [
          { role: 'user', content: 'go' },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_9', content: 'x' }] },
        ],
      },
      null,
      2,
    );
    const e = failure(body);
    expect(body.split('\n')[9]).toBe('        {');
    expect(e.where).toEqual({ line: 10, path: 'messages[1].content[0]' });
    expect(e.problem).toBe('a tool result for call "toolu_9", but no earlier tool call has that id');
  });

  it('a second result for one call', () => {
    const e = failure(
      JSON.stringify([
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'ls', arguments: '{}' } }],
          content: null,
        },
        { role: 'tool', tool_call_id: 'c1', content: 'a' },
        { role: 'tool', tool_call_id: 'c1', content: 'b' },
      ]),
    );
    expect(e.message).toBe('line 1, [3]: a second tool result for call "c1"; expected one result per tool call');
  });

  it('malformed pieces: arguments that are not JSON, a role the format does not have, a block without a type', () => {
    expect(
      failure(
        JSON.stringify({
          messages: [
            { role: 'system', content: 's' },
            {
              role: 'assistant',
              content: null,
              tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{"a":' } }],
            },
          ],
        }),
      ).message,
    ).toMatch(
      /^line 1, messages\[1\]\.tool_calls\[0\]\.function\.arguments: the arguments are not valid JSON \(.*\); expected the call's arguments as a JSON object encoded in a string$/,
    );
    expect(failure(JSON.stringify({ system: 's', messages: [{ role: 'tool', content: 'x' }] })).message).toBe(
      'line 1, messages[0].role: found role "tool"; expected "user" or "assistant" (the system prompt goes in the top-level "system")',
    );
    expect(
      failure(JSON.stringify({ system: 's', messages: [{ role: 'user', content: [{ text: 'hi' }] }] })).message,
    ).toBe(
      'line 1, messages[0].content[0].type: missing; expected a block type such as "text", "tool_use" or "tool_result"',
    );
  });

  it('a trace with no conversation at all', () => {
    expect(failure(JSON.stringify({ system: 'only a prompt', messages: [] })).message).toBe(
      '(top level): the anthropic trace holds no conversation (no user, assistant or tool turns); expected at least one message',
    );
  });
});

describe('the tool map', () => {
  it('adds to and overrides the defaults; Name= keeps a name', () => {
    const map = parseToolMap('Task=delegate, Read=cat_file,Bash=');
    expect(map).toEqual({ ...DEFAULT_TOOL_MAP, Task: 'delegate', Read: 'cat_file', Bash: 'Bash' });
    const { scenario, report } = importTrace(fixture('claude-code-session.jsonl'), { toolMap: map });
    expect(report.tools.map((t) => `${t.name}->${t.mappedTo}`)).toEqual([
      'Read->cat_file',
      'Grep->grep',
      'Bash->Bash',
      'Task->delegate',
      'Edit->edit_file',
    ]);
    expect(
      scenario.traffic.filter((e) => e.type === 'tool_result').map((e) => e.type === 'tool_result' && e.tool_name),
    ).toEqual(['cat_file', 'grep', 'Bash', 'delegate', 'edit_file', 'cat_file', 'Bash']);
  });

  it('a malformed entry says which and what is expected', () => {
    expect(() => parseToolMap('Read=read_file,Bash')).toThrow(
      '--tool-map entry 2 "Bash": expected TRACE_NAME=BLUEPRINT_NAME (e.g. Read=read_file), or TRACE_NAME= to keep the name',
    );
  });
});
