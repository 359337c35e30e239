// Screenshots for the README and docs: `SCREENSHOTS=1 npx playwright test e2e/screenshots.spec.ts`.
// Skipped in the normal suite so a test run never rewrites docs/.
import { expect, test } from '@playwright/test';
import { DEFAULT_EXAMPLE_ID } from '../src/scenarios/examples.ts';
import { engineTimeline, exampleScenario, goToStep, waitForTimeline } from './helpers.ts';

test.skip(!process.env.SCREENSHOTS, 'set SCREENSHOTS=1 to refresh docs/screenshots');

for (const [width, height] of [
  [1440, 900],
  [1024, 768],
] as const) {
  for (const theme of ['light', 'dark'] as const) {
    test(`playground, ${width}×${height}, ${theme}`, async ({ page }) => {
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme: theme });
      await page.goto('/');
      const timeline = engineTimeline(exampleScenario(DEFAULT_EXAMPLE_ID));
      await waitForTimeline(page, timeline.steps.length);
      // A step where the codebase has just been compacted: the most telling moment.
      const step = timeline.steps.find((s) => s.index > 60 && s.changes.some((c) => c.type === 'compact'))?.index ?? 0;
      await goToStep(page, step, timeline.steps.length);
      await expect(page.getByTestId('inspector')).toHaveAttribute('data-step', String(step), { timeout: 30_000 });
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      await page.mouse.move(0, 0);
      await page.screenshot({ path: `docs/screenshots/playground-${width}-${theme}.png` });
      // The README's picture: the light theme at 1440×900.
      if (theme === 'light' && width === 1440) await page.screenshot({ path: 'docs/screenshots/playground.png' });
    });
  }
}
