// `lev replay` and `lev test` as a user runs them: real processes, real files, exit codes.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'lev-runtime-'));

function file(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

function lev(...args: string[]) {
  const r = spawnSync(process.execPath, ['bin/lev.mjs', ...args], { encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const SCENARIO = {
  version: 1,
  name: 'cli',
  model: { id: 'gpt-4o' },
  agent: {
    'agent.leviath':
      '[context.regions]\ntask = { kind = "pinned" }\ncodebase = { kind = "compacting", max_tokens = 400 }\n[stages.s.tool_routing]\ndefault_region = "codebase"\n',
  },
  inputs: { task: 'Fix the failing test' },
  traffic: [
    { type: 'user', content: 'hi' },
    {
      type: 'assistant',
      content: 'reading',
      tool_calls: [{ id: 'c1', name: 'read_file', arguments: { path: 'src/a.rs' } }],
    },
    { type: 'tool_result', tool_call_id: 'c1', tool_name: 'read_file', size_tokens: 300 },
    {
      type: 'assistant',
      content: 'again',
      tool_calls: [{ id: 'c2', name: 'read_file', arguments: { path: 'src/b.rs' } }],
    },
    { type: 'tool_result', tool_call_id: 'c2', tool_name: 'read_file', size_tokens: 300 },
    { type: 'assistant', content: 'done' },
  ],
};

describe('lev replay', () => {
  const path = file('ok.json', SCENARIO);

  it('says the blueprint warnings lev validate says of the same file, and still runs', () => {
    const warned = file('warned.json', {
      ...SCENARIO,
      agent: {
        'agent.leviath':
          '[context.regions]\ntask = { kind = "pinned" }\nnotes = { kind = "temporary", budget = "5%", min_tokens = 300000 }\n',
      },
    });
    const r = lev('replay', warned);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('agent.leviath:3:');
    expect(r.stderr).toContain(
      ': warning [min-tokens-over-window] `min_tokens` (300,000) is above the whole context window of gpt-4o (128,000 tokens)',
    );
    expect(lev('validate', warned).stdout).toContain(
      'warning min-tokens-over-window: `min_tokens` (300,000) is above the whole context window of gpt-4o',
    );
    expect(r.stdout).toMatch(/^cli on gpt-4o/);
  });

  it('prints the timeline as JSON in the documented shape', () => {
    const r = lev('replay', path, '--json');
    expect(r.code).toBe(0);
    const t = JSON.parse(r.stdout);
    expect(t.steps).toHaveLength(6);
    expect(t.steps[0]).toMatchObject({ index: 0, event: { type: 'user', content: 'hi' }, stage: 's', changes: [] });
    expect(t.steps[0].request).toBeUndefined();
    expect(t.steps[1].request).toMatchObject({ inference: 0, prefixTokens: 0 });
    expect(t.steps[2].regions.codebase).toEqual({ tokens: 300, budget: 400, entries: 1, visible: true });
    expect(t.steps[4].changes).toEqual([
      {
        type: 'compact',
        region: 'codebase',
        tokens: expect.any(Number),
        entries: ['src/a.rs', 'src/b.rs'],
        reason: 'over budget 400',
        toolResults: ['c1', 'c2'],
      },
    ]);
    expect(t.steps[2].result).toEqual({ ok: true, message: '[routed to codebase: 300 tokens]' });
    expect(t.summary).toMatchObject({ steps: 6, inferences: 3, finalStage: 's' });
  });

  it('prints a readable table', () => {
    const r = lev('replay', path);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('cli on gpt-4o (128,000-token window)');
    expect(r.stdout).toMatch(/step\s+event\s+stage\s+request\s+prefix\s+baseline\s+task \(regions\/flat\)\s+changes/);
    expect(r.stdout).toMatch(/4\s+tool_result read_file\s+s\s+compact codebase \d+t \(2\)/);
    expect(r.stdout).toContain('6 steps, 3 inferences');
  });

  it('marks a folded file the run names again, on its change and in the summary, as JSON and as text', () => {
    // codebase folds src/a.rs and src/b.rs at step 4; the last reply names src/a.rs again.
    const again = file('again.json', {
      ...SCENARIO,
      traffic: [...SCENARIO.traffic.slice(0, 5), { type: 'assistant', content: 'Back to src/a.rs.' }],
    });
    const t = JSON.parse(lev('replay', again, '--json').stdout);
    expect(t.steps[4].changes[0]).toMatchObject({ type: 'compact', entries: ['src/a.rs', 'src/b.rs'] });
    expect(t.summary.readAgain).toEqual({
      count: 1,
      items: [
        {
          key: 'src/a.rs',
          lostAt: 4,
          namedAt: 5,
          change: 'compact',
          region: 'codebase',
          losses: [{ step: 4, change: 0 }],
        },
      ],
    });
    const text = lev('replay', again).stdout;
    expect(text).toMatch(/4\s+tool_result read_file\s+s\s+compact codebase \d+t \(2\) \[1 read again later\]/);
    expect(text).toContain('read again later: 1: src/a.rs (compact in codebase at step 4, named at step 5)');
    // The verdict's words (issue 29.1): the two read_file results c1 and c2 were folded, and src/a.rs is named again.
    expect(text).toContain("let go by the blueprint's rules: 2 tool results evicted (1 of them read again later)");
    expect(lev('replay', path).stdout).toContain('read again later: none');
  });

  it('names the event index and field of a bad scenario, exit 1', () => {
    const bad = file('bad.json', {
      ...SCENARIO,
      traffic: [SCENARIO.traffic[0], { type: 'tool_result', tool_name: 'grep', content: 'x' }, { type: 'teleport' }],
    });
    const r = lev('replay', bad, '--json');
    expect(r.code).toBe(1);
    const messages = JSON.parse(r.stdout).diagnostics.map((d: { message: string }) => d.message);
    expect(messages).toContain('traffic[1].tool_call_id: Required');
    expect(messages.some((m: string) => m.startsWith('traffic[2].type: unknown type; expected one of "user"'))).toBe(
      true,
    );
    const human = lev('replay', bad);
    expect(human.code).toBe(1);
    expect(human.stderr).toContain('traffic[1].tool_call_id: Required');
  });

  it('reports blueprint errors as diagnostics with no steps, exit 1', () => {
    const broken = file('broken.json', {
      ...SCENARIO,
      agent: { 'agent.leviath': '[context.regions]\nx = { kind = "nonsense" }' },
    });
    const r = lev('replay', broken, '--json');
    expect(r.code).toBe(1);
    const t = JSON.parse(r.stdout);
    expect(t.steps).toEqual([]);
    expect(t.diagnostics.map((d: { code: string }) => d.code)).toContain('unknown-region-kind');
  });

  it('exits 2 on bad usage', () => {
    expect(lev('replay').code).toBe(2);
    expect(lev('replay', join(dir, 'missing.json')).code).toBe(2);
    expect(lev('replay', path, '--frobnicate').code).toBe(2);
  });
});

describe('lev test', () => {
  const path = file('ok2.json', SCENARIO);

  it('prints the request at inference N as JSON', () => {
    const r = lev('test', path, '--step', '1', '--json');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.step).toBe(3);
    expect(out.system.map((b: { region: string }) => b.region)).toEqual(['task', 'codebase']);
    expect(out.system[0]).toEqual({
      region: 'task',
      text: '[task]:\nFix the failing test',
      tokens: 7,
      cache: 'always',
    });
    expect(out.system[1].tokens).toBe(304);
    expect(out.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(out.messages[2]).toMatchObject({
      role: 'tool',
      tool_call_id: 'c1',
      content: '[routed to codebase: 300 tokens]',
    });
    expect(out.regions.codebase).toEqual({ tokens: 300, budget: 400, entries: 1, visible: true });
    expect(out.regions.conversation.entries).toBe(2);
  });

  it('breaks the window down, through the blueprint and as one flat list, as JSON and as a table', () => {
    const out = JSON.parse(lev('test', path, '--step', '1', '--json').stdout);
    // task and codebase are the request's system blocks, then the conversation's and tool results' messages.
    const regions = out.breakdown.blueprint.rows.filter((r: { kind: string }) => r.kind === 'region');
    expect(regions.map((r: { name: string; budget: number }) => [r.name, r.budget])).toEqual([
      ['task', 5000],
      ['codebase', 400],
      ['conversation', 38_400],
      ['tool_results', 38_400],
      ['final_output', 5000],
    ]);
    expect(out.breakdown.blueprint.usedTokens).toBe(out.tokens);
    const flat = out.breakdown.flatList.rows;
    expect(flat[0]).toMatchObject({ name: 'flat message list', kind: 'messages' });
    expect(flat.reduce((s: number, r: { tokens: number }) => s + r.tokens, 0)).toBe(128_000);
    const text = lev('test', path, '--step', '1').stdout;
    expect(text).toContain('what fills the 128,000-token window, through the blueprint:');
    expect(text).toMatch(/codebase \(compacting\)\s+304\s+0\.24%\s+400/);
    expect(text).toMatch(/reply headroom\s+40,800\s+31\.9%/);
    expect(text).toContain('harness overhead (its system prompt and tool definitions): not known for this scenario');
  });

  it('defaults to inference 0 and prints it readably', () => {
    const r = lev('test', path);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('inference 0 (step 1), stage s: ');
    expect(r.stdout).toContain('--- system: task (7 tokens, cache always) ---');
  });

  it('refuses an inference the scenario does not have, exit 2', () => {
    const r = lev('test', path, '--step', '9');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no inference 9: the scenario has 3 inferences (numbered from 0)');
    expect(lev('test', path, '--step', 'x').code).toBe(2);
  });
});
