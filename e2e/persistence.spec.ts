// Nothing is ever lost: opening examples, links and files keeps the work in the library, reloads
// find every scenario again, and a browser that refuses storage still works.
import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { ScenarioSchema } from '../src/engine/index.ts';
import { DEFAULT_EXAMPLE_ID } from '../src/scenarios/examples.ts';
import { encodeScenario, MAX_ADDRESS_CHARS } from '../src/share/index.ts';
import { fingerprint, REPLAY_GUARD_KEY } from '../src/state/replayGuard.ts';
import { engineTimeline, exampleScenario, passingInfo, waitForTimeline } from './helpers.ts';
import { libraryEntries, menuNames } from './library.ts';

// Each test opens and replays several scenarios; on a machine shared by many runs that takes minutes.
test.describe.configure({ timeout: 180_000 });

const EDITED_TASK = 'Fix the flaky login test — my own words';

async function editTask(page: Page, text: string): Promise<void> {
  await page.getByLabel('Task', { exact: true }).fill(text);
  await expect.poll(async () => (await libraryEntries(page)).some((e) => e.scenario.inputs.task === text)).toBe(true);
}

async function openExample(page: Page, id: string): Promise<void> {
  await page.getByTestId('open-examples').click();
  await page.getByTestId('examples').locator(`[data-example="${id}"]`).getByRole('button', { name: 'Open' }).click();
  await expect(page.getByTestId('charts')).toHaveAttribute('data-scenario', id, { timeout: 30_000 });
}

test('edit, open an example, open another: one "Opened" notice, the newest; its Undo goes back, and the edited work is in Scenarios', async ({
  page,
}) => {
  await page.goto('/');
  await waitForTimeline(page);
  await editTask(page, EDITED_TASK);

  await openExample(page, 'flat-vs-regions');
  const older = page.getByTestId('notice-info').filter({ hasText: 'Opened the example "Flat list vs regions"' });
  await expect(older).toContainText(`Your work "${DEFAULT_EXAMPLE_ID}" is saved in Scenarios.`);
  await older.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByLabel('Task', { exact: true })).toHaveValue(EDITED_TASK);
  await expect(page.getByTestId('charts')).toHaveAttribute('data-scenario', DEFAULT_EXAMPLE_ID);

  await openExample(page, 'flat-vs-regions');
  await openExample(page, 'checklist-gate');
  // A new notice replaces its kind's: the older "Opened" notice is gone, not stacked.
  await expect(passingInfo(page)).toHaveCount(1);
  await expect(passingInfo(page)).toContainText('Opened the example "Checklist and gate"');
  await expect(older).toHaveCount(0);
  expect(await menuNames(page)).toEqual([DEFAULT_EXAMPLE_ID]);
});

test('with auto-run off (after a slow replay), opening an example still replays it; an edit waits for Run', async ({
  page,
}) => {
  await page.goto('/');
  await waitForTimeline(page);
  await page.getByTestId('auto-run').uncheck();
  await openExample(page, 'flat-vs-regions');
  const steps = engineTimeline(exampleScenario('flat-vs-regions')).steps.length;
  await waitForTimeline(page, steps);
  await expect(page.getByTestId('charts')).toHaveAttribute('data-stale', 'no');
  await page.getByLabel('Task', { exact: true }).fill(EDITED_TASK);
  await expect(page.getByTestId('pending-banner')).toBeVisible();
});

