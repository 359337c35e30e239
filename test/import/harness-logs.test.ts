// Session logs in the shapes Claude Code 2.1, Codex 0.1xx, the Agent SDK's stream-json, Gemini CLI
// and Cline write them. No public file of these with a license to copy was found (see
// fixtures/real/SOURCES.md for the real ones), so these are small hand-written logs in the tools'
// line shapes; every expected count is taken from the lines themselves (distinct message ids,
// token_count events), never from what the importer printed.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { subagentRuns } from '../../src/cli/subagents.ts';
import { importTrace } from '../../src/import/index.ts';
import type { TrafficEvent } from '../../src/engine/index.ts';

const jsonl = (lines: unknown[]) => `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
const assistants = (traffic: TrafficEvent[]) =>
  traffic.filter((e): e is Extract<TrafficEvent, { type: 'assistant' }> => e.type === 'assistant');
type Line = Record<string, unknown>;

describe('Claude Code 2.1 session files', () => {
  const base = { isSidechain: false, userType: 'external', cwd: '/w', sessionId: 's1', version: '2.1.12' };
  let n = 0;
  const line = (type: string, extra: Line): Line => ({ ...base, type, uuid: `u${++n}`, ...extra });
  const usage = (input: number, read: number, write: number, output: number) => ({
    input_tokens: input,
    cache_read_input_tokens: read,
    cache_creation_input_tokens: write,
    output_tokens: output,
  });
  const block = (id: string, content: Line, u = usage(3, 20_000, 500, 40)) =>
    line('assistant', {
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model: 'claude-opus-4-5-20251101',
        content: [content],
        usage: u,
      },
    });
  const use = (id: string, name: string, input: Line) => ({ type: 'tool_use', id, name, input });
  const result = (id: string, text: string) =>
    line('user', { message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: text }] } });
  const progress = () => line('progress', { data: { type: 'hook_progress', hookEvent: 'PostToolUse' } });

  const lines: Line[] = [
    line('user', { message: { role: 'user', content: 'Rename parse to read everywhere.' } }),
    // One response with three parallel calls: each tool_result and a hook's progress line land
    // between its blocks, as 2.1 writes them.
    block('msg_A', { type: 'text', text: 'Looking at the three files.' }),
    block('msg_A', use('t1', 'Read', { file_path: '/w/a.rs' })),
    result('t1', 'fn parse() {}'),
    progress(),
    block('msg_A', use('t2', 'Read', { file_path: '/w/b.rs' })),
    result('t2', 'fn parse2() {}'),
    block('msg_A', use('t3', 'Read', { file_path: '/w/c.rs' }), usage(3, 20_000, 500, 120)),
    result('t3', 'fn parse3() {}'),
    block('msg_B', use('t4', 'Bash', { command: 'cargo build' })),
    result('t4', 'ok'),
    // Claude Code's own line, no API call behind it.
    line('assistant', {
      message: {
        id: 'syn1',
        role: 'assistant',
        model: '<synthetic>',
        content: [{ type: 'text', text: 'No response requested.' }],
        usage: usage(0, 0, 0, 0),
      },
    }),
    line('system', {
      subtype: 'compact_boundary',
      content: 'Conversation compacted',
      compactMetadata: { trigger: 'auto', preTokens: 167_000 },
    }),
    line('user', {
      isCompactSummary: true,
      message: {
        role: 'user',
        content: 'This session is being continued from a previous conversation. Summary: renamed parse in a.rs.',
      },
    }),
    // A prompt typed while the agent worked.
    line('attachment', { attachment: { type: 'queued_command', prompt: 'Also update the docs.' } }),
    block('msg_C', { type: 'text', text: 'Done with the rename and the docs.' }, usage(3, 4_000, 2_000, 30)),
  ];
  const text = jsonl(lines);
  const real = lines.filter((l) => l.type === 'assistant' && (l.message as Line).model !== '<synthetic>');
  const ids = [...new Set(real.map((l) => (l.message as Line).id))];

  it('one inference per message.id however its lines are interleaved; <synthetic> lines are not calls', () => {
    const { scenario, report } = importTrace(text);
    expect(report.inferences).toBe(ids.length);
    const turns = assistants(scenario.traffic);
    expect(turns.map((t) => t.tool_calls?.map((c) => c.id) ?? [])).toEqual(
      ids.map((id) =>
        real
          .filter((l) => (l.message as Line).id === id)
          .flatMap((l) =>
            ((l.message as Line).content as Line[]).filter((b) => b.type === 'tool_use').map((b) => b.id),
          ),
      ),
    );
    expect(report.unansweredCalls).toEqual([]);
    expect(report.skipped['synthetic message (no API call)']).toBe(1);
  });

  it('each call keeps its usage (the last line of a response has the final output count)', () => {
    const turns = assistants(importTrace(text).scenario.traffic);
    const last = (id: string) =>
      (real.filter((l) => (l.message as Line).id === id).at(-1)!.message as Line).usage as Record<string, number>;
    expect(turns.map((t) => t.recorded)).toEqual(
      ids.map((id) => {
        const u = last(String(id));
        return {
          promptTokens: u.input_tokens! + u.cache_read_input_tokens! + u.cache_creation_input_tokens!,
          cacheReadTokens: u.cache_read_input_tokens,
          cacheWriteTokens: u.cache_creation_input_tokens,
          outputTokens: u.output_tokens,
          model: 'claude-opus-4-5-20251101',
        };
      }),
    );
  });

  it('a compaction is an event with its preTokens and summary; a queued prompt is a user turn', () => {
    const { scenario, report } = importTrace(text);
    const compaction = scenario.traffic.find((e) => e.type === 'compaction');
    const boundary = lines.find((l) => l.subtype === 'compact_boundary')!;
    const summary = lines.find((l) => l.isCompactSummary)!;
    expect(compaction).toEqual({
      type: 'compaction',
      summary: (summary.message as Line).content,
      pre_tokens: (boundary.compactMetadata as Line).preTokens,
      trigger: 'auto',
    });
    expect(report.compactions).toBe(1);
    expect(scenario.traffic.at(-2)).toEqual({ type: 'user', content: 'Also update the docs.' });
  });

  it("a main session given with its folder lists its sub-agents' runs, each with its inferences", () => {
    const dir = mkdtempSync(join(tmpdir(), 'lev-subagents-'));
    writeFileSync(join(dir, 's1.jsonl'), text);
    mkdirSync(join(dir, 's1', 'subagents'), { recursive: true });
    const sub = lines
      .filter((l) => l.type === 'assistant' || l.type === 'user')
      .slice(0, 6)
      .map((l): Line => ({ ...l, isSidechain: true }));
    writeFileSync(join(dir, 's1', 'subagents', 'agent-a1.jsonl'), jsonl(sub));
    writeFileSync(join(dir, 's1', 'subagents', 'agent-a1.meta.json'), '{}');
    expect(subagentRuns(join(dir, 's1.jsonl'))).toEqual([
      {
        file: join(dir, 's1', 'subagents', 'agent-a1.jsonl'),
        inferences: new Set(sub.filter((l) => l.type === 'assistant').map((l) => (l.message as Line).id)).size,
        recordedCalls: new Set(sub.filter((l) => l.type === 'assistant').map((l) => (l.message as Line).id)).size,
      },
    ]);
    expect(subagentRuns(join(dir, 'elsewhere.jsonl'))).toEqual([]);
  });

  it('a sub-agent file (every line in the side chain) imports as its own run', () => {
    const sub = lines
      .filter((l) => l.type === 'assistant' || l.type === 'user')
      .slice(0, 4)
      .map((l): Line => ({ ...l, isSidechain: true, agentId: 'a07414a563049c3f9' }));
    const { report } = importTrace(jsonl(sub));
    expect(report.inferences).toBe(
      new Set(sub.filter((l) => l.type === 'assistant').map((l) => (l.message as Line).id)).size,
    );
    expect(report.skipped['sidechain message']).toBeUndefined();
  });
});

describe('Codex 0.1xx rollouts', () => {
  const item = (payload: Line) => ({ timestamp: '2026-11-01T10:00:00Z', type: 'response_item', payload });
  const event = (payload: Line) => ({ timestamp: '2026-11-01T10:00:00Z', type: 'event_msg', payload });
  const tokenCount = (input: number, cached: number, reasoning: number, total: number) =>
    event({
      type: 'token_count',
      info: {
        total_token_usage: { input_tokens: 0, total_tokens: total },
        last_token_usage: {
          input_tokens: input,
          cached_input_tokens: cached,
          output_tokens: 300,
          reasoning_output_tokens: reasoning,
          total_tokens: input + 300,
        },
        model_context_window: 258_400,
      },
    });
  const lines = [
    {
      timestamp: '2026-11-01T10:00:00Z',
      type: 'session_meta',
      payload: {
        id: 'r1',
        cwd: '/w',
        originator: 'codex_cli_rs',
        cli_version: '0.125.0',
        base_instructions: { text: 'You are Codex.' },
      },
    },
    { timestamp: '2026-11-01T10:00:00Z', type: 'turn_context', payload: { model: 'gpt-5.1-codex', cwd: '/w' } },
    // This version writes the prompt only as an event.
    event({ type: 'user_message', message: 'Fix the failing test.', images: [] }),
    item({ type: 'reasoning', summary: [], content: null, encrypted_content: 'gAAAAABpX' }),
    item({ type: 'function_call', name: 'exec_command', arguments: '{"cmd":"cargo test"}', call_id: 'c1' }),
    tokenCount(9_000, 0, 512, 9_300),
    tokenCount(9_000, 0, 512, 9_300),
    item({
      type: 'function_call_output',
      call_id: 'c1',
      output:
        'Chunk ID: 1\nWall time: 2.1 seconds\nProcess exited with code 101\nOriginal token count: 40\nOutput:\ntest x ... FAILED',
    }),
    item({
      type: 'custom_tool_call',
      status: 'completed',
      call_id: 'c2',
      name: 'apply_patch',
      input: '*** Begin Patch\n*** Update File: src/lib.rs\n@@\n-a\n+b\n*** End Patch\n',
    }),
    tokenCount(9_800, 8_960, 0, 19_400),
    item({ type: 'custom_tool_call_output', call_id: 'c2', output: 'Exit code: 0\nOutput:\nSuccess.' }),
    item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Fixed.' }] }),
    tokenCount(10_100, 9_728, 0, 29_800),
  ];
  const text = jsonl(lines);
  const counts = lines.filter((l) => l.type === 'event_msg' && (l.payload as Line).type === 'token_count');
  const distinct = counts.filter(
    (l, i) =>
      i === 0 ||
      JSON.stringify(((l.payload as Line).info as Line).total_token_usage) !==
        JSON.stringify(((counts[i - 1]!.payload as Line).info as Line).total_token_usage),
  );

  it('one inference per token_count call; the prompt from event_msg; the recorded window; reasoning sized from its call', () => {
    const { scenario, report } = importTrace(text);
    expect(report.inferences).toBe(distinct.length);
    expect(scenario.inputs.task).toBe('Fix the failing test.');
    expect(scenario.model).toMatchObject({ id: 'gpt-5', window: 258_400 });
    const turns = assistants(scenario.traffic);
    const last = (l: Line) => ((l.payload as Line).info as Line).last_token_usage as Record<string, number>;
    expect(turns.map((t) => t.recorded?.promptTokens)).toEqual(distinct.map((l) => last(l).input_tokens));
    expect(turns[0]!.reasoning).toEqual({ size_tokens: last(distinct[0]!).reasoning_output_tokens });
  });

  it('both exit-code headers are read, and apply_patch edits the file its header names', () => {
    const { scenario } = importTrace(text);
    const results = scenario.traffic.filter((e) => e.type === 'tool_result');
    expect(results.map((r) => r.type === 'tool_result' && [r.tool_name, r.is_error === true])).toEqual([
      ['shell', true],
      ['edit_file', false],
    ]);
    expect(assistants(scenario.traffic)[1]!.tool_calls![0]!.arguments.path).toBe('src/lib.rs');
  });

  it("a compacted line with an empty message and a replacement_history: the new context is the kept messages' text", () => {
    const kept = [
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Fix the failing test.' }] },
      {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: '<environment_context>\n  <cwd>/w</cwd>\n</environment_context>' }],
      },
      {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'The test fails on an empty header value.' }],
      },
      { type: 'compaction', encrypted_content: 'gAAAAABpuws6eFQC' },
    ];
    const compacted = {
      timestamp: '2026-11-01T10:05:00Z',
      type: 'compacted',
      payload: { message: '', replacement_history: kept },
    };
    const { scenario, report } = importTrace(
      jsonl([...lines, compacted, event({ type: 'user_message', message: 'Go on.', images: [] })]),
    );
    const compaction = scenario.traffic.find((e) => e.type === 'compaction');
    // The user's and the model's messages, in order; the environment context is harness text; the encrypted item has no size.
    const texts = kept
      .filter((k) => k.type === 'message' && !k.content![0]!.text.startsWith('<environment_context>'))
      .map((k) => k.content![0]!.text);
    expect(compaction).toMatchObject({ type: 'compaction', summary: texts.join('\n\n') });
    expect(report.skipped['compacted compaction item']).toBe(kept.filter((k) => k.type === 'compaction').length);
  });
});

describe('claude -p --output-format stream-json', () => {
  const init = {
    type: 'system',
    subtype: 'init',
    session_id: 'x1',
    model: 'claude-sonnet-4-5-20250929',
    tools: ['Bash'],
  };
  const a = (id: string, content: Line[], parent: string | null = null) => ({
    type: 'assistant',
    session_id: 'x1',
    parent_tool_use_id: parent,
    message: {
      id,
      role: 'assistant',
      model: 'claude-sonnet-4-5-20250929',
      content,
      usage: { input_tokens: 5, cache_read_input_tokens: 12_000, cache_creation_input_tokens: 300, output_tokens: 50 },
    },
  });
  const u = (id: string, text: string, parent: string | null = null) => ({
    type: 'user',
    session_id: 'x1',
    parent_tool_use_id: parent,
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: text }] },
  });
  const lines = [
    init,
    {
      type: 'user',
      session_id: 'x1',
      parent_tool_use_id: null,
      message: { role: 'user', content: 'Find the callers.' },
    },
    a('m1', [{ type: 'tool_use', id: 'k1', name: 'Task', input: { prompt: 'Search.' } }]),
    // The sub-agent's own calls, marked with the Task call that started it.
    a('s1', [{ type: 'tool_use', id: 'k2', name: 'Bash', input: { command: 'rg parse' } }], 'k1'),
    u('k2', 'a.rs:1', 'k1'),
    a('s2', [{ type: 'text', text: 'Called from a.rs.' }], 'k1'),
    u('k1', 'Called from a.rs.'),
    a('m2', [{ type: 'text', text: 'parse is called from a.rs.' }]),
    {
      type: 'result',
      subtype: 'success',
      session_id: 'x1',
      num_turns: 2,
      usage: { input_tokens: 10, output_tokens: 100 },
    },
  ];

  it("the main agent's calls are the inferences; the sub-agent's lines are counted apart", () => {
    const { scenario, report } = importTrace(jsonl(lines));
    const main = lines.filter((l) => l.type === 'assistant' && (l as Line).parent_tool_use_id === null);
    expect(report.format).toBe('claude-stream-json');
    expect(report.inferences).toBe(main.length);
    expect(report.skipped['sub-agent message']).toBe(
      lines.filter((l) => typeof (l as Line).parent_tool_use_id === 'string').length,
    );
    expect(assistants(scenario.traffic).every((t) => t.recorded?.promptTokens === 5 + 12_000 + 300)).toBe(true);
  });
});

describe('Gemini CLI chat sessions', () => {
  const session = {
    sessionId: 'g1',
    projectHash: 'ab12',
    startTime: '2026-10-01T08:00:00Z',
    lastUpdated: '2026-10-01T08:05:00Z',
    messages: [
      { id: '1', type: 'user', content: 'List the files.' },
      {
        id: '2',
        type: 'gemini',
        content: '',
        model: 'gemini-2.5-pro',
        tokens: { input: 8_000, output: 20, cached: 0, thoughts: 100, tool: 0, total: 8_120 },
        toolCalls: [
          {
            id: 'ls-1',
            name: 'list_directory',
            args: { path: '.' },
            status: 'success',
            result: [{ functionResponse: { id: 'ls-1', name: 'list_directory', response: { output: 'a.rs\nb.rs' } } }],
          },
        ],
      },
      { id: '3', type: 'info', content: 'Request cancelled.' },
      {
        id: '4',
        type: 'gemini',
        content: 'Two files: a.rs and b.rs.',
        model: 'gemini-2.5-pro',
        tokens: { input: 8_200, output: 12, cached: 7_900, thoughts: 0, tool: 0, total: 8_212 },
      },
    ],
  };

  it('one inference per gemini message, its tool calls answered by their function responses, its tokens recorded', () => {
    const { scenario, report } = importTrace(JSON.stringify(session));
    const gemini = session.messages.filter((m) => m.type === 'gemini');
    expect(report.format).toBe('gemini-cli');
    expect(report.inferences).toBe(gemini.length);
    expect(assistants(scenario.traffic).map((t) => [t.recorded?.promptTokens, t.recorded?.cacheReadTokens])).toEqual(
      gemini.map((m) => [m.tokens!.input, m.tokens!.cached]),
    );
    expect(scenario.traffic[1]).toEqual({
      type: 'tool_result',
      tool_call_id: 'ls-1',
      tool_name: 'list_dir',
      content: 'a.rs\nb.rs',
    });
    expect(report.skipped['info message']).toBe(1);
  });

  it('the JSON Lines form: a header line, then one message a line', () => {
    const text = jsonl([{ sessionId: 'g1', projectHash: 'ab12', startTime: session.startTime }, ...session.messages]);
    expect(importTrace(text).report).toMatchObject({ format: 'gemini-cli', inferences: 2 });
  });
});

describe('Cline / Roo Code / Kilo Code task histories', () => {
  const history = [
    {
      role: 'user',
      content: [
        { type: 'text', text: '<task>\nAdd a README.\n</task>' },
        { type: 'text', text: '<environment_details>\n# Current Working Directory\n/w\n</environment_details>' },
      ],
    },
    {
      role: 'assistant',
      content: [{ type: 'text', text: 'I will look first.\n\n<read_file>\n<path>src/main.rs</path>\n</read_file>' }],
    },
    {
      role: 'user',
      content: [
        { type: 'text', text: "[read_file for 'src/main.rs'] Result:" },
        { type: 'text', text: 'fn main() {}' },
        { type: 'text', text: '<environment_details>\n# Time\n10:00\n</environment_details>' },
      ],
    },
    {
      role: 'assistant',
      content: [
        {
          type: 'text',
          text: '<write_to_file>\n<path>README.md</path>\n<content>\n# Tool\n</content>\n</write_to_file>',
        },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'text', text: "[write_to_file for 'README.md'] Result:" },
        {
          type: 'text',
          text: 'The content was successfully saved to README.md.\n\n<environment_details>\n# Time\n10:01\n</environment_details>',
        },
      ],
    },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: '<attempt_completion>\n<result>\nAdded the README.\n</result>\n</attempt_completion>' },
      ],
    },
  ];

  it('each XML tool call is a call, answered by the result text the next message opens with; the environment details stay user text', () => {
    const { scenario, report } = importTrace(JSON.stringify(history));
    expect(report.format).toBe('cline');
    expect(report.inferences).toBe(history.filter((m) => m.role === 'assistant').length);
    expect(assistants(scenario.traffic).map((t) => t.tool_calls?.map((c) => [c.name, c.arguments.path]))).toEqual([
      [['read_file', 'src/main.rs']],
      [['write_file', 'README.md']],
      [['attempt_completion', undefined]],
    ]);
    const results = scenario.traffic.filter((e) => e.type === 'tool_result');
    expect(results.map((r) => r.type === 'tool_result' && r.content)).toEqual([
      'fn main() {}',
      'The content was successfully saved to README.md.',
    ]);
    // Only the last call (attempt_completion) has no answer: the task ended there.
    expect(report.unansweredCalls).toEqual(['cline-3']);
  });
});
