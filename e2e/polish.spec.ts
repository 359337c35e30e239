// The polish a demo needs (issue 30): toasts that go by themselves, one per kind; tables that
// scroll visibly; the inspector keeping up with play; the phone and 1024x768 layouts; keyboard
// order and skip links; nothing lost to a reload.
import { expect, test, type Page } from '@playwright/test';
import { waitForTimeline } from './helpers.ts';

async function openExample(page: Page, id: string): Promise<void> {
  await page.getByTestId('open-examples').click();
  await page.getByTestId('examples').locator(`[data-example="${id}"]`).getByRole('button', { name: 'Open' }).click();
  await expect(page.getByTestId('charts')).toHaveAttribute('data-scenario', id, { timeout: 30_000 });
}

test.describe('toasts', () => {
  test('four examples opened in a row leave one notice, which goes by itself; an error stays until closed', async ({ page }) => {
    test.setTimeout(120_000);
    await page.goto('/');
    await waitForTimeline(page);
    for (const id of ['flat-vs-regions', 'checklist-gate', 'tool-routing', 'sliding-bulk-cache']) await openExample(page, id);
    const info = page.getByTestId('notice-info');
    await expect(info).toHaveCount(1);
    await expect(info).toContainText('Opened the example');
    // An "Opened" notice carries Undo, so it lasts ACTION_LIFETIME_MS (10 s), then goes.
    await expect(info).toHaveCount(0, { timeout: 15_000 });

    // A bad link's error stays past any information's lifetime, until closed.
    await page.goto('/#s=1.not-a-real-scenario!!');
    const error = page.getByTestId('notice-error');
    await expect(error).toContainText('Your own work is unchanged');
    await page.waitForTimeout(11_000);
    await expect(error).toHaveCount(1);
    await error.getByRole('button', { name: 'Dismiss' }).click();
    await expect(error).toHaveCount(0);
  });

  test('"Copied the Anthropic body." is about its scenario: it goes when another scenario opens', async ({ page }) => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/');
    await waitForTimeline(page);
    await page.getByTestId('copy-anthropic').click();
    const copied = page.getByTestId('notice-info').filter({ hasText: 'Copied the Anthropic body.' });
    await expect(copied).toBeVisible();
    await openExample(page, 'flat-vs-regions');
    await expect(copied).toHaveCount(0);
  });

  test('a notice under the pointer does not go while it is read', async ({ page }) => {
    await page.goto('/');
    await waitForTimeline(page);
    await openExample(page, 'flat-vs-regions');
    const info = page.getByTestId('notice-info');
    await info.hover();
    await page.waitForTimeout(11_000);
    await expect(info).toHaveCount(1);
    await page.mouse.move(5, 5);
    await expect(info).toHaveCount(0, { timeout: 15_000 });
  });
});
