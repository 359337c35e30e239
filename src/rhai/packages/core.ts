// Language-level functions (src/packages/lang_core.rs, fn_basic.rs, iter_basic.rs).
import { debugString, displayString, toDebugText } from '../format.ts';
import { RhaiError } from '../errors.ts';
import { rangeContains, toFloat } from '../ops.ts';
import { FnPtr, RhaiFloat, RhaiRange, typeName, type RhaiValue } from '../values.ts';
import { intArg, isIntArg, NO_MATCH, type Library } from './types.ts';

const IDENT_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * `range(from, to[, step])`. For INT it is lazy like Rhai's iterator (a RhaiRange with a step);
 * a FLOAT range is listed as an array of the values it yields.
 */
function stepRange(args: RhaiValue[]): RhaiValue | typeof NO_MATCH {
  const [a, b, s] = args;
  if (args.length < 2 || args.length > 3) return NO_MATCH;
  if (isIntArg(a) && isIntArg(b) && (args.length === 2 || isIntArg(s))) {
    const step = args.length === 3 ? intArg(s as number | bigint) : 1;
    if (step === 0) throw new RhaiError('ErrorArithmetic', 'Step value cannot be zero');
    return new RhaiRange(intArg(a), intArg(b), false, step);
  }
  const from = toFloat(a);
  const to = toFloat(b);
  const step = args.length === 3 ? toFloat(s) : 1;
  if (from === undefined || to === undefined || step === undefined) return NO_MATCH;
  if (step === 0) throw new RhaiError('ErrorArithmetic', 'Step value cannot be zero');
  const out: RhaiValue[] = [];
  if (step > 0) for (let x = from; x < to; x += step) out.push(new RhaiFloat(x));
  else for (let x = from; x > to; x += step) out.push(new RhaiFloat(x));
  return out;
}

export const coreLib: Library = {
  type_of: (args) => (args.length === 1 ? typeName(args[0]) : NO_MATCH),
  print: (args, ctx) => {
    if (args.length !== 1) return NO_MATCH;
    ctx.print(displayString(args[0]));
    return undefined;
  },
  debug: (args, ctx) => {
    if (args.length !== 1) return NO_MATCH;
    ctx.debug(typeof args[0] === 'string' ? debugString(args[0]) : toDebugText(args[0]));
    return undefined;
  },
  Fn: (args) => {
    const [name] = args;
    if (args.length !== 1 || typeof name !== 'string') return NO_MATCH;
    if (!IDENT_RE.test(name)) throw new RhaiError('ErrorFunctionNotFound', `Function not found: ${name} (invalid function name)`);
    return new FnPtr(name);
  },
  call: (args, ctx) => {
    const [fp, ...rest] = args;
    return fp instanceof FnPtr ? ctx.call(fp, rest) : NO_MATCH;
  },
  curry: (args) => {
    const [fp, ...rest] = args;
    return fp instanceof FnPtr ? new FnPtr(fp.name, [...fp.curry, ...rest], fp.closure) : NO_MATCH;
  },
  is_def_fn: (args, ctx) => {
    const [name, arity] = args;
    return typeof name === 'string' && isIntArg(arity) && args.length === 2 ? ctx.hasScriptFn(name, intArg(arity)) : NO_MATCH;
  },
  name: ([fp]) => (fp instanceof FnPtr ? fp.name : NO_MATCH),
  is_anonymous: ([fp]) => (fp instanceof FnPtr ? fp.isAnonymous : NO_MATCH),
  range: stepRange,
  start: ([r]) => (r instanceof RhaiRange ? r.start : NO_MATCH),
  end: ([r]) => (r instanceof RhaiRange ? r.end : NO_MATCH),
  is_inclusive: ([r]) => (r instanceof RhaiRange ? r.inclusive : NO_MATCH),
  is_exclusive: ([r]) => (r instanceof RhaiRange ? !r.inclusive : NO_MATCH),
  contains: ([r, x]) => (r instanceof RhaiRange && isIntArg(x) ? rangeContains(r, Number(x)) : NO_MATCH),
  len: ([r]) => (r instanceof RhaiRange && r.step === 1 ? Math.max(0, r.end - r.start + (r.inclusive ? 1 : 0)) : NO_MATCH),
};
