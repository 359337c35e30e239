// Vim and emacs keybindings: chosen in Settings, loaded only then, working in the blueprint, and
// remembered across a reload.
import { expect, test, type Page } from '@playwright/test';
import { waitForTimeline, watchErrors } from './helpers.ts';

const editor = (page: Page) => page.getByTestId('editor').locator('.monaco-editor').first();
const firstLine = (page: Page) => editor(page).locator('.view-lines .view-line').first();

async function loadEditor(page: Page): Promise<void> {
  await waitForTimeline(page);
  await expect(editor(page)).toBeVisible({ timeout: 30_000 });
}

async function choose(page: Page, keys: 'standard' | 'vim' | 'emacs'): Promise<void> {
  await page.getByTestId('open-settings').click();
  await page.getByLabel('Keybindings').selectOption(keys);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('settings')).toHaveCount(0);
  // The status bar shows at once; the keys are on the editor only once their package has loaded
  // (a key pressed before then is Monaco's own: C-a would select all).
  if (keys !== 'standard') await expect(page.getByTestId('keys-status')).toHaveAttribute('data-started', keys);
}

/** Clicks into the editor and puts the cursor at the start of the file. */
async function toStart(page: Page): Promise<void> {
  await editor(page).locator('.view-lines').click();
  await page.keyboard.press('ControlOrMeta+Home');
}

test('vim: chosen in Settings, `ihello<Esc>` types hello into the blueprint, and vim is still on after a reload', async ({
  page,
}) => {
  const errors = watchErrors(page);
  const fetched: string[] = [];
  page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
  await page.goto('/');
  await loadEditor(page);
  // The standard keys fetch no keybinding code.
  expect(fetched.filter((f) => /keybindings-/.test(f))).toEqual([]);
  const before = (await firstLine(page).textContent())!;

  await choose(page, 'vim');
  const status = page.getByTestId('keys-status');
  await expect(status).toHaveAttribute('data-mode', 'vim');
  await toStart(page);
  await expect(status).toContainText('--NORMAL--');
  await page.keyboard.press('i');
  await expect(status).toContainText('--INSERT--');
  await page.keyboard.type('hello');
  await page.keyboard.press('Escape');
  await expect(status).toContainText('--NORMAL--');
  // `i` entered insert mode rather than being typed; in normal mode `x` deletes the character under the cursor.
  await expect(firstLine(page)).toHaveText(`hello${before}`.replace(/ /g, '\u00a0'));
  await page.keyboard.press('x');
  await expect(firstLine(page)).toHaveText(`hell${before}`.replace(/ /g, '\u00a0'));
  expect(fetched.some((f) => /keybindings-/.test(f))).toBe(true);

  await page.waitForTimeout(600); // the edit is saved 300 ms after the last key
  await page.reload();
  // "hello" before the first table is not TOML: the charts stay empty, the editor is what matters.
  await expect(editor(page)).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('keys-status')).toHaveAttribute('data-mode', 'vim');
  await expect(page.getByTestId('keys-status')).toHaveAttribute('data-started', 'vim');
  await toStart(page);
  await expect(page.getByTestId('keys-status')).toContainText('--NORMAL--');
  await page.keyboard.press('x');
  await expect(firstLine(page)).toHaveText(`ell${before}`.replace(/ /g, '\u00a0'));

  // Back to the standard keys: `i` is a letter again and the status bar is gone.
  await choose(page, 'standard');
  await expect(page.getByTestId('keys-status')).toHaveCount(0);
  await toStart(page);
  await page.keyboard.type('i');
  await expect(firstLine(page)).toHaveText(`iell${before}`.replace(/ /g, '\u00a0'));
  expect(errors).toEqual([]);
});

test('emacs: C-a goes to the start of the line (not select all) and C-k kills to its end', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/');
  await loadEditor(page);
  await choose(page, 'emacs');
  await expect(page.getByTestId('keys-status')).toHaveAttribute('data-mode', 'emacs');
  await toStart(page);
  await page.keyboard.type('abc');
  await page.keyboard.press('Control+a');
  await page.keyboard.type('X');
  // Monaco draws its lines in a frame of its own: the text is waited for, not read at once.
  await expect(firstLine(page)).toHaveText(/^Xabc/);
  await page.keyboard.press('Control+k');
  await expect(firstLine(page)).toHaveText('X');
  expect(errors).toEqual([]);
});
