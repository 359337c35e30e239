// The embedding API: compile once, call many times; JS <-> Rhai conversion.
import { describe, expect, it } from 'vitest';
import {
  compile,
  debugString,
  displayString,
  evaluate,
  fromRhai,
  RhaiChar,
  RhaiError,
  RhaiFloat,
  toRhai,
} from '../../src/rhai/index.ts';

const HOOK = `
const HEADER = "## Notes";
fn render(ctx) {
  let out = global::HEADER + "\\n";
  for e in ctx.entries {
    out += \`- \${e.name} (\${e.tokens})\` + "\\n"; // backtick strings take no escapes
  }
  out
}
fn render(ctx, limit) { ctx.entries.len() <= limit }
fn on_overflow(entries) { entries.map(|e| e.id) }
`;

describe('compile once, call many', () => {
  const script = compile(HOOK);

  it('lists functions with arity and position', () => {
    expect(script.hasFunction('render', 1)).toBe(true);
    expect(script.hasFunction('render', 2)).toBe(true);
    expect(script.hasFunction('render', 3)).toBe(false);
    expect(script.functions()).toEqual([
      { name: 'render', arity: 1, line: 3, column: 1 },
      { name: 'render', arity: 2, line: 10, column: 1 },
      { name: 'on_overflow', arity: 1, line: 11, column: 1 },
    ]);
  });

  it('calls the same compiled script repeatedly with different inputs', () => {
    for (let n = 0; n < 50; n++) {
      const entries = Array.from({ length: n }, (_, i) => ({ name: `e${i}`, tokens: i * 10 }));
      const text = script.call('render', [{ entries }]) as string;
      expect(text.split('\n')).toHaveLength(n + 2);
      if (n > 0) expect(text).toContain(`- e${n - 1} (${(n - 1) * 10})`);
    }
    expect(script.call('render', [{ entries: [1, 2] }, 3])).toBe(true);
    expect(script.call('on_overflow', [[{ id: 'a' }, { id: 'b' }]])).toEqual(['a', 'b']);
  });

  it('throws RhaiError for a missing function or a failing call', () => {
    expect(() => script.call('nope', [])).toThrow(expect.objectContaining({ kind: 'ErrorFunctionNotFound' }));
    try {
      script.call('render', [{ entries: 5 }]);
      throw new Error('expected an error');
    } catch (e) {
      expect(e).toBeInstanceOf(RhaiError);
      expect((e as RhaiError).kind).toBe('ErrorInFunctionCall');
      expect((e as RhaiError).innerKind).toBe('ErrorFor');
    }
  });

  it('callRaw takes and returns Rhai values, keeping FLOAT distinct from INT', () => {
    const s = compile('fn half(x) { x / 2.0 } fn grow(a) { a.push(1); a.len() }');
    expect(debugString(s.callRaw('half', [4]))).toBe('2.0');
    const arr = toRhai([1, 2]);
    expect(s.callRaw('grow', [arr])).toBe(3);
    expect(debugString(arr)).toBe('[1, 2]'); // arguments are copies
  });

  it('call converts its arguments without sharing them, under the same limits and charges as callRaw', () => {
    const s = compile('fn grow(a) { a.push(1); a.len() } fn size(a) { a.len() }');
    const list = [1, 2];
    expect(s.call('grow', [list])).toBe(3);
    expect(list).toEqual([1, 2]);
    const big = Array.from({ length: 2_000 }, (_, i) => ({ i }));
    const tooLarge = { maxArraySize: 1_999 };
    expect(() => s.call('size', [big], { limits: tooLarge })).toThrow(
      expect.objectContaining({ kind: 'ErrorDataTooLarge' }),
    );
    expect(() => s.callRaw('size', [toRhai(big)], { limits: tooLarge })).toThrow(
      expect.objectContaining({ kind: 'ErrorDataTooLarge' }),
    );
    expect(() => s.call('size', [big], { limits: { maxMapSize: 1_999 } })).toThrow(
      expect.objectContaining({ kind: 'ErrorDataTooLarge' }),
    );
    // 2,000 items and 2,000 entries cost 250 operations, as a copy of them does.
    expect(() => s.call('size', [big], { limits: { maxOperations: 200 } })).toThrow(
      expect.objectContaining({ kind: 'ErrorTooManyOperations' }),
    );
    expect(() => s.callRaw('size', [toRhai(big)], { limits: { maxOperations: 200 } })).toThrow(
      expect.objectContaining({ kind: 'ErrorTooManyOperations' }),
    );
    expect(s.call('size', [big], { limits: { maxOperations: 300 } })).toBe(2_000);
  });

  it('does not share state between calls', () => {
    const counter = compile('let hits = 0; fn bump(m) { m.n += 1; m }');
    expect(counter.call('bump', [{ n: 1 }])).toEqual({ n: 2 });
    expect(counter.call('bump', [{ n: 1 }])).toEqual({ n: 2 });
  });

  it('passes print and debug output to the callbacks', () => {
    const lines: string[] = [];
    const debugs: string[] = [];
    compile('fn f(x) { print(`x=${x}`); debug(x); x }').call('f', ['s'], {
      onPrint: (t) => lines.push(t),
      onDebug: (t) => debugs.push(t),
    });
    expect(lines).toEqual(['x=s']);
    expect(debugs).toEqual(['"s"']);
  });
});

describe('toRhai / fromRhai', () => {
  it('maps JS values to Rhai types', () => {
    expect(debugString(toRhai(3))).toBe('3');
    expect(debugString(toRhai(2.5))).toBe('2.5');
    expect(debugString(toRhai(2 ** 60))).toBe('1.152921504606847e18');
    expect(debugString(toRhai(9223372036854775807n))).toBe('9223372036854775807');
    expect(debugString(toRhai(null))).toBe('()');
    expect(debugString(toRhai(undefined))).toBe('()');
    expect(debugString(toRhai({ b: [1, 'x', true], a: { c: null } }))).toBe('#{"a": #{"c": ()}, "b": [1, "x", true]}');
  });

  it('round-trips plain JSON-like data', () => {
    const data = { name: 'n', count: 3, ratio: 0.25, tags: ['a', 'b'], nested: { ok: true, list: [{ x: 1 }] } };
    expect(fromRhai(toRhai(data))).toEqual(data);
    expect(fromRhai(toRhai([1, [2, [3]]]))).toEqual([1, [2, [3]]]);
  });

  it('converts Rhai results back to JS', () => {
    const { value } = evaluate('#{i: 1, f: 1.5, c: \'z\', u: (), big: 9223372036854775807, arr: [1.0, "s"]}');
    expect(fromRhai(value)).toEqual({ arr: [1, 's'], big: 9223372036854775807n, c: 'z', f: 1.5, i: 1, u: undefined });
  });

  it('keeps Rhai values when given them', () => {
    const c = new RhaiChar('q');
    expect(toRhai(c)).toBe(c);
    expect(displayString(toRhai([new RhaiFloat(1), c]))).toBe('[1.0, q]');
  });
});
