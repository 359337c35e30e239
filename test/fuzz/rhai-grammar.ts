// Rhai scripts written from the grammar (expressions, statements, functions, closures, loops),
// shared by the interpreter fuzz and the custom-region hook fuzz.
import fc from 'fast-check';

const VARS = ['x', 'y', 'a', 's', 'm', 'f'];
const LITERALS = [
  '0',
  '1',
  '-1',
  '42',
  '3',
  '1000000',
  '9223372036854775807',
  '-9223372036854775808',
  '1.5',
  '0.0',
  '1e300',
  '"s"',
  '""',
  '"a,b"',
  "'c'",
  'true',
  'false',
  '()',
];
const BINARY = [
  '+',
  '-',
  '*',
  '/',
  '%',
  '**',
  '==',
  '!=',
  '<',
  '>',
  '<=',
  '&&',
  '||',
  '??',
  '&',
  '|',
  '^',
  '<<',
  '>>',
  '..',
  '..=',
  'in',
];
const FUNCTIONS = [
  'len',
  'to_string',
  'type_of',
  'abs',
  'parse_int',
  'to_int',
  'to_float',
  'is_empty',
  'keys',
  'values',
  'to_upper',
  'trim',
  'reverse',
  'sort',
  'pop',
  'shift',
  'clear',
];
const METHODS_1 = [
  'push',
  'contains',
  'split',
  'index_of',
  'append',
  'remove',
  'get',
  'starts_with',
  'truncate',
  'extract',
  'drain',
  'retain',
  'sub_string',
  'chop',
  'insert',
  'pad',
];

/** Operations whose work grows with the string: looped over one of HEAVY_SIZE chars. */
const HEAVY_STRING_OPS = [
  's.to_upper()',
  's.len()',
  's.get(-1)',
  's.contains("z")',
  'let u = s; u.replace("a", "b")',
  's.index_of("z")',
  's == t',
  's.to_chars()',
  'debug(s)',
  's.to_debug()',
  'print(s)',
  '`${s}${t}`',
  's.split("a")',
  '[s, t].to_json()',
];
const HEAVY_SIZE = 1_000_000;

/** Values nested deeper than the Rhai <-> JS conversion takes (1,000 levels), or a growing curry. */
const DEEP_VALUES = [
  'let y = (); for i in 0..1500 { y = [y]; } return y;',
  'let m = #{}; for i in 0..1500 { m = #{a: m}; } return m;',
  'let f = Fn("g"); loop { f = f.curry([1, 2, 3]); }',
];

export const expr: fc.Arbitrary<string> = fc.letrec<{ e: string }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(...LITERALS),
    fc.constantFrom(...VARS),
    fc.tuple(tie('e'), fc.constantFrom(...BINARY), tie('e')).map(([l, op, r]) => `(${l} ${op} ${r})`),
    fc.tuple(fc.constantFrom('-', '!'), tie('e')).map(([op, e]) => `${op}${e}`),
    fc.array(tie('e'), { maxLength: 3 }).map((items) => `[${items.join(', ')}]`),
    fc.tuple(tie('e'), tie('e')).map(([a, b]) => `#{a: ${a}, b: ${b}}`),
    fc.tuple(fc.constantFrom(...FUNCTIONS), tie('e')).map(([f, e]) => `${f}(${e})`),
    fc.tuple(tie('e'), fc.constantFrom(...FUNCTIONS)).map(([e, f]) => `(${e}).${f}()`),
    fc.tuple(tie('e'), fc.constantFrom(...METHODS_1), tie('e')).map(([e, f, x]) => `(${e}).${f}(${x})`),
    fc
      .tuple(tie('e'), fc.constantFrom('map', 'filter', 'reduce', 'all', 'some'), tie('e'))
      .map(([e, f, b]) => `(${e}).${f}(|v| ${b})`),
    fc.tuple(tie('e'), tie('e')).map(([e, i]) => `(${e})[${i}]`),
    tie('e').map((e) => `(${e}).a`),
    tie('e').map((e) => `(${e})?.a`),
    fc.tuple(tie('e'), tie('e'), tie('e')).map(([c, t, f]) => `if (${c}) == 1 { ${t} } else { ${f} }`),
    fc.tuple(tie('e'), tie('e'), tie('e')).map(([v, a, b]) => `switch ${v} { 1 => ${a}, "s" => ${b}, _ => () }`),
    tie('e').map((e) => `\`t \${${e}} t\``),
    tie('e').map((e) => `(|x| ${e}).call(1)`),
    tie('e').map((e) => `Fn("g").call(${e})`),
  ),
})).e;

