import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ScenarioSchema } from '../../src/engine/scenario.ts';
import { findExample } from '../../src/scenarios/examples.ts';
import { encodeScenario } from '../../src/share/index.ts';

function lev(args: string[], input?: string) {
  const result = spawnSync(process.execPath, ['bin/lev.mjs', 'share', ...args], { encoding: 'utf8', input });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const dir = mkdtempSync(join(tmpdir(), 'lev-share-'));
const scenarioFile = join(dir, 'scenario.json');
writeFileSync(scenarioFile, JSON.stringify({ version: 1, model: { id: 'gpt-4o' }, agent: { 'agent.leviath': '[context.regions]\n' } }));
const brokenFile = join(dir, 'broken.json');
writeFileSync(brokenFile, JSON.stringify({ version: 1, model: { id: 'gpt-4o' }, agent: {}, traffic: [{ type: 'user' }] }));

describe('lev share', () => {
  it('encode prints the same fragment the page makes, and decode reverses it', () => {
    const encoded = lev(['encode', 'examples/coding-agent.json']);
    expect(encoded).toEqual({ code: 0, stdout: `${encodeScenario(findExample('coding-agent')!.scenario)}\n`, stderr: '' });
    const decoded = lev(['decode', `https://leviath.dev/playground/${encoded.stdout.trim()}`]);
    expect(decoded.code).toBe(0);
    expect(JSON.parse(decoded.stdout)).toEqual(ScenarioSchema.parse(findExample('coding-agent')!.scenario));
  });

  it('encode --json --url gives the whole link and its length; stdin works as "-"', () => {
    const result = lev(['encode', '-', '--json', '--url', 'https://leviath.dev/#old'], JSON.stringify({ version: 1, model: { id: 'gpt-4o' }, agent: { 'agent.leviath': '' } }));
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
    expect(result).toEqual({ code: 1, stdout: '', stderr: expect.stringMatching(/^lev: share decode: This link is corrupt: character "!" at position 1/) });
  });

  it('an invalid scenario file is exit 1, naming each field', () => {
    const result = lev(['encode', brokenFile]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('agent: agent must contain');
    expect(result.stderr).toContain('traffic[0].content:');
  });

  // Five processes: on the shared 2-core machine each takes up to 6 s under load.
  it('bad usage is exit 2 with the usage line', () => {
    for (const args of [[], ['frobnicate'], ['encode'], ['encode', scenarioFile, '--bogus'], ['encode', join(dir, 'missing.json')]]) {
      const result = lev(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/^lev: share/);
    }
  }, 90_000);
});
