// `npm run bench`: every benchmark in one run, one table at the end, and docs/performance.md.
//
// Ratios are measured side by side in the same process (Rhai vs plain JS, replay vs tokenizing
// once), so a busy machine slows both sides alike. The page rows (first load, time to charts, long
// tasks per phase, heap) come from Playwright driving Chromium against the built app (bench/page.ts).
import { writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { benchAdvise, type AdviseFigures } from './advise.ts';
import { pageRows, type Row } from './page.ts';
import {
  benchInspect,
  benchLevReplay,
  benchReplay,
  type InspectFigures,
  type LevReplayFigures,
  type ReplayFigures,
} from './replay.ts';
import { benchRhai, type RhaiBenchRow } from './rhai.ts';
import { benchTokens, type TokenBenchRow } from './tokens.ts';
import { benchAsRecorded, benchLevImport, realTraceGoals, type AsRecordedCost, type ImportFigures } from './import.ts';
import { goalsTable, type GoalRow } from './import-goals.ts';
import { EXAMPLES } from '../src/scenarios/examples.ts';
import { encodeScenario, LONG_LINK_CHARS } from '../src/share/index.ts';
import { loadEncodings } from '../src/engine/index.ts';

const n = (v: number, digits = 0) =>
  v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const mb = (bytes: number) => `${n(bytes / 1_048_576, 1)} MB`;

const kb = (bytes: number) => `${n(bytes / 1024, 2)} KB`;

function replayRows(figures: ReplayFigures[]): Row[] {
  const rows: Row[] = [];
  for (const f of figures) {
    const label = `${n(f.events)} events, ${f.inlineResults ? 'inline text' : 'size_tokens'}`;
    const seeds =
      f.batch > 1 ? `seeds ${f.firstSeed}–${f.firstSeed + f.batch - 1}, one replay each` : `seed ${f.firstSeed}`;
    const timing = `CPU per replay, best of ${f.runs} runs of ${f.batch}: ${seeds}`;
    if (f.inlineResults) {
      rows.push({
        area: 'replay',
        measure: `${label}: replay vs countTokens on its text once (${timing})`,
        value: `${n(f.replayMs)} ms vs ${n(f.tokenizeMs)} ms = ${n(f.ratio, 2)}x`,
        goal: '<= 1.3x',
        met: f.ratio <= 1.3,
      });
    } else {
      // Tool output given as size_tokens is not tokenized (a read_file result cut at the byte cap
      // counts only its last line and the notice), so these rows report time per event, no floor.
      rows.push({
        area: 'replay',
        measure: `${label}: replay (${timing})`,
        value: `${n(f.replayMs)} ms (${n((f.replayMs / f.events) * 1000)} µs per event)`,
        goal: '',
        met: undefined,
      });
    }
    rows.push({
      area: 'replay',
      measure: `${label}: timeline memory (seed ${f.firstSeed}'s run, ${n(f.memoryEvents)} events)`,
      value: `${kb(f.timelineBytesPerEvent)} heap per event, ${mb(f.timelineJsonBytes)} JSON`,
      goal: '',
      met: undefined,
    });
  }
  for (const inline of [true, false]) {
    const set = figures.filter((f) => f.inlineResults === inline).sort((a, b) => a.events - b.events);
    if (set.length < 2) continue;
    const perEvent = set.map((f) => (f.replayMs / f.events) * 1000);
    const growth = perEvent[perEvent.length - 1]! / perEvent[0]!;
    rows.push({
      area: 'replay',
      measure: `scaling ${set.map((f) => n(f.events)).join(' / ')} events (${inline ? 'inline' : 'size_tokens'}), µs per event`,
      value: `${perEvent.map((v) => n(v)).join(' / ')} (x${n(growth, 2)} from first to last)`,
      goal: 'per-event cost flat (<= 1.2x first to last)',
      met: growth <= 1.2,
    });
    if (!inline) continue;
    // Each seed draws its own file sizes, so the text per event (and the tokenizer's share of each
    // event) differs between sizes; beside it, the replay's own work per event.
    const chars = set.map((f) => f.countedChars / f.events);
    rows.push({
      area: 'replay',
      measure: `scaling ${set.map((f) => n(f.events)).join(' / ')} events (inline): distinct text counted per event`,
      value: `${chars.map((v) => n(v)).join(' / ')} characters (x${n(chars[chars.length - 1]! / chars[0]!, 2)} from first to last)`,
      goal: '',
      met: undefined,
    });
    const own = set.map((f) => ((f.replayMs - f.tokenizeMs) / f.events) * 1000);
    const ownGrowth = own[own.length - 1]! / own[0]!;
    rows.push({
      area: 'replay',
      measure: `scaling ${set.map((f) => n(f.events)).join(' / ')} events (inline): the replay's own µs per event (replay minus its floor)`,
      value: `${own.map((v) => n(v)).join(' / ')} (x${n(ownGrowth, 2)} from first to last)`,
      goal: 'per-event cost flat (<= 1.2x first to last)',
      met: ownGrowth <= 1.2,
    });
  }
  return rows;
}

function inspectRows(f: InspectFigures): Row[] {
  return [
    {
      area: 'inspect',
      measure: `any step of a ${n(f.events)}-event coding-agent run kept by the worker (with the postMessage clone), CPU`,
      value: `p50 ${n(f.p50Ms, 2)} ms, p95 ${n(f.p95Ms, 2)} ms (p95 wall ${n(f.p95WallMs, 2)} ms)`,
      goal: 'p95 <= 16 ms',
      met: f.p95Ms <= 16,
    },
    {
      area: 'inspect',
      measure: "the worker's replay keeping a checkpoint every 32 events vs a plain replay (CPU)",
      value: `${n(f.keptReplayMs)} ms vs ${n(f.plainReplayMs)} ms = ${n(f.keptReplayMs / f.plainReplayMs, 2)}x`,
      goal: '',
      met: undefined,
    },
    ...f.memory.flatMap((m) => {
      const label = `${n(f.events)} events, ${m.inlineResults ? 'inline text' : 'size_tokens'}`;
      return [
        {
          area: 'inspect',
          measure: `${label}: the timeline the worker keeps, per event (its figure table; a whole timeline in brackets)`,
          value: `${kb(m.figuresBytesPerEvent)} (${kb(m.timelineBytesPerEvent)})`,
          goal: '<= 0.5 KB',
          met: m.figuresBytesPerEvent <= 512,
        },
        {
          area: 'inspect',
          measure: `${label}: everything the worker keeps per event (figure table + kept run)`,
          value: kb(m.keptBytesPerEvent),
          goal: '',
          met: undefined,
        },
      ];
    }),
  ];
}

function levReplayRows(f: LevReplayFigures): Row[] {
  const cpu = f.cpuMs === undefined ? '' : `, ${n(f.cpuMs / 1000, 1)} s CPU, peak RSS ${mb(f.peakRssBytes!)}`;
  return [
    {
      area: 'replay',
      measure: `\`lev replay\` of ${n(f.events)} generated coding-agent events (node bin/lev.mjs, a child process; load ${n(f.loadAverage, 1)})`,
      value: `${n(f.wallMs / 1000, 1)} s wall${cpu}`,
      goal: '<= 10 s',
      met: f.wallMs <= 10_000,
    },
  ];
}

function importRows(lev: ImportFigures, cost: AsRecordedCost, goals: GoalRow[]): Row[] {
  const cpu = lev.cpuMs === undefined ? '' : `, ${n(lev.cpuMs / 1000, 1)} s CPU, peak RSS ${mb(lev.peakRssBytes!)}`;
  const perEvent = (ms: number) => (ms / cost.events) * 1000;
  const rows: Row[] = [
    {
      area: 'import',
      measure: `\`lev import\` of a ${n(lev.bytes / 1e6)} MB Claude Code session (${n(lev.events)} events; node bin/lev.mjs, a child process; load ${n(lev.loadAverage, 1)})`,
      value: `${n(lev.wallMs / 1000, 1)} s wall${cpu}`,
      goal: '<= 3 s',
      met: lev.wallMs <= 3_000,
    },
    {
      area: 'import',
      measure: `as-sent replay vs the ordinary replay of the same imported run (${n(cost.events)} events, CPU, best of 3, token caches emptied before each)`,
      value: `${n(perEvent(cost.asRecordedMs))} µs vs ${n(perEvent(cost.replayMs))} µs per event = ${n(cost.asRecordedMs / cost.replayMs, 2)}x`,
      goal: '<= 1x',
      met: cost.asRecordedMs <= cost.replayMs,
    },
  ];
  for (const g of goals) {
    rows.push({
      area: 'import',
      measure: `as sent vs recorded, ${g.file} (${g.format}, ${g.fileCalls} real calls; usage of all but the first 10% removed before import)`,
      value: `${g.inferences} inferences; median ${n(g.medianError * 100, 1)}%, p90 ${n(g.p90Error * 100, 1)}%${g.cacheShareError === undefined ? '' : `, cache-read share off ${n(g.cacheShareError, 3)}`}`,
      goal: 'one per call; median <= 5%, p90 <= 15%, share <= 0.05',
      met:
        g.inferences === g.fileCalls && g.medianError <= 0.05 && g.p90Error <= 0.15 && (g.cacheShareError ?? 0) <= 0.05,
    });
  }
  return rows;
}

function adviseRows(f: AdviseFigures): Row[] {
  const label = `\`lev advise\` on a generated ${n(f.inferences)}-call coding-agent session (${n(f.events)} events), one thread (load ${n(f.loadAverage, 1)})`;
  return [
    {
      area: 'advise',
      measure: `${label}: candidate blueprints judged, CPU`,
      value: `${n(f.judged)} in ${n(f.searchCpuMs / 1000, 1)} s, ${n(f.searchCpuMs / f.replayCpuMs)} replays' worth (${n(f.replayed)} replayed to the end, ${n(f.stoppedEarly)} stopped early, ${n(f.raced)} of them by the race; ${n(f.searchWallMs / 1000, 1)} s wall)`,
      goal: '>= 200 in <= 10 s',
      met: f.judged >= 200 && f.searchCpuMs <= 10_000,
    },
    {
      area: 'advise',
      measure: `${label}: then the front, each proposal's unneeded changes put back and the others measured`,
      value: `${n(f.simplifying)} more replays, ${n(f.totalCpuMs / 1000, 1)} s CPU in all (${n(f.totalWallMs / 1000, 1)} s wall)`,
      goal: '',
      met: undefined,
    },
  ];
}

function rhaiRows(results: RhaiBenchRow[]): Row[] {
  return results.map((r) => ({
    area: 'rhai',
    measure: `${r.name}: Rhai vs plain JS`,
    value: `${n(r.rhaiMs, 1)} ms vs ${n(r.jsMs, 2)} ms = ${n(r.ratio, 1)}x`,
    goal: '<= 10x',
    met: r.ratio <= 10,
  }));
}

function tokenRows(results: TokenBenchRow[]): Row[] {
  return results.map((r) => ({
    area: 'tokens',
    measure: `count 1 MB / 4 MB of ${r.name}`,
    value: `${n(r.msPerMb)} ms / ${n(r.msPer4Mb)} ms (x${n(r.msPer4Mb / r.msPerMb, 1)})`,
    goal: 'linear (4 MB < 6x 1 MB), < 1 s per MB',
    met: r.msPer4Mb < 6 * r.msPerMb && r.msPerMb < 1_000,
  }));
}

function shareRows(): Row[] {
  return EXAMPLES.map((e) => {
    const length = encodeScenario(e.scenario).length;
    return {
      area: 'share',
      measure: `link for example "${e.id}"`,
      value: `${n(length)} chars`,
      goal: `< ${n(LONG_LINK_CHARS)}`,
      met: length < LONG_LINK_CHARS,
    };
  });
}

function table(rows: Row[]): string {
  const lines = ['| area | measure | value | goal | met |', '| --- | --- | --- | --- | --- |'];
  for (const r of rows)
    lines.push(
      `| ${r.area} | ${r.measure} | ${r.value} | ${r.goal} | ${r.met === undefined ? '' : r.met ? 'yes' : '**no**'} |`,
    );
  return lines.join('\n');
}

await loadEncodings();
const goals = realTraceGoals();
const rows = [
  ...tokenRows(benchTokens()),
  ...rhaiRows(await benchRhai()),
  ...replayRows(await benchReplay()),
  ...levReplayRows(benchLevReplay()),
  ...inspectRows(benchInspect()),
  ...adviseRows(benchAdvise()),
  ...importRows(benchLevImport(), benchAsRecorded(), goals),
  ...shareRows(),
  ...(await pageRows()),
];
if (goals.length) console.log(`\n${goalsTable(goals)}`);
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${n(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
const report = table(rows);
console.log(`\n${report}\n\nmachine: ${machine}`);

writeFileSync(
  'docs/performance.md',
  `# Performance

The latest figures from \`npm run bench\` (${new Date().toISOString().slice(0, 10)}), on ${machine}.
Every ratio is measured side by side in one run. Re-run \`npm run bench\` to refresh this file.

${report}

## What each measure means

- **Rhai vs plain JS**: the same algorithm as a Rhai script (compiled once, called through the
  interpreter) and as plain JavaScript: each side runs the same number of calls per batch (enough
  that the faster side's batch lasts 5 ms); 15 rounds alternate the two sides, each round gives
  one ratio of their CPU times, and the row is the median round. Details: \`bench/rhai.ts\`.
- **Replay vs countTokens once**: CPU time replaying a generated coding-agent scenario (the spec's
  layout on a 200k-token model) against \`countTokens\` once on each distinct text that replay
  counts (recorded with \`observeCounts\`), in the same process: the floor any replay pays. Each
  size runs in a Node process of its own, so none inherits the heap or caches of another. Every
  timed run does 32,000 events' worth of work: 64 replays back to back at 500 events, 16 at 2,000,
  4 at 8,000, one at 32,000 (the floor likewise), each with the count cache empty, and each of
  its own seed (7, 8, 9, ...): one seed's 500 events carry 3,700 to 6,400 characters of text per
  event, as each seed draws its own file sizes, so a single small sample (seed 7's 500 events, as
  before 2026-12-05 evening) set the tokenizer's share of its row by chance. A 500-event
  replay alone lasts a few milliseconds and most of its garbage is collected after its timer
  stops, so timed alone (as before 2026-12-05, best of 30) it left out the collections a longer
  run pays within itself: the small sizes looked cheaper per event, and nearer their floor, than
  they are. The two sides alternate on the same scenarios, 5 runs each, each run after a full GC,
  and each side keeps its best run: one timing on shared
  cores mostly measures the neighbours. Before its runs warm-up replays of another seed run (on 8,000 events in all,
  so the smallest size's JIT is as warm as the largest's), and the last is kept until they end,
  as the page's engine worker keeps its last run: V8 drops the engine's optimized code
  when a full GC leaves no object of the shapes it was specialised to, so with the warm-up let
  go every timed replay re-optimized the engine (about 100 ms of CPU at 2,000 events). Times
  are the process's CPU, so the replay's garbage collection and compiling on V8's helper
  threads count against it. size_tokens rows tokenize almost nothing (a read_file result
  cut at the byte cap counts its last line and the notice; the rest is known from the filler's
  shape), so they report time per event. Details: \`bench/replay.ts\`.
- **\`lev replay\` of 100,000 events**: the CLI as a child process on the coding-agent example with
  \`generator.steps = 100000\`, start-up and printing included; CPU and peak RSS from \`/usr/bin/time\`.
- **Inspect**: the page's engine worker keeps each replay's run as a copy every 32 events (at most
  500 copies); a step's detail re-runs the events since the nearest one (a run with a custom
  region keeps a snapshot per step instead). Measured as \`Replay.inspect\` plus the structured
  clone \`postMessage\` makes, in CPU time (wall time beside it: on shared cores it counts waiting).
- **Memory**: heap retained per event (Node, 8-byte pointers; Chromium's pointer compression makes
  most objects smaller) by a whole timeline; by what the engine worker keeps of it once the page
  has its view (each step's region figures and the requests: \`figureTable\` in timeline-view.ts);
  and by that with the kept run that answers inspects. In size_tokens runs the kept run holds the generated text of the entries the
  checkpoints hold; inline text is the scenario's own.
- **Scaling**: CPU microseconds per event at 500, 2,000, 8,000 and 32,000 events; flat means linear.
  The generated events' text grows with the run (the row of characters counted per event), so the
  inline rows also give the replay's own cost per event: the replay minus its floor, per event.
- **Token counting**: \`countTokens\` on 1 MB and 4 MB of one kind of text (the unit repeated),
  including the whitespace alternations that were quadratic; 4 MB near 4x 1 MB means linear.
  Details: \`bench/tokens.ts\`.
- **Import** (\`bench/import.ts\`): \`lev import\` of a generated 50 MB Claude Code session as a child
  process (start-up and writing the scenario included); the as-sent replay (\`lev replay
  --as-recorded\`) against the ordinary replay of the same imported run, per event; and, for every
  trace in the folder \`$LEV_REAL_TRACES\` names, the goals of \`bench/import-goals.ts\` (see
  docs/performance-import.md).
- **Advise**: \`advise\` (what \`lev advise\` and the page's engine worker run) on the coding-agent
  example generated to about 500 calls, after one replay of it (the page has always replayed a
  scenario before anyone asks for advice): the CPU time until 200 candidates are judged (each
  validated, then replayed to the end or stopped once it can no longer win or breaks a hard
  constraint), then the replays that simplify and measure the proposals shown. Details:
  \`bench/advise.ts\`; the goals on any scenarios: \`bench/advise-goals.ts\`, figures in
  docs/performance-advise.md.
- **Share links**: the URL fragment of each built-in example (Discord cuts messages at 2,000).
- **Page** (\`bench/page.ts\`, driven by \`e2e/page.spec.ts\` with \`PAGE_PROBE=1\` against \`vite preview\`):
  its loads start once the machine is quiet again after the replay rows (the 1-minute load average
  under 0.8, waiting at most 150 s; the load average is reported beside the timings);
  every chunk in \`dist/assets\` raw and gzip (zlib level 9; preview serves them uncompressed), and
  which ones a cold load fetches (page and workers) before the charts are drawn, summed without and
  with the tokenizer encoding the engine worker fetches; the time from navigation to the charts
  beside the time the same browser takes to fetch and parse (modulepreload) the same files on a
  blank page, in the same run, with the load average; the longest main-thread task
  (PerformanceObserver \`longtask\`) per phase, and while the token view of a 100 KB tool result
  opens and pages (three fresh pages, e2e/tokens.spec.ts's case); the main thread's JS heap after
  garbage collection
  (CDP \`Runtime.getHeapUsage\`) after a 20,000-event generated run. The rows "with no inspector
  attached" (\`bench/bare-load.ts\`) load the page in headless Chromium with no DevTools session,
  as a visitor's browser runs it: with one attached, V8 keeps stack traces and re-parses code, which
  stretches the load's tasks (react-dom's evaluation: 60-90 ms under Playwright, 20-40 ms without).
  A small server serves \`dist/\` with a probe script added before the app's, which records the long
  tasks and the time the charts were drawn, then acts out the Playwright probe's phases with DOM
  events (opens the largest example, moves the slider 40 times 16 ms apart, clicks a chart marker)
  and posts it all back.
`,
);
console.log('wrote docs/performance.md');
