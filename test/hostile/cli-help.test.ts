// Every `lev` subcommand answers `--help` with its own usage and exit 0; a command named like an
// Object member is an unknown command, not a crash.
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { captureConsole } from '../capture-console.ts';
import { USAGE as VALIDATE } from '../../src/cli/validate.ts';
import { USAGE as TEST } from '../../src/cli/test.ts';
import { USAGE as REPLAY } from '../../src/cli/replay.ts';
import { USAGE as RHAI } from '../../src/cli/rhai.ts';
import { USAGE as SHARE } from '../../src/cli/share.ts';
import { USAGE as IMPORT } from '../../src/cli/import.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('lev <command> --help', () => {
  it.each([
    [['validate', '--help'], VALIDATE],
    [['test', '-h'], TEST],
    [['replay', '--help'], REPLAY],
    [['rhai', '--help'], RHAI],
    [['share', '--help'], SHARE],
    [['share', 'encode', '--help'], SHARE],
    [['share', 'decode', '-h'], SHARE],
    [['import', '--help'], IMPORT],
    [['import', 'trace.json', '-o', 'out.json', '--help'], IMPORT],
    [['replay', 'missing.json', '--json', '--help'], REPLAY],
  ])("%j prints that command's usage and exits 0", async (argv, usage) => {
    const { out, err } = captureConsole();
    expect(await main(argv)).toBe(0);
    expect(out).toEqual([usage]);
    expect(err).toEqual([]);
    expect(usage).toMatch(/^usage: lev /);
  });

  it('each usage names its own command', () => {
    for (const [name, usage] of [
      ['validate', VALIDATE],
      ['test', TEST],
      ['replay', REPLAY],
      ['rhai', RHAI],
      ['share', SHARE],
      ['import', IMPORT],
    ] as const) {
      expect(usage.startsWith(`usage: lev ${name} `)).toBe(true);
    }
  });

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'])(
    'lev %s is an unknown command (exit 2)',
    async (name) => {
      const { out, err } = captureConsole();
      expect(await main([name])).toBe(2);
      expect(out).toEqual([]);
      expect(err[0]).toMatch(new RegExp(`^lev: unknown command "${name}"\\n`));
    },
  );

  it('the real binary exits 0 on `lev replay --help`', () => {
    const r = spawnSync(process.execPath, ['bin/lev.mjs', 'replay', '--help'], { encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`${REPLAY}\n`);
  }, 60_000);
});
