// Each format's fixture imports to exactly these events: the same run, written by each harness.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HARNESS_PROMPT_INPUT, importTrace } from '../../src/import/index.ts';
import { type TrafficEvent, replayAsRecorded, countTokens } from '../../src/engine/index.ts';
import {
  DONE,
  EDIT_ARGS,
  EDIT_OK,
  GREP_OUTPUT,
  HANDOFF,
  HEADER_RS,
  PLAN,
  SYSTEM_PROMPT,
  TASK,
  TEST_FAIL,
  TEST_PASS,
  TESTS_RS,
} from './run.ts';
import {
  API_THINKING,
  APPLY_PATCH,
  CLAUDE_CODE_THINKING,
  codexShell,
  codexWrapped,
  ENVIRONMENT_CONTEXT,
  fixtureFiles,
  numbered,
} from './fixture-files.ts';
import { IMPORTED_RUN_FILE, importedRunSource } from './imported-example.ts';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const READ_TEXT = "I'll read the parser and search for the error.";
const TEST_TEXT = 'Running the parser tests to see the failure.';

const call = (id: string, name: string, args: Record<string, unknown>) => ({ id, name, arguments: args });
const result = (id: string, name: string, content: string, isError = false): TrafficEvent => ({
  type: 'tool_result',
  tool_call_id: id,
  tool_name: name,
  content,
  ...(isError ? { is_error: true } : {}),
});

/** The API formats' events, with that format's call ids; `errorFlag`: whether the format can say a result failed. */
function apiEvents(id: (n: number) => string, errorFlag: boolean, final: boolean): TrafficEvent[] {
  const events: TrafficEvent[] = [
    {
      type: 'assistant',
      content: READ_TEXT,
      tool_calls: [
        call(id(1), 'read_file', { path: 'src/parser/header.rs' }),
        call(id(2), 'grep', { pattern: 'EmptyValue', path: 'src' }),
      ],
    },
    result(id(1), 'read_file', HEADER_RS),
    result(id(2), 'grep', GREP_OUTPUT),
    { type: 'assistant', content: TEST_TEXT, tool_calls: [call(id(3), 'shell', { command: 'cargo test parser' })] },
    result(id(3), 'shell', TEST_FAIL, errorFlag),
    { type: 'assistant', content: PLAN },
    { type: 'user', content: HANDOFF },
    {
      type: 'assistant',
      content: '',
      tool_calls: [call(id(4), 'edit_file', EDIT_ARGS), call(id(5), 'read_file', { path: 'tests/header.rs' })],
    },
    result(id(4), 'edit_file', EDIT_OK),
    result(id(5), 'read_file', TESTS_RS),
    { type: 'assistant', content: '', tool_calls: [call(id(6), 'shell', { command: 'cargo test parser' })] },
    result(id(6), 'shell', TEST_PASS),
  ];
  if (final) events.push({ type: 'assistant', content: DONE });
  return events;
}

const two = (n: number) => String(n).padStart(2, '0');

/** The events without what a trace recorded beside them (usage, reasoning), for comparing the conversation alone. */
const conversation = (events: TrafficEvent[]): TrafficEvent[] =>
  events.map((e) => {
    if (e.type !== 'assistant') return e;
    const { recorded: _recorded, reasoning: _reasoning, at: _at, ...rest } = e;
    return rest;
  });

describe('the committed fixtures', () => {
  it('are what build-fixtures.ts writes (rerun: npx tsx test/import/build-fixtures.ts)', () => {
    for (const [name, text] of Object.entries(fixtureFiles())) expect(fixture(name), name).toBe(text);
    expect(readFileSync(new URL(`../../${IMPORTED_RUN_FILE}`, import.meta.url), 'utf8')).toBe(importedRunSource());
  });
});

