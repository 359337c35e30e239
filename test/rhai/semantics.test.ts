// Language semantics beyond the conformance cases: value copies, closures, `this`, control flow.
import { describe, expect, it } from 'vitest';
import { debugString, evaluate } from '../../src/rhai/index.ts';

const value = (src: string): string => debugString(evaluate(src).value);

describe('arrays and maps are values', () => {
  it.each([
    ['let a = [[1], [2]]; let b = a[0]; b.push(5); a', '[[1], [2]]'],
    ['let a = [[1]]; let b = a + []; b[0].push(2); a', '[[1]]'],
    ['let m = #{l: [1]}; let n = m; n.l.push(2); m', '#{"l": [1]}'],
    ['fn f() { this.list } let m = #{list: [1]}; let l = m.f(); l.push(2); m', '#{"list": [1]}'],
    ['fn f() { this.list } let m = #{list: [1]}; m.f().push(2); m', '#{"list": [1]}'],
    ['let a = [[1]]; for x in a { x.push(2); } a', '[[1]]'],
    ['let a = [#{n: 1}]; for x in a { x.n = 5; } a', '[#{"n": 1}]'],
    ['let a = [1]; let b = [a, a]; b[0].push(2); [a, b]', '[[1], [[1, 2], [1]]]'],
    ['let a = [1, 2]; a += a; a', '[1, 2, 1, 2]'],
    ['let m = #{a: #{b: 1}}; m.a.b = 2; m', '#{"a": #{"b": 2}}'],
    ['let a = [[1, 2], [3, 4]]; a[1][0] = 9; a[-1][-1] += 1; a', '[[1, 2], [9, 5]]'],
  ])('%s', (src, expected) => {
    expect(value(src)).toBe(expected);
  });

  it('passes a plain variable to a native function by reference, a constant by copy', () => {
    expect(value('let b = [1]; push(b, 3); let s = " x "; trim(s); [b, s]')).toBe('[[1, 3], "x"]');
    expect(value('const A = [1]; push(A, 2); A')).toBe('[1]');
  });
});

describe('the shortcuts for what hooks do most give the general answers', () => {
  it.each([
    // a property of a local variable: a map, a getter, `?.` on (), and the errors
    ['let s = "abc"; s.len', '3'],
    ['let m = #{a: 1}; m.b', '()'],
    ['let x = (); x?.a', '()'],
    // text + a literal string, whatever the left side holds
    ['let n = 1; n + "a"', '"1a"'],
    ['let c = \'c\'; c + "d"', '"cd"'],
    ['let a = [1, 2]; a + "x"', '"[1, 2]x"'],
    ['let f = 1.5; f + "x"', '"1.5x"'],
    ['let u = (); u + "x"', '"x"'],
    ['let m = #{a: 1}; m + "!"', '"#{\\"a\\": 1}!"'],
    // interpolation: literal text between display strings, a literal array in its Debug form
    ['let x = 2.0; `x=${x}, ${()}|${#{b: "q"}}`', '"x=2.0, |#{\\"b\\": \\"q\\"}"'],
    ["`${[1, 'a']}`", '"[1, \'a\']"'],
    ["let a = [1, 'a']; `${a}`", '"[1, a]"'],
  ])('%s', (src, expected) => {
    expect(value(src)).toBe(expected);
  });

  it('reports a missing property and a string over the limit as before', () => {
    expect(() => evaluate('let n = 5; n.a')).toThrow(
      "Unknown property 'a' - a getter is not registered for type 'i64'",
    );
    expect(() => evaluate('let x = (); x.a')).toThrow(
      "Unknown property 'a' - a getter is not registered for type '()'",
    );
    expect(() => evaluate('let s = "aaaa"; s + "b"', { limits: { maxStringSize: 4 } })).toThrow(
      expect.objectContaining({ kind: 'ErrorDataTooLarge' }),
    );
    expect(() => evaluate('let s = "aaaa"; `${s}b`', { limits: { maxStringSize: 4 } })).toThrow(
      expect.objectContaining({ kind: 'ErrorDataTooLarge' }),
    );
  });
});

