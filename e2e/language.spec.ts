// The editor knows the spec: completion, hover and quick fixes in agent.leviath.
import { expect, test } from '@playwright/test';
import { DEFAULT_EXAMPLE_ID } from '../src/scenarios/examples.ts';
import { engineTimeline, exampleScenario, setEditorText, waitForTimeline } from './helpers.ts';

const steps = () => engineTimeline(exampleScenario(DEFAULT_EXAMPLE_ID)).steps.length;

test('completion offers sliding_window after kind = "', async ({ page }) => {
  await page.goto('/');
  await waitForTimeline(page, steps());
  await setEditorText(page, '[context.regions]\nnotes = { kind = "sl" }\n');
  // Put the cursor after `sl` and ask for completion.
  await page.keyboard.press('ControlOrMeta+Home');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('End');
  for (let k = 0; k < 3; k++) await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Control+Space');
  const widget = page.locator('.suggest-widget');
  await expect(widget).toBeVisible();
  await expect(widget.locator('.monaco-list-row').first()).toContainText('sliding_window');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('editor').locator('.view-lines')).toContainText('notes = { kind = "sliding_window" }');
});

test('hover on compact_at shows its meaning from the spec', async ({ page }) => {
  await page.goto('/');
  await waitForTimeline(page, steps());
  await setEditorText(page, '[context.regions.codebase]\nkind = "compacting"\ncompact_at = "80%"\n');
  await page
    .getByTestId('editor')
    .locator('.view-line', { hasText: 'compact_at' })
    .locator('span', { hasText: 'compact_at' })
    .first()
    .hover();
  const hover = page.locator('.monaco-hover', { hasText: 'compact_at' }).first();
  await expect(hover).toContainText('compact once the region is this full', { timeout: 10_000 });
});

test('a did-you-mean diagnostic has a quick fix that applies it', async ({ page }) => {
  await page.goto('/');
  await waitForTimeline(page, steps());
  await setEditorText(
    page,
    '[context.regions]\ntask = { kind = "pinned", seed = "task_input" }\nconversation = { kind = "sliding", max_items = 5 }\n',
  );
  await expect(page.getByTestId('diagnostics')).toContainText('Did you mean "sliding_window"?');
  await page.getByTestId('diagnostics').locator('[data-code="unknown-region-kind"]').click();
  await page.keyboard.press('ControlOrMeta+.');
  await page.locator('.action-widget').getByText('Change to "sliding_window"').click();
  await expect(page.getByTestId('editor').locator('.view-lines')).toContainText(
    'conversation = { kind = "sliding_window", max_items = 5 }',
  );
  await expect(page.getByTestId('diagnostics')).not.toContainText('unknown-region-kind');
});