describe('Anthropic Messages', () => {
  it("a request body: system kept as a note, thinking kept as its turn's reasoning, image counted, is_error kept", () => {
    const { scenario, report } = importTrace(fixture('anthropic-request.json'));
    expect(scenario.inputs).toEqual({ task: TASK, [HARNESS_PROMPT_INPUT]: SYSTEM_PROMPT });
    expect(conversation(scenario.traffic)).toEqual(apiEvents((n) => `toolu_${two(n)}`, true, false));
    // The thinking block is the first reply's reasoning; no other reply has one.
    expect(scenario.traffic.flatMap((e) => (e.type === 'assistant' ? [e.reasoning] : []))).toEqual([
      { content: API_THINKING },
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(scenario.model).toEqual({ id: 'claude-sonnet-4' });
    expect(report).toMatchObject({
      format: 'anthropic',
      events: 12,
      inferences: 5,
      toolResults: 6,
      userMessages: 1,
      task: true,
      notes: 1,
      unansweredCalls: [],
    });
    expect(report.skipped).toEqual({ image: 1 });
  });

  it('a bare message array', () => {
    const { scenario, report } = importTrace(fixture('anthropic-messages.json'));
    expect(scenario.inputs).toEqual({ task: TASK });
    expect(conversation(scenario.traffic)).toEqual(apiEvents((n) => `toolu_${two(n)}`, true, true));
    expect(scenario.traffic[0]).toMatchObject({ reasoning: { content: API_THINKING } });
    expect(report.tools).toEqual([
      { name: 'read_file', mappedTo: 'read_file', calls: 2 },
      { name: 'grep', mappedTo: 'grep', calls: 1 },
      { name: 'shell', mappedTo: 'shell', calls: 2 },
      { name: 'edit_file', mappedTo: 'edit_file', calls: 1 },
    ]);
  });

  it('the thinking block is sent back with its turn and leaves at the next user message (as-sent replay)', () => {
    const { scenario } = importTrace(fixture('anthropic-messages.json'));
    const t = replayAsRecorded(scenario);
    const thinking = countTokens(API_THINKING, t.model.encoding);
    // No recorded usage: no calibration, so the reasoning is the thinking's own count.
    expect(t.summary.recorded).toBeNull();
    const requests = t.steps.flatMap((s) =>
      s.request ? [[s.event.type === 'assistant' && s.event.content, s.request.reasoningTokens]] : [],
    );
    // Inferences 2 and 3 follow the thinking reply within the turn; the user's hand-off ends it.
    expect(requests).toEqual([
      [READ_TEXT, 0],
      [TEST_TEXT, thinking],
      [PLAN, thinking],
      ['', 0],
      ['', 0],
      [DONE, 0],
    ]);
  });

  it('a response body is one inference', () => {
    const { scenario, report } = importTrace(fixture('anthropic-response.json'));
    expect(scenario.traffic).toEqual([{ type: 'assistant', content: DONE }]);
    expect(report.task).toBe(false);
  });

  it('consecutive assistant messages are one turn, as the API joins them', () => {
    const { scenario } = importTrace(
      JSON.stringify({
        messages: [
          { role: 'user', content: 'go' },
          { role: 'assistant', content: 'one' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'shell', input: { command: 'ls' } }] },
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 't1' },
              { type: 'text', text: 'and then?' },
            ],
          },
        ],
      }),
    );
    expect(scenario.traffic).toEqual([
      { type: 'assistant', content: 'one', tool_calls: [call('t1', 'shell', { command: 'ls' })] },
      result('t1', 'shell', ''),
      { type: 'user', content: 'and then?' },
    ]);
  });
});

