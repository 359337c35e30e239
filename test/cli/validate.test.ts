// `lev validate` as a user runs it: a real process on real files.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const LEV = resolve(import.meta.dirname, '../../bin/lev.mjs');
let root: string;

function lev(args: string[], cwd = root) {
  const result = spawnSync(process.execPath, [LEV, 'validate', ...args], { cwd, encoding: 'utf8', timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function write(path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'lev-validate-'));
  write('README.md', '# project\n');
  write(
    'clean/agent.leviath',
    '[context.regions]\ntask = { kind = "pinned", budget = "12%" }\nreadme = { seed = { files = ["README.md"] } }\n',
  );
  write('broken/agent.leviath', '[context.regions]\ntask = { kind = "pinned" }\nconv = { kind = "sliding-window" }\n');
  write('broken/context_hooks/unused.rhai', '42');
  write('warn/agent.leviath', '[context.regions]\nnotes = { kind = "pinned" }\n');
  write(
    'custom/agent.leviath',
    '[context.regions]\ntask = {}\nbrain = { kind = "custom", script = "hooks/brain.rhai" }\n',
  );
  write('custom/hooks/brain.rhai', 'fn render(ctx) { "" }\n');
  write('syntax/agent.leviath', '[context.regions\n');
  write('renamed/staging.leviath', '[context.regions]\ntask = { kind = "pinnd" }\n');
  write('empty/.keep', '');
  write(
    'scenario.json',
    JSON.stringify(
      {
        version: 1,
        model: { id: 'gpt-4o' },
        agent: {
          'agent.leviath':
            '[context.regions]\ntask = {}\nr = { seed = { files = ["missing.md"] } }\nx = { kind = "nope" }\n',
        },
        workdir: { 'present.md': 'hi' },
      },
      null,
      2,
    ),
  );
  write(
    'bad-scenario.json',
    '{\n  "version": 1,\n  "model": { "id": "gpt-4o" },\n  "agent": { "agent.leviath": 5 }\n}\n',
  );
  write('not-json.json', '{ "version": 1,,\n}');
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('lev validate', () => {
  it('a clean agent directory exits 0, resolving seed files against the current directory', () => {
    const out = lev(['clean']);
    expect(out.stdout).toBe('ok: no problems found\n');
    expect(out.code).toBe(0);
  });

  it('errors exit 1 with file:line:column, severity, code and message', () => {
    const out = lev(['broken']);
    expect(out.code).toBe(1);
    expect(out.stdout.split('\n')[0]).toBe(
      `${join('broken', 'agent.leviath')}:3:17 error unknown-region-kind: Unknown region kind "sliding-window". Did you mean "sliding_window"? Use one of: temporary, pinned, sliding_window, compacting, compact_history, clearable, hashmap, checklist, custom (hash_map is an alias of hashmap).`,
    );
    expect(out.stdout).toContain('1 error, 0 warnings, 0 info');
  });

  it('a blueprint file under another name is reported under that name', () => {
    const out = lev([join('renamed', 'staging.leviath'), '--json']);
    expect(out.code).toBe(1);
    expect(JSON.parse(out.stdout).diagnostics[0]).toMatchObject({
      code: 'unknown-region-kind',
      file: 'staging.leviath',
      line: 2,
      column: 17,
    });
    expect(lev([join('renamed', 'staging.leviath')]).stdout.split('\n')[0]).toMatch(
      /^renamed\/staging\.leviath:2:17 error unknown-region-kind/,
    );
  });

  it('--json prints exactly {"diagnostics":[...]} with the DESIGN.md fields', () => {
    const out = lev(['broken', '--json']);
    expect(out.code).toBe(1);
    expect(JSON.parse(out.stdout)).toEqual({
      diagnostics: [
        {
          code: 'unknown-region-kind',
          severity: 'error',
          message: expect.stringContaining('sliding_window'),
          file: 'agent.leviath',
          line: 3,
          column: 17,
          path: 'context.regions.conv.kind',
        },
      ],
    });
  });

  it('warnings alone exit 0', () => {
    const out = lev(['warn', '--json']);
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout).diagnostics.map((d: { code: string }) => d.code)).toEqual(['task-not-seeded']);
  });

  it('an agent.leviath path reads its directory; scripts are compile-checked', () => {
    expect(lev([join('custom', 'agent.leviath')]).code).toBe(0);
    writeFileSync(join(root, 'custom/hooks/brain.rhai'), 'fn render(ctx) {\n  "unclosed\n}\n');
    const broken = lev([join('custom', 'agent.leviath'), '--json']);
    expect(broken.code).toBe(1);
    expect(JSON.parse(broken.stdout).diagnostics[0]).toMatchObject({
      code: 'custom-script-invalid',
      file: 'hooks/brain.rhai',
    });
    rmSync(join(root, 'custom/hooks/brain.rhai'));
    const out = lev([join('custom', 'agent.leviath'), '--json']);
    expect(out.code).toBe(1);
    expect(JSON.parse(out.stdout).diagnostics[0]).toMatchObject({ code: 'custom-script-missing', line: 3, column: 37 });
  });

  it('a TOML syntax error exits 1 with its position', () => {
    const out = lev(['syntax']);
    expect(out.code).toBe(1);
    expect(out.stdout).toMatch(/^syntax[/\\]agent\.leviath:1:17 error toml-syntax: /);
  });

  it('--workdir changes where seed paths are checked', () => {
    const out = lev(['clean', '--workdir', 'empty', '--json']);
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout).diagnostics).toEqual([
      expect.objectContaining({ code: 'seed-file-missing', line: 3, path: 'context.regions.readme.seed.files[0]' }),
    ]);
  });

  it('a scenario is validated, its blueprint against its own workdir', () => {
    const out = lev(['scenario.json', '--json']);
    expect(out.code).toBe(1);
    expect(
      JSON.parse(out.stdout).diagnostics.map((d: { code: string; line: number }) => `${d.code}@${d.line}`),
    ).toEqual(['seed-input-missing@2', 'seed-file-missing@3', 'unknown-region-kind@4']);
  });

  it('scenario schema errors carry the JSON path and position', () => {
    const out = lev(['bad-scenario.json', '--json']);
    expect(out.code).toBe(1);
    expect(JSON.parse(out.stdout).diagnostics).toEqual([
      {
        code: 'scenario-invalid',
        severity: 'error',
        message: expect.stringContaining('agent.agent.leviath'),
        file: 'bad-scenario.json',
        line: 4,
        column: 14,
        path: 'agent.agent.leviath',
      },
    ]);
  });

  it('invalid JSON is a json-syntax finding', () => {
    const out = lev(['not-json.json']);
    expect(out.code).toBe(1);
    expect(out.stdout).toMatch(/^not-json\.json:1:16 error json-syntax: /);
  });

  it('bad usage exits 2 with one clear line, never a stack trace', () => {
    for (const [args, message] of [
      [['nope'], 'lev: validate: nope: no such file or directory'],
      [
        ['empty'],
        'lev: validate: empty has no agent.leviath; pass an agent directory, an agent.leviath file or a scenario .json',
      ],
      [[], 'lev: validate: expected one PATH'],
      [['clean', '--jsno'], 'lev: validate: unknown option --jsno'],
    ] as const) {
      const out = lev([...args]);
      expect(out.code, args.join(' ')).toBe(2);
      expect(out.stderr.split('\n')[0]).toBe(message);
      expect(out.stderr).not.toContain('    at ');
    }
  });
});
