// Runs scripts in the conformance-case format (shared/rhai-conformance/cases.json): one script,
// and what real Rhai returned for it (the Debug form, or the error variant).
import { debugString, evaluate, RhaiError, type RhaiLimits } from './index.ts';

export interface ConformanceExpectation {
  debug?: string;
  error?: string;
  inner_error?: string;
}

export interface ConformanceCase {
  id: string;
  feature?: string;
  script: string;
  expect: ConformanceExpectation;
  prints?: string[];
  source?: string;
}

export interface CaseResult {
  id: string;
  passed: boolean;
  expected: ConformanceExpectation & { prints: string[] };
  actual: ConformanceExpectation & { prints: string[]; message?: string };
}

/** Runs one case and compares the result, the error variants and the printed lines. */
export function runCase(c: ConformanceCase, limits?: RhaiLimits): CaseResult {
  const prints: string[] = [];
  let actual: CaseResult['actual'];
  try {
    const { value } = evaluate(c.script, { limits, onPrint: (t) => prints.push(t) });
    actual = { debug: debugString(value), prints };
  } catch (e) {
    if (!(e instanceof RhaiError)) throw e;
    actual = { error: e.kind, prints, message: e.message };
    if (e.kind === 'ErrorInFunctionCall') actual.inner_error = e.innerKind;
  }
  const expected = { ...c.expect, prints: c.prints ?? [] };
  const samePrints =
    c.prints === undefined && 'error' in c.expect ? true : JSON.stringify(expected.prints) === JSON.stringify(prints);
  const passed =
    samePrints &&
    actual.debug === expected.debug &&
    actual.error === expected.error &&
    actual.inner_error === expected.inner_error;
  return { id: c.id, passed, expected, actual };
}

/** Checks the shape of a parsed cases file; returns a message naming the first bad entry. */
export function validateCases(data: unknown): string | undefined {
  if (!Array.isArray(data)) return 'expected a JSON array of cases';
  for (let i = 0; i < data.length; i++) {
    const c = data[i] as Partial<ConformanceCase> | null;
    const where = `case [${i}]${c && typeof c.id === 'string' ? ` (${c.id})` : ''}`;
    if (!c || typeof c !== 'object') return `${where}: expected an object`;
    if (typeof c.id !== 'string') return `${where}: "id" must be a string`;
    if (typeof c.script !== 'string') return `${where}: "script" must be a string`;
    if (!c.expect || typeof c.expect !== 'object') return `${where}: "expect" must be an object`;
    if (typeof c.expect.debug !== 'string' && typeof c.expect.error !== 'string') {
      return `${where}: "expect" needs "debug" or "error"`;
    }
    if (c.prints !== undefined && (!Array.isArray(c.prints) || c.prints.some((p) => typeof p !== 'string'))) {
      return `${where}: "prints" must be an array of strings`;
    }
  }
  return undefined;
}