describe('sort with a comparer', () => {
  it('orders by INT results, and a bool as array_basic.rs sort_by reads it (true: x first); anything else is equal', () => {
    expect(value('let a = [3, 1, 2]; a.sort(|x, y| x - y); a')).toBe('[1, 2, 3]');
    expect(value('let a = [3, 1, 2]; a.sort(|x, y| x > y); a')).toBe('[3, 2, 1]');
    expect(value('let a = [3, 1, 2]; a.sort(|x, y| x.bad()); a')).toBe('[3, 1, 2]');
    expect(value('let a = [3, 1, 2]; a.sort(|x, y| "no"); a')).toBe('[3, 1, 2]');
  });
});

describe('closures', () => {
  it.each([
    ['let fs = []; for i in 0..3 { let j = i; fs.push(|x| x + j); } fs.map(|f| f.call(100))', '[100, 101, 102]'],
    ['let a = 1; let f = || { let g = || a + 1; g.call() }; a = 10; f.call()', '11'],
    ['fn make() { let n = 0; || { n += 1; n } } let c = make(); c.call(); c.call(); c.call()', '3'],
    ['let x = 1; let f = |y| { x += y; x }; f.call(2); f.call(3); x', '6'],
    ['let base = 1; let f = || base; let base = 5; f.call()', '1'],
    ['let f = |a, b, c| a + b + c; f.curry(1).call(2, 3)', '6'],
    ['let f = Fn("to_upper"); f.call("abc")', '"ABC"'],
  ])('%s', (src, expected) => {
    expect(value(src)).toBe(expected);
  });
});

describe('this', () => {
  it('binds the method target by reference and writes changes back', () => {
    expect(value('fn inc() { this.count += 1; } let o = #{count: 0}; o.inc(); o.inc(); o.count')).toBe('2');
    expect(value('fn twice() { this *= 2; } let n = 4; n.twice(); n')).toBe('8');
    expect(value('fn up() { this.to_upper() } let s = "ab"; [s.up(), s]')).toBe('["AB", "ab"]');
    expect(value('let s = "abc"; s.call(Fn("len"))')).toBe('3');
  });
});

describe('control flow', () => {
  it.each([
    [
      'let out = []; for i in 0..10 { switch i { 0 => continue, 5 => break, _ => { out.push(i); } } } out',
      '[1, 2, 3, 4]',
    ],
    ['fn f(x) { switch x { 1 => { return "one"; } _ => {} } "other" } [f(1), f(2)]', '["one", "other"]'],
    ['fn g(x) { x } fn f() { g(if true { return 1; } else { 2 }); 5 } f()', '1'],
    ['let i = 0; let n = 0; do { i += 1; if i % 2 == 0 { continue; } n += 1; } until i >= 6; [i, n]', '[6, 3]'],
    ['let x = 0; switch 1 { 1 => x += 5, _ => () } x', '5'],
    ['let v = loop { break; }; v', '()'],
    ['let out = []; for i in range(0, 1000000000000, 3) { if i > 10 { break; } out.push(i); } out', '[0, 3, 6, 9]'],
    [
      'let d = []; for i in range(10, 0, -3) { d.push(i); } [d, 6 in range(0, 10, 3), 7 in range(0, 10, 3)]',
      '[[10, 7, 4, 1], true, false]',
    ],
    ['return 5; 6', '5'],
    ['let a = [1, 2]; let i = 0; a[{ i += 1; i - 1 }] += 10; [a, i]', '[[11, 2], 1]'],
    ['let m = #{x: 1}; m.y ??= 5; m.x ??= 100; m', '#{"x": 1, "y": 5}'],
    ['let n = 0; let m = #{x: 1}; m.x ??= { n += 1; 9 }; n', '0'],
  ])('%s', (src, expected) => {
    expect(value(src)).toBe(expected);
  });
});
