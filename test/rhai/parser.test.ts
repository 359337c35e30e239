// Parser: operator precedence (Rhai's table), every statement form, and parse-time rejections.
import { describe, expect, it } from 'vitest';
import type { Expr, Stmt } from '../../src/rhai/ast.ts';
import { parse } from '../../src/rhai/parser.ts';
import { DEFAULT_LIMITS } from '../../src/rhai/limits.ts';
import { debugString, evaluate, RhaiError } from '../../src/rhai/index.ts';

const parseScript = (src: string) => parse(src, DEFAULT_LIMITS);

/** The expression tree of a one-expression script as a compact prefix form: (+ 1 (* 2 3)). */
function shape(src: string): string {
  const stmt = parseScript(src).body[0] as Stmt;
  if (stmt.kind !== 'expr') throw new Error(`not an expression statement: ${stmt.kind}`);
  const show = (e: Expr): string => {
    switch (e.kind) {
      case 'literal':
        return debugString(e.value);
      case 'var':
        return e.name;
      case 'binary':
        return `(${e.op} ${show(e.left)} ${show(e.right)})`;
      case 'unary':
        return `(${e.op}${show(e.operand)})`;
      case 'property':
        return `${show(e.target)}.${e.name}`;
      case 'index':
        return `${show(e.target)}[${show(e.index)}]`;
      case 'method':
        return `${show(e.target)}.${e.name}(${e.args.map(show).join(', ')})`;
      case 'call':
        return `${e.name}(${e.args.map(show).join(', ')})`;
      default:
        return e.kind;
    }
  };
  return show(stmt.expr);
}

const value = (src: string): string => debugString(evaluate(src).value);

function parseErrorAt(src: string): { line: number; column: number } {
  try {
    parseScript(src);
  } catch (e) {
    expect(e).toBeInstanceOf(RhaiError);
    expect((e as RhaiError).kind).toBe('ErrorParsing');
    return { line: (e as RhaiError).line, column: (e as RhaiError).column };
  }
  throw new Error(`expected a parse error for: ${src}`);
}

describe('operator precedence', () => {
  it.each([
    ['1 + 2 * 3', '(+ 1 (* 2 3))'],
    ['1 * 2 + 3', '(+ (* 1 2) 3)'],
    ['2 ** 3 ** 2', '(** 2 (** 3 2))'],
    ['-2 ** 2', '(** -2 2)'],
    ['-x ** 2', '(** (-x) 2)'],
    ['-5.abs()', '-5.abs()'],
    ['- 5.abs()', '(-5.abs())'],
    ['x -5', '(- x 5)'],
    ['-(5)', '-5'],
    ['1 + 2 << 3', '(+ 1 (<< 2 3))'],
    ['a || b && c', '(|| a (&& b c))'],
    ['a | b & c', '(| a (& b c))'],
    ['a ^ b || c', '(|| (^ a b) c)'],
    ['a == b < c', '(== a (< b c))'],
    ['x in y == z', '(== (in x y) z)'],
    ['a < b in c', '(in (< a b) c)'],
    ['a ?? b + c', '(?? a (+ b c))'],
    ['a < b ?? c', '(< a (?? b c))'],
    ['0..n + 1', '(.. 0 (+ n 1))'],
    ['a - b - c', '(- (- a b) c)'],
    ['a / b % c', '(% (/ a b) c)'],
    ['!a == b', '(== (!a) b)'],
    ['a.b.c(1)[2]', 'a.b.c(1)[2]'],
    ['f(1, 2).len()', 'f(1, 2).len()'],
  ])('%s', (src, expected) => {
    expect(shape(src)).toBe(expected);
  });

  it('reads a decimal literal beyond i64 as a float, like Rhai', () => {
    expect(value('[9223372036854775808, -9223372036854775809, -9223372036854775807 - 1]')).toBe(
      '[9.223372036854776e18, -9.223372036854776e18, -9223372036854775808]',
    );
  });

  it('lexes a minus directly before a digit, where an operand starts, as part of the literal', () => {
    expect(
      value('[-5.abs(), - 5.abs(), -9223372036854775808, type_of(-9223372036854775808), 10-5, 10 -5, -2.5.abs()]'),
    ).toBe('[5, -5, -9223372036854775808, "i64", 5, 5, 2.5]');
    expect(value('let x = 3; [x-1, (x)-1, [x][0]-1, if true { -1 } else { 0 }]')).toBe('[2, 2, 2, -1]');
    expect(value('fn f() { return -7.abs(); } f()')).toBe('7');
  });

  it('evaluates with the same precedence', () => {
    expect(value('2 * 3 ** 2')).toBe('18');
    expect(value('1 + 2 << 3')).toBe('17');
    expect(value('true || false && false')).toBe('true');
    expect(value('12 & 10 | 1')).toBe('9');
  });
});

