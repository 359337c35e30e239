// The Guide as a side panel: beside the app at 1440×900 (the workspace stays in view and usable),
// over the workspace's right side at 1024×768, covering the app on a 390×844 phone; closed and
// reopened, it is back at the section the reader was at.
import { expect, test, type Page } from '@playwright/test';
import { goToStep, waitForTimeline } from './helpers.ts';

const SIZES = [
  { name: '1440x900', width: 1440, height: 900 },
  { name: '1024x768', width: 1024, height: 768 },
  { name: '390x844', width: 390, height: 844 },
] as const;

/** The guide's heading at the top of its scrolled text. */
async function headingAtTop(page: Page): Promise<string> {
  return page.getByTestId('guide-body').evaluate((body) => {
    const top = body.getBoundingClientRect().top + 8;
    let at = '';
    for (const h of body.querySelectorAll<HTMLElement>('h1[id], h2[id], h3[id]')) {
      if (h.getBoundingClientRect().top > top) break;
      at = h.id;
    }
    return at;
  });
}

for (const size of SIZES) {
  test(`${size.name}: the guide opens as a side panel, the app stays usable beside it, and it reopens at the same section`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.goto('/');
    await waitForTimeline(page);
    await page.getByTestId('open-guide').click();
    const guide = page.getByTestId('guide');
    await expect(guide).toBeVisible();
    await expect(guide.getByRole('heading', { level: 1 })).toBeVisible();
    // Not a dialog: nothing modal, no backdrop.
    await expect(page.locator('[role="dialog"]')).toHaveCount(0);
    await expect(page.locator('.modal-backdrop')).toHaveCount(0);

    const box = (await guide.boundingBox())!;
    const workspace = (await page.locator('main.workspace').boundingBox())!;
    if (size.width >= 1200) {
      // Beside: the workspace ends where the guide begins.
      expect(workspace.x + workspace.width).toBeLessThanOrEqual(box.x + 1);
    } else if (size.width >= 900) {
      // Over the right side: the left of the workspace (the timeline) is still in view.
      expect(box.x).toBeGreaterThan(size.width / 3);
    } else {
      // The phone: the guide covers the app.
      expect(box).toMatchObject({ x: 0, y: 0, width: size.width });
    }
    await page.screenshot({ path: `test-results/guide-${size.name}.png` });

    if (size.width >= 1200) {
      // The app is usable while the guide is open: scrub to a step and the inspector follows.
      const count = Number(await page.getByTestId('charts').getAttribute('data-steps'));
      expect(count).toBeGreaterThan(5);
      await goToStep(page, 5, count);
      await expect(guide).toBeVisible();
    }

    // Scroll the guide to a later section, close it, reopen: the same section is at the top.
    const target = guide.locator('h2[id]').nth(3);
    const id = (await target.getAttribute('id'))!;
    await target.evaluate((h) => h.scrollIntoView({ block: 'start' }));
    await expect.poll(() => headingAtTop(page)).toBe(id);
    await page.waitForTimeout(100);
    await guide.getByRole('button', { name: 'Close the guide' }).click();
    await expect(guide).toHaveCount(0);
    await expect(page.getByTestId('open-guide')).toBeFocused();
    await page.getByTestId('open-guide').click();
    await expect(page.getByTestId('guide')).toBeVisible();
    await expect.poll(() => headingAtTop(page)).toBe(id);
    // Escape closes it too.
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('guide')).toHaveCount(0);
  });
}
