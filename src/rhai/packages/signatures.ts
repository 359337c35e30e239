// Every native function's overloads, as Rhai 1.26 registers them (src/packages/*.rs). A call whose
// argument types match none of a name's signatures is ErrorFunctionNotFound before the function
// body runs, so a package never accepts an overload Rhai lacks. docs/decisions/rhai.md lists this
// table; test/rhai/fidelity.test.ts checks that the two agree.
import { FnPtr, RhaiBlob, RhaiChar, RhaiFloat, RhaiTimestamp, typeName, type RhaiValue } from '../values.ts';

/**
 * Parameter types: Rhai's type names (`i64`, `f64`, `string`, `char`, `bool`, `array`, `map`,
 * `range`, `range=`, `Fn`), `?` for any value, `fn` for a Fn pointer or a function name (Rhai's
 * deprecated `&str` callback overloads), and a trailing `...` for any number of further values.
 */
export const SIGNATURES: Record<string, { package: string; overloads: string[] }> = {
  // lang_core.rs, fn_basic.rs
  type_of: { package: 'lang_core', overloads: ['?'] },
  print: { package: 'lang_core', overloads: ['?'] },
  debug: { package: 'lang_core', overloads: ['?'] },
  exit: { package: 'lang_core', overloads: ['', '?'] },
  take: { package: 'lang_core', overloads: ['?'] },
  parse_json: { package: 'lang_core', overloads: ['string'] },
  Fn: { package: 'fn_basic', overloads: ['string'] },
  call: { package: 'fn_basic', overloads: ['Fn, ...'] },
  curry: { package: 'fn_basic', overloads: ['Fn, ...'] },
  is_def_fn: { package: 'fn_basic', overloads: ['string, i64'] },
  name: { package: 'fn_basic', overloads: ['Fn'] },
  is_anonymous: { package: 'fn_basic', overloads: ['Fn'] },
  // iter_basic.rs
  range: {
    package: 'iter_basic',
    overloads: ['i64, i64', 'i64, i64, i64', 'range, i64', 'range=, i64', 'f64, f64, f64'],
  },
  start: { package: 'iter_basic', overloads: ['range', 'range='] },
  end: { package: 'iter_basic', overloads: ['range', 'range='] },
  is_inclusive: { package: 'iter_basic', overloads: ['range', 'range='] },
  is_exclusive: { package: 'iter_basic', overloads: ['range', 'range='] },
  chars: {
    package: 'iter_basic',
    overloads: ['string', 'string, i64', 'string, range', 'string, range=', 'string, i64, i64'],
  },
  bits: { package: 'iter_basic', overloads: ['i64', 'i64, i64', 'i64, range', 'i64, range=', 'i64, i64, i64'] },
  // arithmetic.rs, math_basic.rs, logic.rs
  abs: { package: 'arithmetic', overloads: ['i64', 'f64'] },
  sign: { package: 'arithmetic', overloads: ['i64', 'f64'] },
  is_zero: { package: 'arithmetic', overloads: ['i64', 'f64'] },
  is_odd: { package: 'arithmetic', overloads: ['i64'] },
  is_even: { package: 'arithmetic', overloads: ['i64'] },
  max: {
    package: 'logic',
    overloads: ['i64, i64', 'f64, f64', 'i64, f64', 'f64, i64', 'string, string', 'char, char'],
  },
  min: {
    package: 'logic',
    overloads: ['i64, i64', 'f64, f64', 'i64, f64', 'f64, i64', 'string, string', 'char, char'],
  },
  floor: { package: 'math_basic', overloads: ['f64'] },
  ceiling: { package: 'math_basic', overloads: ['f64'] },
  round: { package: 'math_basic', overloads: ['f64'] },
  int: { package: 'math_basic', overloads: ['f64'] },
  fraction: { package: 'math_basic', overloads: ['f64'] },
  sqrt: { package: 'math_basic', overloads: ['f64'] },
  exp: { package: 'math_basic', overloads: ['f64'] },
  ln: { package: 'math_basic', overloads: ['f64'] },
  log: { package: 'math_basic', overloads: ['f64', 'f64, f64'] },
  sin: { package: 'math_basic', overloads: ['f64'] },
  cos: { package: 'math_basic', overloads: ['f64'] },
  tan: { package: 'math_basic', overloads: ['f64'] },
  sinh: { package: 'math_basic', overloads: ['f64'] },
  cosh: { package: 'math_basic', overloads: ['f64'] },
  tanh: { package: 'math_basic', overloads: ['f64'] },
  asin: { package: 'math_basic', overloads: ['f64'] },
  acos: { package: 'math_basic', overloads: ['f64'] },
  atan: { package: 'math_basic', overloads: ['f64', 'f64, f64'] },
  asinh: { package: 'math_basic', overloads: ['f64'] },
  acosh: { package: 'math_basic', overloads: ['f64'] },
  atanh: { package: 'math_basic', overloads: ['f64'] },
  hypot: { package: 'math_basic', overloads: ['f64, f64'] },
  to_degrees: { package: 'math_basic', overloads: ['f64'] },
  to_radians: { package: 'math_basic', overloads: ['f64'] },
  PI: { package: 'math_basic', overloads: [''] },
  E: { package: 'math_basic', overloads: [''] },
  is_nan: { package: 'math_basic', overloads: ['f64'] },
  is_finite: { package: 'math_basic', overloads: ['f64'] },
  is_infinite: { package: 'math_basic', overloads: ['f64'] },
  to_int: { package: 'math_basic', overloads: ['i64', 'f64', 'char'] },
  to_float: { package: 'math_basic', overloads: ['i64', 'f64'] },
  parse_int: { package: 'math_basic', overloads: ['string', 'string, i64'] },
  parse_float: { package: 'math_basic', overloads: ['string'] },
  // bit_field.rs
  get_bit: { package: 'bit_field', overloads: ['i64, i64'] },
  set_bit: { package: 'bit_field', overloads: ['i64, i64, bool'] },
  get_bits: { package: 'bit_field', overloads: ['i64, i64, i64', 'i64, range', 'i64, range='] },
  set_bits: { package: 'bit_field', overloads: ['i64, i64, i64, i64', 'i64, range, i64', 'i64, range=, i64'] },
  // string_basic.rs
  to_string: { package: 'string_basic', overloads: ['?'] },
  to_debug: { package: 'string_basic', overloads: ['?'] },
  to_hex: { package: 'string_basic', overloads: ['i64'] },
  to_octal: { package: 'string_basic', overloads: ['i64'] },
  to_binary: { package: 'string_basic', overloads: ['i64'] },
  // string_more.rs (and array_basic.rs / map_basic.rs for the shared names)
  len: { package: 'string_more, array_basic, map_basic, blob_basic', overloads: ['string', 'array', 'map', 'blob'] },
  is_empty: {
    package: 'string_more, array_basic, map_basic, iter_basic, blob_basic',
    overloads: ['string', 'array', 'map', 'range', 'range=', 'blob'],
  },
  bytes: { package: 'string_more', overloads: ['string'] },
  to_upper: { package: 'string_more', overloads: ['string', 'char'] },
  to_lower: { package: 'string_more', overloads: ['string', 'char'] },
  make_upper: { package: 'string_more', overloads: ['string', 'char'] },
  make_lower: { package: 'string_more', overloads: ['string', 'char'] },
  trim: { package: 'string_more', overloads: ['string'] },
  starts_with: { package: 'string_more', overloads: ['string, string', 'string, char'] },
  ends_with: { package: 'string_more', overloads: ['string, string', 'string, char'] },
  sub_string: {
    package: 'string_more',
    overloads: ['string, i64', 'string, i64, i64', 'string, range', 'string, range='],
  },
  crop: { package: 'string_more', overloads: ['string, i64', 'string, i64, i64', 'string, range', 'string, range='] },
  split_rev: {
    package: 'string_more',
    overloads: ['string, string', 'string, string, i64', 'string, char', 'string, char, i64'],
  },
  replace: {
    package: 'string_more',
    overloads: ['string, string, string', 'string, string, char', 'string, char, string', 'string, char, char'],
  },
  to_chars: { package: 'string_more', overloads: ['string'] },
  contains: {
    package: 'string_more, array_basic, map_basic, iter_basic, blob_basic',
    overloads: ['string, string', 'string, char', 'array, ?', 'map, string', 'range, i64', 'range=, i64', 'blob, i64'],
  },
  index_of: {
    package: 'string_more, array_basic',
    overloads: [
      'string, string',
      'string, string, i64',
      'string, char',
      'string, char, i64',
      'array, Fn',
      'array, Fn, i64',
      'array, ?',
      'array, ?, i64',
    ],
  },
  get: {
    package: 'string_more, array_basic, map_basic, blob_basic',
    overloads: ['string, i64', 'array, i64', 'map, string', 'blob, i64'],
  },
  set: {
    package: 'string_more, array_basic, map_basic, blob_basic',
    overloads: ['string, i64, char', 'array, i64, ?', 'map, string, ?', 'blob, i64, i64'],
  },
  pad: {
    package: 'string_more, array_basic, blob_basic',
    overloads: ['string, i64, char', 'string, i64, string', 'array, i64, ?', 'blob, i64, i64'],
  },
  truncate: { package: 'string_more, array_basic, blob_basic', overloads: ['string, i64', 'array, i64', 'blob, i64'] },
  pop: { package: 'string_more, array_basic, blob_basic', overloads: ['string', 'string, i64', 'array', 'blob'] },
  remove: {
    package: 'string_more, array_basic, map_basic, blob_basic',
    overloads: ['string, string', 'string, char', 'array, i64', 'map, string', 'blob, i64'],
  },
  clear: { package: 'string_more, array_basic, map_basic, blob_basic', overloads: ['string', 'array', 'map', 'blob'] },
  append: {
    package: 'string_more, array_basic, blob_basic',
    overloads: ['string, ?', 'array, array', 'blob, i64', 'blob, blob', 'blob, string', 'blob, char'],
  },
  split: {
    package: 'string_more, array_basic, blob_basic',
    overloads: [
      'string',
      'string, i64',
      'string, string',
      'string, string, i64',
      'string, char',
      'string, char, i64',
      'array, i64',
      'blob, i64',
    ],
  },
  // array_basic.rs (and blob_basic.rs for the shared names)
  push: { package: 'array_basic, blob_basic', overloads: ['array, ?', 'blob, i64'] },
  insert: { package: 'array_basic, blob_basic', overloads: ['array, i64, ?', 'blob, i64, i64'] },
  shift: { package: 'array_basic, blob_basic', overloads: ['array', 'blob'] },
  reverse: { package: 'array_basic, blob_basic', overloads: ['array', 'blob'] },
  chop: { package: 'array_basic, blob_basic', overloads: ['array, i64', 'blob, i64'] },
  extract: {
    package: 'array_basic, blob_basic',
    overloads: [
      'array, i64',
      'array, i64, i64',
      'array, range',
      'array, range=',
      'blob, i64',
      'blob, i64, i64',
      'blob, range',
      'blob, range=',
    ],
  },
  filter: { package: 'array_basic, map_basic', overloads: ['array, fn', 'map, Fn'] },
  map: { package: 'array_basic, map_basic', overloads: ['array, fn', 'map, Fn'] },
  for_each: { package: 'array_basic', overloads: ['array, Fn'] },
  reduce: { package: 'array_basic', overloads: ['array, fn', 'array, fn, ?'] },
  reduce_rev: { package: 'array_basic', overloads: ['array, fn', 'array, fn, ?'] },
  some: { package: 'array_basic', overloads: ['array, fn'] },
  all: { package: 'array_basic', overloads: ['array, fn'] },
  none: { package: 'array_basic', overloads: ['array, fn'] },
  find: { package: 'array_basic', overloads: ['array, Fn', 'array, Fn, i64'] },
  find_map: { package: 'array_basic', overloads: ['array, Fn', 'array, Fn, i64'] },
  dedup: { package: 'array_basic', overloads: ['array', 'array, fn'] },
  sort: { package: 'array_basic', overloads: ['array', 'array, fn'] },
  sort_by: { package: 'array_basic', overloads: ['array, fn'] },
  sort_desc: { package: 'array_basic', overloads: ['array'] },
  order: { package: 'array_basic', overloads: ['array'] },
  order_by: { package: 'array_basic', overloads: ['array, fn'] },
  order_desc: { package: 'array_basic', overloads: ['array'] },
  drain: {
    package: 'array_basic, map_basic, blob_basic',
    overloads: [
      'array, fn',
      'array, i64, i64',
      'array, range',
      'array, range=',
      'map, Fn',
      'blob, i64, i64',
      'blob, range',
      'blob, range=',
    ],
  },
  retain: {
    package: 'array_basic, map_basic, blob_basic',
    overloads: [
      'array, fn',
      'array, i64, i64',
      'array, range',
      'array, range=',
      'map, Fn',
      'blob, i64, i64',
      'blob, range',
      'blob, range=',
    ],
  },
  splice: {
    package: 'array_basic, blob_basic',
    overloads: [
      'array, i64, i64, array',
      'array, range, array',
      'array, range=, array',
      'blob, i64, i64, blob',
      'blob, range, blob',
      'blob, range=, blob',
    ],
  },
  zip: { package: 'array_basic', overloads: ['array, array, Fn'] },
  // map_basic.rs
  keys: { package: 'map_basic', overloads: ['map'] },
  values: { package: 'map_basic', overloads: ['map'] },
  mixin: { package: 'map_basic', overloads: ['map, map'] },
  fill_with: { package: 'map_basic', overloads: ['map, map'] },
  to_json: { package: 'map_basic', overloads: ['map'] },
  // blob_basic.rs (to_blob: string_more.rs)
  blob: { package: 'blob_basic', overloads: ['', 'i64', 'i64, i64'] },
  to_blob: { package: 'string_more', overloads: ['string'] },
  to_array: { package: 'blob_basic', overloads: ['blob'] },
  as_string: { package: 'blob_basic', overloads: ['blob'] },
  parse_le_int: { package: 'blob_basic', overloads: ['blob, i64, i64', 'blob, range', 'blob, range='] },
  parse_be_int: { package: 'blob_basic', overloads: ['blob, i64, i64', 'blob, range', 'blob, range='] },
  parse_le_float: { package: 'blob_basic', overloads: ['blob, i64, i64', 'blob, range', 'blob, range='] },
  parse_be_float: { package: 'blob_basic', overloads: ['blob, i64, i64', 'blob, range', 'blob, range='] },
  write_le: {
    package: 'blob_basic',
    overloads: [
      'blob, i64, i64, i64',
      'blob, range, i64',
      'blob, range=, i64',
      'blob, i64, i64, f64',
      'blob, range, f64',
      'blob, range=, f64',
    ],
  },
  write_be: {
    package: 'blob_basic',
    overloads: [
      'blob, i64, i64, i64',
      'blob, range, i64',
      'blob, range=, i64',
      'blob, i64, i64, f64',
      'blob, range, f64',
      'blob, range=, f64',
    ],
  },
  write_utf8: {
    package: 'blob_basic',
    overloads: ['blob, i64, i64, string', 'blob, range, string', 'blob, range=, string'],
  },
  // time_basic.rs
  timestamp: { package: 'time_basic', overloads: [''] },
  elapsed: { package: 'time_basic', overloads: ['timestamp'] },
  write_ascii: {
    package: 'blob_basic',
    overloads: ['blob, i64, i64, string', 'blob, range, string', 'blob, range=, string'],
  },
};

