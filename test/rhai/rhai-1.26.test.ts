// Rhai 1.26 behaviour that Rhai's own tests (rhai-tests.test.ts) touch only in passing: each
// expectation comes from the Rhai source named beside it (rhaiscript/rhai f1f06ab9).
import { describe, expect, it } from 'vitest';
import { compile, debugString, DEFAULT_LIMITS, evaluate, RhaiError } from '../../src/rhai/index.ts';

const value = (src: string): string => debugString(evaluate(src).value);
const errorOf = (src: string): RhaiError => {
  try {
    evaluate(src);
  } catch (e) {
    if (e instanceof RhaiError) return e;
    throw e;
  }
  throw new Error(`no error from ${src}`);
};

describe('FLOAT comparisons (builtin.rs impl_float, the checked build)', () => {
  it.each([
    ['0.1 + 0.2 == 0.3', 'true'], // within f64::EPSILON of the larger magnitude
    ['0.1 + 0.2 != 0.3', 'false'],
    ['1.0 < 1.0 + 1e-16', 'false'],
    ['0 < 1e-15', 'true'],
    ['1 == 1.0', 'true'],
    [
      'let n = 0.0 / 0.0; [n == n, n != n, n < 1.0, n > 1.0, n <= n, n >= 1.0]',
      '[false, false, false, false, false, false]',
    ],
    ['let n = 0.0 / 0.0; [n] == [n]', 'false'],
    ['let a = [3.0, 1.0, 2.0]; a.sort(); a', '[1.0, 2.0, 3.0]'],
    ['let n = 0.0 / 0.0; [max(n, 1.0), max(1.0, n), min(n, 1.0)]', '[1.0, NaN, 1.0]'], // logic.rs: `if x >= y { x } else { y }`
  ])('%s is %s', (src, expected) => {
    expect(value(src)).toBe(expected);
  });
});

describe('split() with no argument (string_more.rs split_whitespace)', () => {
  it.each([
    ['"a b  c".split()', '["a", "b", "c"]'],
    ['"  a\\tb\\n".split()', '["a", "b"]'],
    ['"   ".split()', '[]'],
    ['"".split()', '[""]'],
    ['"".split("")', '[""]'],
    ['"".split(",")', '[""]'],
  ])('%s is %s', (src, expected) => {
    expect(value(src)).toBe(expected);
  });
});

describe('?. and ?[ cut the rest of their chain (ASTFlags::NEGATED)', () => {
  it.each([
    ['let x = (); x?.a.b.c', '()'],
    ['let x = (); x?[1][2].len()', '()'],
    ['let x = (); x?.f(1, 2).g()', '()'],
    ['let x = #{a: ()}; x.a?.b.c', '()'],
    ['let x = (); x?[2] = 42; x', '()'],
    ['let x = (); x?.a.b = 1; x', '()'],
    ['let x = (); x?.a.b += 1; x', '()'],
    ['let x = #{a: #{b: 1}}; x?.a.b = 5; x', '#{"a": #{"b": 5}}'],
    ['let x = (); [x?.a.b, 7]', '[(), 7]'], // the cut ends with its chain
  ])('%s is %s', (src, expected) => {
    expect(value(src)).toBe(expected);
  });

  it('still fails on () when the link before was not a safe one', () => {
    expect(errorOf('let x = #{}; x?.a.b').kind).toBe('ErrorDotExpr');
  });
});

describe('open ranges and `??` with a jump (parser.rs parse_binary_op, builtin.rs)', () => {
  it.each([
    ['let s = "hello"; [s[..], s[..2], s[3..], s[..=1]]', '["hello", "he", "lo", "he"]'],
    ['(5..)', '5..9223372036854775807'],
    ['..=3', '0..=3'],
    ['let a = [1, 2, 3, 4]; [a.extract(1..), a.extract(..2)]', '[[2, 3, 4], [1, 2]]'],
    ['let n = 0; for x in (9223372036854775805..) { n += 1; } n', '2'],
    ['let r = []; for x in [1, (), 3] { let y = x ?? continue; r.push(y); } r', '[1, 3]'],
    ['fn f(x) { let y = x ?? return "none"; y } [f(1), f(())]', '[1, "none"]'],
  ])('%s is %s', (src, expected) => {
    expect(value(src)).toBe(expected);
  });
});

