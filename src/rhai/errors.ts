// Rhai's EvalAltResult / ParseError variants as one JS error type.
import type { RhaiValue } from './values.ts';

export interface Pos {
  line: number;
  column: number;
}
export const NO_POS: Pos = { line: 0, column: 0 };

export class RhaiError extends Error {
  /** Rhai's EvalAltResult variant, e.g. 'ErrorRuntime', 'ErrorParsing'. */
  kind: string;
  /** For 'ErrorInFunctionCall': the innermost variant. */
  innerKind?: string;
  /** 1-based; 0 when unknown. */
  line: number;
  column: number;
  /** For 'ErrorInFunctionCall': the wrapped error. */
  inner?: RhaiError;
  /** For 'ErrorRuntime': the thrown value. */
  value?: RhaiValue;
  /** For 'ErrorInFunctionCall': the function's name. */
  fnName?: string;
  /** The bare description, without the position suffix. */
  detail: string;
  /** Extra fields a `catch` map shows (Rhai's dump_fields): `index`, `length`, `function`, ... */
  fields?: Record<string, RhaiValue>;
  /** The module file (its id) the error happened in, when not the script itself (Rhai's `source`). */
  source?: string;
  /** For ErrorModuleNotFound: the embedder's reason tag from its module resolver (`missing`, `outside`, ...). */
  reason?: string;
  /**
   * False for errors raised inside native functions and operators: Rhai gives those no position,
   * so a `catch` map has no `line`/`position` (the CLI still reports where the call was).
   */
  rhaiHasPosition = true;

  constructor(kind: string, detail: string, pos: Pos = NO_POS) {
    super(detail);
    this.name = 'RhaiError';
    this.kind = kind;
    this.detail = detail;
    this.line = pos.line;
    this.column = pos.column;
    this.refreshMessage();
  }

  hasPosition(): boolean {
    return this.line > 0;
  }

  setPosition(pos: Pos): this {
    this.line = pos.line;
    this.column = pos.column;
    this.refreshMessage();
    return this;
  }

  private refreshMessage(): void {
    this.message = this.line > 0 ? `${this.detail} (line ${this.line}, position ${this.column})` : this.detail;
  }
}

/** Errors that abort the whole run (`ErrorExit` is `exit(value)`, which the run turns into its value): not catchable by try/catch, never wrapped in ErrorInFunctionCall. */
const SYSTEM_KINDS = new Set([
  'ErrorExit',
  'ErrorTooManyOperations',
  'ErrorStackOverflow',
  'ErrorDataTooLarge',
  'ErrorTerminated',
  'ErrorSystem',
  'ErrorParsing',
]);

export function isSystemError(e: RhaiError): boolean {
  return SYSTEM_KINDS.has(e.kind);
}

/** How an error names the call it passed through: `in call to function 'f'` or `in closure call`. */
export function callSiteLabel(fnName: string): string {
  return fnName.startsWith('anon$') ? 'in closure call' : `in call to function '${fnName}'`;
}

export function wrapInFunctionCall(fnName: string, inner: RhaiError, callPos: Pos): RhaiError {
  const err = new RhaiError('ErrorInFunctionCall', `${inner.message}\n${callSiteLabel(fnName)}`, callPos);
  err.inner = inner;
  err.fnName = fnName;
  err.innerKind = inner.innerKind ?? inner.kind;
  err.fields = { function: fnName, source: '' };
  return err;
}

/**
 * The error's text as Rhai's `impl Display for EvalAltResult` writes it: a wrapper shows its
 * inner error's text (with that error's position) then `in call to function 'f'`; `withPosition`
 * appends ` (line L, position C)` when Rhai knows one.
 */
export function rhaiDisplayText(e: RhaiError, withPosition: boolean): string {
  const body =
    e.kind === 'ErrorInFunctionCall' && e.inner && e.fnName !== undefined
      ? `${rhaiDisplayText(e.inner, true)}\n${callSiteLabel(e.fnName)}`
      : e.detail;
  return withPosition && rhaiKnowsPosition(e) ? `${body} (line ${e.line}, position ${e.column})` : body;
}

export function rhaiKnowsPosition(e: RhaiError): boolean {
  return e.line > 0 && e.rhaiHasPosition;
}

/**
 * Where an error happened, as a file, line and column: the innermost error that has a position,
 * in the file the chain reached it through (`rootFile` until an error from a module file, which
 * names it as its `source`, hands over to that file).
 */
