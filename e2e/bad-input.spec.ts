// Bad blueprint input of every kind gives diagnostics, never a crash or a frozen page.
import { expect, test } from '@playwright/test';
import { longTasks, recordLongTasks, resetLongTasks, setEditorText, waitForTimeline, watchErrors } from './helpers.ts';

const BAD: { name: string; text: () => string; code: string }[] = [
  { name: 'not TOML', text: () => 'this is not = = toml [[[', code: 'toml-syntax' },
  {
    name: 'binary',
    text: () => Array.from({ length: 2000 }, (_, i) => String.fromCharCode((i * 7919) % 256)).join(''),
    code: 'toml-syntax',
  },
  {
    name: 'deeply nested tables',
    text: () =>
      `a = ${'['.repeat(5000)}${']'.repeat(5000)}\n[${Array.from({ length: 300 }, (_, i) => `t${i}`).join('.')}]\nx = 1\n`,
    code: '',
  },
  { name: '5 MB of text', text: () => `# ${'x'.repeat(5 * 1024 * 1024)}\n`, code: '' },
];

for (const bad of BAD) {
  test(`${bad.name} gives diagnostics and the page keeps working`, async ({ page }) => {
    test.setTimeout(90_000);
    const errors = watchErrors(page);
    await recordLongTasks(page);
    await page.goto('/');
    await waitForTimeline(page);
    await resetLongTasks(page);
    await setEditorText(page, bad.text());
    const problems = page.getByTestId('diagnostics').locator('[data-code]');
    if (bad.code)
      await expect(page.getByTestId('diagnostics').locator(`[data-code="${bad.code}"]`).first()).toBeVisible({
        timeout: 30_000,
      });
    else await expect(problems.first()).toBeVisible({ timeout: 30_000 });
    // Still responsive: the examples gallery opens and closes.
    await page.getByTestId('open-examples').click();
    await expect(page.getByTestId('examples')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('stale-banner')).toBeVisible();
    expect(errors.filter((e) => !e.includes('QuotaExceeded'))).toEqual([]);
    console.log(`${bad.name}: longest main-thread task ${Math.max(0, ...(await longTasks(page)))} ms`);
  });
}