describe('switch (parser.rs parse_switch, eval/stmt.rs Stmt::Switch)', () => {
  it.each([
    ['switch 7 { 1 | 5..9 => "a", _ => "b" }', '"a"'],
    ['switch 3 { 1 | 5..9 => "a", _ => "b" }', '"b"'],
    ['switch 7.5 { 5..9 => "in", _ => "out" }', '"in"'],
    ['switch 8 { 5..8 => "x", 8..=8 => "y", _ => "z" }', '"y"'],
    ['switch 5 { 5..5 => "empty", _ => "default" }', '"default"'],
    ['switch "x" { 1..5 => 1, "x" => 2 }', '2'],
  ])('%s is %s', (src, expected) => {
    expect(value(src)).toBe(expected);
  });

  it('refuses a number case after a range case, anywhere in the switch', () => {
    expect(() => compile('switch x { 1..5 => 1, 3 => 2 }')).toThrow(/number case cannot follow a range/);
    expect(() => compile('switch x { 1..5 | 3 => 1 }')).toThrow(/number case cannot follow a range/);
    expect(compile('switch x { 1..5 => 1, "3" => 2 }').hasFunction('x', 0)).toBe(false);
  });
});

describe('lexing (tokenizer.rs)', () => {
  it.each([
    ['`a ${} b`', '"a  b"'],
    ['`cost: \\${x}`', '"cost: ${x}"'],
    ['`price: \\$5`', '"price: \\\\$5"'],
    ['(1. + 2.)', '3.0'],
    ['let x = 1.; x', '1.0'],
    ['[1.abs(), 1..3]', '[1, 1..3]'],
    ['"a\\\n  b"', '"a b"'], // the quote is in column 1: the continuation skips column 1 only
    ['  "a\\\n   b"', '"ab"'], // the quote is in column 3: columns 1-3 are skipped
    ['  "a\\\n    b"', '"a b"'],
  ])('%s is %s', (src, expected) => {
    expect(value(src)).toBe(expected);
  });

  it.each([
    'let x = ( ); x',
    'let _x = 1;',
    'fn _f() {}',
    '"\\\'"',
    '1 && true',
    '"a" || false',
    '#{a: 1}[true || false]',
  ])('%s is a parse error', (src) => {
    expect(() => compile(src)).toThrow(RhaiError);
  });

  it('counts every operator of a chain as a level of expression depth', () => {
    const chain = (n: number): string => Array.from({ length: n + 1 }, () => '1').join(' + ');
    expect(value(chain(62))).toBe('63');
    expect(() => compile(chain(64))).toThrow(/maximum complexity/);
    expect(() => compile(`fn f() { ${chain(40)} }`)).toThrow(/maximum complexity/); // 32 inside functions
    expect(compile(chain(500), { limits: { ...DEFAULT_LIMITS, maxExprDepth: 0 } }).hasFunction('f', 0)).toBe(false);
  });
});

describe('global:: sees top-level constants only (eval/stmt.rs Stmt::Var at scope level 0)', () => {
  it('does not see a constant declared inside a block', () => {
    expect(value('const A = 1; fn f() { global::A } f()')).toBe('1');
    const e = errorOf('fn f() { global::A } if true { const A = 1; f() }');
    expect(e.kind).toBe('ErrorInFunctionCall');
    expect(e.innerKind).toBe('ErrorVariableNotFound');
  });
});

describe('is_shared and data races (func/call.rs ensure_no_data_race)', () => {
  it('is true for a variable once a closure has captured it', () => {
    expect(value('let a = 1; let before = is_shared(a); let f = || a; [before, is_shared(a), a.is_shared()]')).toBe(
      '[false, true, true]',
    );
    expect(value('let a = 1; let f = || a; let b = a; [is_shared(b), is_shared(1)]')).toBe('[false, false]');
  });

  it('refuses to bind this to a variable the called closure captured', () => {
    expect(errorOf('let a = 20; let f = |x| { this += a + x }; a.call(f, 1); a').kind).toBe('ErrorDataRace');
    expect(value('let a = 1; let b = 40; let f = |x| { this += a + x }; b.call(f, 1); b')).toBe('42');
  });
});