export function errorLocation(e: RhaiError, rootFile: string): { file: string; line: number; column: number } {
  let file = rootFile;
  let best = { file, line: e.line, column: e.column };
  for (let cur: RhaiError | undefined = e; cur; cur = cur.inner) {
    // A wrapper's own position is in the file that called; an error without an inner one is where it says.
    if (cur.line > 0) best = { file: cur.inner ? file : (cur.source ?? file), line: cur.line, column: cur.column };
    if (cur.source !== undefined) file = cur.source;
  }
  return best;
}

export function innermost(e: RhaiError): RhaiError {
  let cur = e;
  while (cur.inner) cur = cur.inner;
  return cur;
}

export const parseError = (detail: string, pos: Pos): RhaiError => new RhaiError('ErrorParsing', detail, pos);
export function arithmeticError(detail: string, pos: Pos = NO_POS): RhaiError {
  const err = new RhaiError('ErrorArithmetic', detail, pos);
  err.rhaiHasPosition = false;
  return err;
}

function withFields(err: RhaiError, fields: Record<string, RhaiValue>): RhaiError {
  err.fields = fields;
  return err;
}

// Messages follow Rhai's `impl Display for EvalAltResult` (src/types/error.rs).
export const mismatchError = (expected: string, actual: string, pos: Pos = NO_POS): RhaiError =>
  withFields(new RhaiError('ErrorMismatchDataType', `Data type incorrect: ${actual} (expecting ${expected})`, pos), {
    requested: expected,
    actual,
  });
export const fnNotFound = (signature: string, pos: Pos = NO_POS): RhaiError =>
  withFields(new RhaiError('ErrorFunctionNotFound', `Function not found: ${signature}`, pos), { function: signature });
export const variableNotFound = (name: string, pos: Pos): RhaiError =>
  withFields(new RhaiError('ErrorVariableNotFound', `Variable not found: ${name}`, pos), { variable: name });
export const assignmentToConstant = (name: string, pos: Pos): RhaiError =>
  withFields(new RhaiError('ErrorAssignmentToConstant', `Cannot modify constant ${name}`, pos), { variable: name });
export const dotExprError = (property: string, detail: string, pos: Pos): RhaiError =>
  withFields(new RhaiError('ErrorDotExpr', detail, pos), { property });
export const indexingTypeError = (type: string, pos: Pos): RhaiError =>
  withFields(new RhaiError('ErrorIndexingType', `Indexer unavailable: ${type}`, pos), { type });

/** ErrorArrayBounds / ErrorStringBounds with Rhai's wording. */
export function boundsError(
  kind: 'ErrorArrayBounds' | 'ErrorStringBounds',
  length: number,
  index: RhaiValue,
  pos: Pos,
): RhaiError {
  const [what, unit, container] =
    kind === 'ErrorArrayBounds' ? ['Array', 'element', 'array'] : ['String', 'character', 'string'];
  const detail =
    length === 0
      ? `${what} index ${String(index)} out of bounds: ${container} is empty`
      : `${what} index ${String(index)} out of bounds: only ${length} ${unit}${length === 1 ? '' : 's'} in ${container}`;
  return withFields(new RhaiError(kind, detail, pos), { length, index });
}

export function bitFieldBoundsError(index: RhaiValue, pos: Pos): RhaiError {
  return withFields(
    new RhaiError(
      'ErrorBitFieldBounds',
      `Bit-field index ${String(index)} out of bounds: only 64 bits in bit-field`,
      pos,
    ),
    { length: 64, index },
  );
}

/** A JS engine stack overflow (deep recursion in the parser or evaluator). */
export function isJsStackOverflow(e: unknown): boolean {
  return e instanceof RangeError && /call stack/i.test(e.message);
}

export const stackOverflow = (pos: Pos = NO_POS): RhaiError =>
  new RhaiError('ErrorStackOverflow', 'Stack overflow', pos);

/** ErrorDataTooLarge: `what` is 'Length of string', 'Size of array/BLOB' or 'Size of object map' (Rhai 1.26's words). */
export const dataTooLarge = (what: string, pos?: Pos): RhaiError =>
  withFields(new RhaiError('ErrorDataTooLarge', `${what} too large`, pos), { type: what });

export function runtimeErrorMessage(text: string): string {
  return text === '' ? 'Runtime error' : `Runtime error: ${text}`;
}