/** Rhai refuses a constant non-boolean condition at parse time, so conditions compare. */
const condition = fc.oneof(
  fc.constantFrom('true', 'false', 'x > 0', 'a.len() < 3', 's.len() > 100', 'type_of(m) == "map"'),
  expr.map((e) => `(${e}) == 1`),
);

export const statement: fc.Arbitrary<string> = fc.letrec<{ s: string }>((tie) => ({
  s: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.tuple(fc.constantFrom(...VARS), expr).map(([v, e]) => `let ${v} = ${e};`),
    fc
      .tuple(fc.constantFrom(...VARS), fc.constantFrom('=', '+=', '-=', '*=', '??='), expr)
      .map(([v, op, e]) => `${v} ${op} ${e};`),
    fc.tuple(fc.constantFrom(...VARS), expr).map(([v, e]) => `${v}.a = ${e};`),
    fc.tuple(fc.constantFrom(...VARS), expr, expr).map(([v, i, e]) => `${v}[${i}] = ${e};`),
    expr.map((e) => `${e};`),
    expr.map((e) => `print(${e});`),
    fc.tuple(condition, fc.array(tie('s'), { maxLength: 3 })).map(([c, body]) => `while ${c} { ${body.join(' ')} }`),
    fc
      .tuple(fc.array(tie('s'), { maxLength: 3 }), condition)
      .map(([body, c]) => `loop { ${body.join(' ')} if ${c} { break; } continue; }`),
    fc
      .tuple(fc.constantFrom(...VARS), expr, fc.array(tie('s'), { maxLength: 3 }))
      .map(([v, e, body]) => `for ${v} in ${e} { ${body.join(' ')} }`),
    fc
      .tuple(fc.array(tie('s'), { maxLength: 3 }), fc.array(tie('s'), { maxLength: 2 }))
      .map(([t, c]) => `try { ${t.join(' ')} } catch (err) { ${c.join(' ')} }`),
    expr.map((e) => `throw ${e};`),
    expr.map((e) => `return ${e};`),
    fc.constantFrom(
      'let a = []; loop { a.push(a.len()); }',
      'let s = "ab"; loop { s += s; }',
      'let a = [1]; loop { a += a; }',
    ),
    // issue 34: work in proportion to size (charged by cost.ts) and values nested past the
    // conversion bound (convert.ts), each under a budget rather than a hang or a stack trace
    fc
      .tuple(fc.constantFrom(...HEAVY_STRING_OPS), fc.constantFrom('"a"', '"😀"', '"ab\\n"'))
      .map(([op, c]) => `let s = ""; s.pad(${HEAVY_SIZE}, ${c}); let t = s; loop { ${op}; }`),
    fc.constantFrom(...DEEP_VALUES),
  ),
})).s;

const functions = fc.array(
  fc.tuple(fc.array(statement, { maxLength: 3 }), expr).map(([body, e]) => `fn g(x) { ${body.join(' ')} ${e} }`),
  { maxLength: 1 },
);
export const grammarScript = fc
  .tuple(functions, fc.array(statement, { minLength: 1, maxLength: 6 }), fc.option(expr, { nil: '' }))
  .map(([fns, stmts, tail]) =>
    [
      ...fns,
      'let x = 1; let y = [1, 2, 3]; let a = []; let s = "text"; let m = #{a: 1}; let f = |v| v + 1;',
      ...stmts,
      tail,
    ].join('\n'),
  );
