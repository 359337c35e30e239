// compileBlueprint on random blueprints, valid and broken: never a throw, only located diagnostics.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileBlueprint } from '../../src/engine/blueprint/index.ts';
import { hasErrors, type Diagnostic } from '../../src/engine/diagnostics.ts';
import { brokenBlueprintArb, SCRIPTS, SEED, validBlueprintArb, WORKDIR } from './arbitraries.ts';
import { checkCustomScript } from '../../src/engine/custom-script.ts';
import { enoughRunsToJudge, runs, tried } from './harness.ts';

const SEVERITIES = ['error', 'warning', 'info'];

function compile(source: string) {
  return tried(
    'blueprints',
    () =>
      compileBlueprint({ 'agent.leviath': source, ...SCRIPTS }, { workdir: WORKDIR, checkScript: checkCustomScript }),
    (result) => hasErrors(result.diagnostics),
  );
}

function expectWellFormed(diagnostics: Diagnostic[], source: string): void {
  for (const d of diagnostics) {
    expect(d.code, d.message).toMatch(/^[a-z][a-z0-9-]*$/);
    // internal-error is the compiler's own safety net: reaching it means a bug was caught, not handled.
    expect(d.code, d.message).not.toBe('internal-error');
    expect(SEVERITIES).toContain(d.severity);
    expect(d.message.length).toBeGreaterThan(0);
    expect(typeof d.file).toBe('string');
    expect(Number.isInteger(d.line) && d.line >= 1, `line of ${d.code}`).toBe(true);
    expect(Number.isInteger(d.column) && d.column >= 1, `column of ${d.code}`).toBe(true);
    if (d.file === 'agent.leviath') expect(d.line).toBeLessThanOrEqual(source.split(/\r\n|\n|\r/).length + 1);
  }
}

describe('compileBlueprint on random blueprints', () => {
  it('valid blueprints from the grammar compile to a blueprint with located diagnostics', () => {
    let clean = 0;
    fc.assert(
      fc.property(validBlueprintArb, (source) => {
        const result = compile(source);
        expectWellFormed(result.diagnostics, source);
        expect(result.blueprint, result.diagnostics.map((d) => d.message).join('\n')).toBeDefined();
        expect(result.diagnostics.filter((d) => d.code === 'toml-syntax')).toEqual([]);
        if (!result.diagnostics.some((d) => d.severity === 'error')) clean++;
      }),
      { numRuns: runs(300), seed: SEED },
    );
    // The generator must mostly produce blueprints the compiler accepts, or the replay fuzz tests nothing.
    if (enoughRunsToJudge(runs(300))) expect(clean).toBeGreaterThan(runs(300) / 3);
  });

  it('broken blueprints (mutated keys, wrong types, truncation, random bytes) give diagnostics, never a throw', () => {
    fc.assert(
      fc.property(brokenBlueprintArb, (source) => {
        const result = compile(source);
        expectWellFormed(result.diagnostics, source);
      }),
      { numRuns: runs(600), seed: SEED },
    );
  });
});
