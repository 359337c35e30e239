// Rhai's EvalAltResult / ParseError variants as one JS error type.
import type { RhaiValue } from './values.ts';

export interface Pos { line: number; column: number }
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

  constructor(kind: string, detail: string, pos: Pos = NO_POS) {
    super(detail);
    this.name = 'RhaiError';
    this.kind = kind;
    this.detail = detail;
    this.line = pos.line;
    this.column = pos.column;
    this.refreshMessage();
  }

  hasPosition(): boolean { return this.line > 0; }

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

/** Errors that abort the whole run: not catchable by try/catch, never wrapped in ErrorInFunctionCall. */
const SYSTEM_KINDS = new Set(['ErrorTooManyOperations', 'ErrorStackOverflow', 'ErrorDataTooLarge', 'ErrorTerminated', 'ErrorSystem', 'ErrorParsing']);

export function isSystemError(e: RhaiError): boolean {
  return SYSTEM_KINDS.has(e.kind);
}

export function wrapInFunctionCall(fnName: string, inner: RhaiError, callPos: Pos): RhaiError {
  const err = new RhaiError('ErrorInFunctionCall', `Error in call to function '${fnName}': ${inner.message}`, callPos);
  err.inner = inner;
  err.fnName = fnName;
  err.innerKind = inner.innerKind ?? inner.kind;
  return err;
}

export function innermost(e: RhaiError): RhaiError {
  let cur = e;
  while (cur.inner) cur = cur.inner;
  return cur;
}

export const parseError = (detail: string, pos: Pos): RhaiError => new RhaiError('ErrorParsing', detail, pos);
export const arithmeticError = (detail: string, pos: Pos = NO_POS): RhaiError => new RhaiError('ErrorArithmetic', detail, pos);
export const mismatchError = (expected: string, actual: string, pos: Pos = NO_POS): RhaiError =>
  new RhaiError('ErrorMismatchDataType', `Data type is incorrect: ${actual} (expecting ${expected})`, pos);
export const fnNotFound = (signature: string, pos: Pos = NO_POS): RhaiError =>
  new RhaiError('ErrorFunctionNotFound', `Function not found: ${signature}`, pos);
