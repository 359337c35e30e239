// The workspace: it fits the window at desktop sizes, stacks on narrow screens, and its panes
// resize, collapse, maximise and remember their sizes.
import { expect, test, type Page } from '@playwright/test';
import { DEFAULT_EXAMPLE_ID } from '../src/scenarios/examples.ts';
import { engineTimeline, exampleScenario, waitForTimeline, watchErrors } from './helpers.ts';

const steps = () => engineTimeline(exampleScenario(DEFAULT_EXAMPLE_ID)).steps.length;

async function pageScroll(page: Page): Promise<{ x: number; y: number }> {
  return page.evaluate(() => ({
    x: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    y: document.documentElement.scrollHeight - document.documentElement.clientHeight,
  }));
}

for (const [width, height] of [
  [1440, 900],
  [1024, 768],
] as const) {
  test(`at ${width}×${height} the app fits the window: no page scroll`, async ({ page }) => {
    const errors = watchErrors(page);
    await page.setViewportSize({ width, height });
    await page.goto('/');
    await waitForTimeline(page, steps());
    expect(await pageScroll(page)).toEqual({ x: 0, y: 0 });
    // The verdict and the main chart are in the first screen, top left.
    const verdict = await page.getByTestId('comparison-verdict').boundingBox();
    const chart = await page.getByTestId('window-chart').boundingBox();
    expect(verdict!.x).toBeLessThan(width / 3);
    // Under the header, the tabs and the lesson's one line.
    expect(verdict!.y).toBeLessThan(240);
    expect(chart!.y + chart!.height).toBeLessThan(height);
    expect(chart!.height).toBeGreaterThan(180);
    // The editor shows at least 60 columns (once Monaco has arrived, after the charts).
    await expect
      .poll(async () => Number(await page.getByTestId('editor').getAttribute('data-columns')))
      .toBeGreaterThanOrEqual(60);
    if (process.env.SHOTS) await page.screenshot({ path: `/tmp/ui-shots/layout-${width}.png` });
    expect(errors).toEqual([]);
  });
}

test('below 900 px the panes stack and nothing scrolls sideways', async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 900 });
  await page.goto('/');
  await waitForTimeline(page, steps());
  await expect(page.locator('main.workspace')).toHaveAttribute('data-layout', 'stacked');
  expect((await pageScroll(page)).x).toBe(0);
  const timeline = await page.locator('[data-pane="timeline"]').boundingBox();
  const editor = await page.locator('[data-pane="editor"]').boundingBox();
  expect(editor!.y).toBeGreaterThan(timeline!.y + timeline!.height - 1);
  if (process.env.SHOTS) await page.screenshot({ path: '/tmp/ui-shots/layout-800.png', fullPage: true });
});

test('a pane maximises and restores by its title, its button and the M key', async ({ page }) => {
  await page.goto('/');
  await waitForTimeline(page, steps());
  await page.locator('[data-pane="traffic"] .pane-head h2').dblclick();
  await expect(page.locator('main.workspace')).toHaveAttribute('data-layout', 'maximized');
  await expect(page.locator('[data-pane]')).toHaveCount(1);
  await expect(page.locator('[data-pane="traffic"]')).toBeVisible();
  await page.getByTestId('maximise-traffic').click();
  await expect(page.locator('[data-pane]')).toHaveCount(4);
  await page.getByTestId('maximise-inspector').focus();
  await page.keyboard.press('m');
  await expect(page.locator('[data-pane]')).toHaveCount(1);
  await expect(page.locator('[data-pane="inspector"]')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.locator('[data-pane]')).toHaveCount(4);
});

test('pane sizes are remembered across a reload, and a pane collapses to its title', async ({ page }) => {
  await page.goto('/');
  await waitForTimeline(page, steps());
  const separator = page.locator('.separator.vertical').first();
  const box = (await separator.boundingBox())!;
  const before = (await page.locator('[data-pane="editor"]').boundingBox())!.width;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x - 120, box.y + box.height / 2, { steps: 6 });
  await page.mouse.up();
  const after = (await page.locator('[data-pane="editor"]').boundingBox())!.width;
  expect(after).toBeGreaterThan(before + 100);
  await page.reload();
  await waitForTimeline(page, steps());
  const reloaded = (await page.locator('[data-pane="editor"]').boundingBox())!.width;
  expect(Math.abs(reloaded - after)).toBeLessThan(3);

  await page.getByRole('button', { name: 'Collapse or expand Traffic' }).click();
  await expect.poll(async () => (await page.locator('[data-pane="traffic"]').boundingBox())!.height).toBeLessThan(40);
  await page.getByRole('button', { name: 'Collapse or expand Traffic' }).click();
  await expect
    .poll(async () => (await page.locator('[data-pane="traffic"]').boundingBox())!.height)
    .toBeGreaterThan(100);
});

test('nothing moves while playing: the panes, the chart, the problems list and the step label keep their boxes', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.goto('/');
  await waitForTimeline(page, steps());
  // Monaco arrives after the charts are drawn (src/ui/EditorPanel.tsx); its box is measured too.
  const monaco = page.getByTestId('editor').locator('.monaco-editor');
  await expect(monaco).toBeVisible();
  // Monaco mounts at a few pixels and sizes itself to its pane on the next frames.
  await expect.poll(async () => (await monaco.boundingBox())?.width ?? 0).toBeGreaterThan(100);
  const boxes = () =>
    page.evaluate(() => {
      const selectors = [
        '[data-pane="timeline"]',
        '[data-pane="inspector"]',
        '[data-pane="editor"]',
        '[data-pane="traffic"]',
        '[data-testid="window-chart"]',
        '[data-testid="diagnostics"]',
        '[data-testid="step-label"]',
        '.monaco-editor',
      ];
      return selectors.map((s) => {
        const r = document.querySelector(s)!.getBoundingClientRect();
        return `${s} ${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}×${Math.round(r.height)}`;
      });
    });
  const before = await boxes();
  await page.getByLabel('Speed (steps per second)').selectOption('25');
  await page.getByTestId('play').click();
  // Sample while the step label goes from one to three digits and the inspector follows.
  for (let k = 0; k < 8; k++) {
    await page.waitForTimeout(250);
    expect(await boxes()).toEqual(before);
  }
  expect(Number(/Step (\d+)/.exec((await page.getByTestId('step-label').textContent())!)![1])).toBeGreaterThan(20);
  expect(await pageScroll(page)).toEqual({ x: 0, y: 0 });
});