test('a reload after opening an example, a link and a file keeps every scenario in the library', async ({ page }) => {
  await page.goto('/');
  await waitForTimeline(page);
  await editTask(page, EDITED_TASK);

  await openExample(page, 'flat-vs-regions');
  await page.reload();
  await expect(page.getByTestId('charts')).toHaveAttribute('data-scenario', 'flat-vs-regions', { timeout: 30_000 });
  expect(await menuNames(page)).toEqual([DEFAULT_EXAMPLE_ID]);

  const linked = { ...exampleScenario('tool-routing'), name: 'from-a-colleague' };
  await page.goto(`/${encodeScenario(linked)}`);
  await expect(page.getByTestId('charts')).toHaveAttribute('data-scenario', 'from-a-colleague', { timeout: 30_000 });
  await page.reload();
  await expect(page.getByTestId('charts')).toHaveAttribute('data-scenario', 'from-a-colleague', { timeout: 30_000 });
  expect((await menuNames(page)).sort()).toEqual([DEFAULT_EXAMPLE_ID, 'from-a-colleague']);

  const imported = { ...exampleScenario('research-reject'), name: 'imported-one' };
  await page
    .getByTestId('import-file')
    .setInputFiles({ name: 'mine.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(imported)) });
  await expect(
    page.getByTestId('notice-info').filter({ hasText: 'Imported mine.json as "imported-one" in Scenarios' }),
  ).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('charts')).toHaveAttribute('data-scenario', 'imported-one', { timeout: 30_000 });
  expect((await menuNames(page)).sort()).toEqual([DEFAULT_EXAMPLE_ID, 'from-a-colleague', 'imported-one']);

  // Each is still whole: opening the edited one brings back the edit.
  await page.getByTestId('open-scenarios').click();
  await page
    .getByTestId('scenarios')
    .locator(`[data-entry="${DEFAULT_EXAMPLE_ID}"]`)
    .getByRole('button', { name: 'Open' })
    .click();
  await expect(page.getByLabel('Task', { exact: true })).toHaveValue(EDITED_TASK);
});

test('a library stored whole by an earlier version of the page opens after the update, with nothing lost', async ({
  page,
}) => {
  await page.goto('/');
  await waitForTimeline(page);
  const scenario = {
    ...exampleScenario('tool-routing'),
    name: 'from yesterday',
    inputs: { task: 'kept across the update' },
  };
  const whole = {
    id: 'old-1',
    name: 'from yesterday',
    createdAt: 1,
    changedAt: Date.now(),
    origin: { kind: 'blank' },
    scenario,
    versions: [{ savedAt: 1, scenario }],
    versionedAt: 1,
    revision: 4,
  };
  // Written as the page wrote entries before summaries and contents were apart.
  const keysAfter = async (write?: unknown) =>
    page.evaluate(
      (value) =>
        new Promise<string[]>((resolve, reject) => {
          const request = indexedDB.open('leviath');
          request.onsuccess = () => {
            const tx = request.result.transaction('library', 'readwrite');
            if (value) tx.objectStore('library').put(value, 'entry:old-1');
            const keys = tx.objectStore('library').getAllKeys();
            tx.oncomplete = () => {
              request.result.close();
              resolve((keys.result as string[]).filter((k) => k.endsWith('old-1')));
            };
            tx.onerror = () => reject(tx.error);
          };
        }),
      write,
    );
  expect(await keysAfter(whole)).toEqual(['entry:old-1']);
  await page.reload();
  await waitForTimeline(page);
  expect(await menuNames(page)).toEqual(['from yesterday']);
  expect((await keysAfter()).sort()).toEqual(['content:old-1', 'entry:old-1']);
  await page.getByTestId('open-scenarios').click();
  const card = page.getByTestId('scenarios').locator('[data-entry="from yesterday"]');
  await expect(card).toContainText('1 earlier version');
  await card.getByRole('button', { name: 'Open' }).click();
  await expect(page.getByLabel('Task', { exact: true })).toHaveValue('kept across the update');
  await expect(page.getByTestId('charts')).toHaveAttribute('data-scenario', 'from yesterday', { timeout: 30_000 });
});

/** The scenario part of an address (`#s=...`); the view parts (`&step=`, `&region=`...) follow it. */
const scenarioPart = (url: string): string => new URL(url).hash.split('&')[0] ?? '';

test('the address bar after an edit opens the same scenario in a fresh browser', async ({ page, browser }) => {
  await page.goto('/');
  await waitForTimeline(page);
  const historyLength = await page.evaluate(() => history.length);
  await page.getByLabel('Task', { exact: true }).fill('Fix');
  await page.getByLabel('Task', { exact: true }).fill(EDITED_TASK);
  const expected = encodeScenario({
    ...exampleScenario(DEFAULT_EXAMPLE_ID),
    inputs: { ...exampleScenario(DEFAULT_EXAMPLE_ID).inputs, task: EDITED_TASK },
  });
  await expect.poll(() => scenarioPart(page.url())).toBe(expected);
  // Typing replaced the address, it did not add history entries.
  expect(await page.evaluate(() => history.length)).toBe(historyLength);

  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await other.goto(page.url());
  await waitForTimeline(other);
  await expect(other.getByLabel('Task', { exact: true })).toHaveValue(EDITED_TASK);
  expect(scenarioPart(other.url())).toBe(expected);
  await fresh.close();
});

test('Back returns to the scenario before an open, not through keystrokes; Ctrl+S saves and copies the link', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/');
  await waitForTimeline(page);
  await page.getByLabel('Task', { exact: true }).fill('one');
  await page.getByLabel('Task', { exact: true }).fill('one two');
  await page.getByLabel('Task', { exact: true }).fill('one two three');
  await openExample(page, 'flat-vs-regions');
  await page.goBack();
  await expect(page.getByLabel('Task', { exact: true })).toHaveValue('one two three');
  await expect(page.getByTestId('charts')).toHaveAttribute('data-scenario', DEFAULT_EXAMPLE_ID);
  await page.goForward();
  await expect(page.getByTestId('charts')).toHaveAttribute('data-scenario', 'flat-vs-regions', { timeout: 30_000 });

  await page.getByRole('heading', { name: 'Traffic', exact: true }).click();
  await page.keyboard.press('ControlOrMeta+S');
  await expect(
    page.getByTestId('notice-info').filter({ hasText: 'Saved "flat-vs-regions" in Scenarios; its link is copied.' }),
  ).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(page.url());
  const saved = (await libraryEntries(page)).find((e) => e.name === 'flat-vs-regions');
  expect(saved?.versions).toHaveLength(1);
});