describe('OpenAI', () => {
  it('Chat Completions: system and developer are notes, tool messages pair by tool_call_id', () => {
    const { scenario, report } = importTrace(fixture('openai-chat.json'));
    expect(scenario.inputs).toEqual({ task: TASK, [HARNESS_PROMPT_INPUT]: `${SYSTEM_PROMPT}\n\nAnswer in English.` });
    expect(scenario.traffic).toEqual(apiEvents((n) => `call_${two(n)}`, false, true));
    expect(scenario.model).toEqual({ id: 'gpt-4o' });
    expect(report).toMatchObject({ format: 'openai-chat', skipped: { image: 1 }, notes: 2 });
  });

  it('Responses input items: message, function_call and function_call_output; reasoning kept with its turn', () => {
    const { scenario, report } = importTrace(fixture('openai-responses.json'));
    expect(scenario.inputs).toEqual({ task: TASK, [HARNESS_PROMPT_INPUT]: SYSTEM_PROMPT });
    expect(conversation(scenario.traffic)).toEqual(apiEvents((n) => `call_${two(n)}`, false, false));
    // The reasoning item stays with its turn (its summary is the text given).
    expect(scenario.traffic[0]).toMatchObject({
      reasoning: { content: 'Read parse_header and grep for the error variant.' },
    });
    expect(scenario.model).toEqual({ id: 'gpt-5' });
    expect(report).toMatchObject({ format: 'openai-responses', skipped: { image: 1 } });
  });

  it('a Chat Completions response and a Responses string input', () => {
    expect(
      importTrace(
        JSON.stringify({
          object: 'chat.completion',
          model: 'gpt-4o-mini',
          choices: [
            {
              index: 0,
              message: {
                role: 'assistant',
                content: 'hi',
                tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '' } }],
              },
            },
          ],
        }),
      ).scenario.traffic,
    ).toEqual([{ type: 'assistant', content: 'hi', tool_calls: [call('c', 'f', {})] }]);
    const responses = importTrace(JSON.stringify({ model: 'o3', input: 'Summarize the repo.' }));
    expect([responses.scenario.inputs.task, responses.scenario.traffic, responses.scenario.model]).toEqual([
      'Summarize the repo.',
      [],
      { id: 'o3' },
    ]);
  });
});

