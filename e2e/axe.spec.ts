// Accessibility: no serious or critical axe violation on the main screen, the guide, the share
// dialog and the settings, in both themes.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { DEFAULT_EXAMPLE_ID } from '../src/scenarios/examples.ts';
import { engineTimeline, exampleScenario, waitForTimeline } from './helpers.ts';

async function seriousViolations(page: Page, include?: string): Promise<string[]> {
  let builder = new AxeBuilder({ page });
  if (include) builder = builder.include(include);
  const { violations } = await builder.analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id}: ${v.help} (${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(' | ')})`,
    );
}

for (const theme of ['light', 'dark'] as const) {
  test(`no serious or critical violation, ${theme} theme`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.emulateMedia({ colorScheme: theme });
    await page.goto('/');
    await waitForTimeline(page, engineTimeline(exampleScenario(DEFAULT_EXAMPLE_ID)).steps.length);
    await expect(page.getByTestId('inspector')).toBeVisible({ timeout: 20_000 });
    expect(await seriousViolations(page), 'main screen').toEqual([]);
    for (const [button, dialog] of [
      ['open-guide', 'guide'],
      ['open-share', 'share'],
      ['open-settings', 'settings'],
    ] as const) {
      await page.getByTestId(button).click();
      await expect(page.getByTestId(dialog)).toBeVisible();
      // The guide is a side panel beside the app, not a dialog.
      expect(
        await seriousViolations(page, dialog === 'guide' ? '[data-testid="guide"]' : '[role="dialog"]'),
        dialog,
      ).toEqual([]);
      await page.keyboard.press('Escape');
    }
  });
}