test('when the browser refuses storage the page works, says so and offers Export', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.addInitScript(() => {
    Object.defineProperty(window, 'indexedDB', {
      get() {
        return {
          open() {
            throw new DOMException('The user denied permission to access the database.', 'SecurityError');
          },
        };
      },
    });
    // Site data blocked: reading localStorage itself throws (the layout's sizes used to blank the page).
    Object.defineProperty(window, 'localStorage', {
      get() {
        throw new DOMException('Access is denied for this document.', 'SecurityError');
      },
    });
  });
  const steps = engineTimeline(exampleScenario(DEFAULT_EXAMPLE_ID)).steps.length;
  await page.goto('/');
  await waitForTimeline(page, steps);
  const notice = page.getByTestId('notice-error').filter({ hasText: 'cannot be stored in this browser' });
  await expect(notice).toContainText('private mode or a privacy setting');
  await expect(notice).toContainText('nothing will survive a reload');
  const download = page.waitForEvent('download');
  await notice.getByRole('button', { name: 'Export' }).click();
  expect((await download).suggestedFilename()).toBe(`${DEFAULT_EXAMPLE_ID}.json`);

  // Editing and opening examples still work, and the work is kept for this tab.
  await page.getByLabel('Task', { exact: true }).fill(EDITED_TASK);
  await openExample(page, 'flat-vs-regions');
  await expect(page.getByTestId('notice-info').filter({ hasText: 'flat' })).toContainText(
    'kept for this tab in Scenarios',
  );
  await page.getByTestId('notice-info').filter({ hasText: 'flat' }).getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByLabel('Task', { exact: true })).toHaveValue(EDITED_TASK);
  expect(errors).toEqual([]);
});

test('storage that fills up after load: the page says so, and opening an example still keeps the work', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/');
  await waitForTimeline(page);
  await page.evaluate(() => {
    IDBObjectStore.prototype.put = () => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
  });
  await page.getByLabel('Task', { exact: true }).fill(EDITED_TASK);
  const notice = page.getByTestId('notice-error').filter({ hasText: 'cannot be stored in this browser' });
  await expect(notice).toContainText("the browser's storage for this site is full");
  await expect(notice.getByRole('button', { name: 'Export' })).toBeVisible();

  await openExample(page, 'flat-vs-regions');
  const opened = page.getByTestId('notice-info').filter({ hasText: 'Flat list vs regions' });
  await expect(opened).toContainText(`Your work "${DEFAULT_EXAMPLE_ID}" is kept for this tab in Scenarios.`);
  expect(await menuNames(page)).toEqual([DEFAULT_EXAMPLE_ID]);
  await opened.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByLabel('Task', { exact: true })).toHaveValue(EDITED_TASK);
  expect(errors).toEqual([]);
});

