import { readFileSync } from 'node:fs';
import { test } from '@playwright/test';
import { importTrace } from '../src/import/index.ts';
import { waitForTimeline } from './helpers.ts';
const run = importTrace(readFileSync(new URL('../test/import/fixtures/real/openhands-wrong-initial-state.json', import.meta.url), 'utf8'), { name: 'openhands-run' }).scenario;
for (const [w, h] of [[1440, 900], [1024, 768], [390, 844]] as const) {
  test(`shots ${w}`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: w, height: h });
    await page.goto('/');
    await waitForTimeline(page);
    await page.getByTestId('import-file').setInputFiles({ name: 'r.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(run)) });
    await waitForTimeline(page, run.traffic.length);
    await page.keyboard.press('End');
    await page.waitForTimeout(1500);
    await page.screenshot({ path: `/tmp/adv-${w}-a.png` });
    await page.getByTestId('open-examples').click();
    await page.getByTestId('examples').locator('[data-example="imported-run"]').getByRole('button', { name: 'Open' }).click();
    await waitForTimeline(page, 15);
    await page.getByTestId('open-advise').click();
    await page.getByTestId('advise-run').click();
    await page.getByTestId('advise-panel').locator('[data-status="done"]').or(page.locator('[data-testid="advise-panel"][data-status="done"]')).waitFor({ timeout: 90_000 });
    await page.screenshot({ path: `/tmp/adv-${w}-b.png` });
  });
}
