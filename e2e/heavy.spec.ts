// Heavy scenarios: explicit runs when auto-run is off, a replay that can be cancelled, and panes
// that say they are out of date instead of showing another scenario's results as current.
import { expect, test } from '@playwright/test';
import { DEFAULT_EXAMPLE_ID } from '../src/scenarios/examples.ts';
import { MAX_TRAFFIC_EVENTS } from '../src/engine/index.ts';
import { engineTimeline, exampleScenario, waitForTimeline } from './helpers.ts';

const steps = () => engineTimeline(exampleScenario(DEFAULT_EXAMPLE_ID)).steps.length;

test('with auto-run off an edit waits for Run (Ctrl+Enter), and the charts say they are out of date', async ({
  page,
}) => {
  await page.goto('/');
  await waitForTimeline(page, steps());
  await page.getByTestId('auto-run').uncheck();
  await page.getByLabel('Events', { exact: true }).fill('120');
  await expect(page.getByTestId('pending-banner')).toContainText('your edits are not replayed yet');
  await expect(page.getByTestId('charts')).toHaveAttribute('data-stale', 'yes');
  await expect(page.getByTestId('charts')).toHaveAttribute('data-steps', String(steps()));
  await page.locator('h1').click();
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('pending-banner')).toHaveCount(0, { timeout: 30_000 });
  await expect(page.getByTestId('charts')).toHaveAttribute('data-stale', 'no');
  await expect(page.getByTestId('charts')).not.toHaveAttribute('data-steps', String(steps()));
});

test('a replay in progress shows progress and can be cancelled; the old timeline is then marked out of date', async ({
  page,
}) => {
  await page.goto('/');
  await waitForTimeline(page, steps());
  await page.getByLabel('Events', { exact: true }).fill(String(MAX_TRAFFIC_EVENTS));
  await expect(page.getByTestId('replaying')).toBeVisible({ timeout: 10_000 });
  await page.getByTestId('cancel-replay').click();
  await expect(page.getByTestId('replaying')).toHaveCount(0);
  await expect(page.getByTestId('pending-banner')).toContainText('the last replay was cancelled');
  await expect(page.getByTestId('charts')).toHaveAttribute('data-stale', 'yes');
  await expect(page.locator('[data-pane="inspector"] .pane-head')).toContainText('out of date');
});
