// The main chart: markers jump to their step, points and table cells too, and regions keep their
// colours by name.
import { expect, test } from '@playwright/test';
import { DEFAULT_EXAMPLE_ID } from '../src/scenarios/examples.ts';
import { engineTimeline, exampleScenario, waitForTimeline, watchErrors } from './helpers.ts';

const scenario = () => exampleScenario(DEFAULT_EXAMPLE_ID);

test('clicking a marker lands on its step and the inspector opens that change', async ({ page }) => {
  const errors = watchErrors(page);
  const timeline = engineTimeline(scenario());
  await page.goto('/');
  await waitForTimeline(page, timeline.steps.length);
  // A marker holding a compaction; a cluster lands on its first step.
  const marker = page.getByTestId('marker-lane').locator('.marker[data-kinds~="compact"]').first();
  const step = Number(await marker.getAttribute('data-step'));
  const first = timeline.steps[step].changes[0]!;
  expect(first).toBeDefined();
  await marker.click();
  await expect(page.getByTestId('step-label')).toContainText(`Step ${step + 1} of`);
  await expect(page.getByTestId('inspector')).toHaveAttribute('data-step', String(step), { timeout: 20_000 });
  await expect(page.getByTestId('step-changes')).toContainText(`${first.type} in ${first.region}`);
  const focused = timeline.steps[step].changes.find((c) => timeline.regions.some((r) => r.name === c.region))!.region;
  await expect(page.locator('.region-block.focused')).toHaveAttribute('data-testid', `inspect-${focused}`);
  expect(errors).toEqual([]);
});

test('many changes in one pixel column are one marker with a count and a breakdown', async ({ page }) => {
  const timeline = engineTimeline(scenario());
  await page.goto('/');
  await waitForTimeline(page, timeline.steps.length);
  const cluster = page.getByTestId('marker-lane').locator('.marker[data-count]:not([data-count="1"])').first();
  const count = Number(await cluster.getAttribute('data-count'));
  expect(count).toBeGreaterThan(1);
  const label = (await cluster.getAttribute('aria-label'))!;
  expect(label).toMatch(new RegExp(`^steps? \\d+(–\\d+)?: ${count} changes \\(`));
  // Every change of the run is in exactly one marker.
  const counts = await page.getByTestId('marker-lane').locator('.marker').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-count'))));
  const changes = timeline.steps.reduce((n, s, k) => n + s.changes.length + (k > 0 && s.stage !== timeline.steps[k - 1].stage ? 1 : 0), 0);
  expect(counts.reduce((a, b) => a + b, 0)).toBe(changes);
});

test('clicking the chart, a ledger cell and the verdict jumps to a step', async ({ page }) => {
  const timeline = engineTimeline(scenario());
  await page.goto('/');
  await waitForTimeline(page, timeline.steps.length);
  const plot = (await page.getByTestId('window-chart').locator('.window-plot').boundingBox())!;
  await page.mouse.click(plot.x + plot.width * 0.75, plot.y + plot.height * 0.6);
  const label = await page.getByTestId('step-label').textContent();
  const clicked = Number(/Step (\d+)/.exec(label!)![1]);
  expect(clicked).toBeGreaterThan(timeline.steps.length * 0.6);
  await page.getByTestId('comparison-verdict').getByRole('button').first().click();
  const lost = timeline.steps.find((s) => s.request?.inference === timeline.summary.baselineLosesTaskAt)!.index;
  await expect(page.getByTestId('step-label')).toContainText(`Step ${lost + 1} of`);
  await expect(page.getByTestId('inspector')).toHaveAttribute('data-step', String(lost), { timeout: 20_000 });
  const firstImplement = timeline.steps.find((s) => s.stage === 'implement')!.index;
  await page.keyboard.press('End');
  await page.getByTestId('ledger').locator('th', { hasText: 'implement' }).waitFor();
  const column = await page.getByTestId('ledger').locator('thead th').evaluateAll((ths) => ths.findIndex((th) => th.textContent === 'implement'));
  await page.getByTestId('ledger').locator(`tbody tr:first-child td:nth-child(${column + 1}) button`).click();
  await expect(page.getByTestId('step-label')).toContainText(`Step ${firstImplement + 1} of`);
});
