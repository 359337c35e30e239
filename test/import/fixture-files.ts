// The run in run.ts rendered in every import format, as each harness or API really writes it.
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

const READ_TEXT = "I'll read the parser and search for the error.";
const TEST_TEXT = 'Running the parser tests to see the failure.';
const PNG = {
  type: 'base64',
  media_type: 'image/png',
  data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
};

/** The thinking blocks the API fixtures and the Claude Code session write before the first reply. */
export const API_THINKING = 'The bug is probably in parse_header; read it and grep for the error variant.';
export const CLAUDE_CODE_THINKING = 'The bug is probably in parse_header.';

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
const jsonl = (lines: unknown[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';

function anthropicMessages(withFinal: boolean): unknown[] {
  const messages: unknown[] = [
    { role: 'user', content: TASK },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: API_THINKING, signature: 'EqQBCkgIARABGAIiQH' },
        { type: 'text', text: READ_TEXT },
        { type: 'tool_use', id: 'toolu_01', name: 'read_file', input: { path: 'src/parser/header.rs' } },
        { type: 'tool_use', id: 'toolu_02', name: 'grep', input: { pattern: 'EmptyValue', path: 'src' } },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_01', content: HEADER_RS },
        { type: 'tool_result', tool_use_id: 'toolu_02', content: [{ type: 'text', text: GREP_OUTPUT }] },
      ],
    },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: TEST_TEXT },
        { type: 'tool_use', id: 'toolu_03', name: 'shell', input: { command: 'cargo test parser' } },
      ],
    },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_03', content: TEST_FAIL, is_error: true }] },
    { role: 'assistant', content: [{ type: 'text', text: PLAN }] },
    {
      role: 'user',
      content: [
        { type: 'text', text: HANDOFF },
        { type: 'image', source: PNG },
      ],
    },
    {
      role: 'assistant',
      content: [
        { type: 'tool_use', id: 'toolu_04', name: 'edit_file', input: EDIT_ARGS },
        { type: 'tool_use', id: 'toolu_05', name: 'read_file', input: { path: 'tests/header.rs' } },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_04', content: EDIT_OK },
        { type: 'tool_result', tool_use_id: 'toolu_05', content: TESTS_RS },
      ],
    },
    {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_06', name: 'shell', input: { command: 'cargo test parser' } }],
    },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_06', content: TEST_PASS }] },
  ];
  if (withFinal) messages.push({ role: 'assistant', content: [{ type: 'text', text: DONE }] });
  return messages;
}

const TOOLS = ['read_file', 'grep', 'shell', 'edit_file'];

function anthropicRequest() {
  return {
    model: 'claude-sonnet-4-20250514',
    max_tokens: 8192,
    system: [{ type: 'text', text: SYSTEM_PROMPT, cache_control: { type: 'ephemeral' } }],
    tools: TOOLS.map((name) => ({
      name,
      description: `The ${name} tool.`,
      input_schema: { type: 'object', properties: {} },
    })),
    messages: anthropicMessages(false),
  };
}

function anthropicResponse() {
  return {
    id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-20250514',
    content: [{ type: 'text', text: DONE }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 5210, output_tokens: 48, cache_read_input_tokens: 4800, cache_creation_input_tokens: 0 },
  };
}

function chatCall(id: string, name: string, args: unknown) {
  return { id, type: 'function', function: { name, arguments: JSON.stringify(args) } };
}

