// `lev replay SCENARIO [--json]`: the whole timeline. Exit 0 when it ran, 1 when the scenario or
// its blueprint has errors (nothing ran), 2 on bad usage or an unreadable file.
import {
  type Diagnostic,
  ScenarioSchema,
  type Scenario,
  fmt as n,
  locateJson,
  lostInWords,
  type Timeline,
  type TimelineStep,
  replay,
  replayAsRecorded,
  type AsRecordedTimeline,
  itemAt,
} from '../engine/index.ts';
import { BUILT_IN_TRAFFIC } from '../scenarios/generators.ts';
import { RHAI } from '../engine/custom-script.ts';
import { scenarioIssueDiagnostics } from '../scenarios/issues.ts';
import {
  EXIT_FINDINGS,
  EXIT_OK,
  inputFinding,
  parseArgs,
  readProblem,
  readText,
  SCENARIO_INPUT,
  unknownFlag,
  usageError,
  writeJsonStreamed,
  type Command,
} from './io.ts';

export const USAGE = `usage: lev replay SCENARIO.json [--as-recorded] [--json]

  --as-recorded  replay an imported run the way its harness sent it (one flat list, the harness's
                 overhead, its compactions and caching, counts calibrated on the first 10% of calls)
                 and compare each call with the provider's recorded usage`;

export type LoadedScenario =
  { ok: true; scenario: Scenario } | { ok: false; usage?: string; diagnostics: Diagnostic[] };

function fail(file: string, code: string, message: string, path = ''): LoadedScenario {
  return { ok: false, diagnostics: [{ code, severity: 'error', message, file, line: 1, column: 1, path }] };
}

/** Reads and validates a scenario file; errors name the field (`traffic[12].tool_call_id: Required`). */
export function loadScenario(file: string): LoadedScenario {
  let source: string;
  try {
    source = readText(file, SCENARIO_INPUT);
  } catch (error) {
    const finding = inputFinding(error, file, 'scenario-too-large');
    if (finding) return fail(file, finding.code, finding.message);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EISDIR')
      return { ok: false, usage: `${file} is a directory; pass a scenario .json file`, diagnostics: [] };
    const problem = readProblem(error, file);
    if (problem === undefined) throw error;
    return { ok: false, usage: problem, diagnostics: [] };
  }
  let json: unknown;
  try {
    json = JSON.parse(source);
  } catch (error) {
    return fail(file, 'json-syntax', `not valid JSON: ${(error as Error).message}`);
  }
  const parsed = ScenarioSchema.safeParse(json);
  if (parsed.success) return { ok: true, scenario: parsed.data };
  return {
    ok: false,
    diagnostics: scenarioIssueDiagnostics(parsed.error, file, (keyPath) => locateJson(source, keyPath)),
  };
}

export function printDiagnostics(diagnostics: readonly Diagnostic[]): void {
  for (const d of diagnostics) {
    const where = d.line > 1 || d.column > 1 ? `${d.file}:${d.line}:${d.column}` : d.file;
    console.error(`${where}: ${d.severity} [${d.code}] ${d.message}`);
  }
}

/** Common start of `lev replay` and `lev test`: flags, file, scenario. */
export function readScenarioArgs(
  args: string[],
  name: string,
  usage: string,
  valued: string[] = [],
  switches: string[] = [],
): { exit: number } | { scenario: Scenario; json: boolean; flags: Map<string, string | true> } {
  const parsed = parseArgs(args, valued);
  const bad = unknownFlag(parsed, ['json', ...valued, ...switches]);
  if (bad) return { exit: usageError(`${name}: unknown option --${bad}\n${usage}`) };
  if (parsed.positional.length !== 1) return { exit: usageError(`${name}: expected one SCENARIO file\n${usage}`) };
  const json = parsed.flags.has('json');
  const loaded = loadScenario(itemAt(parsed.positional, 0));
  if (!loaded.ok) {
    if (loaded.usage) return { exit: usageError(`${name}: ${loaded.usage}`) };
    if (json) console.log(JSON.stringify({ diagnostics: loaded.diagnostics }));
    else printDiagnostics(loaded.diagnostics);
    return { exit: EXIT_FINDINGS };
  }
  return { scenario: loaded.scenario, json, flags: parsed.flags };
}

export const run: Command = async (args) => {
  const read = readScenarioArgs(args, 'replay', USAGE, [], ['as-recorded']);
  if ('exit' in read) return read.exit;
  if (read.flags.has('as-recorded')) return asRecorded(read.scenario, read.json);
  const timeline = replay(read.scenario, { ...BUILT_IN_TRAFFIC, ...RHAI });
  const failed = timeline.diagnostics.some((d) => d.severity === 'error');
  if (read.json) await writeJsonStreamed(timeline);
  else {
    // Warnings and info are what `lev validate` says of the same file; a run that goes on still shows them.
    printDiagnostics(timeline.diagnostics);
    if (!failed) printTimeline(timeline);
  }
  return failed ? EXIT_FINDINGS : EXIT_OK;
};

