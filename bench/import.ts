// Importing real runs, timed: `lev import` of a 50 MB Claude Code session (a child process, as a
// user runs it), and the as-sent replay's cost per event beside the ordinary replay's on the same
// imported run. `npx tsx bench/import.ts` prints them; `npm run bench` adds them to its table, with
// the goal rows of bench/import-goals.ts for the traces in $LEV_REAL_TRACES.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { replayAsRecorded, loadEncodings, observeCounts, replay } from '../src/engine/index.ts';
import { importTrace } from '../src/import/index.ts';
import { BUILT_IN_TRAFFIC } from '../src/scenarios/generators.ts';
import { RHAI } from '../src/engine/custom-script.ts';
import { bigSession } from '../test/import/big-session.ts';
import { goalsTable, measureGoals, type GoalRow } from './import-goals.ts';
import type { LevReplayFigures } from './replay.ts';

/** A child process's figures, as `lev replay`'s row has them, and the trace's size. */
export interface ImportFigures extends LevReplayFigures {
  bytes: number;
}

/** `lev import` of a generated 50 MB Claude Code session, to a file. */
export function benchLevImport(bytes = 50_000_000): ImportFigures {
  const dir = mkdtempSync(join(tmpdir(), 'lev-bench-import-'));
  try {
    const { text } = bigSession(bytes);
    const trace = join(dir, 'big-session.jsonl');
    writeFileSync(trace, text);
    const timeFile = join(dir, 'time.txt');
    const timed = existsSync('/usr/bin/time');
    const loadAverage = loadavg()[0]!;
    const args = ['bin/lev.mjs', 'import', trace, '-o', join(dir, 'run.json')];
    const start = performance.now();
    execFileSync(
      timed ? '/usr/bin/time' : process.execPath,
      timed ? ['-f', '%U %S %M', '-o', timeFile, process.execPath, ...args] : args,
      { stdio: ['ignore', 'ignore', 'ignore'] },
    );
    const wallMs = performance.now() - start;
    const figures: ImportFigures = {
      bytes: Buffer.byteLength(text),
      events: JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')).traffic.length,
      wallMs,
      loadAverage,
    };
    if (timed) {
      const [user, system, rssKb] = readFileSync(timeFile, 'utf8').trim().split(/\s+/).slice(-3).map(Number);
      figures.cpuMs = (user! + system!) * 1000;
      figures.peakRssBytes = rssKb! * 1024;
    }
    return figures;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface AsRecordedCost {
  events: number;
  replayMs: number;
  asRecordedMs: number;
}

/** CPU of `f`, counted with the token caches empty (each side pays its own counting). */
const cpu = (f: () => unknown) => {
  observeCounts(undefined);
  const start = process.cpuUsage();
  f();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};

/** CPU of the ordinary replay and of the as-sent replay of one imported run, best of `runs` each, alternating. */
export function benchAsRecorded(bytes = 10_000_000, runs = 3): AsRecordedCost {
  const { scenario } = importTrace(bigSession(bytes).text);
  let replayMs = Infinity;
  let asRecordedMs = Infinity;
  for (let i = 0; i < runs; i++) {
    replayMs = Math.min(
      replayMs,
      cpu(() => replay(scenario, { ...BUILT_IN_TRAFFIC, ...RHAI })),
    );
    asRecordedMs = Math.min(
      asRecordedMs,
      cpu(() => replayAsRecorded(scenario)),
    );
  }
  return { events: scenario.traffic.length, replayMs, asRecordedMs };
}

/** The goal rows for every trace file in `dir` ($LEV_REAL_TRACES), or none when it is not set. */
export function realTraceGoals(dir = process.env.LEV_REAL_TRACES): GoalRow[] {
  if (!dir || !existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => /\.(jsonl?|traj)$/.test(f))
    .sort()
    .flatMap((f) => {
      try {
        return [measureGoals(join(dir, f))];
      } catch (error) {
        console.error(`import goals: ${f}: ${(error as Error).message}`);
        return [];
      }
    });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await loadEncodings();
  const lev = benchLevImport();
  console.log(
    `lev import of ${(lev.bytes / 1e6).toFixed(0)} MB (${lev.events} events): ${(lev.wallMs / 1000).toFixed(1)} s wall, ${lev.cpuMs === undefined ? '?' : (lev.cpuMs / 1000).toFixed(1)} s CPU (load ${lev.loadAverage.toFixed(1)})`,
  );
  const cost = benchAsRecorded();
  console.log(
    `${cost.events} events: replay ${cost.replayMs.toFixed(0)} ms, as sent ${cost.asRecordedMs.toFixed(0)} ms CPU`,
  );
  const goals = realTraceGoals();
  if (goals.length) console.log(goalsTable(goals));
}
