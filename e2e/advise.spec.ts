// Issue 29 in the page: a recorded run beside the blueprint's replay (the window and cache charts,
// the verdict), what fills the window at the scrubbed step, entries read again later on the
// timeline, and the Advise panel (progress, Cancel, apply as an undoable edit). Expected figures
// come from the trace's own usage records, the published prices and the engine run here in Node.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { importTrace } from '../src/import/index.ts';
import { type Scenario, advise, replayAsRecorded } from '../src/engine/index.ts';
import { BUILT_IN_TRAFFIC } from '../src/scenarios/generators.ts';
import { RHAI } from '../src/engine/custom-script.ts';
import { engineDetail, engineTimeline, exampleScenario, fmt, waitForTimeline, watchErrors } from './helpers.ts';

/** A real OpenHands run on claude-3-5-sonnet, with the provider's usage on each of its 4 calls (test/import/fixtures/real/SOURCES.md). */
const run: Scenario = importTrace(
  readFileSync(new URL('../test/import/fixtures/real/openhands-wrong-initial-state.json', import.meta.url), 'utf8'),
  { name: 'openhands-run' },
).scenario;
type Assistant = Extract<Scenario['traffic'][number], { type: 'assistant' }>;
const calls = run.traffic.filter((e): e is Assistant => e.type === 'assistant');
/** anthropic.com/pricing: Claude Sonnet input $3 per million tokens, cache reads 0.1x, 5-minute cache writes 1.25x. */
const recordedCost = calls.reduce((sum, e) => {
  const r = e.recorded!;
  const read = r.cacheReadTokens ?? 0;
  const write = r.cacheWriteTokens ?? 0;
  return sum + (3 / 1_000_000) * (read * 0.1 + write * 1.25 + (r.promptTokens - read - write));
}, 0);
const usd = (n: number): string => `$${n < 0.01 ? n.toFixed(4) : n < 1 ? n.toFixed(3) : n.toFixed(2)}`;

async function openScenario(page: Page, scenario: Scenario, steps: number): Promise<void> {
  await page.getByTestId('import-file').setInputFiles({
    name: `${scenario.name}.json`,
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(scenario)),
  });
  await expect(page.getByTestId('charts')).toHaveAttribute('data-scenario', scenario.name);
  await waitForTimeline(page, steps);
}

async function openExample(page: Page, id: string, steps: number): Promise<void> {
  await page.getByTestId('open-examples').click();
  await page.getByTestId('examples').locator(`[data-example="${id}"]`).getByRole('button', { name: 'Open' }).click();
  await waitForTimeline(page, steps);
}

test("a recorded run: its lines over the regions, the verdict compares it, the window breakdown sets the as-sent request beside the blueprint's", async ({
  page,
}) => {
  const errors = watchErrors(page);
  const timeline = engineTimeline(run);
  await page.goto('/');
  await waitForTimeline(page);
  await openScenario(page, run, timeline.steps.length);

  const chart = page.getByTestId('window-chart');
  await expect(chart.getByTestId('recorded-line')).toHaveAttribute('d', /^M/);
  await expect(chart.getByTestId('as-sent-line')).toHaveAttribute('d', /^M/);

  const peak = Math.max(...calls.map((e) => e.recorded!.promptTokens));
  await expect(page.getByTestId('as-recorded-sentence')).toHaveText(
    `As recorded: ${calls.length} calls, peak ${fmt(peak)} tokens, ${usd(recordedCost)} of input.`,
  );
  const blueprint = page.getByTestId('blueprint-sentence');
  await expect(blueprint).toContainText(
    `Through this blueprint: peak ${fmt(timeline.summary.peakRequestTokens)} (approximate)`,
  );
  await expect(blueprint).toContainText(
    timeline.summary.taskLostAt === null ? 'the task kept at every step' : 'the task lost',
  );
  // The tool results the blueprint let go, and how many of them the run named again (issue 29.1's wording).
  const { lost } = timeline.summary;
  await expect(blueprint).toContainText(
    `${fmt(lost.toolResults)} tool result${lost.toolResults === 1 ? '' : 's'} evicted (${fmt(lost.toolResultsReadAgain)} of them read again later)`,
  );
  await page.getByTestId('recorded-verdict').getByText('How these were counted').click();
  await expect(page.getByTestId('as-sent-sentence')).toContainText(
    `Replayed as it was sent: peak ${fmt(replayAsRecorded(run).summary.peakRequestTokens)}`,
  );
  await expect(page.getByTestId('as-sent-sentence')).toContainText(/price table checked \d{4}-\d{2}-\d{2}/);

  // What fills the window at the last step: the blueprint's regions beside the as-sent message list.
  const last = timeline.steps.length - 1;
  await page.keyboard.press('End');
  await expect(page.getByTestId('inspector')).toHaveAttribute('data-step', String(last));
  const breakdown = page.getByTestId('window-breakdown');
  await expect(breakdown).toHaveAttribute('data-step', String(last));
  const detail = engineDetail(run, last);
  for (const block of detail.request.system) {
    await expect(
      breakdown
        .getByTestId('breakdown-blueprint')
        .locator(`tr[data-name="${block.region}"] [data-testid="breakdown-tokens"]`),
    ).toHaveText(fmt(block.tokens));
  }
  const sent = replayAsRecorded(run).steps.findLast((s) => s.request && s.index <= last)!.request!;
  const beside = breakdown.getByTestId('breakdown-beside');
  await expect(beside).toContainText('As it was sent (replayed)');
  await expect(beside.locator('tr[data-kind="messages"] [data-testid="breakdown-tokens"]').first()).toHaveText(
    fmt(sent.messageTokens),
  );
  await expect(breakdown.getByTestId('breakdown-blueprint').locator('tr[data-kind="headroom"]')).toBeVisible();

  // The Prompt cache view draws the recorded cache reads beside the blueprint's.
  await page.getByTestId('view-cache').click();
  await expect(page.getByTestId('cache-recorded-legend')).toContainText('cache reads as recorded');
  await expect(
    page
      .getByTestId('cache')
      .locator(
        '.recharts-line path[name="cache reads, as recorded"], .recharts-line-curve[name="cache reads, as recorded"]',
      )
      .first(),
  ).toBeVisible();
  expect(errors).toEqual([]);
});