/** Names Rhai also registers as property getters (`s.len`, `x.is_nan`, `r.start`, `n.bits`). */
export const PROPERTY_GETTERS = new Set([
  'len',
  'is_empty',
  'bytes',
  'name',
  'is_anonymous',
  'start',
  'end',
  'is_inclusive',
  'is_exclusive',
  'floor',
  'ceiling',
  'round',
  'int',
  'fraction',
  'is_nan',
  'is_finite',
  'is_infinite',
  'bits',
  'chars',
  'is_zero',
  'is_odd',
  'is_even',
  'elapsed',
]);

type ParamCheck = (v: RhaiValue) => boolean;

const any: ParamCheck = () => true;
const fnPointer: ParamCheck = (v) => v instanceof FnPtr;
const fnOrName: ParamCheck = (v) => v instanceof FnPtr || typeof v === 'string';

/** Direct type tests (no type-name string is built on the path of every native call). */
const TYPE_CHECKS: Record<string, ParamCheck> = {
  '()': (v) => v === undefined,
  bool: (v) => typeof v === 'boolean',
  i64: (v) => typeof v === 'number' || typeof v === 'bigint',
  string: (v) => typeof v === 'string',
  f64: (v) => v instanceof RhaiFloat,
  char: (v) => v instanceof RhaiChar,
  array: (v) => Array.isArray(v),
  map: (v) => v instanceof Map,
  blob: (v) => v instanceof RhaiBlob,
  timestamp: (v) => v instanceof RhaiTimestamp,
};

