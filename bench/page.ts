// The page probe's rows: e2e/page.spec.ts (PAGE_PROBE=1) drives Chromium against the built app on
// `vite preview` and writes test-results/page-probe.json; this turns it into bench rows. Skipped,
// and said so, when there is no build.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { bareLoads, type BareLoad, type Example, type Phase } from './bare-load.ts';

export interface Row {
  area: string;
  measure: string;
  value: string;
  goal: string;
  met: boolean | undefined;
}

export interface Chunk {
  file: string;
  raw: number;
  gzip: number;
}
interface Round {
  fetched: string[];
  chartsMs: number;
  tasksBeforeCharts: number[];
  tasksAfterCharts: number[];
  fetchAndParseMs: number;
  loadAverage: number;
}
export interface PageProbe {
  chunks: Chunk[];
  rounds: Round[];
  example: Example;
  phases: Record<Phase, number>;
  heap: { steps: number; heapBytes: number; heapAtLoad: number };
  /** The token view of a 100 KB tool result opened and paged, each in a fresh page: the longest task over 50 ms (0 if none), and the load average after each. */
  tokenView: { longest: number[]; loadAverage: number[] };
}

const PROBE_JSON = 'test-results/page-probe.json';
/** The issue's goal for the JS and CSS fetched before the page is usable (gzip). */
export const FIRST_LOAD_GOAL_BYTES = 1_000_000;
const CHARTS_GOAL_MS = 1_500;
const LONG_TASK_GOAL_MS = 50;
const HEAP_GOAL_BYTES = 35 * 1_048_576;
/** A tokenizer encoding's ranks, by file name: fetched by the engine worker on top of the page's own code. */
export const ENCODING_CHUNK = /^(o200k_base|cl100k_base)-/;

const n = (v: number, digits = 0) =>
  v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const kb = (bytes: number) => `${n(bytes / 1_000)} KB`;
const mb = (bytes: number, unit = 1_000_000) => `${n(bytes / unit, 2)} MB`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** `o200k_base-gr7WFnWA.js` -> `o200k_base.js`: the same module built for the page and for a worker has one name. */
export function chunkName(file: string): string {
  return file.replace(/-[\w-]{8}(\.\w+)$/, '$1');
}

function chunkRows(probe: PageProbe): Row[] {
  const firstLoad = new Set(probe.rounds[0]!.fetched);
  return [...probe.chunks]
    .sort((a, b) => b.gzip - a.gzip)
    .map((c) => ({
      area: 'page',
      measure: `chunk ${c.file}${firstLoad.has(c.file) ? ' (fetched before the charts show)' : ''}`,
      value: `${kb(c.raw)} raw, ${kb(c.gzip)} gzip`,
      goal: '',
      met: undefined,
    }));
}

function firstLoadRows(probe: PageProbe): Row[] {
  const fetched = [...new Set(probe.rounds[0]!.fetched)];
  const gzipOf = (files: string[]) =>
    files.reduce((sum, f) => sum + (probe.chunks.find((c) => c.file === f)?.gzip ?? 0), 0);
  const code = fetched.filter((f) => !ENCODING_CHUNK.test(f));
  const encodings = fetched.filter((f) => ENCODING_CHUNK.test(f));
  const all = gzipOf(fetched);
  const names = probe.chunks.map((c) => chunkName(c.file));
  const builtTwice = [...new Set(names.filter((name, i) => names.indexOf(name) !== i))];
  const fetchedTwice = probe.rounds[0]!.fetched.filter((f, i, list) => list.indexOf(f) !== i);
  return [
    {
      area: 'page',
      measure: `first load: the page's code before the charts show (${code.length} files, workers included)`,
      value: `${mb(gzipOf(code))} gzip`,
      goal: '<= 1.0 MB gzip',
      met: gzipOf(code) <= FIRST_LOAD_GOAL_BYTES,
    },
    {
      area: 'page',
      measure: `first load: the encoding the engine worker fetches on top (${encodings.map(chunkName).join(', ') || 'none'})`,
      value: `${mb(gzipOf(encodings))} gzip`,
      goal: '',
      met: undefined,
    },
    {
      area: 'page',
      measure: 'first load: all JS and CSS before the charts show (code + encoding)',
      value: `${mb(all)} gzip`,
      goal: '<= 1.0 MB gzip',
      met: all <= FIRST_LOAD_GOAL_BYTES,
    },
    {
      area: 'page',
      measure: 'first load: files fetched twice',
      value: fetchedTwice.length ? fetchedTwice.join(', ') : 'none',
      goal: 'none',
      met: fetchedTwice.length === 0,
    },
    {
      area: 'page',
      measure: 'modules built twice (once for the page, once for a worker; fetched twice only if both use them)',
      value: builtTwice.join(', ') || 'none',
      goal: '',
      met: undefined,
    },
  ];
}

