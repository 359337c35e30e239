// The main chart: markers jump to their step, points and table cells too, and regions keep their
// colours by name.
import { expect, test } from '@playwright/test';
import { DEFAULT_EXAMPLE_ID } from '../src/scenarios/examples.ts';
import {
  blueprintOf,
  engineTimeline,
  exampleScenario,
  present,
  setEditorText,
  stepAt,
  waitForTimeline,
  watchErrors,
} from './helpers.ts';

const scenario = () => exampleScenario(DEFAULT_EXAMPLE_ID);

test('clicking a marker lands on its step and the inspector opens that change', async ({ page }) => {
  const errors = watchErrors(page);
  const timeline = engineTimeline(scenario());
  await page.goto('/');
  await waitForTimeline(page, timeline.steps.length);
  // A marker holding a compaction whose first step changes a region (a cluster can start at a stage
  // change); a cluster lands on its first step.
  const candidates = page.getByTestId('marker-lane').locator('.marker[data-kinds~="compact"]');
  const steps = await candidates.evaluateAll((ms) => ms.map((m) => Number(m.getAttribute('data-step'))));
  const at = steps.findIndex((i) =>
    timeline.steps[i]!.changes.some((c) => timeline.regions.some((r) => r.name === c.region)),
  );
  expect(at).toBeGreaterThanOrEqual(0);
  const marker = candidates.nth(at);
  const step = steps[at]!;
  const first = stepAt(timeline, step).changes[0]!;
  expect(first).toBeDefined();
  await marker.click();
  await expect(page.getByTestId('step-label')).toContainText(`Step ${step + 1} of`);
  await expect(page.getByTestId('inspector')).toHaveAttribute('data-step', String(step), { timeout: 20_000 });
  await expect(page.getByTestId('step-changes')).toContainText(`${first.type} in ${first.region}`);
  const focused = stepAt(timeline, step).changes.find((c) => timeline.regions.some((r) => r.name === c.region))!.region;
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
  const counts = await page
    .getByTestId('marker-lane')
    .locator('.marker')
    .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-count'))));
  const changes = timeline.steps.reduce(
    (n, s, k) => n + s.changes.length + (k > 0 && s.stage !== stepAt(timeline, k - 1).stage ? 1 : 0),
    0,
  );
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
  const column = await page
    .getByTestId('ledger')
    .locator('thead th')
    .evaluateAll((ths) => ths.findIndex((th) => th.textContent === 'implement'));
  await page
    .getByTestId('ledger')
    .locator(`tbody tr:first-child td:nth-child(${column + 1}) button`)
    .click();
  await expect(page.getByTestId('step-label')).toContainText(`Step ${firstImplement + 1} of`);
});

test('the tooltip names the exact step of a change, even where the series is downsampled', async ({ page }) => {
  const timeline = engineTimeline(scenario());
  const total = (k: number) => Object.values(stepAt(timeline, k).regions).reduce((n, f) => n + f.tokens, 0);
  // Over 300 steps the series is downsampled in buckets of two. Pick a change whose bucket-mate is
  // fuller: keeping only each bucket's fullest step would name the mate, one step off.
  expect(timeline.steps.length).toBeGreaterThan(300);
  const step = timeline.steps.find(
    (s) => s.changes.length > 0 && (s.index ^ 1) < timeline.steps.length && total(s.index ^ 1) > total(s.index),
  )!.index;
  const change = present(stepAt(timeline, step).changes[0], `a change at step ${step}`);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/');
  await waitForTimeline(page, timeline.steps.length);
  // Maximised, the timeline pane gives each step over 3 px, so the pointer can sit on one step.
  await page.locator('[data-pane="timeline"] .pane-head h2').dblclick();
  await expect(page.locator('[data-pane]')).toHaveCount(1);
  const plot = (await page.getByTestId('window-chart').locator('.window-plot').boundingBox())!;
  // The plot's x axis: 44 px of y axis on the left, 8 px of margin on the right.
  const x = plot.x + 44 + (plot.width - 52) * (step / (timeline.steps.length - 1));
  await page.mouse.move(x, plot.y + plot.height / 2);
  const tooltip = page.getByTestId('window-chart').locator('.tooltip');
  await expect(tooltip).toContainText(`Step ${step + 1}`);
  await expect(tooltip).toContainText(`step ${step + 1}: ${change.type} in ${change.region}`);
  await page.mouse.click(x, plot.y + plot.height / 2);
  await expect(page.getByTestId('step-label')).toContainText(`Step ${step + 1} of`);
});

test('a region keeps its colour when another is declared before it; implicit regions say why', async ({ page }) => {
  const timeline = engineTimeline(scenario());
  await page.goto('/');
  await waitForTimeline(page, timeline.steps.length);
  const colour = (region: string) =>
    page
      .getByTestId('region-readout')
      .locator(`tr[data-region="${region}"] .legend-dot`)
      .evaluate((e) => getComputedStyle(e).backgroundColor);
  const before = { codebase: await colour('codebase'), task: await colour('task') };
  const agent = blueprintOf(scenario());
  // `notes` hashes to codebase's colour: declared first, it must still not take it.
  await setEditorText(
    page,
    agent.replace('[context.regions]\n', '[context.regions]\nnotes = { kind = "pinned", budget = "5%" }\n'),
  );
  await expect(page.getByTestId('region-readout').locator('tr[data-region="notes"]')).toBeVisible({ timeout: 30_000 });
  expect({ codebase: await colour('codebase'), task: await colour('task') }).toEqual(before);
  expect(await colour('notes')).not.toBe(before.codebase);
  await expect(
    page.getByTestId('region-readout').locator('tr[data-region="tool_results"] .badge.implicit'),
  ).toHaveAttribute('title', /runtime always carries it: tool output lands here/);
});

test('the window chart draws every region against the window; "fit the data" scales to the peak', async ({ page }) => {
  const timeline = engineTimeline(scenario());
  const { window } = timeline.model;
  const peak = Math.max(...timeline.steps.map((s) => Object.values(s.regions).reduce((n, f) => n + f.tokens, 0)));
  expect(peak * 1.1).toBeLessThan(window);
  await page.goto('/');
  await waitForTimeline(page, timeline.steps.length);
  const chart = page.getByTestId('window-chart');
  const regions = await page.getByTestId('region-readout').locator('tbody tr').count();
  // Each region is a band: its area and its top edge.
  await expect(chart.locator('.stacked-regions path')).toHaveCount(2 * regions);
  const yLabels = () => chart.locator('.y-axis text').allTextContents();
  // The data use under half the window, so the axis fits them until the whole window is chosen.
  await expect(chart).toHaveAttribute('data-fit', 'yes');
  await chart.getByTestId('zoom').selectOption('window');
  expect((await yLabels()).at(-1)).toBe(`${window / 1000}k`);
  await expect(chart.locator('.window-line text')).toHaveText(`window ${window.toLocaleString('en-US')}`);
  await chart.getByTestId('zoom').selectOption('fit');
  await expect(chart.locator('.window-line')).toHaveCount(0);
  const top = Number((await yLabels()).at(-1)!.replace('k', '')) * 1000;
  expect(top).toBeLessThanOrEqual(peak * 1.1);
  expect(top).toBeGreaterThanOrEqual((peak * 1.1) / 2);
  // The x axis ends on the run's last step.
  expect((await chart.locator('.x-axis text').allTextContents()).at(-1)).toBe(String(timeline.steps.length));
});