test('two tabs editing the same scenario: neither overwrites the other, each keeps its own copy', async ({
  context,
}) => {
  const first = await context.newPage();
  await first.goto('/');
  await waitForTimeline(first);
  await editTask(first, 'tab one, first edit');
  await expect
    .poll(() => scenarioPart(first.url()))
    .toBe(
      encodeScenario({
        ...exampleScenario(DEFAULT_EXAMPLE_ID),
        inputs: { ...exampleScenario(DEFAULT_EXAMPLE_ID).inputs, task: 'tab one, first edit' },
      }),
    );

  const second = await context.newPage();
  await second.goto(first.url());
  await expect(second.getByLabel('Task', { exact: true })).toHaveValue('tab one, first edit');
  await expect(
    second.getByTestId('notice-info').filter({ hasText: `already in Scenarios as "${DEFAULT_EXAMPLE_ID}"` }),
  ).toBeVisible();

  await editTask(first, 'tab one, second edit');
  await second.getByLabel('Task', { exact: true }).fill('tab two');
  await expect(second.getByTestId('notice-info').filter({ hasText: 'was also changed in another tab' })).toContainText(
    `this tab's version is now "${DEFAULT_EXAMPLE_ID} (2)" in Scenarios, the other tab's stays "${DEFAULT_EXAMPLE_ID}"`,
  );
  await editTask(first, 'tab one, third edit');
  await second.getByLabel('Task', { exact: true }).fill('tab two, again');
  await expect
    .poll(async () => Object.fromEntries((await libraryEntries(first)).map((e) => [e.name, e.scenario.inputs.task])))
    .toEqual({
      [DEFAULT_EXAMPLE_ID]: 'tab one, third edit',
      [`${DEFAULT_EXAMPLE_ID} (2)`]: 'tab two, again',
    });
});

test('a scenario whose last replay did not finish opens out of date with a Run button, not replayed', async ({
  page,
}) => {
  const scenario = exampleScenario(DEFAULT_EXAMPLE_ID);
  const steps = engineTimeline(scenario).steps.length;
  await page.goto('/');
  await waitForTimeline(page, steps);
  await page.evaluate(
    ([key, print]) => {
      localStorage.setItem(
        key,
        JSON.stringify({ [print]: { state: 'failed', message: 'the replay took longer than 20 s', at: Date.now() } }),
      );
    },
    [REPLAY_GUARD_KEY, fingerprint(scenario)] as const,
  );
  await page.reload();
  await expect(page.getByTestId('replay-held')).toContainText(
    'Out of date: this scenario was not replayed on load because its last replay did not finish (the replay took longer than 20 s).',
  );
  await page.waitForTimeout(3_000);
  await expect(page.getByTestId('charts')).toHaveAttribute('data-steps', '0');
  await expect(page.getByTestId('replaying')).toHaveCount(0);
  // The held banner alone explains it: no banner blames a blueprint error that is not there.
  await expect(page.getByTestId('stale-banner')).toHaveCount(0);

  await page.getByTestId('run-replay').click();
  await waitForTimeline(page, steps);
  await expect(page.getByTestId('replay-held')).toHaveCount(0);
  await page.reload();
  await waitForTimeline(page, steps);
  await expect(page.getByTestId('replay-held')).toHaveCount(0);
});

