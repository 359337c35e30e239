// Standard library behaviour, from the examples in the Rhai Book (src/language/*.md): each script
// collects checks into an array that must be all `true`, so a failure names the check's index.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compile, debugString, evaluate, fromRhai } from '../../src/rhai/index.ts';

function checks(src: string): boolean[] {
  return fromRhai(evaluate(src).value) as boolean[];
}

const value = (src: string): string => debugString(evaluate(src).value);

describe('strings (book: string-fn.md)', () => {
  it('changes strings in place and searches by chars', () => {
    const results = checks(`
      let full_name = " Bob C. Davis ";
      let r = [full_name.len == 14];
      full_name.trim();                     r += full_name == "Bob C. Davis";
      full_name.pad(15, '$');               r += full_name == "Bob C. Davis$$$";
      let n = full_name.index_of('$');      r += n == 12;
      r += full_name.index_of("$$", n + 1) == 13;
      r += full_name.sub_string(n, 3) == "$$$";
      full_name.truncate(6);                r += full_name == "Bob C.";
      full_name.replace("Bob", "John");     r += full_name == "John C.";
      r += full_name.contains('C') && full_name.contains("John");
      full_name.crop(5);                    r += full_name == "C.";
      full_name.crop(0, 1);                 r += full_name == "C";
      full_name.clear();                    r += full_name.len == 0;
      let s = "abc"; s.append('d');         r += s == "abcd";
      r
    `);
    expect(results).toEqual(results.map(() => true));
    expect(results).toHaveLength(13);
  });

  it('counts chars, not bytes or UTF-16 units', () => {
    expect(value('let s = "a😀b"; [s.len, s.bytes, s[1], s.sub_string(1, 1), s.index_of(\'b\')]')).toBe(
      '[3, 6, \'😀\', "😀", 2]',
    );
  });

  it('converts and formats', () => {
    expect(value('[to_string(1.5), 1e20.to_string(), (0.1 + 0.2).to_string(), to_debug("q")]')).toBe(
      '["1.5", "1e20", "0.30000000000000004", "\\"q\\""]',
    );
    expect(value('[parse_int("-ff", 16), parse_float(" 2.5 "), "7".parse_int()]')).toBe('[-255, 2.5, 7]');
  });
});

describe('arrays (book: arrays.md)', () => {
  it('runs the book examples', () => {
    const results = checks(`
      let a = [42, 123, 99];
      let r = [a.map(|v, i| v + i) == [42, 124, 101]];
      r += a.filter(|v, i| i == 1) == [123];
      r += a.filter("is_odd") == [123, 99];
      r += a.some(|v| v > 50) && !a.some(|v, i| v < i);
      r += !a.none(|v| v != 0) && a.none(|v, i| v == i);
      r += !a.all(|v| v > 50) && a.all(|v, i| v > i);
      r += a.reduce(|sum, v| sum + v, 0) == 264;
      r += a.reduce(|sum, v, i| if i == 0 { v } else { sum + v }) == 264;
      r += a.reduce_rev(|sum, v| if sum.type_of() == "()" { v } else { sum + v }) == 264;
      a.splice(1, 1, [1, 3, 2]);            r += a == [42, 1, 3, 2, 99];
      r += a.extract(1, 3) == [1, 3, 2];
      a.sort(|x, y| y - x);                 r += a == [99, 42, 3, 2, 1];
      a.sort();                             r += a == [1, 2, 3, 42, 99];
      a.drain(|v| v <= 1);                  r += a == [2, 3, 42, 99];
      a.drain(|v, i| i >= 3);               r += a == [2, 3, 42];
      a.retain(|v| v > 10);                 r += a == [42];
      let y = [1, 2, 3];
      y.insert(999, 4);                     r += y == [1, 2, 3, 4];
      r += y.shift() == 1;
      y.chop(2);                            r += y == [3, 4];
      y.pad(4, "h");                        r += y == [3, 4, "h", "h"];
      y.truncate(1);                        r += y == [3];
      r += [1, 2, 3][-1] == 3;
      r
    `);
    expect(results).toEqual(results.map(() => true));
    expect(results).toHaveLength(22);
  });

  it('sorts only arrays of one comparable type without a comparer', () => {
    expect(value('let a = ["b", "a", "c"]; a.sort(); a')).toBe('["a", "b", "c"]');
    expect(() => evaluate('let a = [1, "a"]; a.sort();')).toThrow(
      expect.objectContaining({ kind: 'ErrorFunctionNotFound' }),
    );
  });
});

