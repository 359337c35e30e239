// Hostile structure: TOML nested 10,000 deep, a 5 MB blueprint, binary garbage, JSON nested
// 100,000 deep inside a scenario. Each is refused with a located, readable message.
import { describe, expect, it } from 'vitest';
import { compileBlueprint, MAX_BLUEPRINT_BYTES } from '../../src/engine/blueprint/index.ts';
import { MAX_JSON_DEPTH, ScenarioSchema } from '../../src/engine/scenario.ts';
import { formatIssues } from '../../src/scenarios/issues.ts';
import { decodeFragment, encodeScenario } from '../../src/share/index.ts';
import { deflateSync } from 'fflate';
import { replay } from '../../src/engine/index.ts';
import { BUILT_IN_TRAFFIC } from '../../src/scenarios/generators.ts';
import { RHAI, checkCustomScript } from '../../src/engine/custom-script.ts';
import { toBase64Url } from '../../src/share/base64url.ts';

const compile = (source: string) => compileBlueprint({ 'agent.leviath': source }, { checkScript: checkCustomScript });

describe('hostile blueprints', () => {
  it('inline arrays nested 10,000 deep are a toml-syntax diagnostic, not a stack overflow', () => {
    const { blueprint, diagnostics } = compile(`x = ${'['.repeat(10_000)}${']'.repeat(10_000)}`);
    expect(blueprint).toBeUndefined();
    expect(diagnostics).toEqual([
      expect.objectContaining({ code: 'toml-syntax', severity: 'error', line: 1, column: 105 }),
    ]);
    expect(diagnostics[0]!.message).toBe(
      'TOML syntax error: document contains excessively nested structures. aborting. Fix this line so the file is valid TOML.',
    );
  });

  it('inline tables nested 10,000 deep likewise', () => {
    const { diagnostics } = compile(`x = ${'{ a = '.repeat(10_000)}1${' }'.repeat(10_000)}`);
    expect(diagnostics.map((d) => [d.code, d.line])).toEqual([['toml-syntax', 1]]);
  });

  it('a table header 10,000 keys deep compiles (it is only a long dotted key) and is reported as unknown', () => {
    const { blueprint, diagnostics } = compile(`[${Array.from({ length: 10_000 }, () => 'a').join('.')}]\nx = 1\n`);
    expect(blueprint).toBeDefined();
    expect(diagnostics.find((d) => d.code === 'unknown-key')).toMatchObject({ path: 'a', line: 1, column: 2 });
  });

  it('a 5 MB blueprint is refused before parsing', () => {
    const source = `[context.regions]\n${'# padding line of a huge blueprint\n'.repeat(150_000)}`;
    expect(source.length).toBeGreaterThan(5_000_000);
    const { blueprint, diagnostics } = compile(source);
    expect(blueprint).toBeUndefined();
    expect(diagnostics).toEqual([
      {
        code: 'blueprint-too-large',
        severity: 'error',
        file: 'agent.leviath',
        line: 1,
        column: 1,
        path: '',
        message: `agent.leviath is ${source.length.toLocaleString('en-US')} bytes; blueprints over ${MAX_BLUEPRINT_BYTES.toLocaleString('en-US')} bytes are refused. Is this the right file?`,
      },
    ]);
  });

  it('binary garbage is a toml-syntax diagnostic at the first bad byte', () => {
    const bytes = Uint8Array.from({ length: 100_000 }, (_, i) => (i * 7919 + 13) % 256);
    for (const source of [
      Buffer.from(bytes).toString('latin1'),
      new TextDecoder().decode(bytes),
      '\u0000\u0001\uFFFF\uD800',
    ]) {
      const { diagnostics } = compile(source);
      expect(diagnostics).toEqual([expect.objectContaining({ code: 'toml-syntax', line: 1, column: 1 })]);
      expect(diagnostics[0]!.message).toMatch(/^TOML syntax error: .+\. Fix this line so the file is valid TOML\.$/);
    }
  });
});

describe('a scenario holding JSON nested 100,000 deep', () => {
  const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) as unknown;
  const base = {
    version: 1,
    model: { id: 'gpt-4o' },
    agent: { 'agent.leviath': '[context.regions]\ntask = { kind = "pinned" }\n' },
  };

  it('is refused by the scenario schema with the field named (it used to overflow the stack in replay, inspect and share)', () => {
    const parsed = ScenarioSchema.safeParse({
      ...base,
      inputs: { extra: deep },
      traffic: [
        { type: 'assistant', content: '', tool_calls: [{ id: 'c1', name: 'grep', arguments: { pattern: deep } }] },
      ],
    });
    expect(parsed.success).toBe(false);
    expect(formatIssues(parsed.error!)).toEqual([
      `inputs: nested more than ${MAX_JSON_DEPTH} levels deep; flatten it`,
      `traffic[0].tool_calls[0].arguments: nested more than ${MAX_JSON_DEPTH} levels deep; flatten it`,
    ]);
  });

  it('a deep array as the whole traffic is a type error, not a crash', () => {
    expect(ScenarioSchema.safeParse({ ...base, traffic: deep }).success).toBe(false);
  });

  it('arrives through a share link and is refused with the same message', () => {
    const json = `{"version":1,"model":{"id":"gpt-4o"},"agent":{"agent.leviath":"x"},"inputs":{"extra":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`;
    const link = `#s=1.${toBase64Url(deflateSync(new TextEncoder().encode(json)))}`;
    expect(decodeFragment(link)).toEqual({
      ok: false,
      error: `This link's scenario is not valid: inputs: nested more than ${MAX_JSON_DEPTH} levels deep; flatten it.`,
    });
  });

  it('values at the depth limit still replay and share', () => {
    let nested: unknown = 'leaf';
    for (let i = 1; i < MAX_JSON_DEPTH; i++) nested = [nested];
    const scenario = ScenarioSchema.parse({
      ...base,
      traffic: [{ type: 'assistant', content: '', tool_calls: [{ id: 'c1', name: 'grep', arguments: { p: nested } }] }],
    });
    expect(replay(scenario, { ...BUILT_IN_TRAFFIC, ...RHAI }).steps).toHaveLength(1);
    expect(decodeFragment(encodeScenario(scenario))).toMatchObject({ ok: true });
  });
});
