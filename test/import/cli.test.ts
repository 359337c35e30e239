// `lev import` as a user runs it: a real process on the fixture files.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importTrace } from '../../src/import/index.ts';

const LEV = resolve(import.meta.dirname, '../../bin/lev.mjs');
const FIXTURES = resolve(import.meta.dirname, 'fixtures');
const CLAUDE = join(FIXTURES, 'claude-code-session.jsonl');

function lev(...args: string[]) {
  const r = spawnSync(process.execPath, [LEV, 'import', ...args], { encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('lev import', () => {
  it('writes the scenario to stdout and the report to stderr', () => {
    const r = lev(CLAUDE);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(
      JSON.parse(JSON.stringify(importTrace(readFileSync(CLAUDE, 'utf8'), { name: 'claude-code-session' }).scenario)),
    );
    expect(r.stderr).toBe(
      [
        'imported a claude-code trace: 15 events (7 inferences, 7 tool results, 1 user messages); model claude-sonnet-4 (trace: claude-sonnet-4-5-20250929)',
        'task: the first user message (inputs.task)',
        "recorded usage: 7 of 7 inferences carry the provider's own token counts",
        'kept aside: 2 harness texts (system prompt, instructions) in inputs.harness_system_prompt, not replayed',
        'tools mapped: Read -> read_file, Grep -> grep, Bash -> shell, Edit -> edit_file',
        // The session's one thinking block is its response's reasoning, not skipped.
        'skipped (the scenario format cannot hold them yet): 2 sidechain message',
        '',
      ].join('\n'),
    );
  });

  it('-o writes a file, --agent takes an agent directory, --tool-map changes names, --json prints the report', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lev-import-'));
    mkdirSync(join(dir, 'agent'));
    writeFileSync(
      join(dir, 'agent', 'agent.leviath'),
      '[context.regions]\ntask = { kind = "pinned", seed = "task_input" }\n',
    );
    const out = join(dir, 'run.json');
    const r = lev(CLAUDE, '-o', out, '--agent', join(dir, 'agent'), '--tool-map', 'Task=delegate', '--json');
    expect(r.code).toBe(0);
    const { report, output } = JSON.parse(r.stdout);
    expect(output).toBe(out);
    expect(report.tools.find((t: { name: string }) => t.name === 'Task').mappedTo).toBe('delegate');
    const scenario = JSON.parse(readFileSync(out, 'utf8'));
    expect(scenario.agent).toEqual({
      'agent.leviath': '[context.regions]\ntask = { kind = "pinned", seed = "task_input" }\n',
    });
    const replay = spawnSync(process.execPath, [LEV, 'replay', out, '--json'], { encoding: 'utf8', timeout: 60_000 });
    expect(replay.status).toBe(0);
    expect(JSON.parse(replay.stdout).summary.inferences).toBe(7);
  });

  it('bad input exits 1 with the line and what was expected; --json gives a diagnostic', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lev-import-'));
    const broken = join(dir, 'broken.jsonl');
    const lines = readFileSync(CLAUDE, 'utf8').split('\n');
    lines[4] = '{"type":"assistant",';
    writeFileSync(broken, lines.join('\n'));
    const r = lev(broken);
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toMatch(
      /^.*broken\.jsonl: error \[trace-invalid\] line 5, \(top level\): not valid JSON at column 21 .*; expected one complete JSON object per line/,
    );
    const j = lev(broken, '--json');
    expect(JSON.parse(j.stdout).diagnostics[0]).toMatchObject({
      code: 'trace-invalid',
      severity: 'error',
      file: broken,
      line: 5,
      path: '',
    });
  });

  it('a file that is not valid UTF-8 imports with a warning naming the byte offset of the first bad sequence', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lev-import-'));
    const file = join(dir, 'latin1.jsonl');
    const text = readFileSync(CLAUDE);
    const at = text.indexOf('Plan approved');
    writeFileSync(file, Buffer.concat([text.subarray(0, at), Buffer.from([0xe9]), text.subarray(at)]));
    const r = lev(file, '-o', join(dir, 'run.json'));
    expect(r.code).toBe(0);
    expect(r.stderr.split('\n')[0]).toBe(
      `warning: not valid UTF-8 at byte ${at} (the first bad sequence, counted from 0): bad bytes were read as U+FFFD, so that text differs from the original; save the trace as UTF-8 to import it exactly`,
    );
    expect(JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')).traffic[6]).toEqual({
      type: 'user',
      content: '\uFFFDPlan approved. Go ahead and implement it.',
    });
  });

  // Five processes: on the shared 2-core machine each takes up to 6 s under load.
  it('usage errors exit 2', () => {
    expect(lev().code).toBe(2);
    expect(lev(CLAUDE, '--format', 'gemini').stderr).toBe(
      'lev: import: unknown --format "gemini"; use one of anthropic, openai-chat, openai-responses, claude-code, codex, claude-stream-json, claude-trace, swe-agent, mini-swe-agent, openhands, cline, gemini-cli\n',
    );
    expect(lev(CLAUDE, '--tool-map', 'Read').code).toBe(2);
    expect(lev(CLAUDE, '--agent', '/nonexistent/dir').stderr).toBe(
      'lev: import: --agent /nonexistent/dir: no such file or directory\n',
    );
    const help = lev('--help');
    expect([help.code, help.stdout.split('\n')[0]]).toEqual([
      0,
      'usage: lev import TRACE [--agent DIR|agent.leviath] [--format NAME] [--tool-map A=B,...] [-o scenario.json] [--json]',
    ]);
  }, 90_000);
});