function openaiChat() {
  return {
    model: 'gpt-4o-2024-08-06',
    messages: [
      { role: 'system', content: SYSTEM_PROMPT },
      { role: 'developer', content: 'Answer in English.' },
      { role: 'user', content: TASK },
      {
        role: 'assistant',
        content: READ_TEXT,
        tool_calls: [
          chatCall('call_01', 'read_file', { path: 'src/parser/header.rs' }),
          chatCall('call_02', 'grep', { pattern: 'EmptyValue', path: 'src' }),
        ],
      },
      { role: 'tool', tool_call_id: 'call_01', content: HEADER_RS },
      { role: 'tool', tool_call_id: 'call_02', content: [{ type: 'text', text: GREP_OUTPUT }] },
      {
        role: 'assistant',
        content: TEST_TEXT,
        tool_calls: [chatCall('call_03', 'shell', { command: 'cargo test parser' })],
      },
      { role: 'tool', tool_call_id: 'call_03', content: TEST_FAIL },
      { role: 'assistant', content: PLAN },
      {
        role: 'user',
        content: [
          { type: 'text', text: HANDOFF },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG.data}` } },
        ],
      },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          chatCall('call_04', 'edit_file', EDIT_ARGS),
          chatCall('call_05', 'read_file', { path: 'tests/header.rs' }),
        ],
      },
      { role: 'tool', tool_call_id: 'call_04', content: EDIT_OK },
      { role: 'tool', tool_call_id: 'call_05', content: TESTS_RS },
      {
        role: 'assistant',
        content: null,
        tool_calls: [chatCall('call_06', 'shell', { command: 'cargo test parser' })],
      },
      { role: 'tool', tool_call_id: 'call_06', content: TEST_PASS },
      { role: 'assistant', content: DONE },
    ],
  };
}

const fnCall = (n: string, name: string, args: unknown) => ({
  type: 'function_call',
  id: `fc_${n}`,
  call_id: `call_${n}`,
  name,
  arguments: JSON.stringify(args),
  status: 'completed',
});
const fnOutput = (n: string, output: string) => ({ type: 'function_call_output', call_id: `call_${n}`, output });
const say = (role: 'user' | 'assistant', text: string) => ({
  type: 'message',
  role,
  content: [{ type: role === 'user' ? 'input_text' : 'output_text', text }],
});
const reasoning = (text: string) => ({
  type: 'reasoning',
  id: 'rs_01',
  summary: [{ type: 'summary_text', text }],
  encrypted_content: 'gAAAAABo',
});

function openaiResponses() {
  return {
    model: 'gpt-5',
    instructions: SYSTEM_PROMPT,
    input: [
      say('user', TASK),
      reasoning('Read parse_header and grep for the error variant.'),
      say('assistant', READ_TEXT),
      fnCall('01', 'read_file', { path: 'src/parser/header.rs' }),
      fnCall('02', 'grep', { pattern: 'EmptyValue', path: 'src' }),
      fnOutput('01', HEADER_RS),
      fnOutput('02', GREP_OUTPUT),
      say('assistant', TEST_TEXT),
      fnCall('03', 'shell', { command: 'cargo test parser' }),
      fnOutput('03', TEST_FAIL),
      say('assistant', PLAN),
      {
        role: 'user',
        content: [
          { type: 'input_text', text: HANDOFF },
          { type: 'input_image', image_url: `data:image/png;base64,${PNG.data}` },
        ],
      },
      fnCall('04', 'edit_file', EDIT_ARGS),
      fnCall('05', 'read_file', { path: 'tests/header.rs' }),
      fnOutput('04', EDIT_OK),
      fnOutput('05', TESTS_RS),
      fnCall('06', 'shell', { command: 'cargo test parser' }),
      fnOutput('06', TEST_PASS),
    ],
  };
}

// ---- Claude Code session ------------------------------------------------------------------------

const CWD = '/home/dev/parser';
const SESSION = '6f1d2c3a-8b4e-4f7a-9c1d-2e3f4a5b6c7d';

/** Claude Code's Read returns the file as `cat -n` does. */
export function numbered(text: string): string {
  return text
    .replace(/\n$/, '')
    .split('\n')
    .map((line, i) => `${String(i + 1).padStart(6)}→${line}`)
    .join('\n');
}

function claudeCode(): string {
  let n = 0;
  let parent: string | null = null;
  const entry = (type: 'user' | 'assistant', message: unknown, extra: Record<string, unknown> = {}) => {
    const uuid = `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
    const line = {
      parentUuid: parent,
      isSidechain: false,
      userType: 'external',
      cwd: CWD,
      sessionId: SESSION,
      version: '2.0.61',
      gitBranch: 'main',
      type,
      message,
      uuid,
      timestamp: `2026-11-30T10:00:${String(n).padStart(2, '0')}.000Z`,
      ...extra,
    };
    if (extra.isSidechain !== true) parent = uuid;
    return line;
  };
  const assistant = (id: string, block: unknown) =>
    entry('assistant', {
      id,
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5-20250929',
      content: [block],
      stop_reason: null,
      usage: { input_tokens: 4, output_tokens: 12 },
    });
  const result = (id: string, content: unknown, isError = false) =>
    entry('user', {
      role: 'user',
      content: [{ tool_use_id: id, type: 'tool_result', content, ...(isError ? { is_error: true } : {}) }],
    });
  const file = (path: string) => `${CWD}/${path}`;
  return jsonl([
    {
      type: 'file-history-snapshot',
      messageId: 'b2a1',
      snapshot: { messageId: 'b2a1', trackedFileBackups: {}, timestamp: '2026-11-30T10:00:00.000Z' },
      isSnapshotUpdate: false,
    },
    entry(
      'user',
      {
        role: 'user',
        content:
          'Caveat: The messages below were generated by the user while running local commands. DO NOT respond to these messages or otherwise consider them in your response unless the user explicitly asks you to.',
      },
      { isMeta: true },
    ),
    entry('user', {
      role: 'user',
      content:
        '<command-name>/clear</command-name>\n<command-message>clear</command-message>\n<command-args></command-args>',
    }),
    entry('user', { role: 'user', content: TASK }),
    assistant('msg_01', { type: 'thinking', thinking: CLAUDE_CODE_THINKING, signature: 'EqQBCkgIARAB' }),
    assistant('msg_01', { type: 'text', text: READ_TEXT }),
    assistant('msg_01', {
      type: 'tool_use',
      id: 'toolu_01',
      name: 'Read',
      input: { file_path: file('src/parser/header.rs') },
    }),
    assistant('msg_01', {
      type: 'tool_use',
      id: 'toolu_02',
      name: 'Grep',
      input: { pattern: 'EmptyValue', path: file('src'), output_mode: 'content' },
    }),
    result('toolu_01', numbered(HEADER_RS)),
    result('toolu_02', GREP_OUTPUT),
    assistant('msg_02', { type: 'text', text: TEST_TEXT }),
    assistant('msg_02', {
      type: 'tool_use',
      id: 'toolu_03',
      name: 'Bash',
      input: { command: 'cargo test parser', description: 'Run the parser tests' },
    }),
    result('toolu_03', `Exit code 101\n${TEST_FAIL}`, true),
    assistant('msg_03', { type: 'text', text: PLAN }),
    entry('user', { role: 'user', content: HANDOFF }),
    assistant('msg_04', {
      type: 'tool_use',
      id: 'toolu_07',
      name: 'Task',
      input: {
        description: 'Find callers',
        prompt: 'List every caller of parse_header.',
        subagent_type: 'general-purpose',
      },
    }),
    entry('user', { role: 'user', content: 'List every caller of parse_header.' }, { isSidechain: true }),
    entry(
      'assistant',
      {
        id: 'msg_s1',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5-20250929',
        content: [
          { type: 'text', text: 'parse_header is called from src/parser/request.rs:88 and src/parser/response.rs:41.' },
        ],
      },
      { isSidechain: true },
    ),
    result('toolu_07', [
      { type: 'text', text: 'parse_header is called from src/parser/request.rs:88 and src/parser/response.rs:41.' },
    ]),
    assistant('msg_05', {
      type: 'tool_use',
      id: 'toolu_04',
      name: 'Edit',
      input: {
        file_path: file('src/parser/header.rs'),
        old_string: EDIT_ARGS.old_string,
        new_string: EDIT_ARGS.new_string,
      },
    }),
    assistant('msg_05', {
      type: 'tool_use',
      id: 'toolu_05',
      name: 'Read',
      input: { file_path: file('tests/header.rs') },
    }),
    result('toolu_04', EDIT_OK),
    result('toolu_05', numbered(TESTS_RS)),
    assistant('msg_06', {
      type: 'tool_use',
      id: 'toolu_06',
      name: 'Bash',
      input: { command: 'cargo test parser', description: 'Run the parser tests' },
    }),
    result('toolu_06', TEST_PASS),
    assistant('msg_07', { type: 'text', text: DONE }),
  ]);
}

// ---- Codex CLI rollout --------------------------------------------------------------------------

export const ENVIRONMENT_CONTEXT = `<environment_context>\n  <cwd>${CWD}</cwd>\n  <approval_policy>on-request</approval_policy>\n  <sandbox_mode>workspace-write</sandbox_mode>\n  <shell>bash</shell>\n</environment_context>`;
export const APPLY_PATCH = `*** Begin Patch\n*** Update File: src/parser/header.rs\n@@\n-${EDIT_ARGS.old_string}*** End Patch\n`;
export const codexShell = (script: string) => ({ command: ['bash', '-lc', script], workdir: CWD });

/** A tool output as Codex 0.3x-0.5x wrote it, and sent it to the model. */
export const codexWrapped = (output: string, code: number) =>
  JSON.stringify({ output, metadata: { exit_code: code, duration_seconds: 0.4 } });

function codex(): string {
  let t = 0;
  const at = () => `2026-11-30T10:01:${String(++t).padStart(2, '0')}.000Z`;
  const item = (payload: unknown) => ({ timestamp: at(), type: 'response_item', payload });
  const call = (n: string, script: string) =>
    item({ type: 'function_call', name: 'shell', arguments: JSON.stringify(codexShell(script)), call_id: `call_${n}` });
  return jsonl([
    {
      timestamp: at(),
      type: 'session_meta',
      payload: {
        id: '0199a8f2-1c2d-7e3f-8a9b-0c1d2e3f4a5b',
        timestamp: '2026-11-30T10:01:00.000Z',
        cwd: CWD,
        originator: 'codex_cli_rs',
        cli_version: '0.46.0',
        instructions: SYSTEM_PROMPT,
        source: 'cli',
      },
    },
    item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: ENVIRONMENT_CONTEXT }] }),
    item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: TASK }] }),
    { timestamp: at(), type: 'event_msg', payload: { type: 'user_message', message: TASK, kind: 'plain' } },
    {
      timestamp: at(),
      type: 'turn_context',
      payload: {
        cwd: CWD,
        approval_policy: 'on-request',
        sandbox_policy: { mode: 'workspace-write' },
        model: 'gpt-5-codex',
        effort: 'medium',
        summary: 'auto',
      },
    },
    item({
      type: 'reasoning',
      summary: [{ type: 'summary_text', text: '**Reading the parser**' }],
      content: null,
      encrypted_content: 'gAAAAABo',
    }),
    item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: READ_TEXT }] }),
    call('A1', "sed -n '1,400p' src/parser/header.rs"),
    call('A2', 'rg -n EmptyValue src'),
    item({ type: 'function_call_output', call_id: 'call_A1', output: codexWrapped(HEADER_RS, 0) }),
    item({ type: 'function_call_output', call_id: 'call_A2', output: codexWrapped(GREP_OUTPUT, 0) }),
    { timestamp: at(), type: 'event_msg', payload: { type: 'token_count', info: null } },
    item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: TEST_TEXT }] }),
    call('A3', 'cargo test parser'),
    item({ type: 'function_call_output', call_id: 'call_A3', output: codexWrapped(TEST_FAIL, 101) }),
    item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: PLAN }] }),
    item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: HANDOFF }] }),
    item({
      type: 'custom_tool_call',
      status: 'completed',
      call_id: 'call_A4',
      name: 'apply_patch',
      input: APPLY_PATCH,
    }),
    call('A5', 'cat tests/header.rs'),
    item({
      type: 'custom_tool_call_output',
      call_id: 'call_A4',
      output:
        'Exit code: 0\nWall time: 0.1 seconds\nOutput:\nSuccess. Updated the following files:\nM src/parser/header.rs\n',
    }),
    item({
      type: 'function_call_output',
      call_id: 'call_A5',
      output: `Exit code: 0\nWall time: 0.1 seconds\nOutput:\n${TESTS_RS}`,
    }),
    call('A6', 'cargo test parser'),
    item({ type: 'function_call_output', call_id: 'call_A6', output: codexWrapped(TEST_PASS, 0) }),
    item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: DONE }] }),
  ]);
}

/** File name -> text. */
export function fixtureFiles(): Record<string, string> {
  return {
    'anthropic-request.json': json(anthropicRequest()),
    'anthropic-response.json': json(anthropicResponse()),
    'anthropic-messages.json': json(anthropicMessages(true)),
    'openai-chat.json': json(openaiChat()),
    'openai-responses.json': json(openaiResponses()),
    'claude-code-session.jsonl': claudeCode(),
    'rollout-2026-11-30T10-01-00-0199a8f2.jsonl': codex(),
  };
}
