// Hostile and broken input: always diagnostics, never a throw or a hang.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compileBlueprint, MAX_BLUEPRINT_BYTES } from '../../../src/engine/blueprint/index.ts';
import { MAX_REGIONS } from '../../../src/engine/limits.ts';
import { KeyIndex } from '../../../src/engine/blueprint/locate.ts';
import { compile, summary } from '../../builders.ts';
import { checkCustomScript } from '../../../src/engine/custom-script.ts';

/** Deterministic pseudo-random bytes (mulberry32), decoded as Latin-1 so every byte is a character. */
function garbage(length: number, seed: number): string {
  let state = seed;
  let out = '';
  for (let i = 0; i < length; i++) {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t ^= t + Math.imul(t ^ (t >>> 7), 61 | t);
    out += String.fromCharCode(((t ^ (t >>> 14)) >>> 0) & 0xff);
  }
  return out;
}

describe('bad input', () => {
  it('prose is a toml-syntax error with a position', () => {
    const result = compile('This is not TOML at all.\nJust words.\n');
    expect(result.blueprint).toBeUndefined();
    expect(summary(result.diagnostics)).toEqual(['toml-syntax error 1:6 ']);
  });

  it('an unclosed inline table is reported at the end of its own line, naming the brace', () => {
    const result = compile(
      '[context.regions]\na = { kind = "pinned" }\nb = { kind = "pinned" }\nc = { kind = "pinned" }\ntask = { kind = "pinned"\n[stages.x]\n',
    );
    expect(result.diagnostics.map((d) => [d.code, d.line, d.column, d.message])).toEqual([
      [
        'toml-syntax',
        5,
        25,
        'TOML syntax error: expected comma or end of structure: the `{` at line 5, column 8 is never closed. Fix this line: close it (or add the missing comma).',
      ],
    ]);
  });

  it('JSON is a toml-syntax error', () => {
    const result = compile('{"context": {"regions": {}}}');
    expect(result.diagnostics.map((d) => d.code)).toEqual(['toml-syntax']);
  });

  it('binary garbage is a toml-syntax error', () => {
    for (const seed of [1, 2, 3]) {
      const result = compile(garbage(4096, seed));
      expect(result.blueprint).toBeUndefined();
      expect(result.diagnostics).toHaveLength(1);
      expect(result.diagnostics[0]!.code).toBe('toml-syntax');
    }
  });

  it('NUL bytes inside an otherwise fine file are a toml-syntax error on their line', () => {
    const result = compile('[context.regions]\ntask = { kind = "pin\u0000ned" }\n');
    expect(summary(result.diagnostics)).toEqual(['toml-syntax error 2:21 ']);
  });

  it('5 MB of text is refused before parsing, with its size', () => {
    const result = compile('# comment\n'.repeat(500_000));
    expect(result.blueprint).toBeUndefined();
    expect(summary(result.diagnostics)).toEqual(['blueprint-too-large error 1:1 ']);
    expect(result.diagnostics[0]!.message).toContain('5,000,000 bytes');
  });

  it('counts bytes, not characters, against the cap', () => {
    const result = compile(`x = "${'é'.repeat(600_000)}"\n`);
    expect(result.diagnostics.map((d) => d.code)).toEqual(['blueprint-too-large']);
  });

  it('a blueprint just under the cap, with as many regions as a blueprint may have, still compiles', () => {
    const regions = Array.from(
      { length: MAX_REGIONS - 1 },
      (_, i) => `r${i} = { kind = "temporary", budget = "0.4%" }`,
    ).join('\n');
    const body = `[context.regions]\ntask = {}\n${regions}\n`;
    const source = `# ${'x'.repeat(MAX_BLUEPRINT_BYTES - body.length - 3)}\n${body}`;
    expect(source.length).toBe(MAX_BLUEPRINT_BYTES);
    const result = compile(source);
    expect(result.diagnostics).toEqual([]);
    expect(result.blueprint!.regions).toHaveLength(MAX_REGIONS);
  });

  it('one region more is refused at that region, counting names once across the top level and the stages', () => {
    const regions = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, i) => `r${from + i} = { kind = "temporary" }`).join('\n');
    // The top level and a stage that repeats its first 50 regions: the stage's 51st new name is one too many.
    const source = `[context.regions]\n${regions(0, 150)}\n[stages.s.context.regions]\n${regions(0, 50)}\n${regions(150, 201)}\n`;
    const result = compile(source);
    expect(result.blueprint).toBeUndefined();
    // Line 1 and 152 are the headers, so r200 (the stage's 101st line) is line 253.
    expect(summary(result.diagnostics)).toEqual(['too-many-regions error 253:1 stages.s.context.regions.r200']);
    expect(result.diagnostics[0]!.message).toBe(
      `A blueprint declares at most ${MAX_REGIONS} regions (each name counted once across [context.regions] and every stage), ` +
        'so that the page can draw them; `r200` is region 201. Merge regions, or split the agent.',
    );
  });

  it('10,000 regions are refused without compiling them', () => {
    const source = `[context.regions]\n${Array.from({ length: 10_000 }, (_, i) => `r${i} = { kind = "temporary" }`).join('\n')}\n`;
    expect(summary(compile(source).diagnostics)).toEqual(['too-many-regions error 202:1 context.regions.r200']);
  });

  it('table headers nested thousands deep are an unknown key, not a crash', () => {
    const deep = Array.from({ length: 20_000 }, () => 'a').join('.');
    const result = compile(`[context.regions]\ntask = {}\n[${deep}]\nx = 1\n`);
    expect(summary(result.diagnostics)).toEqual(['unknown-key warning 3:2 a']);
  });

  it('a deep header under a region is an error at the region key', () => {
    const deep = Array.from({ length: 5_000 }, () => 'b').join('.');
    const result = compile(`[context.regions]\ntask = {}\n[context.regions.x.${deep}]\n`);
    expect(summary(result.diagnostics)).toEqual(['unknown-key error 3:20 context.regions.x.b']);
  });

  it('inline tables and arrays nested thousands deep are a toml-syntax error', () => {
    const arrays = compile(`x = ${'['.repeat(5000)}${']'.repeat(5000)}\n`);
    expect(arrays.diagnostics.map((d) => d.code)).toEqual(['toml-syntax']);
    const tables = compile(`x = ${'{a = '.repeat(3000)}1${'}'.repeat(3000)}\n`);
    expect(tables.diagnostics.map((d) => d.code)).toEqual(['toml-syntax']);
  });

  it('huge arrays are handled and located', () => {
    const files = Array.from({ length: 30_000 }, (_, i) => `"f${i}.md"`).join(', ');
    const allow = Array.from({ length: 30_000 }, (_, i) => `"cmd${i}"`).join(', ');
    const source = `safe_commands = [${allow}]\n[context.regions]\ntask = {}\nr = { seed = { files = [${files}, "../x"] } }\n`;
    const result = compileBlueprint(
      { 'agent.leviath': source },
      { checkScript: checkCustomScript, workdir: { 'f1.md': '' } },
    );
    const escapes = result.diagnostics.filter((d) => d.code === 'seed-path-escapes');
    expect(summary(escapes)).toEqual([
      `seed-path-escapes error 4:${source.split('\n')[3]!.indexOf('"../x"') + 1} context.regions.r.seed.files[30000]`,
    ]);
    expect(source.length).toBeLessThan(MAX_BLUEPRINT_BYTES);
    const missing = result.diagnostics.filter((d) => d.code === 'seed-file-missing');
    expect(missing).toHaveLength(11); // ten named, then one summary for the rest
    expect(missing[0]!.message).toMatch(
      /^29989 more seed files of region "r" are not in the working directory \(29999 in all\)/,
    );
    expect(missing[0]!.path).toBe('context.regions.r.seed.files');
    expect(missing[10]!.message).toContain('"f10.md"');
    expect(result.blueprint!.safeCommands).toHaveLength(30_000);
  });

  it('values of the wrong type anywhere are diagnostics', () => {
    const result = compile('context = 5\nstages = "x"\nsafe_commands = 3\nread_paths = [1, 2]\nsecurity = []\n');
    expect(summary(result.diagnostics)).toEqual([
      'task-not-seeded warning 1:1 context.regions',
      'invalid-value error 1:11 context',
      'invalid-value error 2:10 stages',
      'invalid-value error 3:17 safe_commands',
      'invalid-value error 4:14 read_paths',
      'invalid-value error 5:12 security',
    ]);
  });

  it('__proto__ keys are refused rather than touching prototypes', () => {
    const result = compile('[stages.a.tool_routing.overrides]\n__proto__ = "x"\n');
    expect(result.diagnostics.map((d) => d.code)).toEqual(['toml-reserved-key']);
    expect(({} as Record<string, unknown>).region).toBeUndefined();
  });

  it('names that are Object.prototype members are ordinary names', () => {
    const result = compileBlueprint(
      {
        'agent.leviath':
          '[context.regions]\ntask = {}\nx = { kind = "constructor", seed = { files = ["toString"] } }\ny = { kind = "custom", script = "hasOwnProperty" }\n',
      },
      { checkScript: checkCustomScript, workdir: {} },
    );
    expect(summary(result.diagnostics)).toEqual([
      'unknown-region-kind error 3:14 context.regions.x.kind',
      'seed-file-missing warning 3:47 context.regions.x.seed.files[0]',
      'custom-script-missing error 4:33 context.regions.y.script',
    ]);
  });

  it('a byte-order mark does not shift columns', () => {
    const result = compile('\ufeff[context.regions]\ntask = { kind = "pined" }\n');
    expect(summary(result.diagnostics)).toEqual(['unknown-region-kind error 2:17 context.regions.task.kind']);
  });

  it('never throws on arbitrary text (property)', () => {
    const alphabet = fc.constantFrom(...'[]{}=".,\'#\n \\abkindtaskseed_-%0123456789'.split(''));
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 300 }).map((cs) => cs.join('')),
        (source) => {
          const result = compileBlueprint({ 'agent.leviath': source }, { checkScript: checkCustomScript });
          for (const d of result.diagnostics) {
            expect(d.line).toBeGreaterThanOrEqual(1);
            expect(d.column).toBeGreaterThanOrEqual(1);
          }
        },
      ),
      { numRuns: 400, seed: 42 },
    );
  });

  it('the locator never throws on valid TOML built from random structure (property)', () => {
    const key = fc.constantFrom('a', 'b-c', '"q.k"', "'lit'", 'kind');
    const scalar = fc.constantFrom('1', '"s"', "'x'", 'true', '[1, [2]]', '{ z = 1 }', '"""\nm\n"""');
    const line = fc.tuple(key, scalar).map(([k, v]) => `${k} = ${v}`);
    const header = fc.array(key, { minLength: 1, maxLength: 4 }).map((ks) => `[${ks.join('.')}]`);
    fc.assert(
      fc.property(fc.array(fc.oneof(line, header), { maxLength: 30 }), (lines) => {
        const source = lines.join('\n');
        expect(() => new KeyIndex(source)).not.toThrow();
        expect(() => compileBlueprint({ 'agent.leviath': source }, { checkScript: checkCustomScript })).not.toThrow();
      }),
      { numRuns: 300, seed: 7 },
    );
  });
});
