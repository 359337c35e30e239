// The recharts views by touch (issue 30, point 7): on Each region, Prompt cache and Flat list vs
// blueprint a tap shows the tooltip inside the viewport, it stays after the finger lifts (a touch
// has no "leave"), and a tap anywhere outside the chart closes it, as the Window chart's does
// (polish.spec.ts, "phone, by touch").
import { expect, test, type Locator } from '@playwright/test';
import { waitForTimeline, watchErrors } from './helpers.ts';

const SIZES = [
  [390, 844],
  [1024, 768],
] as const;

/** Each recharts view: its tab and the chart a tap is tried on. */
const VIEWS = [
  { tab: 'Each region', chart: 'chart-codebase' },
  { tab: 'Prompt cache', chart: 'cache-chart' },
  { tab: 'Flat list vs blueprint', chart: 'flat-chart' },
] as const;

/** The plot area of a recharts chart (its surface, without the y axis). */
async function plotOf(chart: Locator) {
  await chart.scrollIntoViewIfNeeded();
  const surface = chart.locator('.recharts-surface').first();
  await expect(surface).toBeVisible();
  return (await surface.boundingBox())!;
}

for (const [width, height] of SIZES) {
  test.describe(`${width}×${height}, by touch`, () => {
    test.use({ viewport: { width, height }, hasTouch: true, isMobile: width < 500 });

    test('each recharts view: a tap shows its tooltip inside the viewport, it stays, and a tap elsewhere closes it', async ({
      page,
    }) => {
      const errors = watchErrors(page);
      await page.goto('/');
      await waitForTimeline(page);
      for (const view of VIEWS) {
        await page.getByRole('tab', { name: view.tab }).tap();
        const chart = page.getByTestId(view.chart);
        const tooltip = chart.locator('.tooltip');
        const box = await plotOf(chart);
        for (const share of [0.15, 0.5, 0.95]) {
          await page.touchscreen.tap(box.x + box.width * share, box.y + box.height / 2);
          await expect(tooltip, `${view.tab}, tap at ${share}`).toBeVisible();
          const tip = (await tooltip.boundingBox())!;
          expect(tip.x, `${view.tab}, tap at ${share}`).toBeGreaterThanOrEqual(0);
          expect(tip.x + tip.width, `${view.tab}, tap at ${share}`).toBeLessThanOrEqual(width);
          expect(tip.y, `${view.tab}, tap at ${share}`).toBeGreaterThanOrEqual(0);
          expect(tip.y + tip.height, `${view.tab}, tap at ${share}`).toBeLessThanOrEqual(height);
        }
        await page.waitForTimeout(500);
        await expect(tooltip, `${view.tab}: stays after the finger lifts`).toBeVisible();
        await page.getByTestId('step-label').tap();
        await expect(tooltip, `${view.tab}: a tap elsewhere closes it`).toHaveCount(0);
      }
      expect(errors).toEqual([]);
    });
  });
}
