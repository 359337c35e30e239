// `lev advise SCENARIO [--json] [--seed N] [--candidates N] [--proposals N]`: searches the blueprint
// space over the scenario's own traffic and prints a small Pareto front over input cost, peak request
// tokens and entries read again later. Exit 0 when it ran, 1 when the scenario cannot run, 2 on bad usage.
import {
  DEFAULT_CANDIDATES,
  DEFAULT_PROPOSALS,
  GOAL_PEAK_SHARE,
  GOAL_READ_AGAIN,
  type Advice,
  type Proposal,
  fmt as n,
  advise,
} from '../engine/index.ts';
import { BUILT_IN_TRAFFIC } from '../scenarios/generators.ts';
import { RHAI } from '../engine/custom-script.ts';
import { EXIT_FINDINGS, EXIT_OK, usageError, type Command } from './io.ts';
import { printDiagnostics, readScenarioArgs } from './replay.ts';

export const USAGE = `usage: lev advise SCENARIO.json [--json] [--seed N] [--candidates N] [--proposals N]

  Searches budgets, kinds, max_items, sliding strategies and chunk sizes, compact_at, and the routes
  and per-tool caps of large tool results, replaying the scenario's own traffic through each
  candidate, and prints the proposals no other candidate beats on input cost, peak request and
  entries read again later, each with one sentence per change.
  --seed N        the search's seed (default 1): the same seed gives the same proposals
  --candidates N  how many candidate blueprints to judge (default ${DEFAULT_CANDIDATES})
  --proposals N   at most this many proposals (default ${DEFAULT_PROPOSALS})
  --json          {"asRecorded": {...}, "front": [{"toml", "peakRequestTokens", "inputCostUsd", "readAgain", "taskKept", "changes"}], ...}`;

const VALUED = ['seed', 'candidates', 'proposals'];

export const run: Command = async (args) => {
  const read = readScenarioArgs(args, 'advise', USAGE, VALUED);
  if ('exit' in read) return read.exit;
  const numbers: Record<string, number> = {};
  for (const name of VALUED) {
    const value = read.flags.get(name);
    if (value === undefined) continue;
    if (value === true || !/^\d+$/.test(value) || (name !== 'seed' && Number(value) === 0)) {
      return usageError(`advise: --${name} takes a whole number${name === 'seed' ? '' : ' above 0'}\n${USAGE}`);
    }
    numbers[name] = Number(value);
  }
  const advice = advise(read.scenario, {
    ...BUILT_IN_TRAFFIC,
    ...RHAI,
    ...(numbers.seed !== undefined ? { seed: numbers.seed } : {}),
    ...(numbers.candidates !== undefined ? { candidates: numbers.candidates } : {}),
    ...(numbers.proposals !== undefined ? { proposals: numbers.proposals } : {}),
  });
  const failed = advice.diagnostics.some((d) => d.severity === 'error');
  if (read.json) {
    console.log(JSON.stringify(failed ? { diagnostics: advice.diagnostics } : advice));
    return failed ? EXIT_FINDINGS : EXIT_OK;
  }
  if (failed) {
    printDiagnostics(advice.diagnostics);
    return EXIT_FINDINGS;
  }
  printAdvice(read.scenario.name, advice);
  return EXIT_OK;
};

const usd = (v: number): string => `$${v.toFixed(v < 1 ? 4 : 2)}`;
const times = (v: number, of: number): string => (of > 0 ? `${(v / of).toFixed(2)}x` : '-');

function printAdvice(name: string, a: Advice): void {
  const r = a.asRecorded;
  console.log(
    `${name}: compared with ${r.of === 'asSent' ? r.source : `the starting layout (${r.source})`}: peak request ${n(r.peakRequestTokens)} tokens, ${usd(r.inputCostUsd)} of input, ${n(r.readAgain)} read again later, task ${r.taskKept ? 'kept' : 'LOST'}`,
  );
  if (r.harnessTokens)
    console.log(
      `its requests carry the harness's ${n(r.harnessTokens)}-token system prompt and tool definitions (calibrated on the first calls' records); a blueprint's do not`,
    );
  console.log(
    a.prices
      ? `input priced as ${a.prices.model} (${a.prices.provider}), with its cache rules: ${a.prices.source}, checked ${a.prices.checked}`
      : 'a custom model has no price: costs are 0',
  );
  const s = a.search;
  console.log(
    `searched ${n(s.knobs)} settings with seed ${s.seed}: ${n(s.judged)} candidates judged (${n(s.replayed)} replayed to the end, ${n(s.stoppedEarly)} stopped once they could not win (${n(s.raced)} of them clearly behind another at the same step), ${n(s.infeasible)} broke a hard constraint, ${n(s.invalid)} refused by lev validate)${s.cancelled ? '; cancelled' : ''}`,
  );
  if (a.front.length === 0) {
    console.log(
      '\nno candidate beats the starting layout on any of the three measures without breaking a hard constraint',
    );
    return;
  }
  a.front.forEach((p, i) => printProposal(p, i, r));
  console.log("\n(lev advise --json prints each proposal's whole agent.leviath)");
}

function printProposal(p: Proposal, i: number, r: Advice['asRecorded']): void {
  console.log(
    `\n${i + 1}. peak request ${n(p.peakRequestTokens)} tokens (${times(p.peakRequestTokens, r.peakRequestTokens)}), ${usd(p.inputCostUsd)} of input (${times(p.inputCostUsd, r.inputCostUsd)}), ${n(p.readAgain)} read again later, task ${p.taskKept ? 'kept' : 'LOST'}; cache reads ${Math.round(p.cacheReadShare * 100)}% of input`,
  );
  if (p.meetsTarget)
    console.log(
      `   meets the target: at most ${GOAL_PEAK_SHARE}x the peak, no more input cost, the task kept, at most ${GOAL_READ_AGAIN} read again later`,
    );
  for (const change of p.changes) console.log(`   - ${change}`);
  for (const edit of p.edits)
    console.log(
      `     ${edit.op === 'set' ? `${edit.path.join('.')} = ${JSON.stringify(edit.value)}` : `${edit.path.join('.')} removed`}`,
    );
}
