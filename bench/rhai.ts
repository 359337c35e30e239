// Rhai interpreter vs the same algorithm in plain JS, in the same process.
// Each side is timed over a batch of calls, the same number for both, long enough that the faster
// side's batch is never too short to time (a render() in JS takes about 30 µs: one call timed alone
// is at the mercy of a timer tick or a GC). After warm-up the batches run interleaved, side by side
// (Rhai then JS in even rounds, JS then Rhai in odd ones), each round gives one ratio, and the row
// reports the median round: on a shared machine a load spike then skews one round, not the row.
// Run: `npx tsx bench/rhai.ts [rounds] [workload name filter]`.
import { compile, type CompiledScript } from '../src/rhai/index.ts';

export interface RhaiBenchRow {
  name: string;
  rhaiMs: number;
  jsMs: number;
  /** The median round's Rhai CPU time / JS CPU time. */
  ratio: number;
  /** The same by wall-clock time (more at the mercy of other processes on the machine). */
  wallRatio: number;
}

interface Workload {
  name: string;
  rhai: () => unknown;
  js: () => unknown;
}

function script(src: string): CompiledScript {
  return compile(src);
}

const FIB = script('fn fib(n) { if n < 2 { n } else { fib(n - 1) + fib(n - 2) } } fib(25)');
function fibJs(n: number): number {
  return n < 2 ? n : fibJs(n - 1) + fibJs(n - 2);
}

const LOOP = script('let sum = 0; let i = 0; while i < 1000000 { sum += i; i += 1; } sum');
function loopJs(): number {
  let sum = 0;
  let i = 0;
  while (i < 1000000) {
    sum += i;
    i += 1;
  }
  return sum;
}

const STRINGS = script('let s = ""; for i in 0..20000 { s += "item " + i + ", "; } s.len()');
function stringsJs(): number {
  let s = '';
  for (let i = 0; i < 20000; i++) s += 'item ' + i + ', ';
  return s.length;
}

const SORT_MAP = script(`
  let a = [];
  for i in 0..10000 { a.push((i * 7919) % 10007); }
  a.sort();
  let b = a.map(|x| x * 2 + 1);
  b.sort(|x, y| y - x);
  b[0] + b[9999]
`);
function sortMapJs(): number {
  const a: number[] = [];
  for (let i = 0; i < 10000; i++) a.push((i * 7919) % 10007);
  a.sort((x, y) => x - y);
  const b = a.map((x) => x * 2 + 1);
  b.sort((x, y) => y - x);
  return b[0]! + b[9999]!;
}

// The comparator is a closure called ~130,000 times: the slowest workload relative to native Rhai.
const SORT_CMP = script(`
  let a = [];
  for i in 0..10000 { a.push((i * 7919) % 10007); }
  a.sort(|x, y| x - y);
  a[0] + a[5000] + a[9999]
`);
function sortCmpJs(): number {
  const a: number[] = [];
  for (let i = 0; i < 10000; i++) a.push((i * 7919) % 10007);
  a.sort((x, y) => x - y);
  return a[0]! + a[5000]! + a[9999]!;
}

const HOOK = script(`
fn render(ctx) {
  let out = "";
  for e in ctx.entries {
    if e.tokens > 10 {
      out += \`- \${e.name} (\${e.tokens} tokens, \${e.kind})\` + "\\n";
    }
  }
  out
}`);
interface Entry {
  name: string;
  tokens: number;
  kind: string;
}
const CTX = {
  entries: Array.from({ length: 1000 }, (_, i): Entry => ({
    name: `entry-${i}`,
    tokens: (i * 37) % 500,
    kind: i % 3 ? 'tool' : 'user',
  })),
};
function renderJs(ctx: { entries: Entry[] }): string {
  let out = '';
  for (const e of ctx.entries) {
    if (e.tokens > 10) out += `- ${e.name} (${e.tokens} tokens, ${e.kind})` + '\n';
  }
  return out;
}

