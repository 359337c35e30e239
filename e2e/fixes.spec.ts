// The "also fix" list: budgets on a malformed budget and a TOML error, the TOML error's line, the
// custom window field, the events wording, renaming, and a generator form in words.
import { expect, test } from '@playwright/test';
import { DEFAULT_EXAMPLE_ID } from '../src/scenarios/examples.ts';
import { addAgentFile, engineTimeline, exampleScenario, setEditorText, waitForTimeline } from './helpers.ts';

const scenario = exampleScenario(DEFAULT_EXAMPLE_ID);
const blueprint = scenario.agent['agent.leviath']!;
const steps = () => engineTimeline(scenario).steps.length;

test('a malformed budget shows its finding in the budget table; a TOML error keeps the last table, stale', async ({
  page,
}) => {
  await page.goto('/');
  await waitForTimeline(page, steps());
  await setEditorText(
    page,
    blueprint.replace(
      'codebase = { kind = "compacting", budget = "20%" }',
      'codebase = { kind = "compacting", budget = "twenty" }',
    ),
  );
  const row = page.getByTestId('budgets').locator('tr[data-region="codebase"]');
  await expect(row.getByTestId('budget-problem')).toContainText('`budget` must be a percentage string');
  await expect(row).not.toContainText('max_tokens 5,000');
  await expect(page.getByTestId('budget-codebase')).toHaveText('–');
  await setEditorText(page, blueprint);
  await expect(page.getByTestId('budget-codebase')).toHaveText('40,000');

  await setEditorText(
    page,
    blueprint.replace(
      'task = { kind = "pinned", budget = "12%", seed = "task_input" }',
      'task = { kind = "pinned", budget = "12%", seed = "task_input"',
    ),
  );
  await expect(page.getByTestId('budgets-stale')).toBeVisible();
  await expect(page.getByTestId('budget-codebase')).toHaveText('40,000');
  // The fault is reported on the line that left the `{` open, not on the next one.
  const line = blueprint.split('\n').findIndex((l) => l.startsWith('task = {')) + 1;
  await expect(page.getByTestId('diagnostics').locator('[data-code="toml-syntax"] .where')).toHaveText(
    new RegExp(`^agent\\.leviath:${line}:\\d+$`),
  );
});

test('the custom window field keeps what is typed and says what is wrong', async ({ page }) => {
  await page.goto('/');
  await waitForTimeline(page, steps());
  await page.getByTestId('model').selectOption('__custom__');
  const field = page.getByTestId('custom-window');
  await field.fill('16000');
  await field.selectText();
  await page.keyboard.type('1000');
  await expect(field).toHaveValue('1000');
  await field.fill('0');
  await expect(page.getByRole('alert').filter({ hasText: 'too small' })).toBeVisible();
  await field.fill('');
  await expect(page.getByRole('alert').filter({ hasText: 'Type the window size' })).toBeVisible();
  await field.fill('99999999999');
  await expect(page.getByRole('alert').filter({ hasText: 'more than any model offers' })).toBeVisible();
  await field.fill('64000');
  await expect(page.getByTestId('charts')).toHaveAttribute('data-ready', 'yes');
  await expect(page.getByText('Custom window (tokens)')).toHaveCount(0);
  await expect(page.locator('[data-pane="timeline"] .pane-head')).toContainText('custom-64000', { timeout: 30_000 });
});

test('the generator form speaks in words, the events list never asks for a generator it has, and the scenario renames', async ({
  page,
}) => {
  await page.goto('/');
  await waitForTimeline(page, steps());
  const traffic = page.locator('[data-pane="traffic"]');
  await expect(traffic.getByText('File sizes', { exact: true })).toBeVisible();
  await expect(traffic.getByText('Transition to', { exact: true })).toBeVisible();
  await expect(traffic.getByText('fileSizes')).toHaveCount(0);
  await expect(traffic).toContainText('Relative weights of small');
  await expect(traffic).not.toContainText('pick a generator');

  const name = page.getByTestId('scenario-name');
  await name.fill('my coding agent');
  await name.press('Enter');
  await expect(page.getByTestId('charts')).toHaveAttribute('data-scenario', 'my coding agent', { timeout: 30_000 });
});

test('a hook that fails at run time is one problem at its script position, and a marker in the .rhai file', async ({
  page,
}) => {
  await page.goto('/');
  await waitForTimeline(page, steps());
  await setEditorText(
    page,
    `${blueprint}\n[context.regions.brain]\nkind = "custom"\nscript = "context_hooks/brain.rhai"\n`,
  );
  await addAgentFile(page, 'context_hooks/brain.rhai', 'fn render(ctx) {\n    throw "boom";\n}\n');
  const problem = page
    .getByTestId('diagnostics')
    .locator('[data-code="run-warning"]')
    .filter({ hasText: 'render failed' })
    .first();
  await expect(problem).toBeVisible({ timeout: 30_000 });
  await expect(problem.locator('.where')).toHaveText(/^context_hooks\/brain\.rhai:2:\d+$/);
  await expect(page.getByTestId('diagnostics')).not.toContainText('No problems found');
  // The same finding is a squiggle in the script itself.
  await expect(page.getByTestId('editor').locator('.squiggly-warning, .squiggly-error').first()).toBeAttached();
});
