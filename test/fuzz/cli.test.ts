// `lev` on garbage: exit 1 (findings) or 2 (usage) with a message, never a stack trace. Spawning
// the CLI is slow (tsx), so a fixed handful of generated files stands in for many random ones.
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { brokenBlueprintArb, controlText, SEED } from './arbitraries.ts';

const dir = mkdtempSync(join(tmpdir(), 'lev-fuzz-'));
const [bytes] = fc.sample(fc.uint8Array({ minLength: 2_000, maxLength: 2_000 }), { numRuns: 1, seed: SEED });
const [broken] = fc.sample(brokenBlueprintArb, { numRuns: 1, seed: SEED + 3 });
const file = (name: string, content: string | Uint8Array) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};

const garbage = file('garbage.json', bytes!);
const truncated = file(
  'truncated.json',
  '{"version":1,"model":{"id":"gpt-4o"},"agent":{"agent.leviath":"[context.regions]\\ntask = { kin',
);
const wrongTypes = file(
  'wrong.json',
  JSON.stringify({ version: 1, model: { id: 7 }, agent: [], traffic: [{ type: 'tool_result', size_tokens: -1 }] }),
);

function lev(...args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile('node', ['bin/lev.mjs', ...args], { timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, out: `${stdout}${stderr}` });
    });
  });
}

const REFUSED = [1, 2];
/** A mutation can leave a blueprint valid (a key dropped, a comment changed): then exit 0 is right. */
const REFUSED_OR_OK = [0, 1, 2];
const CASES: [string, string[], number[]][] = [
  ['validate on random bytes as an agent file', ['validate', file('agent.leviath', bytes!)], REFUSED],
  ['validate on a mutated blueprint', ['validate', file('broken.leviath', broken!)], REFUSED_OR_OK],
  ['replay on random bytes as a scenario', ['replay', garbage], REFUSED],
  ['test on a truncated scenario', ['test', truncated], REFUSED],
  ['replay --json on wrong types', ['replay', '--json', wrongTypes], REFUSED],
  ['rhai on random bytes', ['rhai', file('garbage.rhai', bytes!)], REFUSED],
  [
    'share decode on a random fragment',
    ['share', 'decode', `#s=1.${Buffer.from(bytes!.slice(0, 60)).toString('base64url')}`],
    REFUSED,
  ],
];

describe('lev on garbage files', () => {
  it.each(CASES)(
    '%s: the expected exit, a message, no stack trace',
    async (_name, args, codes) => {
      const { code, out } = await lev(...args);
      expect(codes, out).toContain(code);
      expect(out.trim().length).toBeGreaterThan(10);
      // A stack frame names a source file of the CLI itself (a script's own position is fine).
      expect(out).not.toMatch(/\.(ts|js|mjs):\d+:\d+\)?$|node:internal/m);
      expect(out).not.toMatch(/internal error|TypeError|RangeError|ReferenceError/);
    },
    60_000,
  );

  it('replay and validate on names made of generated control sequences: nothing a terminal obeys reaches it', async () => {
    const [name, stage, tool] = fc.sample(controlText, { numRuns: 3, seed: SEED + 5 });
    // A TOML basic string: every control character escaped (smol-toml refuses raw C1 in strings too).
    const tomlKey = JSON.stringify(stage).replace(
      /[\u007f-\u009f]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
    const hostile = file(
      'hostile.json',
      JSON.stringify({
        version: 1,
        name,
        model: { id: 'gpt-4o' },
        agent: {
          'agent.leviath': `[context.regions]\nnotes = { kind = "sliding_window" }\n[stages.${tomlKey}]\nbogus = 1\n`,
        },
        traffic: [
          { type: 'assistant', content: name, tool_calls: [{ id: 'c1', name: tool }] },
          { type: 'tool_result', tool_call_id: 'c1', tool_name: tool, content: `${name}\n${stage}` },
        ],
      }),
    );
    for (const args of [
      ['replay', hostile],
      ['test', hostile],
      ['validate', hostile],
    ]) {
      const { code, out } = await lev(...args);
      expect(code, out).toBe(0);
      expect(out).not.toMatch(
        /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/,
      );
    }
  }, 120_000);

  it('replay on a directory is a usage error that says so (it read the directory as JSON)', async () => {
    expect(await lev('replay', dir)).toEqual({
      code: 2,
      out: `lev: replay: ${dir} is a directory; pass a scenario .json file\n`,
    });
  }, 60_000);
});
