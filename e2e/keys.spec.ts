// Keys and focus: the shortcut sheet, dialogs that hold the focus, no shortcut under a dialog,
// Space on the step slider, Play at the end starting over.
import { expect, test } from '@playwright/test';
import { DEFAULT_EXAMPLE_ID } from '../src/scenarios/examples.ts';
import { engineTimeline, exampleScenario, waitForTimeline } from './helpers.ts';

const steps = () => engineTimeline(exampleScenario(DEFAULT_EXAMPLE_ID)).steps.length;

test('? opens the sheet of every shortcut; the dialog takes, traps and gives back the focus', async ({ page }) => {
  await page.goto('/');
  await waitForTimeline(page, steps());
  const opener = page.getByRole('button', { name: 'Keyboard shortcuts' });
  await opener.focus();
  await page.keyboard.press('?');
  const sheet = page.getByTestId('keys-sheet');
  await expect(sheet).toBeVisible();
  await expect(sheet).toContainText('Ctrl + M');
  await expect(sheet).toContainText('tab-focus mode');
  // Ctrl + S (save, keep a version, copy the link) is listed with the rest.
  await expect(
    sheet.getByRole('row', { name: /^Ctrl \+ S Save, keep this content as a version, and copy the link/ }),
  ).toBeVisible();
  await expect(sheet.locator('tbody tr')).toHaveCount(13);
  // Focus is inside, and Tab cycles inside.
  expect(await page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true);
  for (let k = 0; k < 5; k++) {
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(sheet).toHaveCount(0);
  await expect(opener).toBeFocused();
});

test('no shortcut fires under an open dialog', async ({ page }) => {
  await page.goto('/');
  await waitForTimeline(page, steps());
  // A first visit lands on the lesson's step; from step 1, End and → under the dialog would show.
  await page.getByRole('button', { name: 'First step' }).click();
  await expect(page.getByTestId('step-label')).toContainText('Step 1 of');
  await page.getByTestId('open-settings').click();
  await expect(page.getByTestId('settings')).toBeVisible();
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('m');
  await page.keyboard.press('?');
  await expect(page.getByTestId('step-label')).toContainText('Step 1 of');
  await expect(page.locator('main.workspace')).toHaveAttribute('data-layout', 'panes');
  await expect(page.getByTestId('keys-sheet')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await page.keyboard.press('End');
  await expect(page.getByTestId('step-label')).toContainText(`Step ${steps()} of`);
});

test('Space plays with the slider focused, and Play at the last step starts from the first', async ({ page }) => {
  await page.goto('/');
  await waitForTimeline(page, steps());
  await page.getByTestId('scrubber').focus();
  await page.keyboard.press('Space');
  await expect(page.getByTestId('play')).toContainText('Pause');
  await page.keyboard.press('Space');
  await expect(page.getByTestId('play')).toContainText('Play');
  await page.keyboard.press('End');
  await expect(page.getByTestId('step-label')).toContainText(`Step ${steps()} of`);
  await page.getByTestId('play').click();
  await expect(page.getByTestId('step-label')).toContainText(/Step [1-9] of/);
  await page.getByTestId('play').click();
});

test('Tab leaves the editor after Ctrl+M, and settings are remembered', async ({ page }) => {
  await page.goto('/');
  await waitForTimeline(page, steps());
  await page.getByTestId('editor').locator('.view-lines').click();
  await page.keyboard.press('Control+m');
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => !!document.activeElement?.closest('.monaco-editor'))).toBe(false);

  await page.getByTestId('open-settings').click();
  await page.getByLabel('Editor font size').selectOption('16');
  await page.getByLabel('Theme').selectOption('dark');
  await page.keyboard.press('Escape');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.reload();
  await waitForTimeline(page, steps());
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(page.getByTestId('editor').locator('.view-lines')).toHaveCSS('font-size', '16px');
});