describe('object maps (book: object-maps.md)', () => {
  it('runs the book examples', () => {
    const results = checks(`
      let y = #{ a: 1, bar: "hello", "baz!$@": 123.456, "": false, \`hello\`: 999 };
      y.a = 42;
      let r = [y.a == 42];
      y["baz!$@"] = 42;                     r += "baz!$@" in y && !("z" in y);
      r += #{ a: 1, b: 2, c: 3 }["a"] == 1 && #{ a: 1, b: 2, c: 3 }.a == 1;
      r += y.contains("a") && !y.contains("xyz");
      r += y.xyz == () && y["xyz"] == ();
      r += y.len == () && y.len() == 5;
      r += y.remove("a") == 42 && !y.contains("a");
      let m = #{ a: 1 }; m.fill_with(#{ a: 9, b: 2 }); r += m == #{ a: 1, b: 2 };
      m.mixin(#{ b: 3 });                   r += m.b == 3;
      y.clear();                            r += y.len() == 0;
      r
    `);
    expect(results).toEqual(results.map(() => true));
    expect(results).toHaveLength(10);
  });
});

describe('numbers (book: num-fn.md)', () => {
  it('rounds like Rust and converts exactly', () => {
    expect(value('[round(2.5), round(-2.5), floor(-1.5), ceiling(-1.5), int(-1.7), fraction(-1.75)]')).toBe(
      '[3.0, -3.0, -2.0, -1.0, -1.0, -0.75]',
    );
    expect(value('[9223372036854775807.to_float(), (2 ** 53 + 1) + 1, to_hex(255), to_binary(5)]')).toBe(
      '[9.223372036854776e18, 9007199254740994, "ff", "101"]',
    );
    expect(value('[sqrt(16.0), 10 % 3, -10 % 3, max(1, 2.5), min("a", "b")]')).toBe('[4.0, 1, -1, 2.5, "a"]');
  });
});

describe('bit-fields (book: bit-fields.md)', () => {
  it('reads and writes bits and bit ranges', () => {
    expect(
      value(`
      let v = 0b1011_0110_1010;
      let r = [v.get_bits(0, 3), v[3], v[4..=11], v.get_bits(4..=11), v.get_bits(-4, 4)];
      v[4..=11] = 0xff;
      let w = 0; w.set_bit(63, true);
      let z = 5; z[-64] = false;
      r + [v, w, z, 5.get_bit(0), 5.get_bit(1)]
    `),
    ).toBe('[2, true, 182, 182, 0, 4090, -9223372036854775808, 4, true, false]');
    expect(() => evaluate('5.get_bit(64)')).toThrow(expect.objectContaining({ kind: 'ErrorBitFieldBounds' }));
  });
});

describe('the spec example hook (custom-regions.md)', () => {
  const hook = compile(readFileSync(new URL('./fixtures/brain.rhai', import.meta.url), 'utf8'));
  const entries = [
    { content: 'ok\nmore', kind: 'tool_result', tokens: 3, key: null },
    { content: 'ERROR boom', kind: 'tool_result', tokens: 2, key: null },
  ];

  it('renders the entries as one user message', () => {
    expect(hook.call('render', [{ region: { name: 'brain', budget: 80000 }, entries }])).toEqual({
      messages: [
        {
          role: 'user',
          content:
            '<context><event kind="tool_result">ok\nmore</event><event kind="tool_result">ERROR boom</event></context>',
        },
      ],
    });
  });

  it('trims successful tool results on write and keeps errors', () => {
    expect(hook.call('on_write', [{ region: {}, entry: entries[0] }])).toBe('ok');
    expect(hook.call('on_write', [{ region: {}, entry: entries[1] }])).toBe(true);
  });

  it('drops successes first on overflow', () => {
    expect(hook.call('on_overflow', [{ region: {}, entries, needed_tokens: 3 }])).toEqual([0]);
  });
});
