// Issue 29's goal on a long real session: a whole Codex CLI run (OpenPrintKit, 380 calls, MIT;
// test/import/fixtures/real/SOURCES.md), imported as a user imports it. The run comes back to the
// same files all run long (sed -n, cat, rg, apply_patch), so a layout that loses a result with its
// turn has the run read it again; the front must still hold a proposal at most 0.6x the peak the run
// really sent, at no more input cost, with the task kept and at most 2 entries read again.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { advise, replay, replayAsRecorded } from '../../../src/engine/index.ts';
import { RHAI } from '../../../src/engine/custom-script.ts';
import { GOAL_PEAK_SHARE, GOAL_READ_AGAIN } from '../../../src/engine/advise/target.ts';
import { importTrace } from '../../../src/import/index.ts';

const FIXTURE = new URL('../../import/fixtures/real/codex-0.34-openprintkit-380calls.jsonl.gz', import.meta.url);
const lines = gunzipSync(readFileSync(FIXTURE))
  .toString('utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as { type?: string; payload?: { type?: string; info?: unknown } });

/** The largest prompt the provider recorded: each call's `token_count` event, its last usage's input tokens. */
const recordedPeak = Math.max(
  ...lines.flatMap((l) => {
    const info =
      l.payload?.type === 'token_count'
        ? (l.payload.info as { last_token_usage?: { input_tokens?: number } })
        : undefined;
    const input = info?.last_token_usage?.input_tokens;
    return typeof input === 'number' ? [input] : [];
  }),
);

describe('lev advise on a long real Codex session', () => {
  const { scenario } = importTrace(lines.map((l) => JSON.stringify(l)).join('\n'));
  const advice = advise(scenario, { ...RHAI, candidates: 40 });
  const reference = advice.asRecorded;

  it('compares with the run as it was sent, whose peak is the one the provider recorded', () => {
    expect(reference.of).toBe('asSent');
    expect(reference.peakRequestTokens).toBe(replayAsRecorded(scenario).summary.peakRequestTokens);
    // Counts are calibrated, not the provider's: within 2% of the largest prompt it recorded.
    expect(Math.abs(reference.peakRequestTokens - recordedPeak) / recordedPeak).toBeLessThan(0.02);
  });

  it('proposes a layout meeting the goal, which replays to exactly the figures it reports', () => {
    const meets = advice.front.filter(
      (p) =>
        p.peakRequestTokens <= GOAL_PEAK_SHARE * reference.peakRequestTokens &&
        p.inputCostUsd <= reference.inputCostUsd &&
        p.taskKept &&
        p.readAgain <= GOAL_READ_AGAIN,
    );
    // Marked, and listed first: the proposal to try.
    expect(advice.front.map((p) => p.meetsTarget)).toEqual(advice.front.map((p) => meets.includes(p)));
    expect(advice.front[0]!.meetsTarget).toBe(true);
    expect(meets.length).toBeGreaterThan(0);
    const best = meets[0]!;
    // The results stay apart from the turns, in the keyed region the import's layout has.
    expect(best.toml).toMatch(/^shell = "files"$/m);
    expect(best.toml).toMatch(/^files = \{ kind = "hashmap"/m);
    const t = replay({ ...scenario, agent: { ...scenario.agent, 'agent.leviath': best.toml } }, RHAI);
    let inputCostUsd = 0;
    for (const step of t.steps) if (step.request) inputCostUsd += step.request.cache.inputCostUsd;
    expect({
      peakRequestTokens: t.summary.peakRequestTokens,
      inputCostUsd,
      readAgain: t.summary.readAgain.count,
      taskKept: t.summary.taskLostAt === null,
    }).toEqual({
      peakRequestTokens: best.peakRequestTokens,
      inputCostUsd: best.inputCostUsd,
      readAgain: best.readAgain,
      taskKept: best.taskKept,
    });
  });
});
