// Every example and every link lands on its lesson (issue 30, points 1-3), at the three sizes the
// issue was tried at. Expected steps come from the engine run here in Node (helpers.ts).
import { expect, test, type Page } from '@playwright/test';
import { DEFAULT_EXAMPLE_ID, findExample } from '../src/scenarios/examples.ts';
import { encodeScenario } from '../src/share/index.ts';
import { engineTimeline, exampleScenario, fmt, watchErrors } from './helpers.ts';

const SIZES = [
  [1440, 900],
  [1024, 768],
  [390, 844],
] as const;

/** The step (0-based) where the engine's flat list loses the task in an example. */
function flatListLosesAt(id: string): number {
  const timeline = engineTimeline(exampleScenario(id));
  return timeline.steps.findIndex((s) => s.request?.inference === timeline.summary.baselineLosesTaskAt);
}

/** The first step (0-based) of the engine's run with a change of `type` in `region`. */
function firstChange(id: string, type: string, region: string): number {
  return engineTimeline(exampleScenario(id)).steps.findIndex((s) =>
    s.changes.some((c) => c.type === type && c.region === region),
  );
}

async function expectAt(page: Page, step: number, id: string): Promise<void> {
  const total = engineTimeline(exampleScenario(id)).steps.length;
  await expect(page.getByTestId('charts')).toHaveAttribute('data-scenario', id, { timeout: 30_000 });
  await expect(page.getByTestId('step-label')).toContainText(`Step ${step + 1} of ${fmt(total)}`, { timeout: 30_000 });
  await expect(page.getByTestId('inspector')).toHaveAttribute('data-step', String(step), { timeout: 30_000 });
}

const tab = (page: Page, view: string) => page.getByTestId(`view-${view}`);

