// What `npm run fuzz` turns: every property's run count (FUZZ_RUNS), the seed (FUZZ_SEED), and a
// tally per area of inputs tried, clean errors (refused with a message) and the slowest input, which
// bench/fuzz.ts sums up. An input over HANG_MS fails its property as a hang.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect } from 'vitest';

/** A fixed seed keeps the suite reproducible; FUZZ_SEED=<n> explores others (a failure prints its seed). */
export const SEED = Number(process.env.FUZZ_SEED ?? 20261202);

/** A property's own run count, or FUZZ_RUNS for every property when `npm run fuzz -- --runs N` says. */
export function runs(own: number): number {
  const override = Number(process.env.FUZZ_RUNS);
  return Number.isInteger(override) && override > 0 ? override : own;
}

export const HANG_MS = 2_000;

/**
 * Whether a property ran often enough to hold its generator to a share (`a third compile clean`):
 * with a handful of runs (`npm run fuzz -- --runs 5`) such a share is chance, not a finding.
 */
export function enoughRunsToJudge(n: number): boolean {
  return n >= 50;
}

interface Tally {
  inputs: number;
  cleanErrors: number;
  slowestMs: number;
}
const tallies = new Map<string, Tally>();

function record(area: string, refused: boolean, ms: number): void {
  const tally = tallies.get(area) ?? { inputs: 0, cleanErrors: 0, slowestMs: 0 };
  tally.inputs++;
  if (refused) tally.cleanErrors++;
  tally.slowestMs = Math.max(tally.slowestMs, ms);
  tallies.set(area, tally);
  expect(ms, `${area}: one input took ${Math.round(ms)} ms (a hang is over ${HANG_MS} ms)`).toBeLessThan(HANG_MS);
}

/**
 * Runs one generated input, timing it. `refused` tells from the result whether the input was
 * refused with a clean message (by default: the result is 'error'); a throw is the property's failure.
 */
export function tried<T>(area: string, check: () => T, refused: (result: T) => boolean = (r) => r === 'error'): T {
  const start = performance.now();
  const result = check();
  record(area, refused(result), performance.now() - start);
  return result;
}

/** The async twin of `tried`, for the CLI, whose commands are async. */
export async function triedAsync<T>(
  area: string,
  check: () => Promise<T>,
  refused: (result: T) => boolean = (r) => r === 'error',
): Promise<T> {
  const start = performance.now();
  const result = await check();
  record(area, refused(result), performance.now() - start);
  return result;
}

afterAll(() => {
  const dir = process.env.FUZZ_STATS_DIR;
  if (!dir || tallies.size === 0) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, `${process.pid}-${Math.random().toString(36).slice(2)}.json`),
    JSON.stringify(Object.fromEntries(tallies)),
  );
});