function paramCheck(type: string): ParamCheck {
  if (type === '?') return any;
  if (type === 'Fn') return fnPointer;
  if (type === 'fn') return fnOrName;
  return TYPE_CHECKS[type] ?? ((v) => typeName(v) === type);
}

interface Overload {
  params: ParamCheck[];
  variadic: boolean;
}

function compile(overload: string): Overload {
  const types = overload === '' ? [] : overload.split(', ');
  const variadic = types[types.length - 1] === '...';
  if (variadic) types.pop();
  return { params: types.map(paramCheck), variadic };
}

function accepts(o: Overload, args: RhaiValue[]): boolean {
  const n = o.params.length;
  if (o.variadic ? args.length < n : args.length !== n) return false;
  for (let i = 0; i < n; i++) if (!o.params[i]!(args[i])) return false;
  return true;
}

/** For each name, a test of whether some overload takes these arguments. */
export function overloadMatchers(): Map<string, (args: RhaiValue[]) => boolean> {
  const out = new Map<string, (args: RhaiValue[]) => boolean>();
  for (const [name, { overloads }] of Object.entries(SIGNATURES)) {
    const compiled = overloads.map(compile);
    out.set(name, (args) => {
      for (const o of compiled) if (accepts(o, args)) return true;
      return false;
    });
  }
  return out;
}
