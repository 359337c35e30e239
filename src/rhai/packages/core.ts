// Language-level functions (src/packages/lang_core.rs, fn_basic.rs, iter_basic.rs).
import { chargeFormatting, debugString, displayString, toDebugText } from '../format.ts';
import { chargeItems, chargeNewItems } from '../cost.ts';
import { NO_POS, RhaiError, wrapInFunctionCall } from '../errors.ts';
import { checkArrayLength, checkNestedSizes } from '../runtime.ts';
import { bitNumber } from './bits.ts';
import { parseJson } from './json.ts';
import { rangeContains, toFloat } from '../ops.ts';
import { FnPtr, normInt, RhaiFloat, RhaiRange, typeName, type RhaiValue } from '../values.ts';
import { fnNameProblem, intArg, isIntArg, NO_MATCH, rangeSpan, type Library, type NativeContext } from './types.ts';

/** Rhai's StepRange::new reports a zero step as a failed call to `range`. */
function checkedStep(step: number): number {
  if (step === 0)
    throw wrapInFunctionCall('range', new RhaiError('ErrorArithmetic', 'step value cannot be zero'), NO_POS);
  return step;
}

/** `bits(n[, from[, len]])` / `bits(n, range)`: the bits as bools, lowest first (iter_basic.rs). */
function bitList(args: RhaiValue[]): RhaiValue[] {
  const [x, from, len] = args;
  let start = 0;
  let count = 64;
  if (from instanceof RhaiRange) ({ start, count } = rangeSpan(from));
  else if (from !== undefined) {
    start = bitNumber(intArg(from as number | bigint));
    count = len === undefined ? 64 - start : Math.max(0, intArg(len as number | bigint));
  }
  const value = BigInt.asUintN(64, BigInt(x as number | bigint));
  const out: RhaiValue[] = [];
  for (let bit = start; bit < Math.min(64, start + count); bit++) out.push(((value >> BigInt(bit)) & 1n) === 1n);
  return out;
}

/**
 * `range(from, to[, step])`. For INT it is lazy like Rhai's iterator (a RhaiRange with a step);
 * a FLOAT range is listed as an array of the values it yields.
 */
function stepRange(args: RhaiValue[], ctx: NativeContext): RhaiValue {
  const [a, b, s] = args;
  if (a instanceof RhaiRange) {
    // range(from..to, step)
    const step = checkedStep(intArg(b as number | bigint));
    return new RhaiRange(a.start, a.inclusive ? normInt(BigInt(a.end) + 1n) : a.end, false, step);
  }
  if (isIntArg(a)) {
    const step = args.length === 3 ? checkedStep(intArg(s as number | bigint)) : 1;
    return new RhaiRange(a, b as number | bigint, false, step);
  }
  const from = toFloat(a)!;
  const to = toFloat(b)!;
  const step = checkedStep(toFloat(s)!);
  // Refused before it is listed: a FLOAT range is an array here (Rhai's is a lazy iterator).
  checkArrayLength(ctx.runtime, Math.max(0, Math.ceil((to - from) / step)));
  const out: RhaiValue[] = [];
  if (step > 0) for (let x = from; x < to; x += step) out.push(new RhaiFloat(x));
  else for (let x = from; x > to; x += step) out.push(new RhaiFloat(x));
  return out;
}

export const coreLib: Library = {
  type_of: (args) => (args.length === 1 ? typeName(args[0]) : NO_MATCH),
  print: (args, ctx) => {
    if (args.length !== 1) return NO_MATCH;
    chargeFormatting(ctx.runtime, args[0]);
    ctx.print(displayString(args[0]));
    return undefined;
  },
  debug: (args, ctx) => {
    if (args.length !== 1) return NO_MATCH;
    chargeFormatting(ctx.runtime, args[0]);
    ctx.debug(typeof args[0] === 'string' ? debugString(args[0]) : toDebugText(args[0]));
    return undefined;
  },
  Fn: (args) => {
    const [name] = args;
    if (args.length !== 1 || typeof name !== 'string') return NO_MATCH;
    // FnPtr::try_from: a keyword, reserved word or keyword function is a parse error, raised at run time.
    const problem = fnNameProblem(name);
    if (problem === 'reserved') throw new RhaiError('ErrorParsing', `'${name}' is a reserved keyword`);
    if (problem === 'invalid')
      throw new RhaiError('ErrorFunctionNotFound', `Function not found: ${name} (invalid function name)`);
    return new FnPtr(name);
  },
  call: (args, ctx) => {
    const [fp, ...rest] = args;
    return fp instanceof FnPtr ? ctx.call(fp, rest) : NO_MATCH;
  },
  curry: (args, ctx) => {
    const [fp, ...rest] = args;
    if (!(fp instanceof FnPtr)) return NO_MATCH;
    // A curried argument list is an array: it counts toward the array size limit (all its items,
    // at every depth) and building it is charged, so `f = f.curry(x)` in a loop is bounded.
    const curried = [...fp.curry, ...rest];
    checkNestedSizes(ctx.runtime, curried);
    chargeItems(ctx.runtime, curried.length);
    return new FnPtr(fp.name, curried, fp.closure);
  },
  is_def_fn: (args, ctx) => {
    const [name, arity] = args;
    return typeof name === 'string' && isIntArg(arity) && args.length === 2
      ? ctx.hasScriptFn(name, intArg(arity))
      : NO_MATCH;
  },
  name: ([fp]) => (fp instanceof FnPtr ? fp.name : NO_MATCH),
  is_anonymous: ([fp]) => (fp instanceof FnPtr ? fp.isAnonymous : NO_MATCH),
  range: stepRange,
  start: ([r]) => (r instanceof RhaiRange ? r.start : NO_MATCH),
  end: ([r]) => (r instanceof RhaiRange ? r.end : NO_MATCH),
  is_inclusive: ([r]) => (r instanceof RhaiRange ? r.inclusive : NO_MATCH),
  is_exclusive: ([r]) => (r instanceof RhaiRange ? !r.inclusive : NO_MATCH),
  contains: ([r, x]) => (r instanceof RhaiRange && isIntArg(x) ? rangeContains(r, x) : NO_MATCH),
  is_empty: ([r]) => (r instanceof RhaiRange ? (r.inclusive ? r.start > r.end : r.start >= r.end) : NO_MATCH),
  bits: bitList,
  // The value moves out: the variable (or property) it came from is left holding ().
  take: (args) => {
    const value = args[0];
    args[0] = undefined;
    return value;
  },
  parse_json: (args, ctx) => {
    // Lexing makes a token object for about every other char: charged at the new-value rate.
    chargeNewItems(ctx.runtime, (args[0] as string).length);
    return parseJson(args[0] as string, ctx.runtime);
  },
  exit: (args) => {
    const stop = new RhaiError('ErrorExit', 'Script terminated');
    stop.value = args[0];
    throw stop;
  },
};