describe('coding-agent session logs', () => {
  it('Claude Code: split assistant lines joined by message.id, tools mapped, file_path becomes path, side chain and meta left out', () => {
    const { scenario, report } = importTrace(fixture('claude-code-session.jsonl'));
    const file = (p: string) => `/home/dev/parser/${p}`;
    const bash = (id: string) =>
      call(id, 'shell', { command: 'cargo test parser', description: 'Run the parser tests' });
    const callers = 'parse_header is called from src/parser/request.rs:88 and src/parser/response.rs:41.';
    expect(scenario.inputs.task).toBe(TASK);
    expect(String(scenario.inputs[HARNESS_PROMPT_INPUT])).toMatch(
      /^Caveat: The messages below[^\n]*\n\n<command-name>\/clear<\/command-name>/,
    );
    // Each call keeps its line's usage (input 4 uncached, output 12 in the fixture).
    expect(scenario.traffic[0]).toMatchObject({
      recorded: {
        promptTokens: 4,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
        outputTokens: 12,
        model: 'claude-sonnet-4-5-20250929',
      },
    });
    // Each call's time is its response's first line's timestamp.
    const lines = fixture('claude-code-session.jsonl')
      .split('\n')
      .filter((l) => l.trim())
      .map(
        (l) => JSON.parse(l) as { type: string; isSidechain?: boolean; timestamp: string; message?: { id?: string } },
      );
    const firstLines = lines.filter(
      (l, i) =>
        l.type === 'assistant' && !l.isSidechain && lines.findIndex((m) => m.message?.id === l.message?.id) === i,
    );
    expect(scenario.traffic.flatMap((e) => (e.type === 'assistant' ? [e.at] : []))).toEqual(
      firstLines.map((l) => new Date(l.timestamp).toISOString()),
    );
    expect(conversation(scenario.traffic)).toEqual([
      {
        type: 'assistant',
        content: READ_TEXT,
        tool_calls: [
          call('toolu_01', 'read_file', { path: file('src/parser/header.rs') }),
          call('toolu_02', 'grep', { pattern: 'EmptyValue', path: file('src'), output_mode: 'content' }),
        ],
      },
      result('toolu_01', 'read_file', numbered(HEADER_RS)),
      result('toolu_02', 'grep', GREP_OUTPUT),
      { type: 'assistant', content: TEST_TEXT, tool_calls: [bash('toolu_03')] },
      result('toolu_03', 'shell', `Exit code 101\n${TEST_FAIL}`, true),
      { type: 'assistant', content: PLAN },
      { type: 'user', content: HANDOFF },
      {
        type: 'assistant',
        content: '',
        tool_calls: [
          call('toolu_07', 'Task', {
            description: 'Find callers',
            prompt: 'List every caller of parse_header.',
            subagent_type: 'general-purpose',
          }),
        ],
      },
      result('toolu_07', 'Task', callers),
      {
        type: 'assistant',
        content: '',
        tool_calls: [
          call('toolu_04', 'edit_file', {
            path: file('src/parser/header.rs'),
            old_string: EDIT_ARGS.old_string,
            new_string: EDIT_ARGS.new_string,
          }),
          call('toolu_05', 'read_file', { path: file('tests/header.rs') }),
        ],
      },
      result('toolu_04', 'edit_file', EDIT_OK),
      result('toolu_05', 'read_file', numbered(TESTS_RS)),
      { type: 'assistant', content: '', tool_calls: [bash('toolu_06')] },
      result('toolu_06', 'shell', TEST_PASS),
      { type: 'assistant', content: DONE },
    ]);
    // The thinking line of msg_01 is that response's reasoning.
    expect(scenario.traffic[0]).toMatchObject({ reasoning: { content: CLAUDE_CODE_THINKING } });
    expect(report).toMatchObject({
      format: 'claude-code',
      notes: 2,
      model: { trace: 'claude-sonnet-4-5-20250929', used: 'claude-sonnet-4' },
    });
    expect(report.skipped).toEqual({ 'sidechain message': 2 });
  });

  it('Codex CLI rollout: environment context and instructions are notes, exit codes mark errors, apply_patch edits the file its header names', () => {
    const { scenario, report } = importTrace(fixture('rollout-2026-11-30T10-01-00-0199a8f2.jsonl'));
    const traffic = conversation(scenario.traffic);
    const shell = (id: string, script: string) => call(id, 'shell', codexShell(script));
    expect(scenario.inputs).toEqual({
      task: TASK,
      [HARNESS_PROMPT_INPUT]: `${SYSTEM_PROMPT}\n\n${ENVIRONMENT_CONTEXT}`,
    });
    expect(traffic).toEqual([
      {
        type: 'assistant',
        content: READ_TEXT,
        tool_calls: [
          shell('call_A1', "sed -n '1,400p' src/parser/header.rs"),
          shell('call_A2', 'rg -n EmptyValue src'),
        ],
      },
      // 0.3x-0.5x send the model the wrapped output as it is written.
      result('call_A1', 'shell', codexWrapped(HEADER_RS, 0)),
      result('call_A2', 'shell', codexWrapped(GREP_OUTPUT, 0)),
      { type: 'assistant', content: TEST_TEXT, tool_calls: [shell('call_A3', 'cargo test parser')] },
      result('call_A3', 'shell', codexWrapped(TEST_FAIL, 101), true),
      { type: 'assistant', content: PLAN },
      { type: 'user', content: HANDOFF },
      {
        type: 'assistant',
        content: '',
        tool_calls: [
          call('call_A4', 'edit_file', { path: 'src/parser/header.rs', input: APPLY_PATCH }),
          shell('call_A5', 'cat tests/header.rs'),
        ],
      },
      result(
        'call_A4',
        'edit_file',
        'Exit code: 0\nWall time: 0.1 seconds\nOutput:\nSuccess. Updated the following files:\nM src/parser/header.rs\n',
      ),
      result('call_A5', 'shell', `Exit code: 0\nWall time: 0.1 seconds\nOutput:\n${TESTS_RS}`),
      { type: 'assistant', content: '', tool_calls: [shell('call_A6', 'cargo test parser')] },
      result('call_A6', 'shell', codexWrapped(TEST_PASS, 0)),
      { type: 'assistant', content: DONE },
    ]);
    expect(scenario.traffic[0]).toMatchObject({ reasoning: { content: '**Reading the parser**' } });
    expect(report).toMatchObject({ format: 'codex', skipped: {}, model: { trace: 'gpt-5-codex', used: 'gpt-5' } });
  });

  it('"Exit code: N" text marks a failure when N is not 0', () => {
    const lines = [
      {
        type: 'response_item',
        payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'run it' }] },
      },
      {
        type: 'response_item',
        payload: { type: 'function_call', name: 'shell', arguments: '{"command":["make"]}', call_id: 'c1' },
      },
      {
        type: 'response_item',
        payload: {
          type: 'function_call_output',
          call_id: 'c1',
          output: 'Exit code: 2\nOutput:\nmake: *** No targets.',
        },
      },
    ];
    expect(importTrace(lines.map((l) => JSON.stringify(l)).join('\n')).scenario.traffic[1]).toEqual(
      result('c1', 'shell', 'Exit code: 2\nOutput:\nmake: *** No targets.', true),
    );
  });
});
