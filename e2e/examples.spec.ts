// Every built-in example opens from the gallery, and its charts and inspector show exactly the
// numbers the engine gives for it (the engine is run here in Node for the expected values).
import { expect, test } from '@playwright/test';
import { EXAMPLES } from '../src/scenarios/examples.ts';
import {
  engineDetail,
  engineTimeline,
  exampleScenario,
  fmt,
  goToStep,
  readRegionReadout,
  regionAt,
  stepAt,
  waitForTimeline,
} from './helpers.ts';

for (const example of EXAMPLES) {
  test(`example "${example.id}" shows the engine's numbers`, async ({ page }) => {
    const scenario = exampleScenario(example.id);
    const timeline = engineTimeline(scenario);
    expect(timeline.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);

    await page.goto('/');
    await waitForTimeline(page);
    await page.getByTestId('open-examples').click();
    const card = page.getByTestId('examples').locator(`[data-example="${example.id}"]`);
    await expect(card).toContainText(example.title);
    await card.getByRole('button', { name: 'Open' }).click();
    await expect(page.getByTestId('charts')).toHaveAttribute('data-scenario', scenario.name);
    await waitForTimeline(page, timeline.steps.length);
    // The example opens at its lesson, perhaps on another view (e2e/lessons.spec.ts): the readout is Window's.
    await page.getByTestId('view-window').click();

    // The step to check: the last inference, where most has happened.
    const step = [...timeline.steps].reverse().find((s) => s.request)!.index;
    await goToStep(page, step, timeline.steps.length);

    const readout = await readRegionReadout(page);
    expect(Object.keys(readout).length).toBeGreaterThan(0);
    for (const [region, shown] of Object.entries(readout)) {
      const figures = regionAt(timeline, step, region);
      expect(shown, region).toEqual({
        tokens: fmt(figures.tokens),
        budget: fmt(figures.budget),
        entries: fmt(figures.entries),
      });
    }
    // Stage changes are marked and listed with the step the engine entered the new stage.
    for (let k = 1; k < timeline.steps.length; k++) {
      const [before, after] = [stepAt(timeline, k - 1).stage, stepAt(timeline, k).stage];
      if (before !== after)
        await expect(page.getByTestId('change-legend')).toContainText(`stage ${before} → ${after} at step ${k + 1}`);
    }
    // The per-region charts are one tab away; each is drawn once scrolled into view.
    await page.getByTestId('view-regions').click();
    for (const region of Object.keys(readout)) {
      await page.getByTestId(`chart-${region}`).scrollIntoViewIfNeeded();
      // Drawing waits for the chart to be seen and for recharts' layout: slow on a loaded machine.
      await expect(page.getByTestId(`chart-${region}`).locator('svg path').first()).toBeAttached({ timeout: 15_000 });
    }

    const detail = engineDetail(scenario, step);
    for (const region of detail.regions) {
      await expect(page.getByTestId(`inspect-${region.name}`).getByTestId('region-tokens')).toHaveText(
        fmt(region.tokens),
      );
    }
    await expect(page.getByTestId('request-tokens')).toHaveText(fmt(detail.request.tokens));
    await expect(page.getByTestId('system-block')).toHaveCount(detail.request.system.length);
    await expect(page.getByTestId('message')).toHaveCount(detail.request.messages.length);

    const request = stepAt(timeline, step).request!;
    await page.getByTestId('view-cache').click();
    await expect(page.getByTestId('prefix-tokens')).toHaveText(fmt(request.prefixTokens));
    await expect(page.getByTestId('cache-read')).toHaveText(fmt(request.cache.cacheReadTokens));

    const lost = timeline.summary.baselineLosesTaskAt;
    const verdict = page.getByTestId('comparison-verdict');
    if (lost === null) await expect(verdict).toContainText('keeps the task in its window');
    else {
      const lostStep = timeline.steps.find((s) => s.request?.inference === lost)!.index;
      await expect(verdict).toContainText(`loses the task at step ${lostStep + 1}`);
    }
  });
}

test('the gallery fits a 390x844 phone: one column, every card inside the dialog', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  await waitForTimeline(page);
  await page.getByTestId('open-examples').click();
  const gallery = page.getByTestId('examples');
  await expect(gallery.locator('.card').first()).toBeVisible();
  const box = (await gallery.boundingBox())!;
  const cards = await gallery.locator('.card').evaluateAll((els) =>
    els.map((el) => {
      const r = el.getBoundingClientRect();
      return { left: Math.round(r.left), right: Math.round(r.right) };
    }),
  );
  expect(cards).toHaveLength(EXAMPLES.length);
  expect(new Set(cards.map((c) => c.left)).size).toBe(1);
  for (const card of cards) expect(card.right).toBeLessThanOrEqual(Math.round(box.x + box.width));
});
