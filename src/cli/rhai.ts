// `lev rhai FILE.rhai` runs a script and prints its print lines, then the Debug form of its value.
// `lev rhai --cases CASES.json` runs a conformance file and ends with `N passed, M failed`.
import { readFileSync } from 'node:fs';
import { debugString, evaluate, RhaiError, type RhaiLimits } from '../rhai/index.ts';
import { callSiteLabel } from '../rhai/errors.ts';
import { runCase, validateCases, type CaseResult, type ConformanceCase } from '../rhai/conformance.ts';
import { EXIT_FINDINGS, EXIT_OK, parseArgs, unknownFlag, usageError, type Command } from './io.ts';

export const USAGE = 'usage: lev rhai FILE.rhai [--max-operations N] [--json]\n       lev rhai --cases CASES.json [--max-operations N] [--json]';

function readText(path: string): string | { error: string } {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { error: `lev rhai: file not found: ${path}` };
    if (code === 'EISDIR') return { error: `lev rhai: ${path} is a directory, not a file` };
    return { error: `lev rhai: cannot read ${path}: ${(e as Error).message}` };
  }
}

/** `Kind: message` at the failing spot, then each enclosing function call, innermost first. */
function describeError(e: RhaiError, file: string): string {
  const wrappers: RhaiError[] = [];
  let inner = e;
  while (inner.inner) { wrappers.push(inner); inner = inner.inner; }
  const kind = inner === e ? e.kind : `${e.kind} (${inner.kind})`;
  const lines = [`${kind}: ${inner.detail}`, `  at ${file}:${inner.line}:${inner.column}`];
  for (const w of wrappers.reverse()) {
    lines.push(`  ${callSiteLabel(w.fnName!)} at ${file}:${w.line}:${w.column}`);
  }
  return lines.join('\n');
}

function runScript(file: string, limits: RhaiLimits, json: boolean): number {
  const source = readText(file);
  if (typeof source !== 'string') { console.error(source.error); return EXIT_FINDINGS; }
  const prints: string[] = [];
  try {
    const { value } = evaluate(source, { limits, onPrint: (t) => { prints.push(t); if (!json) console.log(t); } });
    if (json) console.log(JSON.stringify({ prints, value: debugString(value) }));
    else console.log(debugString(value));
    return EXIT_OK;
  } catch (e) {
    if (!(e instanceof RhaiError)) throw e;
    if (json) {
      console.log(JSON.stringify({
        prints,
        error: { kind: e.kind, innerKind: e.innerKind, message: e.message, file, line: e.line, column: e.column },
      }));
    } else console.error(describeError(e, file));
    return EXIT_FINDINGS;
  }
}

const showExpectation = (x: CaseResult['expected'] | CaseResult['actual']): string => {
  const main = x.error ? `error ${x.error}${x.inner_error ? ` (inner ${x.inner_error})` : ''}` : `value ${x.debug}`;
  return x.prints.length ? `${main}, prints ${JSON.stringify(x.prints)}` : main;
};

function runCases(file: string, limits: RhaiLimits, json: boolean): number {
  const text = readText(file);
  if (typeof text !== 'string') { console.error(text.error); return EXIT_FINDINGS; }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    console.error(`lev rhai: ${file} is not valid JSON: ${(e as Error).message}`);
    return EXIT_FINDINGS;
  }
  const problem = validateCases(data);
  if (problem) { console.error(`lev rhai: ${file}: ${problem}`); return EXIT_FINDINGS; }
  const results = (data as ConformanceCase[]).map((c) => runCase(c, limits));
  const failures = results.filter((r) => !r.passed);
  const summary = `${results.length - failures.length} passed, ${failures.length} failed`;
  if (json) {
    console.log(JSON.stringify({ passed: results.length - failures.length, failed: failures.length, failures, summary }));
    console.error(summary);
  } else {
    const scripts = new Map((data as ConformanceCase[]).map((c) => [c.id, c.script]));
    for (const f of failures) {
      console.log(`FAIL ${f.id}: ${scripts.get(f.id)}`);
      console.log(`  expected: ${showExpectation(f.expected)}`);
      console.log(`  actual:   ${showExpectation(f.actual)}${f.actual.message ? `\n            ${f.actual.message}` : ''}`);
    }
    console.log(summary);
  }
  return failures.length ? EXIT_FINDINGS : EXIT_OK;
}

export const run: Command = async (args) => {
  const parsed = parseArgs(args, ['cases', 'max-operations']);
  const bad = unknownFlag(parsed, ['cases', 'max-operations', 'json']);
  if (bad) return usageError(`rhai: unknown option --${bad}\n${USAGE}`);
  const json = parsed.flags.has('json');
  const limits: RhaiLimits = {};
  const maxOps = parsed.flags.get('max-operations');
  if (maxOps !== undefined) {
    const n = Number(maxOps);
    if (maxOps === true || !Number.isInteger(n) || n < 0) return usageError(`rhai: --max-operations needs a whole number >= 0, got ${String(maxOps)}`);
    limits.maxOperations = n;
  }
  const cases = parsed.flags.get('cases');
  if (cases !== undefined) {
    if (cases === true) return usageError(`rhai: --cases needs a file\n${USAGE}`);
    if (parsed.positional.length) return usageError(`rhai: give either FILE.rhai or --cases, not both\n${USAGE}`);
    return runCases(cases, limits, json);
  }
  if (parsed.positional.length !== 1) return usageError(`rhai: expected one script file\n${USAGE}`);
  return runScript(parsed.positional[0]!, limits, json);
};
