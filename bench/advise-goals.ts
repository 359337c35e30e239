// The advisor's goals (issue 29.5), measured on the scenarios given:
//   - the front holds a proposal whose peak request is at most 0.6x the as-recorded peak, at an
//     input cost no higher, with the task kept and at most 2 entries read again later;
//   - no proposal is worse than the as-recorded run on all three measures at once.
//
//   npx tsx bench/advise-goals.ts [SCENARIO.json[@STEPS] ...] [--candidates N] [--seed N]
//
// STEPS stretches a generated scenario (`generator.steps`). Without scenarios: the imported session
// example and the generated examples at about 500 calls. Real sessions (`lev import` output) are
// given as paths; "as recorded" is the run as it was sent for a scenario that records its run (the
// as-sent replay), the starting layout for any other. `--json DIR` also writes each advice there.
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  GOAL_PEAK_SHARE,
  type Advice,
  type Proposal,
  ScenarioSchema,
  type Scenario,
  loadEncodings,
  advise,
  replay,
} from '../src/engine/index.ts';
import { BUILT_IN_TRAFFIC } from '../src/scenarios/generators.ts';
import { RHAI } from '../src/engine/custom-script.ts';

const DEFAULTS = [
  'examples/imported-run.json',
  'examples/coding-agent.json@1230',
  'examples/tool-routing.json@1230',
  'examples/checklist-gate.json@1230',
  'examples/research-reject.json@1700',
  'examples/sliding-bulk-cache.json@1000',
  'examples/flat-vs-regions.json@1000',
];

export interface GoalRow {
  scenario: string;
  inferences: number;
  advice: Advice;
  /** The lowest-peak proposal meeting the goal, if one does. */
  meets: Proposal | undefined;
  /**
   * Failing that, how near the front came: the fewest read again among proposals at most 0.6x the
   * peak at no more cost with the task kept; else the lowest peak at no more cost and read again.
   */
  nearest: Proposal | undefined;
  worseOnAll: number;
  seconds: number;
}

export function measureGoals(scenario: Scenario, options: { candidates?: number; seed?: number } = {}): GoalRow {
  const inferences = replay(scenario, { ...BUILT_IN_TRAFFIC, ...RHAI }).summary.inferences;
  const started = performance.now();
  const advice = advise(scenario, { ...BUILT_IN_TRAFFIC, ...RHAI, ...options });
  const a = advice.asRecorded;
  const byPeak = [...advice.front].sort((x, y) => x.peakRequestTokens - y.peakRequestTokens);
  return {
    scenario: scenario.name,
    inferences,
    advice,
    meets: byPeak.find((p) => p.meetsTarget),
    nearest:
      [...byPeak]
        .filter((p) => p.peakRequestTokens <= GOAL_PEAK_SHARE * a.peakRequestTokens && p.inputCostUsd <= a.inputCostUsd)
        .filter((p) => p.taskKept)
        .sort((x, y) => x.readAgain - y.readAgain)[0] ??
      byPeak.find((p) => p.inputCostUsd <= a.inputCostUsd && p.readAgain <= a.readAgain && p.taskKept),
    worseOnAll: advice.front.filter(
      (p) => p.peakRequestTokens > a.peakRequestTokens && p.inputCostUsd > a.inputCostUsd && p.readAgain > a.readAgain,
    ).length,
    seconds: (performance.now() - started) / 1000,
  };
}

function load(spec: string): Scenario {
  const [path, steps] = spec.split('@') as [string, string | undefined];
  const raw = JSON.parse(readFileSync(path, 'utf8')) as { generator?: { steps?: number } };
  if (steps !== undefined && raw.generator) raw.generator.steps = Number(steps);
  return ScenarioSchema.parse(raw);
}

const usd = (v: number) => `$${v.toFixed(v < 1 ? 4 : 2)}`;
const figures = (p: Proposal | undefined, a: Advice['asRecorded']) =>
  p
    ? `${p.peakRequestTokens.toLocaleString('en-US')} (${(p.peakRequestTokens / a.peakRequestTokens).toFixed(2)}x), ${usd(p.inputCostUsd)}, ${p.readAgain} read again`
    : 'none';

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const option = (name: string) => {
    const at = args.indexOf(`--${name}`);
    return at >= 0 ? Number(args.splice(at, 2)[1]) : undefined;
  };
  const jsonAt = args.indexOf('--json');
  const jsonDir = jsonAt >= 0 ? args.splice(jsonAt, 2)[1] : undefined;
  const candidates = option('candidates');
  const seed = option('seed');
  await loadEncodings();
  console.log(
    '| scenario | calls | as recorded: peak, input, read again | goal met by | else the nearest | worse on all three | search |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const spec of args.length ? args : DEFAULTS) {
    const row = measureGoals(load(spec), {
      ...(candidates ? { candidates } : {}),
      ...(seed !== undefined ? { seed } : {}),
    });
    const a = row.advice.asRecorded;
    if (jsonDir)
      writeFileSync(`${jsonDir}/${basename(spec).replace(/[@]/g, '-')}.advice.json`, JSON.stringify(row.advice));
    console.log(
      `| ${basename(spec)} | ${row.inferences} | ${a.peakRequestTokens.toLocaleString('en-US')}, ${usd(a.inputCostUsd)}, ${a.readAgain}${a.harnessTokens ? ` (overhead ${a.harnessTokens.toLocaleString('en-US')})` : ''} | ${figures(row.meets, a)} | ${row.meets ? '' : figures(row.nearest, a)} | ${row.worseOnAll} of ${row.advice.front.length} | ${row.advice.search.judged} judged, ${row.seconds.toFixed(1)} s wall |`,
    );
  }
}