function timingRows(probe: PageProbe): Row[] {
  const charts = median(probe.rounds.map((r) => r.chartsMs));
  const floor = median(probe.rounds.map((r) => r.fetchAndParseMs));
  const load = probe.rounds.map((r) => n(r.loadAverage, 1)).join(' / ');
  return [
    {
      area: 'page',
      measure: `cold load to charts visible vs fetching and parsing the same files on a blank page (median of ${probe.rounds.length}, load average ${load})`,
      value: `${n(charts)} ms vs ${n(floor)} ms`,
      goal: '<= 1,500 ms',
      met: charts <= CHARTS_GOAL_MS,
    },
  ];
}

function longTaskRows(probe: PageProbe): Row[] {
  const longest = (tasks: number[]) => Math.max(0, ...tasks);
  const ms = (value: number) => (value === 0 ? 'none over 50 ms' : `${n(value)} ms`);
  // Each load's longest task beside the worst: one busy moment on shared cores moves the worst alone.
  const load = (tasks: (r: Round) => number[]): [number, string] => {
    const each = probe.rounds.map((r) => longest(tasks(r)));
    return [longest(each), ` (each load: ${each.map((v) => (v === 0 ? '-' : n(v))).join(' / ')})`];
  };
  const phases: [string, [number, string]][] = [
    [`load, until the charts are drawn (worst of ${probe.rounds.length})`, load((r) => r.tasksBeforeCharts)],
    [`load, the editor arriving after the charts (worst of ${probe.rounds.length})`, load((r) => r.tasksAfterCharts)],
    [
      `replay of the largest example ("${probe.example.id}", ${n(probe.example.steps)} steps)`,
      [probe.phases.replay, ''],
    ],
    ['scrubbing across its timeline (dragging the slider)', [probe.phases.scrub, '']],
    ['opening the inspector on a change (a chart marker)', [probe.phases.inspect, '']],
  ];
  const tokens = probe.tokenView.longest;
  phases.push([
    `the token view of a 100 KB tool result, opened at its first 1,000 pieces and paged to the next (worst of ${tokens.length}, load average ${probe.tokenView.loadAverage.map((v) => n(v, 1)).join(' / ')})`,
    [longest(tokens), ` (each open: ${tokens.map((v) => (v === 0 ? '-' : n(v))).join(' / ')})`],
  ]);
  return phases.map(([phase, [worst, each]]) => ({
    area: 'page',
    measure: `longest main-thread task: ${phase}`,
    value: `${ms(worst)}${each}`,
    goal: '<= 50 ms',
    met: worst <= LONG_TASK_GOAL_MS,
  }));
}

function heapRow(probe: PageProbe): Row {
  return {
    area: 'page',
    measure: `main-thread JS heap after a ${n(probe.heap.steps)}-step run (after GC; at load, Monaco included: ${mb(probe.heap.heapAtLoad, 1_048_576)})`,
    value: mb(probe.heap.heapBytes, 1_048_576),
    goal: '<= 35 MB',
    met: probe.heap.heapBytes <= HEAP_GOAL_BYTES,
  };
}

