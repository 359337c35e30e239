// Share links: a link reproduces the same timeline in a new page; a bad link says what is wrong
// and leaves the user's own saved work alone.
import { expect, test, type Page } from '@playwright/test';
import { deflateSync } from 'fflate';
import { DEFAULT_EXAMPLE_ID } from '../src/scenarios/examples.ts';
import {
  engineTimeline,
  exampleScenario,
  fmt,
  goToStep,
  readRegionReadout,
  readoutRow,
  regionAt,
  blueprintOf,
  setEditorText,
  waitForTimeline,
} from './helpers.ts';
import { libraryEntries } from './library.ts';

const scenario = exampleScenario(DEFAULT_EXAMPLE_ID);
const blueprint = blueprintOf(scenario);

async function makeOwnEdit(page: Page): Promise<string> {
  await page.goto('/');
  await waitForTimeline(page);
  const edited = blueprint.replace('max_items = 20', 'max_items = 9');
  expect(edited).not.toEqual(blueprint);
  await setEditorText(page, edited);
  await expect(page.getByTestId('editor').locator('.view-lines')).toContainText('max_items = 9');
  await expect
    .poll(async () => (await libraryEntries(page)).map((e) => e.scenario.agent['agent.leviath']).join())
    .toContain('max_items = 9');
  return edited;
}

test('a share link opened in a new page reproduces the same timeline', async ({ page, context }) => {
  const edited = await makeOwnEdit(page);
  const expected = engineTimeline({ ...scenario, agent: { ...scenario.agent, 'agent.leviath': edited } });
  await waitForTimeline(page, expected.steps.length);
  const step = Math.floor(expected.steps.length / 2);
  await goToStep(page, step, expected.steps.length);
  // The edit's replay has as many steps as the one before it: its figures say when it is drawn.
  await expect(
    page.getByTestId('region-readout').locator('tr[data-region="conversation"]').getByTestId('entries'),
  ).toHaveText(fmt(regionAt(expected, step, 'conversation').entries), { timeout: 30_000 });
  const original = await readRegionReadout(page);
  const requestTokens = await page.getByTestId('request-tokens').innerText();

  await page.getByTestId('open-share').click();
  const url = await page.getByTestId('share-url').inputValue();
  expect(url).toMatch(/#s=1\./);

  // A different browser profile: nothing saved, so only the link can carry the edit.
  const other = await context.browser()!.newContext();
  const second = await other.newPage();
  await second.goto(url);
  await waitForTimeline(second, expected.steps.length);
  await expect(second.getByTestId('editor').locator('.view-lines')).toContainText('max_items = 9');
  await goToStep(second, step, expected.steps.length);
  expect(await readRegionReadout(second)).toEqual(original);
  await expect(second.getByTestId('request-tokens')).toHaveText(requestTokens);
  expect(readoutRow(original, 'conversation').tokens).toBe(fmt(regionAt(expected, step, 'conversation').tokens));
  await other.close();
});

const BAD_LINKS: { name: string; fragment: () => string; says: RegExp }[] = [
  { name: 'corrupt', fragment: () => '#s=1.not-a-real-scenario!!', says: /corrupt/i },
  { name: 'another version', fragment: () => '#s=7.AAAA', says: /different version/i },
  {
    name: 'too large when inflated',
    fragment: () => `#s=1.${Buffer.from(deflateSync(new Uint8Array(3 * 1024 * 1024).fill(32))).toString('base64url')}`,
    says: /larger than 2 MB/i,
  },
];

for (const bad of BAD_LINKS) {
  test(`a ${bad.name} link shows a message and leaves the user's work untouched`, async ({ page }) => {
    await makeOwnEdit(page);
    const saved = await libraryEntries(page);
    await page.goto(`/${bad.fragment()}`);
    await expect(page.getByTestId('notice-error')).toContainText(bad.says);
    await expect(page.getByTestId('notice-error')).toContainText('Your own work is unchanged');
    await waitForTimeline(page);
    await expect(page.getByTestId('editor').locator('.view-lines')).toContainText('max_items = 9');
    expect(await libraryEntries(page)).toEqual(saved);
    // The address bar holds the user's work again, not the bad link.
    expect(new URL(page.url()).hash).toMatch(/^#s=1\./);
  });
}