test('the Scenarios menu: rename, duplicate, delete with an undo that outlasts a reload, new blank, reset, versions', async ({
  page,
}) => {
  // The page's clock, so the time the undo outlasts passes without the test waiting it out.
  await page.clock.install();
  await page.goto('/');
  await waitForTimeline(page);
  await editTask(page, EDITED_TASK);
  const menu = page.getByTestId('scenarios');
  const row = (name: string) => menu.locator(`li.card[data-entry="${name}"]`);

  await page.getByTestId('open-scenarios').click();
  await row(DEFAULT_EXAMPLE_ID).getByRole('button', { name: 'Rename' }).click();
  await menu.getByLabel('New name').fill('my layout');
  await menu.getByLabel('New name').press('Enter');
  await expect(row('my layout')).toBeVisible();
  await expect(row('my layout').getByRole('button', { name: 'Delete' })).toBeDisabled();
  await row('my layout').getByRole('button', { name: 'Duplicate' }).click();
  await expect(row('my layout copy')).toBeVisible();
  await row('my layout copy').getByRole('button', { name: 'Delete' }).click();
  await expect(row('my layout copy')).toHaveCount(0);
  await expect(menu.getByTestId('undo-delete')).toHaveText('Undo delete of "my layout copy"');

  // Past any notice's lifetime (10 s with an action): the undo has no timer, it stays in the menu.
  await page.clock.fastForward(11_000);
  await page.reload();
  await waitForTimeline(page);
  await expect(page.getByTestId('charts')).toHaveAttribute('data-scenario', 'my layout');
  await page.getByTestId('open-scenarios').click();
  await menu.getByTestId('undo-delete').click();
  await expect(row('my layout copy')).toBeVisible();
  await expect(menu.getByTestId('undo-delete')).toHaveCount(0);

  // Ctrl+S keeps a version; restoring it brings the text of then back.
  await menu.getByRole('button', { name: 'Close' }).click();
  await page.getByRole('heading', { name: 'Traffic', exact: true }).click();
  await page.keyboard.press('ControlOrMeta+S');
  await editTask(page, 'changed after the version');
  await page.getByTestId('open-scenarios').click();
  await row('my layout').getByRole('button', { name: '1 earlier version' }).click();
  await row('my layout').getByRole('button', { name: 'Restore' }).click();
  await expect(page.getByLabel('Task', { exact: true })).toHaveValue(EDITED_TASK);

  await page.getByTestId('open-scenarios').click();
  await menu.getByRole('button', { name: 'New blank' }).click();
  await expect(page.getByTestId('charts')).toHaveAttribute('data-scenario', 'untitled', { timeout: 30_000 });
  await expect(page.getByLabel('Task', { exact: true })).toHaveValue('Describe the task here.');
  await page.getByTestId('open-scenarios').click();
  await expect(menu.getByTestId('unsaved-open')).toContainText('a blank scenario, unchanged');
  await expect(menu.getByRole('button', { name: 'Reset this example' })).toBeDisabled();
  await row('my layout').getByRole('button', { name: 'Open' }).click();
  await expect(page.getByLabel('Task', { exact: true })).toHaveValue(EDITED_TASK);

  await page.getByTestId('open-scenarios').click();
  await menu.getByRole('button', { name: 'Reset this example' }).click();
  await expect(page.getByLabel('Task', { exact: true })).toHaveValue(exampleScenario(DEFAULT_EXAMPLE_ID).inputs.task!);
  expect((await menuNames(page)).sort()).toEqual(['my layout', 'my layout copy']);
});

test('a scenario too big for the address bar leaves it empty, still reloads, and Ctrl+S says to export', async ({
  page,
}) => {
  // Random text does not compress: its link is far past what an address bar takes.
  const noise = randomBytes(90_000).toString('base64');
  const big = ScenarioSchema.parse({
    ...exampleScenario('flat-vs-regions'),
    name: 'big-run',
    generator: undefined,
    traffic: [
      {
        type: 'assistant',
        content: '',
        tool_calls: [{ id: 'c1', name: 'read_file', arguments: { path: 'dump.txt' } }],
      },
      { type: 'tool_result', tool_call_id: 'c1', tool_name: 'read_file', content: noise },
    ],
  });
  expect(encodeScenario(big).length).toBeGreaterThan(MAX_ADDRESS_CHARS);
  await page.goto('/');
  await waitForTimeline(page);
  await page
    .getByTestId('import-file')
    .setInputFiles({ name: 'big.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(big)) });
  await expect(page.getByTestId('charts')).toHaveAttribute('data-scenario', 'big-run', { timeout: 30_000 });
  expect(new URL(page.url()).hash).toBe('');

  await page.reload();
  await expect(page.getByTestId('charts')).toHaveAttribute('data-scenario', 'big-run', { timeout: 30_000 });
  await page.getByRole('heading', { name: 'Traffic', exact: true }).click();
  await page.keyboard.press('ControlOrMeta+S');
  const notice = page.getByTestId('notice-info').filter({ hasText: 'No link was copied' });
  await expect(notice).toContainText(`Saved "big-run" in Scenarios. No link was copied: its link would be`);
  await expect(notice).toContainText(`more than an address bar takes (${MAX_ADDRESS_CHARS.toLocaleString('en-US')})`);
  await expect(notice.getByRole('button', { name: 'Export' })).toBeVisible();
  expect(new URL(page.url()).hash).toBe('');
});