const WORKLOADS: Workload[] = [
  { name: 'fib(25) recursive', rhai: () => FIB.run(), js: () => fibJs(25) },
  { name: '1,000,000-iteration loop', rhai: () => LOOP.run(), js: loopJs },
  { name: 'string building (20,000 appends)', rhai: () => STRINGS.run(), js: stringsJs },
  { name: 'sort + map 10,000-element array', rhai: () => SORT_MAP.run(), js: sortMapJs },
  { name: 'sort 10,000 ints with a comparator closure', rhai: () => SORT_CMP.run(), js: sortCmpJs },
  { name: 'region hook render() over 1,000 entries', rhai: () => HOOK.call('render', [CTX]), js: () => renderJs(CTX) },
];

/** Each side's batch lasts at least this long (for the faster side; the slower one takes longer). */
const MIN_BATCH_MS = 5;

/** One batch's time per call: the process's CPU time and the wall-clock time, in ms. */
interface Timing {
  cpu: number;
  wall: number;
}

/** Times a batch of `calls`; the last result is checked, so none is unused. */
function timeBatch(f: () => unknown, calls: number, expected: string): Timing {
  let last: unknown;
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < calls; i++) last = f();
  const wall = (performance.now() - start) / calls;
  const cpu = process.cpuUsage(cpu0);
  if (String(last) !== expected) throw new Error(`a batch gave ${String(last)}, not ${expected}`);
  return { cpu: (cpu.user + cpu.system) / 1000 / calls, wall };
}

/** The number of calls after which a batch of the faster side lasts at least MIN_BATCH_MS. */
function batchSize(w: Workload, expected: string): number {
  let calls = 1;
  while (
    Math.min(timeBatch(w.rhai, calls, expected).wall, timeBatch(w.js, calls, expected).wall) * calls <
    MIN_BATCH_MS
  )
    calls *= 2;
  return calls;
}

/** The answer both sides must give. */
function check(w: Workload): string {
  const a = String(w.rhai());
  const b = String(w.js());
  if (a !== b) throw new Error(`${w.name}: Rhai gave ${a}, JS gave ${b}`);
  return a;
}

export async function benchRhai(rounds = 15, only = ''): Promise<RhaiBenchRow[]> {
  const rows: RhaiBenchRow[] = [];
  for (const w of WORKLOADS) {
    if (only && !w.name.includes(only)) continue;
    const expected = check(w);
    // Closure trees need more calls than plain JS before V8 optimizes them all; sizing the batch
    // runs both sides many times more.
    for (let i = 0; i < 10; i++) {
      w.rhai();
      w.js();
    }
    const calls = batchSize(w, expected);
    const rhai: number[] = [];
    const js: number[] = [];
    const ratios: number[] = [];
    const wallRatios: number[] = [];
    for (let i = 0; i < rounds; i++) {
      let r: Timing;
      let j: Timing;
      if (i % 2 === 0) {
        r = timeBatch(w.rhai, calls, expected);
        j = timeBatch(w.js, calls, expected);
      } else {
        j = timeBatch(w.js, calls, expected);
        r = timeBatch(w.rhai, calls, expected);
      }
      rhai.push(r.cpu);
      js.push(j.cpu);
      ratios.push(r.cpu / j.cpu);
      wallRatios.push(r.wall / j.wall);
    }
    rows.push({
      name: w.name,
      rhaiMs: round(median(rhai), 3),
      jsMs: round(median(js), 3),
      ratio: round(median(ratios), 1),
      wallRatio: round(median(wallRatios), 1),
    });
    await new Promise((r) => setTimeout(r, 0));
  }
  return rows;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function round(x: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

export function formatTable(rows: RhaiBenchRow[]): string {
  const lines = [
    '| workload | Rhai (ms CPU) | plain JS (ms CPU) | ratio (CPU) | ratio (wall) |',
    '| --- | ---: | ---: | ---: | ---: |',
  ];
  for (const r of rows) lines.push(`| ${r.name} | ${r.rhaiMs} | ${r.jsMs} | ${r.ratio}x | ${r.wallRatio}x |`);
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  benchRhai(Number(process.argv[2] ?? 15), process.argv[3] ?? '').then((rows) => console.log(formatTable(rows)));
}