describe('eval (func/call.rs, eval/stmt.rs)', () => {
  it.each([
    ['eval("40 + 2")', '42'],
    ['let x = 1; eval("x += 1"); x', '2'],
    ['let r = []; for i in 0..3 { eval("let t = i * 2"); r.push(t); } r', '[0, 2, 4]'],
    ['eval("let a = 1"); let a = 2; a', '2'], // a later `let` shadows what eval added
    ['eval("let a = 1"); { let a = 2; } a', '1'],
    ['fn f() { let n = 5; eval("n * 2") } f()', '10'],
    ['eval("let z = 3"); is_def_var("z")', 'true'],
    ['eval("  ")', '()'],
    ['eval("return 7; 8")', '7'],
    ['let s = "let q = 1;"; s += "q + 1"; eval(s)', '2'],
    ['let v = eval("let w = 2; eval(\\"let u = w + 1\\"); u"); [v, u]', '[3, 3]'],
  ])('%s is %s', (src, expected) => {
    expect(value(src)).toBe(expected);
  });

  it('wraps its failures as ErrorInFunctionCall("eval"), which a catch sees', () => {
    const e = errorOf('eval("1 +")');
    expect(e.kind).toBe('ErrorInFunctionCall');
    expect(e.innerKind).toBe('ErrorParsing');
    expect(value('let r = 0; try { eval("throw 5") } catch (x) { r = x } r')).toBe('5');
    expect(value('try { eval("6") } catch { 0 }')).toBe('6'); // a try statement's value is its body's
    expect(value('try { throw 1 } catch { 0 }')).toBe('()'); // and () after a catch
    expect(errorOf('eval("fn f() { 1 }")').innerKind).toBe('ErrorParsing');
    expect(errorOf('eval(42)').kind).toBe('ErrorMismatchDataType');
  });

  it('lets a limit stop the whole run, uncaught', () => {
    const e = (() => {
      try {
        evaluate('try { eval("loop {}") } catch { 1 }', { limits: { maxOperations: 10_000 } });
      } catch (x) {
        return x as RhaiError;
      }
      throw new Error('no error');
    })();
    expect(e.kind).toBe('ErrorTooManyOperations');
  });
});

describe("f!() and call!() see the caller's variables (capture_parent_scope)", () => {
  it.each([
    ['fn f() { a * 2 } let a = 21; f!()', '42'],
    ['fn f() { a = 5; } let a = 1; f!(); a', '5'],
    ['fn f(a) { a + b } let a = 100; let b = 2; f!(1)', '3'], // a parameter hides the caller's variable
    ['fn f() { let a = 9; a } let a = 1; [f!(), a]', '[9, 1]'],
    ['fn f(x) { total += x; } let total = 0; let g = Fn("f").curry(3); call!(g); call!(g); total', '6'],
    ['fn f() { dbl } fn dbl(x) { x * 2 } let dbl = 1; type_of(f!())', '"Fn"'], // a function name first, as in Rhai
  ])('%s is %s', (src, expected) => {
    expect(value(src)).toBe(expected);
  });

  it('is an error without the ! and in method-call style', () => {
    expect(errorOf('fn f() { a } let a = 1; f()').innerKind).toBe('ErrorVariableNotFound');
    expect(() => compile('fn f() { this } let y = 1; y.f!()')).toThrow(/cannot be a method call/);
  });
});

describe('a bare function name is a Fn pointer (eval/expr.rs)', () => {
  it.each([
    ['fn dbl(x) { x * 2 } let f = dbl; f.call(4)', '8'],
    ['fn dbl(x) { x * 2 } [1, 2].map(dbl)', '[2, 4]'],
    ['fn dbl(x) { x * 2 } let dbl = 7; dbl', '7'],
  ])('%s is %s', (src, expected) => {
    expect(value(src)).toBe(expected);
  });
});

