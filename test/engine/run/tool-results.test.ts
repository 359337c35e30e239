// run/tool-results.ts: where a tool result lands and how much of it, what the call's result says,
// and what the step records (truncations, stubs, file-tracking records, warnings).
import { describe, expect, it } from 'vitest';
import type { TrafficEvent } from '../../../src/engine/scenario.ts';
import { toolResult } from '../../../src/engine/run/tool-results.ts';
import { infer } from '../../../src/engine/run/turns.ts';
import type { Run } from '../../../src/engine/run/run.ts';
import { held, spawn } from '../../builders.ts';

const ROUTED = `[context.regions]
codebase = { kind = "hashmap", max_tokens = 50000 }
scratch = { kind = "temporary", max_tokens = 500 }
files = { kind = "hashmap" }
rules = { kind = "pinned" }
[context.file_tracking]
region = "files"

[stages.work.tool_routing]
default_region = "scratch"
max_result_tokens = 100
[stages.work.tool_routing.overrides]
read_file = { region = "codebase", max_result_tokens = 2000 }
write_file = "scratch"
grep = "tool_results"
lint = "stage_instructions"
`;

type ToolResult = Extract<TrafficEvent, { type: 'tool_result' }>;
const sized = (id: string, name: string, size: number): ToolResult => ({
  type: 'tool_result',
  tool_call_id: id,
  tool_name: name,
  size_tokens: size,
});

/** The model calls `name` (so the result finds its call's arguments), then its result arrives. */
function callThenResult(run: Run, result: ToolResult, args: Record<string, unknown> = {}) {
  infer(
    run,
    {
      type: 'assistant',
      content: '',
      tool_calls: [{ id: result.tool_call_id, name: result.tool_name, arguments: args }],
    },
    0,
  );
  run.changes = [];
  return toolResult(run, result);
}

describe('routing a tool result', () => {
  it('into the message stream: the result says its size, and the flat-list baseline counts it', () => {
    const run = spawn(ROUTED);
    const baseline = run.baseline.tokens;
    expect(toolResult(run, sized('c1', 'grep', 80))).toEqual({ ok: true, message: '80 tokens to tool_results' });
    expect(run.regions.get('tool_results')!.entries.map((e) => [e.kind, e.toolCallId, e.tokens])).toEqual([
      ['tool_result', 'c1', 80],
    ]);
    expect(run.baseline.tokens).toBe(baseline + 80);
    // Generated, so its first line is known without reading the text (labels and summaries use it).
    const [entry] = run.regions.get('tool_results')!.entries;
    expect(entry!.head).toBe('grep output');
    expect(entry!.content.split('\n')[0]).toBe(entry!.head);
  });

  it('away from the stream: the content goes to its region and a stub keeps the call paired', () => {
    const run = spawn(ROUTED);
    expect(toolResult(run, sized('c2', 'list_dir', 50))).toEqual({
      ok: true,
      message: '[routed to scratch: 50 tokens]',
    });
    expect(run.regions.get('scratch')!.entries.map((e) => [e.kind, e.toolCallId, e.tokens])).toEqual([
      ['tool_result', 'c2', 50],
    ]);
    expect(run.regions.get('tool_results')!.entries.map((e) => [e.kind, e.toolCallId, e.content])).toEqual([
      ['stub', 'c2', '[routed to scratch: 50 tokens]'],
    ]);
  });

  // The change counts what the marker tells the model: 220 of the 300 tokens were left out.
  it('a result over its ceiling is cut to it, marked, and reported as a truncate change', () => {
    const run = spawn(ROUTED);
    expect(toolResult(run, sized('c3', 'list_dir', 300))).toEqual({
      ok: true,
      message: '[routed to scratch: 100 tokens]',
    });
    const [entry] = run.regions.get('scratch')!.entries;
    expect(entry!.tokens).toBe(100);
    expect(entry!.content.endsWith('\n[truncated: 220 of 300 tokens cut by max_result_tokens = 100]')).toBe(true);
    expect(entry!.head).toBeUndefined(); // the content is no longer the generated text
    expect(run.changes).toEqual([
      { type: 'truncate', region: 'scratch', tokens: 220, entries: ['c3'], reason: 'max_result_tokens 100' },
    ]);
  });

  it('a file read lands under its path, and file tracking records the read', () => {
    const run = spawn(ROUTED);
    expect(callThenResult(run, sized('c4', 'read_file', 1500), { path: 'src/lib.rs' })).toEqual({
      ok: true,
      message: '[routed to codebase: 1,500 tokens]',
    });
    expect(held(run, 'codebase')).toEqual([['src/lib.rs', 1500]]);
    expect(run.regions.get('files')!.entries.map((e) => [e.key, e.content])).toEqual([
      ['src/lib.rs', 'src/lib.rs: read (1,500 tokens)'],
    ]);
  });

  it('file tracking records a failed write as failed', () => {
    const run = spawn(ROUTED);
    callThenResult(run, { ...sized('c5', 'write_file', 5), is_error: true }, { path: 'src/main.rs' });
    expect(run.regions.get('files')!.entries.map((e) => e.content)).toEqual(['src/main.rs: written failed']);
  });

  it('a target the stage does not carry falls back to tool_results, with a warning', () => {
    const run = spawn(ROUTED);
    expect(toolResult(run, sized('c6', 'lint', 30))).toEqual({ ok: true, message: '30 tokens to tool_results' });
    expect(run.warnings).toEqual([
      'lint result routed to stage_instructions, which stage work does not carry; it went to tool_results',
    ]);
  });
});