// ---- human output -------------------------------------------------------------------------------

export function table(rows: string[][], rightAligned: ReadonlySet<number> = new Set()): string {
  // Loops rather than a spread per column: `lev replay` prints a row per step (100,000 and more),
  // and Math.max(...column) of that many arguments is slow and overflows the stack further on.
  const widths = itemAt(rows, 0).map(() => 0);
  for (const r of rows) {
    for (let i = 0; i < widths.length; i++) widths[i] = Math.max(itemAt(widths, i), (r[i] ?? '').length);
  }
  const right = widths.map((_, i) => rightAligned.has(i));
  const lines: string[] = [];
  for (const r of rows) {
    let line = '';
    for (let i = 0; i < r.length; i++) {
      const cell = itemAt(r, i);
      const width = widths[i];
      if (i > 0) line += '  ';
      line += width === undefined ? cell : right[i] ? cell.padStart(width) : cell.padEnd(width);
    }
    lines.push(line.trimEnd());
  }
  return lines.join('\n');
}

function describeEvent(step: TimelineStep): string {
  const e = step.event;
  switch (e.type) {
    case 'user':
    case 'assistant':
      return `${e.type}${e.type === 'assistant' && e.tool_calls?.length ? ` (${e.tool_calls.length} call${e.tool_calls.length > 1 ? 's' : ''})` : ''}`;
    case 'tool_result':
      return `tool_result ${e.tool_name}`;
    case 'transition':
      return `transition -> ${e.to}`;
    case 'compaction':
      return 'compaction (harness)';
    default:
      return `${e.type} ${e.region}`;
  }
}

/** How many of each step's changes' entries the run names again later: step -> change index -> count. */
function readAgainMarks(t: Timeline): Map<number, Map<number, number>> {
  const marks = new Map<number, Map<number, number>>();
  for (const item of t.summary.readAgain.items) {
    for (const { step, change } of item.losses) {
      let byChange = marks.get(step);
      if (!byChange) marks.set(step, (byChange = new Map()));
      byChange.set(change, (byChange.get(change) ?? 0) + 1);
    }
  }
  return marks;
}

function describeChanges(step: TimelineStep, marks: Map<number, number> | undefined): string {
  const parts = step.changes.map(
    (c, i) =>
      `${c.type} ${c.region} ${n(c.tokens)}t (${c.entries.length})${marks?.has(i) ? ` [${marks.get(i)} read again later]` : ''}`,
  );
  if (step.result && !step.result.ok) parts.push(`refused: ${step.result.message.split('\n')[0]}`);
  return parts.join('; ');
}

export function printTimeline(t: Timeline): void {
  console.log(
    `${t.scenario} on ${t.model.id} (${n(t.model.window)}-token window${t.model.approximate ? ', approximate counts' : ''})`,
  );
  for (const w of t.warnings) console.log(`warning: ${w}`);
  const rows = [['step', 'event', 'stage', 'request', 'prefix', 'baseline', 'task (regions/flat)', 'changes']];
  const marks = readAgainMarks(t);
  for (const s of t.steps) {
    const r = s.request;
    rows.push([
      String(s.index),
      describeEvent(s),
      s.stage,
      r ? n(r.requestTokens) : '',
      r ? `${Math.round(r.prefixShare * 100)}%` : '',
      r ? n(r.baselineTokens) : '',
      r ? `${r.taskInWindow ? 'kept' : 'LOST'}/${r.taskInBaselineWindow ? 'kept' : 'LOST'}` : '',
      describeChanges(s, marks.get(s.index)),
    ]);
    for (const w of s.warnings) rows.push(['', '', '', '', '', '', '', `warning: ${w}`]);
  }
  console.log(table(rows, new Set([0, 3, 4, 5])));
  const last = t.steps.at(-1);
  if (last) {
    console.log('\nregions after the last step:');
    const regionRows = [['region', 'kind', 'tokens', 'budget', 'entries']];
    for (const m of t.regions) {
      const f = last.regions[m.name];
      if (f) regionRows.push([m.name + (f.visible ? '' : ' (hidden)'), m.kind, n(f.tokens), n(f.budget), n(f.entries)]);
    }
    console.log(table(regionRows, new Set([2, 3, 4])));
  }
  const s = t.summary;
  const changes = Object.entries(s.changes)
    .filter(([, v]) => v.count > 0)
    .map(([k, v]) => `${k} ${v.count} (${n(v.tokens)} tokens)`)
    .join(', ');
  console.log(
    `\n${s.steps} steps, ${s.inferences} inferences, stages ${s.stagesEntered.join(' -> ')}; peak request ${n(s.peakRequestTokens)} tokens; mean prefix share ${Math.round(s.meanPrefixShare * 100)}%`,
  );
  console.log(`changes: ${changes || 'none'}`);
  console.log(
    `task: ${s.taskLostAt === null ? 'kept in every request' : `lost at inference ${s.taskLostAt}`}; flat-list baseline: ${s.baselineLosesTaskAt === null ? 'kept it' : `lost it at inference ${s.baselineLosesTaskAt}`}`,
  );
  console.log(`let go by the blueprint's rules: ${lostInWords(s.lost)}`);
  console.log(describeReadAgain(s.readAgain));
  if (s.warnings) console.log(`${s.warnings} warning${s.warnings === 1 ? '' : 's'}`);
}