test('entries read again later: markers on the timeline at the steps that name them, the count in the verdict', async ({
  page,
}) => {
  const scenario = exampleScenario('imported-run');
  const timeline = engineTimeline(scenario);
  const { count, items } = timeline.summary.readAgain;
  expect(count).toBeGreaterThan(0);
  await page.goto('/');
  await waitForTimeline(page);
  await openExample(page, 'imported-run', timeline.steps.length);
  await expect(page.getByTestId('read-again-sentence')).toContainText(
    `${count} ${count === 1 ? 'entry it let go was' : 'entries it let go were'} read again later`,
  );
  const markers = page.getByTestId('read-again-lane').locator('.read-again-marker');
  const steps = [...new Set(items.map((i) => i.namedAt))].sort((a, b) => a - b);
  await expect(markers).toHaveCount(steps.length);
  const first = items.reduce((a, b) => (b.namedAt < a.namedAt ? b : a));
  await expect(markers.first()).toHaveAttribute('data-step', String(first.namedAt));
  await expect(markers.first()).toHaveAttribute(
    'aria-label',
    new RegExp(`${first.key.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} named again`),
  );
  await markers.first().click();
  await expect(page.getByTestId('inspector')).toHaveAttribute('data-step', String(first.namedAt));
});

test('Advise: progress while the page stays usable, the front with its measures and diff, apply as an edit that Ctrl+Z undoes', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const errors = watchErrors(page);
  const scenario = exampleScenario('imported-run');
  const timeline = engineTimeline(scenario);
  const advice = advise(scenario, { ...BUILT_IN_TRAFFIC, ...RHAI });
  expect(advice.front.length).toBeGreaterThan(0);
  await page.goto('/');
  await waitForTimeline(page);
  await openExample(page, 'imported-run', timeline.steps.length);

  await page.getByTestId('open-advise').click();
  const panel = page.getByTestId('advise-panel');
  await panel.getByTestId('advise-run').click();
  await expect(panel.getByTestId('advise-progress')).toBeVisible();
  // The search runs in a worker of its own: scrubbing is answered meanwhile.
  await page.getByRole('heading', { name: 'Timeline', exact: true }).click();
  await page.keyboard.press('Home');
  await expect(page.getByTestId('inspector')).toHaveAttribute('data-step', '0');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('inspector')).toHaveAttribute('data-step', '1');

  await expect(panel).toHaveAttribute('data-status', 'done', { timeout: 90_000 });
  const proposals = panel.getByTestId('proposal');
  await expect(proposals).toHaveCount(advice.front.length);
  const best = advice.front[0]!;
  await expect(proposals.first().getByTestId('proposal-peak')).toHaveText(fmt(best.peakRequestTokens));
  await expect(proposals.first().getByTestId('proposal-read-again')).toHaveText(String(best.readAgain));
  // The engine lists what meets the target first; the card says so (imported-run has such a proposal).
  expect(best.meetsTarget).toBe(true);
  await expect(proposals.first().getByTestId('proposal-target')).toHaveText('meets the target');
  await expect(panel.getByTestId('proposal-target')).toHaveCount(advice.front.filter((p) => p.meetsTarget).length);
  await expect(proposals.first().getByTestId('proposal-changes').locator('li')).toHaveText(best.changes);
  await proposals.first().locator('summary').click();
  const added = best.toml.split('\n').filter((line) => !scenario.agent['agent.leviath']!.split('\n').includes(line));
  await expect(proposals.first().getByTestId('proposal-diff')).toContainText(`+${added[0]}`);

  // Applied: the replay is the proposal's; Ctrl+Z in the editor brings the old blueprint (and its replay) back.
  await proposals.first().getByTestId('apply-proposal').click();
  await expect(proposals.first().getByTestId('apply-proposal')).toHaveText('Applied');
  const applied: Scenario = { ...scenario, agent: { ...scenario.agent, 'agent.leviath': best.toml } };
  const last = timeline.steps.length - 1;
  await page.getByRole('heading', { name: 'Timeline', exact: true }).click();
  await page.keyboard.press('End');
  await expect(page.getByTestId('request-tokens')).toHaveText(fmt(engineDetail(applied, last).request.tokens), {
    timeout: 30_000,
  });
  await expect(page.getByTestId('editor').locator('.view-lines')).toContainText(added[0]!.replace(/ /g, '\u00a0'));
  // The panel leaves the editor to the person: closed, Ctrl+Z there, opened again.
  await panel.getByRole('button', { name: 'Close the Advise panel' }).click();
  await page.getByTestId('editor').locator('.monaco-editor .view-lines').first().click();
  await page.keyboard.press('ControlOrMeta+z');
  await page.getByRole('heading', { name: 'Timeline', exact: true }).click();
  await page.keyboard.press('End');
  await expect(page.getByTestId('request-tokens')).toHaveText(fmt(engineDetail(scenario, last).request.tokens), {
    timeout: 30_000,
  });
  await page.getByTestId('open-advise').click();
  await expect(proposals.first().getByTestId('apply-proposal')).toHaveText('Apply');
  // Another edit: the proposals are no longer applied over it (each is the searched text plus its edits).
  await panel.getByRole('button', { name: 'Close the Advise panel' }).click();
  await page.getByTestId('editor').locator('.monaco-editor .view-lines').first().click();
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.type('# my own note');
  await page.getByTestId('open-advise').click();
  await expect(panel.getByTestId('advise-stale')).toBeVisible();
  await expect(proposals.first().getByTestId('apply-proposal')).toBeDisabled();
  expect(errors).toEqual([]);
});