describe('a result routed into a hashmap with no path to key it by', () => {
  const KEYED = `[context.regions]
codebase = { kind = "hashmap", max_tokens = 50000 }
[stages.main.tool_routing]
default_region = "codebase"
`;
  // The shapes of real calls: Codex's argv with a workdir (test/import/fixtures/real), Claude Code's Bash string.
  const codexSed = { command: ['bash', '-lc', "sed -n '1,200p' src/lib.rs"], workdir: '/repo' };

  it('is keyed by its tool and what it ran, and the same call made again replaces the older output', () => {
    const run = spawn(KEYED);
    callThenResult(run, sized('c1', 'shell', 300), codexSed);
    callThenResult(run, sized('c2', 'Bash', 40), { command: 'cat README.md' });
    expect(held(run, 'codebase')).toEqual([
      [`shell sed -n '1,200p' src/lib.rs {"workdir":"/repo"}`, 300],
      ['Bash cat README.md', 40],
    ]);
    callThenResult(run, sized('c3', 'shell', 320), codexSed);
    expect(held(run, 'codebase')).toEqual([
      ['Bash cat README.md', 40],
      [`shell sed -n '1,200p' src/lib.rs {"workdir":"/repo"}`, 320],
    ]);
    expect(run.changes.map((c) => c.type)).toEqual(['replace']);
  });

  it('another range of the same file, or the same command elsewhere, is another entry', () => {
    const run = spawn(KEYED);
    callThenResult(run, sized('c1', 'shell', 300), codexSed);
    callThenResult(run, sized('c2', 'shell', 300), {
      ...codexSed,
      command: ['bash', '-lc', "sed -n '200,400p' src/lib.rs"],
    });
    callThenResult(run, sized('c3', 'shell', 300), { ...codexSed, workdir: '/other' });
    expect(run.regions.get('codebase')!.entries).toHaveLength(3);
  });

  it('a long call (a patch, a script) is keyed by its first line and a hash of all of it', () => {
    const run = spawn(KEYED);
    const patch = (body: string) => ({
      command: ['apply_patch', `*** Begin Patch\n*** Update File: src/lib.rs\n${body}`],
    });
    callThenResult(run, sized('c1', 'shell', 10), patch('-a\n+b'));
    callThenResult(run, sized('c2', 'shell', 10), patch('-b\n+c'));
    const keys = run.regions.get('codebase')!.entries.map((e) => e.key!);
    expect(keys).toHaveLength(2);
    for (const key of keys) expect(key).toMatch(/^shell apply_patch \*\*\* Begin Patch … #[0-9a-f]{8}$/);
    expect(keys[0]).not.toBe(keys[1]);
    callThenResult(run, sized('c3', 'shell', 12), patch('-a\n+b'));
    expect(run.regions.get('codebase')!.entries.map((e) => e.key)).toEqual([keys[1], keys[0]]);
  });

  it('a call with no arguments is keyed by its tool; a result with no call by its call id', () => {
    const run = spawn(KEYED);
    callThenResult(run, sized('c1', 'git_status', 30));
    toolResult(run, sized('orphan', 'grep', 20));
    expect(run.regions.get('codebase')!.entries.map((e) => e.key)).toEqual(['git_status', 'grep:orphan']);
  });
});

describe("read_file's byte cap", () => {
  it('cuts a file over 100,000 bytes on a line break, says so in the result, and records the cut', () => {
    const run = spawn('[context.regions]\nnotes = {}\n');
    const line = 'const answer = 42;\n';
    const file = line.repeat(Math.ceil(150_000 / line.length));
    const result = toolResult(run, { type: 'tool_result', tool_call_id: 'c7', tool_name: 'read_file', content: file });
    const notice = `[read_file: showing the first 99,997 of ${file.length.toLocaleString('en-US')} bytes; the file is longer than read_file's 100,000-byte cap]`;
    expect(run.changes).toEqual([
      { type: 'truncate', region: '(read_file)', tokens: 0, entries: ['c7'], reason: notice },
    ]);
    const [entry] = run.regions.get('tool_results')!.entries;
    expect(entry!.content).toBe(`${file.slice(0, 99_997)}\n${notice}`);
    expect(result).toEqual({ ok: true, message: `${entry!.tokens.toLocaleString('en-US')} tokens to tool_results` });
  });
});