// ---- as recorded ----------------------------------------------------------------------------------

async function asRecorded(scenario: Scenario, json: boolean): Promise<number> {
  const t = replayAsRecorded(scenario);
  if (t.error) {
    printDiagnostics([
      {
        code: 'unknown-model',
        severity: 'error',
        message: t.error,
        file: 'scenario.json',
        line: 1,
        column: 1,
        path: 'model',
      },
    ]);
    return EXIT_FINDINGS;
  }
  if (json) await writeJsonStreamed(t);
  else printAsRecorded(t);
  return EXIT_OK;
}

const percent = (x: number, digits = 1) => `${(x * 100).toFixed(digits)}%`;

export function printAsRecorded(t: AsRecordedTimeline): void {
  const approx = t.model.approximate ? ", approximate counts calibrated to the provider's" : '';
  console.log(
    `${t.scenario} as sent, on ${t.model.id} (${n(t.model.window)}-token window${approx}); caching: ${t.caching}`,
  );
  const cal = t.summary.recorded?.calibration;
  if (cal) console.log(cal.description);
  else console.log(t.summary.note);
  const rows = [
    [
      'step',
      'event',
      'request',
      'harness',
      'messages',
      'reasoning',
      'cache read',
      'recorded',
      'recorded read',
      'error',
    ],
  ];
  for (const s of t.steps) {
    const r = s.request;
    if (!r) {
      if (s.event.type === 'compaction')
        rows.push([
          String(s.index),
          `compaction${s.event.pre_tokens === undefined ? '' : ` (recorded before: ${n(s.event.pre_tokens)})`}`,
          '',
          '',
          '',
          '',
          '',
          '',
          '',
          '',
        ]);
      continue;
    }
    rows.push([
      String(s.index),
      `inference ${r.inference}${r.calibration ? ' (calibration)' : ''}`,
      n(r.requestTokens),
      n(r.harnessTokens),
      n(r.messageTokens),
      n(r.reasoningTokens),
      n(r.cache.cacheReadTokens),
      r.recorded ? n(r.recorded.promptTokens) : '',
      r.recorded?.cacheReadTokens === undefined ? '' : n(r.recorded.cacheReadTokens),
      r.error === undefined ? '' : `${r.error >= 0 ? '+' : ''}${percent(r.error)}`,
    ]);
  }
  console.log(table(rows, new Set([0, 2, 3, 4, 5, 6, 7, 8, 9])));
  const s = t.summary;
  console.log(`\n${s.inferences} inferences; peak request ${n(s.peakRequestTokens)} tokens`);
  for (const c of s.compactions) {
    console.log(
      `compaction at step ${c.index}: as sent ${c.before === undefined ? '?' : n(c.before)} -> ${c.after === undefined ? '?' : n(c.after)} tokens` +
        (c.recordedBefore !== undefined || c.recordedAfter !== undefined
          ? `; recorded ${c.recordedBefore === undefined ? '?' : n(c.recordedBefore)} -> ${c.recordedAfter === undefined ? '?' : n(c.recordedAfter)}`
          : '') +
        (c.preTokens === undefined ? '' : ` (the harness recorded ${n(c.preTokens)} before compacting)`),
    );
  }
  const r = s.recorded;
  if (r) {
    console.log(
      `against the recorded usage: ${r.compared} of ${r.calls} recorded calls compared (the calibration's left out); prompt tokens off by a median of ${percent(r.medianError)}, p90 ${percent(r.p90Error)}` +
        (r.cacheReadShareError === undefined
          ? ''
          : `; cache-read share off by ${r.cacheReadShareError.toFixed(3)} on average`),
    );
    if (r.cacheExpiries > 0)
      console.log(
        `the cache expired before ${n(r.cacheExpiries)} call${r.cacheExpiries === 1 ? '' : 's'} (longer than its lifetime since the call before): each read only the prefix kept warm`,
      );
  }
}

/** The summary's read-again line: how many, and the first few with where each was lost and named again. */
function describeReadAgain({ count, items }: Timeline['summary']['readAgain']): string {
  if (count === 0)
    return 'read again later: none (no file or key the blueprint dropped, summarized or cut is named again)';
  const shown = items
    .slice(0, READ_AGAIN_SHOWN)
    .map(
      (i) =>
        `${i.key} (${i.change} in ${i.region} ${i.lostAt < 0 ? 'at spawn' : `at step ${i.lostAt}`}, named at step ${i.namedAt})`,
    );
  const more = count > shown.length ? `; and ${n(count - shown.length)} more (--json lists them all)` : '';
  return `read again later: ${n(count)}: ${shown.join('; ')}${more}`;
}

const READ_AGAIN_SHOWN = 5;