test('Advise: Cancel stops the search and changes nothing', async ({ page }) => {
  const scenario = exampleScenario('imported-run');
  await page.goto('/');
  await waitForTimeline(page);
  await openExample(page, 'imported-run', engineTimeline(scenario).steps.length);
  await page.getByTestId('open-advise').click();
  const panel = page.getByTestId('advise-panel');
  await panel.getByTestId('advise-run').click();
  await panel.getByTestId('advise-cancel').click();
  await expect(panel.getByTestId('advise-cancelled')).toHaveText('Cancelled. Nothing was changed.');
  await expect(panel.getByTestId('proposal')).toHaveCount(0);
  await expect(panel.getByTestId('advise-run')).toBeVisible();
});

test('Advise on a recorded run: the reference is the run as it was sent, labelled, with its harness overhead', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const errors = watchErrors(page);
  const timeline = engineTimeline(run);
  const sent = replayAsRecorded(run);
  await page.goto('/');
  await waitForTimeline(page);
  await openScenario(page, run, timeline.steps.length);
  await page.getByTestId('open-advise').click();
  const panel = page.getByTestId('advise-panel');
  await panel.getByTestId('advise-run').click();
  const reference = panel.getByTestId('advise-reference');
  await expect(reference).toHaveAttribute('data-reference', 'asSent', { timeout: 60_000 });
  await expect(reference).toContainText(
    `Compared with the run as it was sent, replayed from its records over ${calls.length} calls: peak request ${fmt(sent.summary.peakRequestTokens)}`,
  );
  // Beside it, the provider's own figures the verdict shows, so that the two are not read as one.
  const peak = Math.max(...calls.map((e) => e.recorded!.promptTokens));
  await expect(reference.getByTestId('advise-reference-records')).toContainText(
    `The provider's own records, the verdict's “As recorded”, say peak ${fmt(peak)}, ${usd(recordedCost)}:`,
  );
  expect(errors).toEqual([]);
});