describe('callbacks read only `true` as true (array_basic.rs `as_bool().unwrap_or(false)`)', () => {
  it.each([
    ['[1, 2, 3].filter(|x| x)', '[]'],
    ['[1, 2, 3].some(|x| "yes")', 'false'],
    ['[1, 2, 3].all(|x| ())', 'false'],
    ['[1, 1, 2].dedup(|a, b| a.bad()); ', '()'],
    ['let a = [1, 1, 2]; a.dedup(|x, y| x.bad()); a', '[1, 1, 2]'],
    ['fn is_two(x) { x == 2 } [1, 2, 3].index_of("is_two")', '1'],
    ['["a", "b"].index_of("b")', '1'], // no function of that name: the string is searched for
    [
      '#{a: [Fn("f"), Fn("g").curry(1, "x")], c: \'c\'}.to_json()',
      '"{\\"a\\":[\\"f\\",[\\"g\\",1,\\"x\\"]],\\"c\\":\'c\'}"',
    ],
  ])('%s is %s', (src, expected) => {
    expect(value(src)).toBe(expected);
  });
});

describe('BLOBs (blob_basic.rs, builtin.rs, dynamic.rs)', () => {
  it.each([
    ['blob(10, 0x1ff)', '[ffffffffffffffff ffff]'], // Debug: hex bytes, a space every 8; a byte keeps the low 8 bits
    ['let b = blob(); b += 1; b += "é"; b += \'z\'; b', '[01c3a97a]'],
    ['let b = blob(3); b[-1] = 258; [b, b[2], b.len, type_of(b)]', '[[000002], 2, 3, "blob"]'],
    ['let s = 0; for x in blob(4, 2) { s += x; } s', '8'],
    ['"ab".to_blob().as_string() + blob(1, 0x63)', '"abc"'],
    [
      'let b = blob(3, 7); let c = b; c[0] = 1; [b == c, b == blob(3, 7), 7 in b, 8 in b]',
      '[false, true, true, false]',
    ],
    // parse_be_int puts the bytes it reads first in an 8-byte buffer: two bytes are the top 16 bits
    [
      'let b = blob(5, 1); b.write_le(1, 2, 0x0302); [b.parse_le_int(1, 2), b.parse_be_int(1..=2) == 0x0203 << 48]',
      '[770, true]',
    ],
    ['let b = blob(8); b.write_be(0, 8, 1.5); b.parse_be_float(0, 8)', '1.5'],
    [
      'let b = [1, 2, 3, 4, 5].reduce(|acc, x| { acc.push(x); acc }, blob()); [b.extract(1..3), b.drain(0, 2), b]',
      '[[0203], [0102], [030405]]',
    ],
    ['let b = blob(4, 9); let r = b.retain(1..3); [r, b]', '[[0909], [0909]]'],
    ['let b = blob(3, 1); b.splice(1, 1, blob(2, 5)); b', '[01050501]'],
    ['let b = blob(4, 1); let t = b.split(1); [b, t, b.to_array()]', '[[01], [010101], [1]]'],
    ['#{b: blob(2, 1)}.to_json()', '"{\\"b\\":[1,1]}"'],
  ])('%s is %s', (src, expected) => {
    expect(value(src)).toBe(expected);
  });

  it('bounds a BLOB by the array size limit before building it', () => {
    expect(() => evaluate('blob(2000000)', { limits: { maxArraySize: 1_000_000 } })).toThrow(
      /Size of array\/BLOB too large/,
    );
    expect(() => evaluate('let b = blob(); b.pad(5000000, 0)', { limits: { maxArraySize: 1_000_000 } })).toThrow(
      /Size of array\/BLOB too large/,
    );
  });
});

