// The page stays responsive: a hook stuck in `loop {}` hits the Rhai operation limit and shows a
// warning, and replaying the largest example never blocks the main thread for long.
import { expect, test } from '@playwright/test';
import { DEFAULT_EXAMPLE_ID, EXAMPLES } from '../src/scenarios/examples.ts';
import {
  addAgentFile,
  engineTimeline,
  exampleScenario,
  longTasks,
  recordLongTasks,
  resetLongTasks,
  blueprintOf,
  present,
  setEditorText,
  waitForTimeline,
} from './helpers.ts';

test('a loop {} hook in a custom region hits the limit with a message; the page stays responsive', async ({ page }) => {
  const scenario = exampleScenario(DEFAULT_EXAMPLE_ID);
  await recordLongTasks(page);
  await page.goto('/');
  await waitForTimeline(page);

  await addAgentFile(page, 'context_hooks/spin.rhai', 'fn render(ctx) {\n    loop {}\n}\n');

  await page.getByRole('tab', { name: 'agent.leviath' }).click();
  const withSpin = blueprintOf(scenario).replace(
    '[context.regions]\n',
    '[context.regions]\nspin = { kind = "custom", script = "context_hooks/spin.rhai" }\n',
  );
  await resetLongTasks(page);
  await setEditorText(page, withSpin);

  // While the worker replays, the page keeps answering input.
  const theme = await page.locator('html').getAttribute('data-theme');
  await page.getByRole('button', { name: 'Toggle dark mode' }).click();
  await expect(page.locator('html')).not.toHaveAttribute('data-theme', theme!);

  const warnings = page.getByTestId('timeline-warnings');
  await expect(warnings).toContainText('Too many operations', { timeout: 30_000 });
  await expect(warnings).toContainText('context_hooks/spin.rhai line 2');
  await expect(page.getByTestId('region-readout').locator('tr[data-region="spin"]')).toBeVisible();
  expect(Math.max(0, ...(await longTasks(page)))).toBeLessThan(1000);
});

// A sane bound for every run of the suite, against a page frozen for seconds; the bench's page probe
// (e2e/page.spec.ts) reports each phase against the 50 ms goal. With the suite's other worker busy on
// both cores, opening brain-custom (its editor tabs and the interpreter's chunk) has measured 174-551
// ms here and 1,229 ms once in CI, so the bound is 2 s.
test('replaying the largest example keeps long tasks short', async ({ page }) => {
  const largest = present(
    EXAMPLES.map((e) => ({
      id: e.id,
      title: e.title,
      size: JSON.stringify(engineTimeline(exampleScenario(e.id))).length,
    })).sort((a, b) => b.size - a.size)[0],
    'an example',
  );
  await recordLongTasks(page);
  await page.goto('/');
  await waitForTimeline(page);
  await page.waitForTimeout(500);
  await resetLongTasks(page);

  await page.getByTestId('open-examples').click();
  await page
    .getByTestId('examples')
    .locator(`[data-example="${largest.id}"]`)
    .getByRole('button', { name: 'Open' })
    .click();
  const steps = engineTimeline(exampleScenario(largest.id)).steps.length;
  await waitForTimeline(page, steps);
  // Scrub across the run as a user would while it is on screen.
  for (let k = 0; k < 5; k++) await page.keyboard.press('Shift+ArrowRight');
  await page.waitForTimeout(1000);

  const tasks = await longTasks(page);
  console.log(`${largest.id}: long tasks ${tasks.length}, longest ${Math.max(0, ...tasks)} ms`);
  expect(Math.max(0, ...tasks)).toBeLessThan(2000);
});
