// `lev rhai FILE.rhai` runs a script and prints its print lines, then the Debug form of its value.
// `lev rhai --cases CASES.json` runs a conformance file and ends with `N passed, M failed`.
import {
  compile,
  debugString,
  DEFAULT_LIMITS,
  LIMIT_DESCRIPTIONS,
  PLAYGROUND_LIMITS,
  RhaiError,
  type RhaiLimits,
} from '../rhai/index.ts';
import { callSiteLabel } from '../rhai/errors.ts';
import { runCase, validateCases, type CaseResult, type ConformanceCase } from '../rhai/conformance.ts';
import {
  CASES_INPUT,
  EXIT_FINDINGS,
  EXIT_OK,
  parseArgs,
  readProblem,
  readText as readInput,
  SCRIPT_INPUT,
  unknownFlag,
  usageError,
  type Command,
  type InputLimit,
} from './io.ts';
import { fmt, itemAt } from '../engine/index.ts';

/** `--max-operations` for maxOperations, and so on. */
const LIMIT_FLAGS = Object.keys(LIMIT_DESCRIPTIONS).map((key) => ({
  key: key as keyof RhaiLimits,
  flag: key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`),
}));

const showLimit = (n: number): string => (n === 0 ? 'unlimited' : fmt(n));

/** Characters a script may print (print lines, newlines included) before it is stopped: `--max-output`. */
export const DEFAULT_MAX_OUTPUT = 10_000_000;

export const USAGE = [
  'usage: lev rhai FILE.rhai [limits] [--json]',
  '       lev rhai --cases CASES.json [limits] [--json]',
  '',
  'Runs with the same limits as a custom region on the page; a runaway script ends with',
  'ErrorTooManyOperations, ErrorStackOverflow or ErrorDataTooLarge and its position.',
  'limits (N = 0 means unlimited):',
  ...LIMIT_FLAGS.map(
    ({ key, flag }) =>
      `  --${flag} N`.padEnd(34) + `${LIMIT_DESCRIPTIONS[key]} (default ${showLimit(PLAYGROUND_LIMITS[key])})`,
  ),
  `  --no-limits`.padEnd(34) +
    "Rhai's own defaults instead: no operation or size limit, call depth " +
    `${DEFAULT_LIMITS.maxCallDepth}, expression depth ${DEFAULT_LIMITS.maxExprDepth}/${DEFAULT_LIMITS.maxFunctionExprDepth}`,
  `  --max-output N`.padEnd(34) +
    `characters print may write before the script is stopped (default ${fmt(DEFAULT_MAX_OUTPUT)}; 0 = unlimited)`,
  '',
  'print lines are written as they come (with --json, kept for the JSON up to --max-output).',
].join('\n');

function readText(path: string, limit: InputLimit): string | { error: string } {
  try {
    return readInput(path, limit);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { error: `lev rhai: file not found: ${path}` };
    if (code === 'EISDIR') return { error: `lev rhai: ${path} is a directory, not a file` };
    const problem = readProblem(e, path);
    if (problem !== undefined && code === undefined) return { error: `lev rhai: ${problem}` };
    return { error: `lev rhai: cannot read ${path}: ${(e as Error).message}` };
  }
}

/**
 * Where print lines go: written out as they come (and with --json kept for the JSON), up to
 * `max` characters; the line that passes it stops the script with ErrorTerminated naming the flag.
 */
function printSink(max: number, keep: boolean): { onPrint: (text: string) => void; kept: string[] } {
  const kept: string[] = [];
  let written = 0;
  const onPrint = (text: string): void => {
    written += text.length + 1;
    if (max > 0 && written > max) {
      throw new RhaiError(
        'ErrorTerminated',
        `Script terminated: its print output passed ${fmt(max)} characters (raise --max-output to allow more)`,
      );
    }
    if (keep) kept.push(text);
    else console.log(text);
  };
  return { onPrint, kept };
}

/** `Kind: message` at the failing spot, then each enclosing function call, innermost first. */
function describeError(e: RhaiError, file: string): string {
  const wrappers: RhaiError[] = [];
  let inner = e;
  while (inner.inner) {
    wrappers.push(inner);
    inner = inner.inner;
  }
  const kind = inner === e ? e.kind : `${e.kind} (${inner.kind})`;
  const lines = [`${kind}: ${inner.detail}`, `  at ${file}:${inner.line}:${inner.column}`];
  for (const w of wrappers.reverse()) {
    lines.push(`  ${callSiteLabel(w.fnName!)} at ${file}:${w.line}:${w.column}`);
  }
  return lines.join('\n');
}

/**
 * Never a JS stack trace: a failure of the interpreter itself (a bug, or a value too deeply nested
 * to print) is one line naming the script.
 */
function interpreterFailure(file: string, e: unknown): number {
  const what =
    e instanceof RangeError && /call stack/i.test(e.message)
      ? 'the result is nested too deeply to print'
      : `internal error: ${e instanceof Error ? e.message : String(e)}`;
  console.error(`lev rhai: ${file}: ${what}`);
  return EXIT_FINDINGS;
}

function runScript(file: string, limits: RhaiLimits, json: boolean, maxOutput: number): number {
  const source = readText(file, SCRIPT_INPUT);
  if (typeof source !== 'string') {
    console.error(source.error);
    return EXIT_FINDINGS;
  }
  const { onPrint, kept: prints } = printSink(maxOutput, json);
  try {
    const value = compile(source, { limits }).run({ limits, onPrint });
    if (json) console.log(JSON.stringify({ prints, value: debugString(value) }));
    else console.log(debugString(value));
    return EXIT_OK;
  } catch (e) {
    if (!(e instanceof RhaiError)) return interpreterFailure(file, e);
    if (json) {
      console.log(
        JSON.stringify({
          prints,
          error: { kind: e.kind, innerKind: e.innerKind, message: e.message, file, line: e.line, column: e.column },
        }),
      );
    } else console.error(describeError(e, file));
    return EXIT_FINDINGS;
  }
}

const showExpectation = (x: CaseResult['expected'] | CaseResult['actual']): string => {
  const main = x.error ? `error ${x.error}${x.inner_error ? ` (inner ${x.inner_error})` : ''}` : `value ${x.debug}`;
  return x.prints.length ? `${main}, prints ${JSON.stringify(x.prints)}` : main;
};

function runCases(file: string, limits: RhaiLimits, json: boolean): number {
  const text = readText(file, CASES_INPUT);
  if (typeof text !== 'string') {
    console.error(text.error);
    return EXIT_FINDINGS;
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    console.error(`lev rhai: ${file} is not valid JSON: ${(e as Error).message}`);
    return EXIT_FINDINGS;
  }
  const problem = validateCases(data);
  if (problem) {
    console.error(`lev rhai: ${file}: ${problem}`);
    return EXIT_FINDINGS;
  }
  let results: CaseResult[];
  try {
    results = (data as ConformanceCase[]).map((c) => runCase(c, limits));
  } catch (e) {
    return interpreterFailure(file, e);
  }
  const failures = results.filter((r) => !r.passed);
  const summary = `${results.length - failures.length} passed, ${failures.length} failed`;
  if (json) {
    console.log(
      JSON.stringify({ passed: results.length - failures.length, failed: failures.length, failures, summary }),
    );
    console.error(summary);
  } else {
    const scripts = new Map((data as ConformanceCase[]).map((c) => [c.id, c.script]));
    for (const f of failures) {
      console.log(`FAIL ${f.id}: ${scripts.get(f.id)}`);
      console.log(`  expected: ${showExpectation(f.expected)}`);
      console.log(
        `  actual:   ${showExpectation(f.actual)}${f.actual.message ? `\n            ${f.actual.message}` : ''}`,
      );
    }
    console.log(summary);
  }
  return failures.length ? EXIT_FINDINGS : EXIT_OK;
}

/** The limits the flags ask for: the playground's (or with --no-limits Rhai's), then each override. */
function limitsFromFlags(flags: Map<string, string | true>): RhaiLimits | string {
  const limits: RhaiLimits = { ...(flags.has('no-limits') ? DEFAULT_LIMITS : PLAYGROUND_LIMITS) };
  if (flags.get('no-limits') !== undefined && flags.get('no-limits') !== true)
    return 'rhai: --no-limits takes no value';
  for (const { key, flag } of LIMIT_FLAGS) {
    const raw = flags.get(flag);
    if (raw === undefined) continue;
    const n = Number(raw);
    if (raw === true || raw.trim() === '' || !Number.isSafeInteger(n) || n < 0) {
      return `rhai: --${flag} needs a whole number >= 0 (0 = unlimited), got ${raw === true ? 'nothing' : raw}`;
    }
    limits[key] = n;
  }
  return limits;
}

/** `--max-output N`: a whole number of characters, 0 for no bound. */
function maxOutputFromFlags(flags: Map<string, string | true>): number | string {
  const raw = flags.get('max-output');
  if (raw === undefined) return DEFAULT_MAX_OUTPUT;
  const n = Number(raw);
  if (raw === true || raw.trim() === '' || !Number.isSafeInteger(n) || n < 0) {
    return `rhai: --max-output needs a whole number >= 0 (0 = unlimited), got ${raw === true ? 'nothing' : raw}`;
  }
  return n;
}

export const run: Command = async (args) => {
  const valued = ['cases', 'max-output', ...LIMIT_FLAGS.map((f) => f.flag)];
  const parsed = parseArgs(args, valued);
  const bad = unknownFlag(parsed, [...valued, 'no-limits', 'json']);
  if (bad) return usageError(`rhai: unknown option --${bad}\n${USAGE}`);
  const json = parsed.flags.has('json');
  const limits = limitsFromFlags(parsed.flags);
  if (typeof limits === 'string') return usageError(limits);
  const cases = parsed.flags.get('cases');
  if (cases !== undefined) {
    if (cases === true) return usageError(`rhai: --cases needs a file\n${USAGE}`);
    if (parsed.positional.length) return usageError(`rhai: give either FILE.rhai or --cases, not both\n${USAGE}`);
    return runCases(cases, limits, json);
  }
  if (parsed.positional.length !== 1) return usageError(`rhai: expected one script file\n${USAGE}`);
  const maxOutput = maxOutputFromFlags(parsed.flags);
  if (typeof maxOutput === 'string') return usageError(maxOutput);
  return runScript(itemAt(parsed.positional, 0), limits, json, maxOutput);
};
