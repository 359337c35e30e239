// Import and export of scenario JSON files, and the replay keyboard shortcuts.
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { ScenarioSchema } from '../src/engine/index.ts';
import { DEFAULT_EXAMPLE_ID } from '../src/scenarios/examples.ts';
import { addAgentFile, engineTimeline, exampleScenario, waitForTimeline } from './helpers.ts';

test('export writes the scenario as JSON; importing it back, or a bad file, behaves', async ({ page }, info) => {
  const scenario = exampleScenario(DEFAULT_EXAMPLE_ID);
  await page.goto('/');
  await waitForTimeline(page);

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export' }).click();
  const file = info.outputPath('exported.json');
  await (await download).saveAs(file);
  const exported = ScenarioSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  expect(exported).toEqual(scenario);

  await page.getByTestId('import-file').setInputFiles({
    name: 'broken.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{"version": 1, "agent": {}}'),
  });
  await expect(page.getByTestId('notice-error')).toContainText('is not a Leviath scenario');
  await expect(page.getByTestId('notice-error')).toContainText('Nothing was changed');

  const other = exampleScenario('flat-vs-regions');
  await page.getByTestId('import-file').setInputFiles({
    name: 'flat.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(other)),
  });
  await expect(page.getByTestId('charts')).toHaveAttribute('data-scenario', other.name);
  await waitForTimeline(page, engineTimeline(other).steps.length);
});

test('space plays and pauses, arrows step', async ({ page }) => {
  const steps = engineTimeline(exampleScenario(DEFAULT_EXAMPLE_ID)).steps.length;
  await page.goto('/');
  await waitForTimeline(page, steps);
  // A first visit lands on the example's lesson; the arrows are counted from step 1.
  await page.getByRole('button', { name: 'First step' }).click();
  await expect(page.getByTestId('step-label')).toContainText('Step 1 of');
  await page.getByRole('heading', { name: 'Traffic', exact: true }).click();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('step-label')).toContainText('Step 3 of');
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByTestId('step-label')).toContainText('Step 2 of');
  await page.keyboard.press('Space');
  await expect(page.getByTestId('play')).toContainText('Pause');
  await expect(page.getByTestId('step-label')).not.toContainText('Step 2 of');
  await page.keyboard.press('Space');
  await expect(page.getByTestId('play')).toContainText('Play');
});

test('the guide opens beside the app and its example buttons load the example behind it', async ({ page }) => {
  await page.goto('/');
  await waitForTimeline(page);
  await page.getByTestId('open-guide').click();
  const guide = page.getByTestId('guide');
  await expect(guide.getByRole('heading', { level: 1 })).toContainText('structured context');
  const heading = guide.getByRole('heading', { name: /flat-vs-regions/ });
  await heading.getByRole('button', { name: 'Open this example' }).click();
  await expect(page.getByTestId('charts')).toHaveAttribute('data-scenario', 'flat-vs-regions');
  // A side panel, so the reader follows the lesson in the app: it stays open.
  await expect(guide).toBeVisible();
});

test('hook scripts can be added, renamed and deleted; a Rhai error is marked live', async ({ page }) => {
  await page.goto('/');
  await waitForTimeline(page);
  await addAgentFile(page, 'context_hooks/notes.rhai', 'fn render(ctx) {\n    let x = ;\n}\n');
  const problem = page.getByTestId('diagnostics').locator('[data-code="custom-script-invalid"]');
  await expect(problem).toContainText('context_hooks/notes.rhai:2');

  page.once('dialog', (d) => d.accept('context_hooks/memo.rhai'));
  await page.getByTitle('Rename this file').click();
  await expect(page.getByRole('tab', { name: 'memo.rhai' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tab', { name: 'notes.rhai' })).toHaveCount(0);
  await expect(problem).toContainText('context_hooks/memo.rhai:2');

  page.once('dialog', (d) => d.accept());
  await page.getByTitle('Delete this file').click();
  await expect(page.getByRole('tab', { name: 'memo.rhai' })).toHaveCount(0);
  await expect(page.getByRole('tab', { name: 'agent.leviath' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('diagnostics')).toContainText('No problems found');
});
