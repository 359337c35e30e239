// Scripts that allocate without end stop with an ordinary script error under the limits every hook
// call runs with (HOOK_LIMITS), and a custom region whose render does so falls back with a warning.
import { describe, expect, it } from 'vitest';
import { compile, evaluate, fromRhai, RhaiError, toRhai } from '../../src/rhai/index.ts';
import { MAX_CONVERT_DEPTH } from '../../src/rhai/convert.ts';
import { HOOK_LIMITS } from '../../src/engine/custom-script.ts';
import { replay } from '../../src/engine/index.ts';
import { BUILT_IN_TRAFFIC } from '../../src/scenarios/generators.ts';
import { RHAI } from '../../src/engine/custom-script.ts';
import { ScenarioSchema, type Scenario } from '../../src/engine/scenario.ts';

function failure(source: string): { kind: string; message: string } {
  try {
    evaluate(source, { limits: HOOK_LIMITS });
  } catch (e) {
    expect(e).toBeInstanceOf(RhaiError);
    return { kind: (e as RhaiError).kind, message: (e as RhaiError).message };
  }
  throw new Error(`expected ${source} to fail`);
}

describe('scripts that allocate without end (HOOK_LIMITS)', () => {
  it('pushing forever runs out of operations first', () => {
    expect(failure('let a = []; loop { a.push(a.len()); }')).toEqual({
      kind: 'ErrorTooManyOperations',
      message: 'Too many operations (line 1, position 13)',
    });
  });

  it('doubling a string stops at the string limit', () => {
    expect(failure('let s = "ab"; loop { s += s; }')).toEqual({
      kind: 'ErrorDataTooLarge',
      message: 'Length of string too large (line 1, position 24)',
    });
    expect(failure('let s = "ab"; loop { s = `${s}${s}`; }').kind).toBe('ErrorDataTooLarge');
  });

  it('padding to a huge length is refused before the string is built', () => {
    expect(failure('let s = "x"; s.pad(100000000, "y");')).toEqual({
      kind: 'ErrorDataTooLarge',
      message: 'Length of string too large (line 1, position 16)',
    });
  });

  it('doubling an array, flat or nested, stops at the array limit counted at every depth', () => {
    expect(failure('let a = [1]; loop { a += a; }').kind).toBe('ErrorDataTooLarge');
    expect(failure('let a = []; loop { a = [a, a]; }')).toEqual({
      kind: 'ErrorDataTooLarge',
      message: 'Size of array/BLOB too large (line 1, position 24)',
    });
    expect(failure('let a = [1]; loop { a.push(a); }').kind).toBe('ErrorDataTooLarge');
    expect(failure('let a = [[1, 2, 3]]; for i in 0..30 { a = [a, a, a]; }').kind).toBe('ErrorDataTooLarge');
  });

  it('nesting maps in themselves stops at the map limit', () => {
    expect(failure('let m = #{}; loop { m = #{a: m, b: m}; }')).toEqual({
      kind: 'ErrorDataTooLarge',
      message: 'Size of object map too large (line 1, position 25)',
    });
  });

  it('appending an array to itself appends one copy (it used to never finish)', () => {
    expect(evaluate('let a = [1, 2]; a += a; a.len()', { limits: HOOK_LIMITS }).value).toBe(4);
  });

  it('a custom region whose render allocates forever falls back to plain rendering, with a warning naming the script', () => {
    const toml = '[context.regions]\nbrain = { kind = "custom", script = "context_hooks/hog.rhai" }\n';
    const script = 'fn render(ctx) {\n  let a = [];\n  loop { a = [a, a]; }\n}\n';
    const scenario = ScenarioSchema.parse({
      version: 1,
      model: { id: 'gpt-4o' },
      agent: { 'agent.leviath': toml, 'context_hooks/hog.rhai': script },
      traffic: [
        { type: 'context_append', region: 'brain', content: 'a note' },
        { type: 'assistant', content: 'ok' },
      ],
    });
    const timeline = replay(scenario, { ...BUILT_IN_TRAFFIC, ...RHAI });
    expect(timeline.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const inference = timeline.steps[1]!;
    expect(inference.request!.systemTokens).toBeGreaterThan(0);
    expect(inference.warnings.join('\n')).toMatch(
      /render failed at context_hooks\/hog\.rhai line 3, column 14: Size of array\/BLOB too large/,
    );
  });
});

describe('values nested too deeply to leave a script', () => {
  const deepHook = (build: string): Scenario =>
    ScenarioSchema.parse({
      version: 1,
      model: { id: 'gpt-4o' },
      agent: {
        'agent.leviath': '[context.regions]\nbrain = { kind = "custom", script = "context_hooks/deep.rhai" }\n',
        'context_hooks/deep.rhai': `fn render(ctx) {\n  let a = "x";\n  for i in 0..1500 { ${build} }\n  a\n}\n`,
      },
      traffic: [
        { type: 'context_append', region: 'brain', content: 'a note' },
        { type: 'assistant', content: 'ok' },
      ],
    });

  it('a render hook returning 1,500 nested arrays or maps is a warning naming the hook; the replay finishes', () => {
    for (const build of ['a = [a];', 'a = #{system: a};']) {
      const timeline = replay(deepHook(build), RHAI);
      expect(timeline.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      expect(timeline.steps).toHaveLength(2);
      const inference = timeline.steps[1]!;
      // the plain fallback rendering still sends the region's entry
      expect(inference.request!.systemTokens).toBeGreaterThan(0);
      // The hook's answer is read as the Rhai value it is (no copy into JS values to overflow), so
      // the reader refuses its shape in a warning that names the hook.
      expect(inference.warnings.join('\n')).toMatch(
        /^custom region brain: render.*context_hooks\/deep\.rhai.*rendered its entries plainly/m,
      );
    }
  });

  it('conversion stops at the bound both ways with ErrorDataTooLarge, never a JS RangeError', () => {
    const nested = (levels: number): unknown => {
      let v: unknown = 'x';
      for (let i = 0; i < levels; i++) v = [v];
      return v;
    };
    expect(() => toRhai(nested(MAX_CONVERT_DEPTH))).not.toThrow();
    for (const levels of [MAX_CONVERT_DEPTH + 1, 100_000]) {
      expect(() => toRhai(nested(levels))).toThrowError(
        expect.objectContaining({ kind: 'ErrorDataTooLarge' }) as Error,
      );
    }
    for (const levels of [MAX_CONVERT_DEPTH + 1, 5_000]) {
      const rhai = evaluate(`let a = "x"; for i in 0..${levels} { a = [a]; } a`).value;
      expect(() => fromRhai(rhai)).toThrowError(expect.objectContaining({ kind: 'ErrorDataTooLarge' }) as Error);
    }
    // a script function's deep result is reported at the function's definition
    const script = compile('let x = 1;\nfn deep() { let a = (); for i in 0..2000 { a = #{a: a}; } a }');
    expect(() => script.call('deep', [])).toThrowError(
      expect.objectContaining({ kind: 'ErrorDataTooLarge', line: 2, column: 1 }) as Error,
    );
    expect(fromRhai(evaluate(`let a = 1; for i in 0..${MAX_CONVERT_DEPTH} { a = [a]; } a`).value)).toBeInstanceOf(
      Array,
    );
  });
});
