// The one table of limits (src/engine/limits.ts) at the boundaries that read scenarios: absurd counts
// are refused with a message that names the count and the limit, and numbers too large for the
// playground are called that, not invalid TOML.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compileBlueprint } from '../../src/engine/blueprint/index.ts';
import { MAX_AGENT_FILES, MAX_LINK_CHARS, MAX_REGIONS, utf8Length } from '../../src/engine/limits.ts';
import { ScenarioSchema } from '../../src/engine/scenario.ts';
import { formatIssues } from '../../src/scenarios/issues.ts';
import { decodeFragment } from '../../src/share/index.ts';
import { toBase64Url } from '../../src/share/base64url.ts';
import { deflateSync } from 'fflate';
import { checkCustomScript } from '../../src/engine/custom-script.ts';

const BLUEPRINT = '[context.regions]\ntask = { kind = "pinned", seed = "task_input" }\n';
const withFiles = (count: number) => ({
  version: 1,
  model: { id: 'gpt-4o' },
  agent: Object.fromEntries([
    ['agent.leviath', BLUEPRINT],
    ...Array.from({ length: count - 1 }, (_, i) => [`context_hooks/h${i}.rhai`, 'fn render(ctx) { "" }']),
  ]),
});
/** A share link holding `value` as its scenario JSON, made the way encodeScenario makes one but without its schema check. */
const linkOf = (value: unknown) =>
  `#s=1.${toBase64Url(deflateSync(new TextEncoder().encode(JSON.stringify(value)), { level: 9 }))}`;

describe('files in an agent directory', () => {
  it(`${MAX_AGENT_FILES} files are a scenario; one more is refused with the count and the limit`, () => {
    expect(ScenarioSchema.safeParse(withFiles(MAX_AGENT_FILES)).success).toBe(true);
    const parsed = ScenarioSchema.safeParse(withFiles(MAX_AGENT_FILES + 1));
    expect(formatIssues(parsed.error!)).toEqual([
      `agent: 201 files; an agent directory holds at most ${MAX_AGENT_FILES} (agent.leviath and the scripts it names)`,
    ]);
  });

  it('a link holding 10,000 agent files is refused before anything opens them', () => {
    const link = linkOf(withFiles(10_000));
    expect(link.length).toBeLessThan(MAX_LINK_CHARS);
    expect(decodeFragment(link)).toEqual({
      ok: false,
      error: `This link's scenario is not valid: agent: 10,000 files; an agent directory holds at most ${MAX_AGENT_FILES} (agent.leviath and the scripts it names).`,
    });
  });
});

describe('regions in a blueprint', () => {
  it('a link holding 10,000 regions opens (the link is valid) but its blueprint is refused at region 201, uncompiled', () => {
    const regions = Array.from({ length: 10_000 }, (_, i) => `r${i} = { kind = "temporary" }`).join('\n');
    const decoded = decodeFragment(
      linkOf({ version: 1, model: { id: 'gpt-4o' }, agent: { 'agent.leviath': `[context.regions]\n${regions}\n` } }),
    );
    expect(decoded.ok).toBe(true);
    const result = compileBlueprint(decoded.ok ? decoded.scenario.agent : {}, { checkScript: checkCustomScript });
    expect(result.blueprint).toBeUndefined();
    expect(result.diagnostics.map((d) => `${d.code} ${d.line}:${d.column}`)).toEqual([
      `too-many-regions ${MAX_REGIONS + 2}:1`,
    ]);
  });
});

describe('a number too large for the playground', () => {
  const compile = (source: string) =>
    compileBlueprint({ 'agent.leviath': source }, { checkScript: checkCustomScript }).diagnostics;

  it('max_items at i64::MAX (valid TOML) is "too large" at its key, line and column, with the largest number read', () => {
    const line = 'history = { kind = "sliding_window", max_items = 9223372036854775807 }';
    expect(compile(`[context.regions]\n${line}\n`)).toEqual([
      {
        code: 'number-too-large',
        severity: 'error',
        file: 'agent.leviath',
        path: '',
        line: 2,
        column: line.indexOf('9223') + 1,
        endLine: 2,
        endColumn: line.length - 1,
        message:
          '`max_items` = 9223372036854775807 is too large: the playground reads whole numbers from -9,007,199,254,740,991 to 9,007,199,254,740,991 (2^53 - 1). Use a smaller number.',
      },
    ]);
  });

  it('the same under a stage, in a table section, in hex and with underscores', () => {
    for (const [source, key, number] of [
      [
        '[stages.build.context.regions]\nnotes = { kind = "sliding_window", max_items = 9007199254740993 }\n',
        'max_items',
        '9007199254740993',
      ],
      [
        '[context.regions.notes]\nkind = "hashmap"\nmax_entries = 0x7fffffffffffffff\n',
        'max_entries',
        '0x7fffffffffffffff',
      ],
      [
        '[context.regions]\nnotes = { kind = "sliding_window", max_items = 9_223_372_036_854_775_807 }\n',
        'max_items',
        '9_223_372_036_854_775_807',
      ],
    ] as const) {
      const [d] = compile(source);
      expect(d).toMatchObject({
        code: 'number-too-large',
        message: expect.stringContaining(`\`${key}\` = ${number} is too large`),
      });
      expect(d!.message).not.toContain('TOML syntax');
    }
  });

  it('past 64 bits it also says TOML stops there', () => {
    const [d] = compile(
      '[context.regions]\nhistory = { kind = "sliding_window", max_items = 99999999999999999999999 }\n',
    );
    expect(d!.message).toBe(
      '`max_items` = 99999999999999999999999 is too large: the playground reads whole numbers from -9,007,199,254,740,991 to 9,007,199,254,740,991 (2^53 - 1), ' +
        'and TOML itself stops at 64-bit integers (9,223,372,036,854,775,807). Use a smaller number.',
    );
  });

  it('2^53 - 1 itself is read', () => {
    expect(
      compile(
        `[context.regions]\nhistory = { kind = "sliding_window", max_items = ${Number.MAX_SAFE_INTEGER} }\n`,
      ).filter((d) => d.severity === 'error'),
    ).toEqual([]);
  });
});

describe('utf8Length', () => {
  it('is the number of bytes TextEncoder writes, for any string (lone surrogates become U+FFFD)', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.oneof(
            fc.constant('\ud800'),
            fc.constant('\udc00'),
            fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
            fc.constantFrom('😀', '漢', 'é', 'a'),
          ),
          maxLength: 40,
        }),
        (text) => {
          expect(utf8Length(text)).toBe(new TextEncoder().encode(text).length);
        },
      ),
      { numRuns: 2_000, seed: 20261202 },
    );
  });
});