/** The probe's rows, with the loads that had no inspector beside its own long-task rows. */
function pageProbeRows(probe: PageProbe, bare: Row[]): Row[] {
  return [
    ...firstLoadRows(probe),
    ...timingRows(probe),
    ...longTaskRows(probe),
    ...bare,
    heapRow(probe),
    ...chunkRows(probe),
  ];
}

/** The same load phases in a Chromium with no inspector attached (bench/bare-load.ts). */
function bareLoadRows(loads: BareLoad[], example: Example, loadAverage: number): Row[] {
  const each = (tasks: (l: BareLoad) => number[]) => loads.map((l) => Math.max(0, ...tasks(l)));
  const row = (phase: string, longest: number[]): Row => {
    const worst = Math.max(...longest);
    return {
      area: 'page',
      measure: `longest main-thread task with no inspector attached (headless Chromium, no DevTools session; worst of ${loads.length}, load average ${n(loadAverage, 1)}): ${phase}`,
      value: `${worst === 0 ? 'none over 50 ms' : `${n(worst)} ms`} (each load: ${longest.map((v) => (v === 0 ? '-' : n(v))).join(' / ')})`,
      goal: '<= 50 ms',
      met: worst <= LONG_TASK_GOAL_MS,
    };
  };
  return [
    row(
      'load, until the charts are drawn',
      each((l) => l.tasksBeforeCharts),
    ),
    row(
      'load, the editor arriving after the charts',
      each((l) => l.tasksAfterCharts),
    ),
    row(
      `replay of the largest example ("${example.id}", ${n(example.steps)} steps)`,
      each((l) => l.phases.replay),
    ),
    row(
      'scrubbing across its timeline (the slider moved 40 times)',
      each((l) => l.phases.scrub),
    ),
    row(
      'opening the inspector on a change (a chart marker)',
      each((l) => l.phases.inspect),
    ),
    {
      area: 'page',
      measure: `cold load to charts visible with no inspector attached (median of ${loads.length})`,
      value: `${n(median(loads.map((l) => l.chartsMs)))} ms`,
      goal: '<= 1,500 ms',
      met: median(loads.map((l) => l.chartsMs)) <= CHARTS_GOAL_MS,
    },
  ];
}

/** The page's goals are for a machine at low load: the replay rows before leave the load average near 2-3 on two cores. */
const QUIET_LOAD = 0.8;
const MAX_SETTLE_MS = 150_000;

/** Waits (up to MAX_SETTLE_MS) for the 1-minute load average to fall under QUIET_LOAD. */
async function settle(): Promise<void> {
  const started = Date.now();
  while (loadavg()[0]! >= QUIET_LOAD && Date.now() - started < MAX_SETTLE_MS)
    await new Promise((r) => setTimeout(r, 5_000));
  console.log(
    `page: load average ${n(loadavg()[0]!, 1)} after ${n((Date.now() - started) / 1000)} s of waiting for a quiet machine`,
  );
}

/** Runs the probe against the built app (PAGE_PROBE=1), then the loads with no inspector, and reads their figures. */
export async function pageRows(): Promise<Row[]> {
  if (!existsSync('dist/index.html')) {
    return [
      {
        area: 'page',
        measure: 'first load, time to charts, long tasks, heap',
        value: 'skipped: run `npm run build` first',
        goal: '',
        met: undefined,
      },
    ];
  }
  await settle();
  execFileSync('npx', ['playwright', 'test', 'e2e/page.spec.ts', '-g', 'probe'], {
    stdio: 'inherit',
    env: { ...process.env, PAGE_PROBE: '1' },
  });
  const probe = JSON.parse(readFileSync(PROBE_JSON, 'utf8')) as PageProbe;
  await settle();
  const loads = await bareLoads(3, probe.example);
  return pageProbeRows(probe, bareLoadRows(loads, probe.example, loadavg()[0]!));
}
