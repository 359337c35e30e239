// Editing the blueprint: diagnostics appear and go, budgets move the charts, a broken blueprint
// keeps the last good timeline, and work survives a reload.
import { expect, test } from '@playwright/test';
import { DEFAULT_EXAMPLE_ID, findExample } from '../src/scenarios/examples.ts';
import {
  engineTimeline,
  exampleScenario,
  fmt,
  readRegionReadout,
  readoutRow,
  regionAt,
  blueprintOf,
  setEditorText,
  waitForTimeline,
  watchErrors,
} from './helpers.ts';

const scenario = exampleScenario(DEFAULT_EXAMPLE_ID);
const blueprint = blueprintOf(scenario);
const expected = engineTimeline(scenario);

test('the page opens on the default example with no console errors', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/');
  await waitForTimeline(page, expected.steps.length);
  await expect(page.getByTestId('diagnostics')).toContainText('No problems found');
  const title = findExample(DEFAULT_EXAMPLE_ID)!.scenario.name!;
  await expect(page.getByTestId('scenario-name')).toHaveValue(title);
  await expect(page.getByTestId('inspector')).toBeVisible();
  expect(errors).toEqual([]);
});

test('an unknown kind is marked in the editor and listed; fixing it clears both', async ({ page }) => {
  await page.goto('/');
  await waitForTimeline(page, expected.steps.length);
  const broken = blueprint.replace('kind = "compacting"', 'kind = "compactin"');
  expect(broken).not.toEqual(blueprint);
  await setEditorText(page, broken);

  const problem = page.getByTestId('diagnostics').locator('[data-code="unknown-region-kind"]');
  await expect(problem).toBeVisible();
  await expect(problem).toContainText('compactin');
  await expect(page.getByTestId('editor').locator('.squiggly-error').first()).toBeAttached();

  // Clicking the problem puts the cursor on its line.
  await problem.click();
  const line = broken.split('\n').findIndex((l) => l.includes('"compactin"')) + 1;
  await expect(page.getByTestId('editor').locator('.line-numbers.active-line-number').first()).toHaveText(String(line));

  await setEditorText(page, blueprint);
  await expect(page.getByTestId('diagnostics')).toContainText('No problems found');
  await expect(page.getByTestId('editor').locator('.squiggly-error')).toHaveCount(0);
});

test('editing a budget changes the resolved budget and the chart figures', async ({ page }) => {
  await page.goto('/');
  await waitForTimeline(page, expected.steps.length);
  const before = await readRegionReadout(page);
  expect(readoutRow(before, 'codebase').budget).toBe(fmt(regionAt(expected, 0, 'codebase').budget));

  const edited = blueprint.replace(/(codebase = \{[^}]*budget = )"20%"/, '$1"10%"');
  expect(edited).not.toEqual(blueprint);
  await setEditorText(page, edited);
  const editedTimeline = engineTimeline({ ...scenario, agent: { ...scenario.agent, 'agent.leviath': edited } });
  await expect(page.getByTestId('budget-codebase')).toHaveText(fmt(regionAt(editedTimeline, 0, 'codebase').budget));
  await expect(
    page.getByTestId('region-readout').locator('tr[data-region="codebase"] [data-testid="budget"]'),
  ).toHaveText(fmt(regionAt(editedTimeline, 0, 'codebase').budget));
  expect(regionAt(editedTimeline, 0, 'codebase').budget).toBeLessThan(regionAt(expected, 0, 'codebase').budget);
});

test('broken TOML shows the error and keeps the last good timeline', async ({ page }) => {
  await page.goto('/');
  await waitForTimeline(page, expected.steps.length);
  await setEditorText(page, `${blueprint}\n[context.regions\n`);
  await expect(page.getByTestId('diagnostics').locator('[data-code="toml-syntax"]')).toBeVisible();
  await expect(page.getByTestId('stale-banner')).toBeVisible();
  await expect(page.getByTestId('charts')).toHaveAttribute('data-steps', String(expected.steps.length));
  const readout = await readRegionReadout(page);
  expect(readoutRow(readout, 'task').tokens).toBe(fmt(regionAt(expected, 0, 'task').tokens));
});

test('a reload keeps the edit', async ({ page }) => {
  await page.goto('/');
  await waitForTimeline(page, expected.steps.length);
  const edited = blueprint.replace('max_items = 20', 'max_items = 7');
  expect(edited).not.toEqual(blueprint);
  await setEditorText(page, edited);
  await expect(page.getByTestId('editor').locator('.view-lines')).toContainText('max_items = 7');
  await page.waitForTimeout(600); // the save is debounced by 250 ms
  await page.reload();
  await waitForTimeline(page);
  await expect(page.getByTestId('editor').locator('.view-lines')).toContainText('max_items = 7');
});
