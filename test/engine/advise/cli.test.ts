// `lev advise` as a user runs it: a real process on a real example file, its JSON in the documented
// shape (the same advice the engine gives), its text, and its usage errors.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ScenarioSchema } from '../../../src/engine/scenario.ts';
import { advise, replay } from '../../../src/engine/index.ts';
import { fmt } from '../../../src/engine/format.ts';
import { BUILT_IN_TRAFFIC } from '../../../src/scenarios/generators.ts';
import { RHAI } from '../../../src/engine/custom-script.ts';

const LEV = resolve(import.meta.dirname, '../../../bin/lev.mjs');
const EXAMPLE = resolve(import.meta.dirname, '../../../examples/imported-run.json');
const lev = (...args: string[]) =>
  spawnSync(process.execPath, [LEV, 'advise', ...args], { encoding: 'utf8', timeout: 120_000 });

describe('lev advise', () => {
  it('prints {asRecorded, front: [{toml, peakRequestTokens, inputCostUsd, readAgain, taskKept, changes}]} as the engine advises', () => {
    const r = lev(EXAMPLE, '--json', '--candidates', '40', '--seed', '3');
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out.asRecorded)).toEqual(expect.arrayContaining(['peakRequestTokens', 'inputCostUsd']));
    expect(out.front.length).toBeGreaterThan(0);
    for (const p of out.front) {
      expect(Object.keys(p)).toEqual(
        expect.arrayContaining(['toml', 'peakRequestTokens', 'inputCostUsd', 'readAgain', 'taskKept', 'changes']),
      );
      expect(typeof p.toml).toBe('string');
      expect(p.changes.every((c: unknown) => typeof c === 'string')).toBe(true);
    }
    const scenario = ScenarioSchema.parse(JSON.parse(readFileSync(EXAMPLE, 'utf8')));
    expect(out).toEqual(
      JSON.parse(JSON.stringify(advise(scenario, { ...BUILT_IN_TRAFFIC, ...RHAI, candidates: 40, seed: 3 }))),
    );
    expect(out.prices).toMatchObject({ model: 'claude-sonnet-4', provider: 'anthropic', checked: '2026-12-02' });
  }, 120_000);

  it("prints the starting figures, the price table's date, and each proposal with its sentences and edits", () => {
    const r = lev(EXAMPLE, '--candidates', '40');
    expect(r.status).toBe(0);
    // The starting figures are the example's own replay's (it records no run as it was sent).
    const start = replay(ScenarioSchema.parse(JSON.parse(readFileSync(EXAMPLE, 'utf8'))), {
      ...BUILT_IN_TRAFFIC,
      ...RHAI,
    }).summary;
    const head = `imported-run: compared with the starting layout (this scenario records no run as it was sent): peak request ${fmt(start.peakRequestTokens)} tokens, $`;
    expect(r.stdout.startsWith(head)).toBe(true);
    expect(r.stdout.slice(head.length)).toMatch(
      new RegExp(
        `^\\d+\\.\\d{4} of input, ${start.readAgain.count} read again later, task ${start.taskLostAt === null ? 'kept' : 'LOST'}`,
      ),
    );
    expect(r.stdout).toContain('checked 2026-12-02');
    expect(r.stdout).toMatch(/\n1\. peak request [\d,]+ tokens \(\d\.\d\dx\)/);
    expect(r.stdout).toMatch(/\n {3}- .+; without it, .+\./);
    expect(r.stdout).toMatch(/\n {5}context\.regions\.\S+ = /);
  }, 120_000);

  it('marks each proposal that meets the target under its figures, and lists those first', () => {
    const r = lev(EXAMPLE);
    expect(r.status).toBe(0);
    const advice = advise(ScenarioSchema.parse(JSON.parse(readFileSync(EXAMPLE, 'utf8'))), {
      ...BUILT_IN_TRAFFIC,
      ...RHAI,
    });
    const marked = advice.front.filter((p) => p.meetsTarget).length;
    expect(marked).toBeGreaterThan(0);
    expect(advice.front.slice(0, marked).every((p) => p.meetsTarget)).toBe(true);
    expect(r.stdout.match(/\n {3}meets the target: at most 0\.6x the peak, no more input cost/g)).toHaveLength(marked);
    expect(r.stdout).toMatch(/\n1\. peak request .+\n {3}meets the target/);
  }, 120_000);

  it('refuses bad numbers and unknown options, exit 2, and reports a blueprint that cannot run, exit 1', () => {
    for (const args of [['--candidates', '0'], ['--seed', 'x'], ['--proposals'], ['--frobnicate']]) {
      const r = lev(EXAMPLE, ...args);
      expect(r.status).toBe(2);
      expect(r.stderr).toContain('lev: advise: ');
    }
    expect(lev().status).toBe(2);
    const bad = join(mkdtempSync(join(tmpdir(), 'lev-advise-')), 'bad.json');
    writeFileSync(
      bad,
      JSON.stringify({
        version: 1,
        model: { id: 'gpt-4o' },
        agent: { 'agent.leviath': '[context.regions]\nx = { kind = "nope" }\n' },
      }),
    );
    const r = lev(bad, '--json');
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout).diagnostics.map((d: { code: string }) => d.code)).toContain('unknown-region-kind');
  }, 240_000);
});