describe('statement forms', () => {
  it.each([
    ['let x = 1; x', '1'],
    ['let x; x', '()'],
    ['const C = 2; C * 3', '6'],
    ['let x = 1; x += 2; x -= 1; x *= 6; x /= 4; x %= 2; x', '1'],
    ['let x = 1; x <<= 3; x >>= 1; x |= 1; x &= 7; x ^= 2; x **= 2; x', '49'],
    ['if false { 1 } else if true { 2 } else { 3 }', '2'],
    ['switch 2 { 1 => "a", 2 | 3 => "b", _ => "c" }', '"b"'],
    ['let i = 0; while i < 3 { i += 1; } i', '3'],
    ['let i = 0; loop { i += 1; if i == 4 { break; } } i', '4'],
    ['let i = 0; do { i += 1; } while i < 2; i', '2'],
    ['let i = 0; do { i += 1; } until i == 5; i', '5'],
    ['let s = 0; for x in [1, 2, 3] { s += x; } s', '6'],
    ['let s = 0; for (x, i) in [5, 6] { s += x * i; } s', '6'],
    ['let s = 0; for x in 0..10 { if x % 2 == 0 { continue; } s += x; } s', '25'],
    ['fn f(x) { return x * 2; } f(4)', '8'],
    ['let r = 0; try { throw 7; } catch (e) { r = e; } r', '7'],
    ['let r = 0; try { throw 7; } catch { r = 1; } r', '1'],
    ['{ let inner = 5; inner + 1 }', '6'],
    ['let f = |a, b| a * b; f.call(3, 4)', '12'],
    ['let f = || { 42 }; f.call()', '42'],
    ['let n = 3; `n=${n}, twice=${n * 2}`', '"n=3, twice=6"'],
    ['#"raw \\n"#', '"raw \\\\n"'],
    ['let m = #{a: 1, "b c": 2,}; m["b c"]', '2'],
    ['// line comment\n/* block /* nested */ */ 1', '1'],
    ['let x = 0x1F + 0o17 + 0b101 + 1_000; x', '1051'],
  ])('%s', (src, expected) => {
    expect(value(src)).toBe(expected);
  });

  it('hoists functions and overloads them by arity', () => {
    const script = parseScript('fn a() { 1 } fn a(x) { x } a() + a(2)');
    expect(script.functions.map((f) => `${f.name}/${f.params.length}`)).toEqual(['a/0', 'a/1']);
    expect(value('fn a() { 1 } fn a(x) { x } a() + a(2)')).toBe('3');
  });
});

describe('parse-time rejections (with positions)', () => {
  it.each([
    ['let x = ;', 1, 9],
    ['let a = 1\nlet b = 2', 2, 1],
    ['break;', 1, 1],
    ['fn f() { 1 } fn f() { 2 }', 1, 17],
    ['fn outer() {\n  fn inner() { 1 }\n}', 2, 3],
    ['#{a: 1, a: 2}', 1, 9],
    ['#{_x: 1}', 1, 3],
    ['switch 1 { _ => 1, 2 => 2 }', 1, 20],
    ['let r = try { 1 } catch { 2 };', 1, 9],
    ['if 1 { 2 }', 1, 4],
    ['for x in 42 {}', 1, 10],
    ['[1]["x"]', 1, 5],
    ['const C = 1; C = 2;', 1, 14],
    ['"\\q"', 1, 2],
    ['let s = "open', 1, 9],
    ['let var = 1;', 1, 5],
  ])('%j', (src, line, column) => {
    expect(parseErrorAt(src)).toEqual({ line, column });
  });

  it('rejects expressions nested deeper than the limit', () => {
    const deep = `${'('.repeat(100)}1${')'.repeat(100)}`;
    expect(() => parse(deep, DEFAULT_LIMITS)).toThrow(/maximum complexity/);
    expect(parse(deep, { maxExprDepth: 500, maxFunctionExprDepth: 500 }).body).toHaveLength(1);
  });
});