for (const [width, height] of SIZES) {
  test.describe(`${width}×${height}`, () => {
    test.use({ viewport: { width, height } });

    test("an example opens at its lesson with its sentence; the verdict's step link shows the flat-list chart", async ({
      page,
    }) => {
      const errors = watchErrors(page);
      await page.goto('/#example/flat-vs-regions');
      const lost = flatListLosesAt('flat-vs-regions');
      await expectAt(page, lost, 'flat-vs-regions');
      await expect(tab(page, 'flat')).toHaveAttribute('aria-selected', 'true');
      await expect(page.getByTestId('comparison')).toBeVisible();
      await expect(page.getByTestId('lesson')).toContainText(findExample('flat-vs-regions')!.lesson.look);

      // Another example, from the Examples menu: its own lesson, view and step.
      await page.getByTestId('open-examples').click();
      await page.locator('[data-example="sliding-bulk-cache"] button.primary').click();
      await expectAt(page, firstChange('sliding-bulk-cache', 'evict', 'conversation'), 'sliding-bulk-cache');
      await expect(tab(page, 'cache')).toHaveAttribute('aria-selected', 'true');
      await expect(page.getByTestId('lesson')).toContainText(findExample('sliding-bulk-cache')!.lesson.look);

      // The verdict's step link goes to the step and to the view that shows it.
      await page.goto('/#example/coding-agent');
      await expectAt(page, firstChange('coding-agent', 'compact', 'codebase'), 'coding-agent');
      await expect(tab(page, 'window')).toHaveAttribute('aria-selected', 'true');
      const link = page.getByTestId('verdict-lost-step');
      const step = flatListLosesAt('coding-agent');
      await expect(link).toHaveText(`step ${step + 1}`);
      await link.click();
      await expectAt(page, step, 'coding-agent');
      await expect(tab(page, 'flat')).toHaveAttribute('aria-selected', 'true');
      expect(errors).toEqual([]);
    });

    test('a first visit to a bare address lands on the default example at its lesson: its view, step, region and sentence', async ({
      page,
    }) => {
      const errors = watchErrors(page);
      await page.goto('/');
      const { lesson } = findExample(DEFAULT_EXAMPLE_ID)!;
      await expectAt(page, firstChange(DEFAULT_EXAMPLE_ID, 'compact', 'codebase'), DEFAULT_EXAMPLE_ID);
      expect(lesson.at).toEqual({ event: 'change', type: 'compact', region: 'codebase' });
      await expect(tab(page, lesson.view)).toHaveAttribute('aria-selected', 'true');
      await expect(page.getByTestId('lesson')).toContainText(lesson.look);
      await expect
        .poll(() => page.evaluate(() => location.hash))
        .toContain(`&step=${firstChange(DEFAULT_EXAMPLE_ID, 'compact', 'codebase') + 1}&region=codebase`);
      expect(errors).toEqual([]);
    });

    test('the cascade example lands on its first cascade, on Each region, with its sentence and codebase inspected', async ({
      page,
    }) => {
      const errors = watchErrors(page);
      await page.goto('/#example/cascade');
      await expectAt(page, firstChange('cascade', 'cascade', 'notes'), 'cascade');
      await expect(tab(page, 'regions')).toHaveAttribute('aria-selected', 'true');
      await expect(page.getByTestId('lesson')).toContainText(findExample('cascade')!.lesson.look);
      await expect(page).toHaveURL(/&view=regions&region=codebase/);
      expect(errors).toEqual([]);
    });

    test('the charts fit data far below the window, in every view, and say how large the window is; the choice is kept', async ({
      page,
    }) => {
      await page.goto('/#example/imported-run');
      await expectAt(page, firstChange('imported-run', 'compact', 'codebase'), 'imported-run');
      const peak = engineTimeline(exampleScenario('imported-run')).steps.reduce(
        (m, s) =>
          Math.max(
            m,
            Object.values(s.regions).reduce((t, r) => t + r.tokens, 0),
          ),
        0,
      );
      const chart = page.getByTestId('window-chart');
      await expect(chart).toHaveAttribute('data-fit', 'yes');
      // The axis tops just above the data (a tenth of headroom), not at the 200,000-token window.
      const top = Number(await chart.getAttribute('data-top'));
      expect(top).toBeGreaterThanOrEqual(peak);
      expect(top).toBeLessThan(peak * 1.2);
      await expect(chart.getByTestId('window-off-scale')).toContainText('window 200,000 tokens');

      await tab(page, 'regions').click();
      await expect(page.getByTestId('region-charts')).toHaveAttribute('data-fit', 'yes');
      await expect(page.getByTestId('region-charts').getByTestId('window-off-scale')).toContainText(
        'the window is 200,000 tokens',
      );
      await tab(page, 'cache').click();
      await expect(page.getByTestId('cache-chart')).toHaveAttribute('data-fit', 'yes');
      await tab(page, 'flat').click();
      await expect(page.getByTestId('flat-chart')).toHaveAttribute('data-fit', 'yes');

      // The whole window, chosen once, holds in every view and for the next example, and after a reload.
      await page.getByTestId('zoom').first().selectOption('window');
      await expect(page.getByTestId('flat-chart')).toHaveAttribute('data-fit', 'no');
      await page.goto('/#example/brain-custom');
      await expect(page.getByTestId('charts')).toHaveAttribute('data-scenario', 'brain-custom', { timeout: 30_000 });
      await expect(page.getByTestId('zoom').first()).toHaveValue('window');
      await tab(page, 'window').click();
      await expect(page.getByTestId('window-chart')).toHaveAttribute('data-fit', 'no');
      await expect(page.getByTestId('window-chart')).toHaveAttribute('data-top', '200000');
    });

    test('the address holds step, view, zoom and region; a reload keeps them; old links open at step 1 of Window; the Guide has addresses', async ({
      page,
    }) => {
      await page.goto('/#example/research-reject');
      const reject = firstChange('research-reject', 'reject', 'sources');
      await expectAt(page, reject, 'research-reject');
      await expect.poll(() => page.evaluate(() => location.hash)).toContain(`&step=${reject + 1}&region=sources`);
      expect(await page.evaluate(() => location.hash)).toMatch(/^#s=1\./);

      await tab(page, 'cache').click();
      await expect.poll(() => page.evaluate(() => location.hash)).toContain('&view=cache');
      await page.reload();
      await expectAt(page, reject, 'research-reject');
      await expect(tab(page, 'cache')).toHaveAttribute('aria-selected', 'true');
      await expect(page.getByTestId('inspect-sources')).toHaveClass(/focused/);

      // A link made with lev share encode --step 12 --view regions --zoom fit.
      const link = `${encodeScenario(exampleScenario('tool-routing'))}&step=12&view=regions&zoom=fit`;
      await page.goto(`/${link}`);
      await expectAt(page, 11, 'tool-routing');
      await expect(tab(page, 'regions')).toHaveAttribute('aria-selected', 'true');
      await expect(page.getByTestId('zoom').first()).toHaveValue('fit');

      // A link as the page wrote it before view parts: step 1, Window.
      await page.goto(`/${encodeScenario(exampleScenario('checklist-gate'))}`);
      await expectAt(page, 0, 'checklist-gate');
      await expect(tab(page, 'window')).toHaveAttribute('aria-selected', 'true');
      await expect(page.getByTestId('lesson-show')).toBeVisible();
      await page.getByTestId('lesson-show').click();
      await expectAt(page, 106, 'checklist-gate');

      await page.goto('/#guide/stages-and-the-prompt-cache');
      const section = page.getByTestId('guide').locator('#guide-stages-and-the-prompt-cache');
      await expect(section).toBeInViewport();
      await expect(page.getByTestId('charts')).toHaveAttribute('data-ready', 'yes', { timeout: 30_000 });
    });
  });
}