describe('lev replay --as-recorded', () => {
  it('prints each inference with requestTokens, cache.cacheReadTokens and the recorded figures, and summary.recorded', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lev-as-recorded-'));
    const trace = join(FIXTURES, 'real', 'openhands-basic.json');
    const file = join(dir, 'run.json');
    writeFileSync(file, JSON.stringify(importTrace(readFileSync(trace)).scenario));
    const r = spawnSync(process.execPath, [LEV, 'replay', file, '--as-recorded', '--json'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as {
      steps: { request?: Record<string, unknown> & { cache: { cacheReadTokens: number } } }[];
      summary: { recorded: Record<string, unknown> };
    };
    // The provider's figures, read from the trace itself (LiteLLM's usage of each model response).
    const usage = (
      JSON.parse(readFileSync(trace, 'utf8')) as {
        action?: string;
        tool_call_metadata?: { model_response: { id: string; usage: Record<string, number> } };
      }[]
    )
      .filter((e) => e.action !== undefined && e.tool_call_metadata)
      .map((e) => e.tool_call_metadata!.model_response.usage);
    const requests = out.steps.flatMap((s) => (s.request ? [s.request] : []));
    expect(requests.map((q) => q.recorded)).toEqual(
      usage.map((u) => ({
        promptTokens: u.prompt_tokens,
        cacheReadTokens: u.cache_read_input_tokens,
        cacheWriteTokens: u.cache_creation_input_tokens,
        outputTokens: u.completion_tokens,
      })),
    );
    for (const q of requests) {
      expect(typeof q.requestTokens).toBe('number');
      expect(typeof q.cache.cacheReadTokens).toBe('number');
    }
    expect(out.summary.recorded).toMatchObject({
      calls: usage.length,
      compared: usage.length,
      calibration: { calls: [], factorSource: 'none' },
    });
    expect(typeof out.summary.recorded.medianError).toBe('number');
    expect(typeof out.summary.recorded.p90Error).toBe('number');
  });

  it('says before how many calls the cache expired (the excerpt whose file shows two pauses past 5 minutes)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lev-as-recorded-'));
    const file = join(dir, 'run.json');
    writeFileSync(
      file,
      JSON.stringify(
        importTrace(readFileSync(join(FIXTURES, 'real', 'claude-code-2.0.72-cache-expiry.jsonl'))).scenario,
      ),
    );
    const r = spawnSync(process.execPath, [LEV, 'replay', file, '--as-recorded'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('the cache expired before 2 calls (longer than its lifetime since the call before)');
    // One calibration call (10% of 10) fits no factor: the counts stay approximate, on Claude's prior, and say so.
    expect(r.stdout).toContain("approximate counts calibrated to the provider's");
    expect(r.stdout).toContain('provider tokens per counted token (the Claude prior: the first calls cannot fit one)');
  });
});