describe('timestamps (time_basic.rs)', () => {
  it.each([
    ['type_of(timestamp())', '"timestamp"'],
    [
      'let t = timestamp(); [t == t, t + 1 > t, t - 2.5 < t, (t + 2) - t, (t - 0.5) - t]',
      '[true, true, true, 2.0, -0.5]',
    ],
    ['let t = timestamp(); t += 3; t -= 1; [t > timestamp(), `${t}`]', '[true, "<timestamp>"]'],
    ['let t = timestamp(); t.elapsed >= 0.0 && elapsed(t) < 60.0', 'true'],
  ])('%s is %s', (src, expected) => {
    expect(value(src)).toBe(expected);
  });

  it('refuses a timestamp in the future for elapsed, and one before the clock starts', () => {
    expect(errorOf('(timestamp() + 100).elapsed').kind).toBe('ErrorArithmetic');
    expect(errorOf('timestamp() - 1e15').kind).toBe('ErrorArithmetic');
  });
});

describe('modules: import / export (module/mod.rs eval_ast_as_new, eval/stmt.rs)', () => {
  const files: Record<string, string> = {
    'lib/util.rhai':
      'export let k = "kay";\nlet hidden = 1;\nfn twice(x) { x * 2 }\nprivate fn secret() { 0 }\nfn via_secret() { secret() + 1 }\nimport "inner" as inner;\nfn deep() { inner::v }',
    'lib/inner.rhai': 'let v = 5; export v; v = 6;', // the final value is exported
    'lib/alias.rhai': 'const a = 1; export a as one; export a as uno;',
    'lib/count.rhai': 'print("loaded"); export const n = 3;',
    'lib/loop_a.rhai': 'let p = "loop_b"; import p as b;',
    'lib/loop_b.rhai': 'let p = "loop_a"; import p as a;',
  };
  const modules = {
    id: 'main.rhai',
    resolve: (request: string, importer: string | undefined) => {
      const dir = importer?.includes('/') ? importer.slice(0, importer.lastIndexOf('/') + 1) : 'lib/';
      const id = `${dir}${request}.rhai`;
      return Object.hasOwn(files, id) ? { id, source: files[id]! } : { error: `no ${id}` };
    },
  };
  const run = (src: string) => debugString(evaluate(src, { modules }).value);
  const fails = (src: string): RhaiError => {
    try {
      evaluate(src, { modules });
    } catch (e) {
      if (e instanceof RhaiError) return e;
      throw e;
    }
    throw new Error('no error');
  };

  it.each([
    ['import "util" as u; [u::k, u::twice(4), u::via_secret(), u::deep(), u::inner::v]', '["kay", 8, 1, 6, 6]'],
    ['import "alias" as m; [m::one, m::uno]', '[1, 1]'],
    ['import "util" as u; fn f() { u::twice(1) } f()', '2'], // a function sees the imports made before it was called
    ['fn f() { import "util" as u; u::k } f()', '"kay"'],
    ['let r = []; for i in 0..2 { import "count" as c; r.push(c::n); } r', '[3, 3]'],
  ])('%s is %s', (src, expected) => {
    expect(run(src)).toBe(expected);
  });

  it("runs a module's top level once per compiled script", () => {
    const { prints } = evaluate('import "count" as a; import "count" as b; a::n + b::n', { modules });
    expect(prints).toEqual(['loaded']);
  });

  it('keeps what is private private, and an import inside a block inside it', () => {
    expect(fails('import "util" as u; u::hidden').kind).toBe('ErrorVariableNotFound');
    expect(fails('import "util" as u; u::secret()').kind).toBe('ErrorFunctionNotFound');
    expect(fails('{ import "util" as u; } u::k').kind).toBe('ErrorModuleNotFound');
    expect(fails('fn f() { import "util" as u; } f(); u::k').kind).toBe('ErrorModuleNotFound');
  });

  it('reports a missing module, an import cycle found while running, and refuses export inside a block', () => {
    const missing = fails('let p = "nope"; import p as x;');
    expect([missing.kind, missing.line, missing.column]).toEqual(['ErrorModuleNotFound', 1, 24]);
    expect(fails('import "loop_a" as a;').kind).toBe('ErrorInModule');
    expect(() => compile('{ let x = 1; export x; }')).toThrow(/top level/);
    expect(() => compile('fn f() { export y; }')).toThrow(/top level/);
    expect(fails('import "x" as x;').kind).toBe('ErrorModuleNotFound'); // no resolver: nothing to import from
    expect(() => evaluate('import "util" as u;')).toThrow(/cannot import modules/);
  });
});
