// Accessibility: no serious or critical axe violation on the main screen, the guide, the share
// dialog and the settings, in both themes.
import { expect, test } from '@playwright/test';
import { DEFAULT_EXAMPLE_ID } from '../src/scenarios/examples.ts';
import { engineTimeline, exampleScenario, seriousAxeFindings, waitForTimeline } from './helpers.ts';

for (const theme of ['light', 'dark'] as const) {
  test(`no serious or critical violation, ${theme} theme`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.emulateMedia({ colorScheme: theme });
    await page.goto('/');
    await waitForTimeline(page, engineTimeline(exampleScenario(DEFAULT_EXAMPLE_ID)).steps.length);
    await expect(page.getByTestId('inspector')).toBeVisible({ timeout: 20_000 });
    expect(await seriousAxeFindings(page), 'main screen').toEqual([]);
    for (const [button, dialog] of [
      ['open-guide', 'guide'],
      ['open-share', 'share'],
      ['open-settings', 'settings'],
    ] as const) {
      await page.getByTestId(button).click();
      await expect(page.getByTestId(dialog)).toBeVisible();
      // The guide is a side panel beside the app, not a dialog.
      expect(
        await seriousAxeFindings(page, dialog === 'guide' ? '[data-testid="guide"]' : '[role="dialog"]'),
        dialog,
      ).toEqual([]);
      await page.keyboard.press('Escape');
    }
  });
}
