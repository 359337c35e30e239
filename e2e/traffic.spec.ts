// The event list: add, edit, reorder and delete explicit events; each edit re-runs the replay.
import { expect, test } from '@playwright/test';
import { DEFAULT_EXAMPLE_ID } from '../src/scenarios/examples.ts';
import {
  engineTimeline,
  exampleScenario,
  fmt,
  readRegionReadout,
  readoutRow,
  regionAt,
  waitForTimeline,
} from './helpers.ts';

test('events can be added, edited, reordered and deleted, and the timeline follows', async ({ page }) => {
  const scenario = exampleScenario(DEFAULT_EXAMPLE_ID);
  const generated = engineTimeline(scenario).steps.length;
  await page.goto('/');
  await waitForTimeline(page, generated);

  const events = page.getByTestId('events');
  await page.getByLabel('New event type').selectOption('user');
  await page.getByTestId('add-event').click();
  await page.getByLabel('New event type').selectOption('context_append');
  await page.getByTestId('add-event').click();
  await expect(events.locator('li')).toHaveCount(2);
  await waitForTimeline(page, generated + 2);

  // Edit the append: into the pinned task region, with a key.
  const form = page.getByTestId('event-form');
  await form.getByLabel('region').fill('task');
  await form.getByLabel('key').fill('rule');
  await form.getByLabel('content').fill('Never edit generated files.');
  const traffic = [
    { type: 'user' as const, content: 'Please also update the docs.' },
    { type: 'context_append' as const, region: 'task', key: 'rule', content: 'Never edit generated files.' },
  ];
  const expected = engineTimeline({ ...scenario, traffic });
  await expect(events).toContainText('task[rule]: Never edit generated files.');
  await waitForTimeline(page, expected.steps.length);
  await page.getByRole('heading', { name: 'Traffic', exact: true }).click();
  await page.keyboard.press('End');
  await expect(page.getByTestId('step-label')).toContainText(`Step ${fmt(expected.steps.length)} of`);
  await expect
    .poll(async () => readoutRow(await readRegionReadout(page), 'task').tokens)
    .toBe(fmt(regionAt(expected, expected.steps.length - 1, 'task').tokens));

  // An invalid edit is not saved, and says why.
  await form.getByLabel('region').fill('');
  await expect(form).toContainText('Not saved yet');
  await form.getByLabel('region').fill('task');

  await page.getByRole('button', { name: 'Move event 2 up' }).click();
  await expect(events.locator('li').first()).toContainText('context_append');
  await page.getByRole('button', { name: 'Delete event 1' }).click();
  await page.getByRole('button', { name: 'Delete event 1' }).click();
  await expect(events.locator('li')).toHaveCount(0);
  await waitForTimeline(page, generated);
});
