// `npm run fuzz -- --runs N [--seed S]`: every property suite with N runs per property and one seed,
// printed first so a failure can be replayed with `--seed S`. Then the inputs tried per area, how
// many were refused with a clean error, and the slowest single input (a hang is any over 2 s:
// test/fuzz/harness.ts fails the property on it). Exit code: vitest's.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SUITES = ['test/fuzz', 'test/hostile/tokens.test.ts', 'test/hostile/prototype-names.test.ts'];
const USAGE =
  'usage: npm run fuzz -- --runs N [--seed S]   (N runs per property; S defaults to a random seed, printed)';

function option(name: string): string | undefined {
  const args = process.argv.slice(2);
  const i = args.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) return undefined;
  return args[i]!.includes('=') ? args[i]!.slice(name.length + 3) : args[i + 1];
}

function positiveInteger(text: string | undefined, name: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) < 1) {
    console.error(`fuzz: --${name} takes a whole number above 0, not "${text}"\n${USAGE}`);
    process.exit(2);
  }
  return Number(text);
}

const runs = positiveInteger(option('runs'), 'runs');
if (runs === undefined) {
  console.error(USAGE);
  process.exit(2);
}
const seed = positiveInteger(option('seed'), 'seed') ?? Math.floor(Math.random() * 2 ** 31);
const statsDir = mkdtempSync(join(tmpdir(), 'lev-fuzz-stats-'));

console.log(
  `fuzz: seed ${seed}, ${runs} runs per property (replay a failure with: npm run fuzz -- --runs ${runs} --seed ${seed})`,
);
const started = Date.now();
const vitest = spawnSync('npx', ['vitest', 'run', ...SUITES, '--testTimeout=0', '--hookTimeout=0'], {
  stdio: 'inherit',
  env: { ...process.env, FUZZ_RUNS: String(runs), FUZZ_SEED: String(seed), FUZZ_STATS_DIR: statsDir },
});

interface Tally {
  inputs: number;
  cleanErrors: number;
  slowestMs: number;
}
const total = new Map<string, Tally>();
for (const file of readdirSync(statsDir)) {
  const tallies = JSON.parse(readFileSync(join(statsDir, file), 'utf8')) as Record<string, Tally>;
  for (const [area, t] of Object.entries(tallies)) {
    const sum = total.get(area) ?? { inputs: 0, cleanErrors: 0, slowestMs: 0 };
    total.set(area, {
      inputs: sum.inputs + t.inputs,
      cleanErrors: sum.cleanErrors + t.cleanErrors,
      slowestMs: Math.max(sum.slowestMs, t.slowestMs),
    });
  }
}
rmSync(statsDir, { recursive: true, force: true });

const rows = [...total].sort(([a], [b]) => a.localeCompare(b));
const all = rows.reduce(
  (s, [, t]) => ({
    inputs: s.inputs + t.inputs,
    cleanErrors: s.cleanErrors + t.cleanErrors,
    slowestMs: Math.max(s.slowestMs, t.slowestMs),
  }),
  { inputs: 0, cleanErrors: 0, slowestMs: 0 },
);
const line = (area: string, t: Tally) =>
  `${area.padEnd(18)} ${t.inputs.toLocaleString('en-US').padStart(9)} ${t.cleanErrors.toLocaleString('en-US').padStart(13)} ${`${Math.round(t.slowestMs)} ms`.padStart(10)}`;
console.log(`\n${'area'.padEnd(18)} ${'inputs'.padStart(9)} ${'clean errors'.padStart(13)} ${'slowest'.padStart(10)}`);
for (const [area, t] of rows) console.log(line(area, t));
console.log(line('total', all));
const verdict = vitest.status === 0 ? 'passed: no crash, no input over 2 s' : 'FAILED: see the failing property above';
console.log(
  `\nseed ${seed}, ${runs} runs per property, ${Math.round((Date.now() - started) / 1000)} s wall; ${verdict}`,
);
process.exit(vitest.status ?? 1);
