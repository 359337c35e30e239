import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ScenarioSchema } from '../../src/engine/index.ts';
import { findExample } from '../../src/scenarios/examples.ts';
import { encodeScenario } from '../../src/share/index.ts';

function lev(args: string[], input?: string) {
  const result = spawnSync(process.execPath, ['bin/lev.mjs', 'share', ...args], { encoding: 'utf8', input });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const dir = mkdtempSync(join(tmpdir(), 'lev-share-'));
const scenarioFile = join(dir, 'scenario.json');
writeFileSync(
  scenarioFile,
  JSON.stringify({ version: 1, model: { id: 'gpt-4o' }, agent: { 'agent.leviath': '[context.regions]\n' } }),
);
const brokenFile = join(dir, 'broken.json');
writeFileSync(
  brokenFile,
  JSON.stringify({ version: 1, model: { id: 'gpt-4o' }, agent: {}, traffic: [{ type: 'user' }] }),
);

describe('lev share', () => {
  it('encode prints the same fragment the page makes, and decode reverses it', () => {
    const encoded = lev(['encode', 'examples/coding-agent.json']);
    expect(encoded).toEqual({
      code: 0,
      stdout: `${encodeScenario(findExample('coding-agent')!.scenario)}\n`,
      stderr: '',
    });
    const decoded = lev(['decode', `https://leviath.dev/playground/${encoded.stdout.trim()}`]);
    expect(decoded.code).toBe(0);
    expect(JSON.parse(decoded.stdout)).toEqual(ScenarioSchema.parse(findExample('coding-agent')!.scenario));
  });

  it('encode --json --url gives the whole link and its length; stdin works as "-"', () => {
    const result = lev(
      ['encode', '-', '--json', '--url', 'https://leviath.dev/#old'],
      JSON.stringify({ version: 1, model: { id: 'gpt-4o' }, agent: { 'agent.leviath': '' } }),
    );
    expect(result.code).toBe(0);
    const out = JSON.parse(result.stdout);
    expect(out.ok).toBe(true);
    expect(out.link).toMatch(/^https:\/\/leviath\.dev\/#s=1\./);
    expect(out.characters).toBe(out.link.length);
  });

  it('decode --json reports a bad link as data, exit 1', () => {
    const result = lev(['decode', '#s=9.abcd', '--json']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({ ok: false, error: expect.stringContaining('(share format 9)') });
  });

  it('a corrupt link is exit 1 with the reason on stderr', () => {
    const result = lev(['decode', '#s=1.!!']);
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: expect.stringMatching(/^lev: share decode: This link is corrupt: character "!" at position 1/),
    });
  });

  it('an invalid scenario file is exit 1, naming each field', () => {
    const result = lev(['encode', brokenFile]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('agent: agent must contain');
    expect(result.stderr).toContain('traffic[0].content:');
  });

  // Five processes: on the shared 2-core machine each takes up to 6 s under load.
  it('bad usage is exit 2 with the usage line', () => {
    for (const args of [
      [],
      ['frobnicate'],
      ['encode'],
      ['encode', scenarioFile, '--bogus'],
      ['encode', join(dir, 'missing.json')],
    ]) {
      const result = lev(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/^lev: share/);
    }
  }, 90_000);

  it('encode --step --view --zoom --region makes the link the page writes for that view: the scenario, then its view parts', () => {
    const result = lev([
      'encode',
      'examples/flat-vs-regions.json',
      '--step',
      '254',
      '--view',
      'flat',
      '--zoom',
      'fit',
      '--region',
      'task',
    ]);
    expect(result).toEqual({
      code: 0,
      stdout: `${encodeScenario(findExample('flat-vs-regions')!.scenario)}&step=254&view=flat&zoom=fit&region=task\n`,
      stderr: '',
    });
    const url = lev(['encode', 'examples/flat-vs-regions.json', '--url', 'https://leviath.dev/p/', '--view=cache']);
    expect(url.stdout).toBe(
      `https://leviath.dev/p/${encodeScenario(findExample('flat-vs-regions')!.scenario)}&view=cache\n`,
    );
  });

  it('a bad --step, --view or --zoom is a usage error naming the flag and the values it takes', () => {
    const cases: [string[], string][] = [
      [['--step', '0'], 'share encode: --step 0: expected a step number from 1 (the page numbers steps from 1)'],
      [['--step', 'two'], 'share encode: --step two: expected a step number from 1 (the page numbers steps from 1)'],
      [['--view', 'chart'], 'share encode: --view chart: expected one of window, regions, cache, flat'],
      [['--zoom', 'max'], 'share encode: --zoom max: expected one of auto, fit, window'],
      [['--view'], 'share encode: --view needs a value'],
    ];
    for (const [flags, message] of cases) {
      const result = lev(['encode', scenarioFile, ...flags]);
      expect(result.code, flags.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr.split('\n')[0]).toBe(`lev: ${message}`);
      expect(result.stderr).toContain('usage: lev share encode');
    }
  }, 120_000);
});
