// Links: one made today keeps opening to the same numbers; long links say so and shrink; the
// Markdown summary and the embed view.
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { ScenarioSchema } from '../src/engine/index.ts';
import { DEFAULT_EXAMPLE_ID } from '../src/scenarios/examples.ts';
import { decodeFragment, encodeScenario } from '../src/share/index.ts';
import type { LinkFixture } from '../test/share/link-fixtures.ts';
import {
  engineTimeline,
  exampleScenario,
  fmt,
  goToStep,
  readRegionReadout,
  regionAt,
  waitForTimeline,
} from './helpers.ts';

// Each test opens and replays several scenarios; on a machine shared by many runs that takes minutes.
test.describe.configure({ timeout: 180_000 });

const fixtures = JSON.parse(
  readFileSync(new URL('../test/share/fixtures/links-2026-12-03.json', import.meta.url), 'utf8'),
) as LinkFixture[];
const fixture = (name: string) => fixtures.find((f) => f.name === name)!;

test('a link made on 2026-12-03 opens to the timeline it opened to then, and keeps its fragment', async ({ page }) => {
  const old = fixture('explicit-events');
  await page.goto(`/${old.fragment}`);
  await waitForTimeline(page, old.opensTo.steps);
  expect(new URL(page.url()).hash).toBe(old.fragment);
  await goToStep(page, old.opensTo.steps - 1, old.opensTo.steps);
  const readout = await readRegionReadout(page);
  for (const [region, tokens] of Object.entries(old.opensTo.finalTokens)) {
    if (readout[region]) expect(readout[region].tokens).toBe(fmt(tokens));
  }
  expect(Object.keys(readout)).toContain('conversation');
});

test('a link past 2,000 characters says so; dropping tool output shrinks it to the same charts', async ({
  page,
  browser,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const base = exampleScenario('flat-vs-regions');
  const output = Array.from(
    { length: 120 },
    (_, i) => `src/file${i}.rs:${(i * 7919) % 997}: let v${i} = ${(i * 104729) % 65521};`,
  ).join('\n');
  const long = ScenarioSchema.parse({
    ...base,
    name: 'long-one',
    traffic: [
      { type: 'assistant', content: '', tool_calls: [{ id: 'c1', name: 'grep', arguments: { pattern: 'let' } }] },
      { type: 'tool_result', tool_call_id: 'c1', tool_name: 'grep', content: output },
    ],
  });
  const steps = engineTimeline(long).steps.length;
  await page.goto(`/${encodeScenario(long)}`);
  await waitForTimeline(page, steps);
  await page.getByTestId('open-share').click();
  const dialog = page.getByTestId('share');
  await expect(dialog.getByTestId('long-link')).toContainText('longer than 2,000 characters');
  await expect(dialog.getByRole('button', { name: 'Export JSON' })).toBeVisible();
  expect((await dialog.getByTestId('share-url').inputValue()).length).toBeGreaterThan(2_000);

  await dialog.getByTestId('link-option-drop-tool-output').check();
  // The tokenizer loads on first use, which takes a few seconds on a busy machine.
  await expect(dialog.getByTestId('share-length')).toHaveText(/^\d[\d,]* characters$/, { timeout: 30_000 });
  await expect(dialog.getByTestId('long-link')).toHaveCount(0);
  const short = await dialog.getByTestId('share-url').inputValue();
  expect(short.length).toBeLessThan(2_000);
  const decoded = decodeFragment(short);
  if (!decoded.ok) throw new Error(decoded.error);
  expect(decoded.scenario.traffic[1]).toMatchObject({ type: 'tool_result', tool_call_id: 'c1' });
  expect(decoded.scenario.traffic[1]).not.toHaveProperty('content');

  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await other.goto(short);
  await waitForTimeline(other, steps);
  await goToStep(other, steps - 1, steps);
  const readout = await readRegionReadout(other);
  for (const [region, row] of Object.entries(readout))
    expect(row.tokens).toBe(fmt(regionAt(engineTimeline(long), steps - 1, region).tokens));
  await fresh.close();
});

test('Copy as Markdown gives the link and the table of regions', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const timeline = engineTimeline(exampleScenario(DEFAULT_EXAMPLE_ID));
  await page.goto('/');
  await waitForTimeline(page, timeline.steps.length);
  await page.getByTestId('open-share').click();
  const url = await page.getByTestId('share-url').inputValue();
  await page.getByTestId('copy-markdown').click();
  await expect(page.getByTestId('share')).toContainText('Markdown copied to the clipboard.');
  const text = await page.evaluate(() => navigator.clipboard.readText());
  const lines = text.split('\n');
  expect(lines[0]).toBe(
    `[${DEFAULT_EXAMPLE_ID}](${url}) — ${fmt(timeline.steps.length)} steps, ${fmt(timeline.summary.inferences)} inferences on claude-sonnet-4`,
  );
  expect(lines).toContain('| Region | Kind | Budget | Final tokens | Evictions |');
  const task = regionAt(timeline, timeline.steps.length - 1, 'task');
  expect(lines).toContain(`| task | pinned | ${fmt(task.budget)} | ${fmt(task.tokens)} | 0 |`);
  expect(text).toContain(`Cache prefix: ${Math.round(timeline.summary.meanPrefixShare * 100)}%`);
});

test('the embed view shows the chart and the replay controls only, plays, and links to the playground', async ({
  page,
}) => {
  const link = fixture('flat-vs-regions');
  await page.goto(`/?embed${link.fragment}`);
  await expect(page.getByTestId('embed')).toBeVisible();
  await waitForTimeline(page, link.opensTo.steps);
  await expect(page.getByTestId('editor')).toHaveCount(0);
  await expect(page.getByLabel('Task', { exact: true })).toHaveCount(0);
  await expect(page.getByTestId('open-scenarios')).toHaveCount(0);
  await expect(page.getByTestId('open-in-playground')).toHaveAttribute(
    'href',
    new URL(`/${link.fragment}`, page.url()).href,
  );

  await page.getByTestId('play').click();
  await expect(page.getByTestId('play')).toContainText('Pause');
  await expect(page.getByTestId('step-label')).not.toContainText('Step 1 of');
  await page.getByTestId('play').click();
  // Read-only: nothing was written to the library.
  expect(await page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name))).not.toContain('leviath');
});

test('the embed view also opens from an embed part of the fragment', async ({ page }) => {
  const link = fixture('flat-vs-regions');
  await page.goto(`/#embed&${link.fragment.slice(1)}`);
  await expect(page.getByTestId('embed')).toBeVisible();
  await waitForTimeline(page, link.opensTo.steps);
  await expect(page.getByTestId('open-scenarios')).toHaveCount(0);
  await expect(page.getByTestId('open-in-playground')).toHaveAttribute(
    'href',
    new URL(`/${link.fragment}`, page.url()).href,
  );
});

test('a bad embed link says what is wrong', async ({ page }) => {
  await page.goto('/?embed#s=1.broken!!');
  await expect(page.getByTestId('embed').getByRole('alert')).toContainText('This link is corrupt');
});
