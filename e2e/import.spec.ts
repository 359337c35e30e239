// Bringing a real run: drop a trace on the page, see its timeline; copy the request as an API body.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { importTrace } from '../src/import/index.ts';
import { bigSession } from '../test/import/big-session.ts';
import { anthropicBody } from '../src/export/index.ts';
import { resolveModel } from '../src/engine/index.ts';
import { DEFAULT_EXAMPLE_ID } from '../src/scenarios/examples.ts';
import {
  engineDetail,
  engineTimeline,
  exampleScenario,
  fmt,
  goToStep,
  waitForTimeline,
  watchErrors,
} from './helpers.ts';

const FIXTURE = 'claude-code-session.jsonl';
const trace = readFileSync(new URL(`../test/import/fixtures/${FIXTURE}`, import.meta.url), 'utf8');

/** What the page should show: the trace imported through the blueprint in the editor (the default example's). */
function expected() {
  return importTrace(trace, { agent: exampleScenario(DEFAULT_EXAMPLE_ID).agent, name: 'claude-code-session' }).scenario;
}

async function drop(page: Page, name: string, text: string): Promise<void> {
  const transfer = await page.evaluateHandle(
    ({ name, text }) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], name, { type: 'application/x-ndjson' }));
      return dt;
    },
    { name, text },
  );
  await page.dispatchEvent('body', 'dragover', { dataTransfer: transfer });
  await expect(page.getByTestId('drop-overlay')).toBeVisible();
  await page.dispatchEvent('body', 'drop', { dataTransfer: transfer });
}

test('a dropped Claude Code session opens as its own timeline, with the report and the tool-name table', async ({
  page,
}) => {
  const errors = watchErrors(page);
  await page.goto('/');
  await waitForTimeline(page);
  await drop(page, FIXTURE, trace);
  const dialog = page.getByTestId('trace-import');
  await expect(dialog.getByTestId('import-report')).toContainText(
    'imported a claude-code trace: 15 events (7 inferences, 7 tool results, 1 user messages)',
  );
  // The thinking block is the reply's reasoning now; only the sidechain lines are left out.
  await expect(dialog.getByTestId('import-report').locator('li', { hasText: 'skipped' })).toHaveText(
    'skipped (the scenario format cannot hold them yet): 2 sidechain message',
  );
  await expect(dialog.getByTestId('tool-map').locator('tbody tr')).toHaveCount(5);
  await expect(dialog.getByLabel('blueprint name for Read')).toHaveValue('read_file');
  await dialog.getByTestId('import-open').click();

  const scenario = expected();
  const timeline = engineTimeline(scenario);
  await expect(page.getByTestId('charts')).toHaveAttribute('data-scenario', 'claude-code-session');
  await waitForTimeline(page, timeline.steps.length);
  expect(timeline.steps.length).toBe(15);
  // The last step's request, as the engine in Node computes it.
  await page.keyboard.press('End');
  await expect(page.getByTestId('inspector')).toHaveAttribute('data-step', '14');
  await expect(page.getByTestId('request-tokens')).toHaveText(fmt(engineDetail(scenario, 14).request.tokens));
  expect(errors).toEqual([]);
});

test('the tool-name table changes the names the run replays with', async ({ page }) => {
  await page.goto('/');
  await waitForTimeline(page);
  await page
    .getByTestId('import-file')
    .setInputFiles({ name: FIXTURE, mimeType: 'application/x-ndjson', buffer: Buffer.from(trace) });
  const dialog = page.getByTestId('trace-import');
  await dialog.getByLabel('blueprint name for Task').fill('delegate');
  await dialog.getByTestId('import-apply').click();
  await expect(dialog.getByTestId('import-report')).toContainText('Task -> delegate');
});

test('a broken trace says where and imports nothing', async ({ page }) => {
  await page.goto('/');
  await waitForTimeline(page);
  const lines = trace.split('\n');
  lines[6] = lines[6]!.slice(0, 50);
  await drop(page, 'broken.jsonl', lines.join('\n'));
  await expect(page.getByTestId('import-error')).toContainText(
    'broken.jsonl: line 7, (top level): not valid JSON at column 51',
  );
  await expect(page.getByTestId('import-error')).toContainText('Nothing was changed.');
});

test('a file that is not valid UTF-8 imports with a warning that names the byte offset', async ({ page }) => {
  await page.goto('/');
  await waitForTimeline(page);
  const bytes = Buffer.from(trace);
  const at = bytes.indexOf('Plan approved');
  const latin1 = Buffer.concat([bytes.subarray(0, at), Buffer.from([0xe9]), bytes.subarray(at)]);
  await page
    .getByTestId('import-file')
    .setInputFiles({ name: 'latin1.jsonl', mimeType: 'application/x-ndjson', buffer: latin1 });
  const report = page.getByTestId('trace-import').getByTestId('import-report');
  await expect(report.locator('li').first()).toHaveText(
    `warning: not valid UTF-8 at byte ${at} (the first bad sequence, counted from 0): bad bytes were read as U+FFFD, so that text differs from the original; save the trace as UTF-8 to import it exactly`,
  );
  await expect(report).toContainText('imported a claude-code trace: 15 events');
});

test('a scenario file that is not valid UTF-8 opens with a warning that names the byte offset', async ({ page }) => {
  await page.goto('/');
  await waitForTimeline(page);
  const text = JSON.stringify({
    ...exampleScenario('flat-vs-regions'),
    name: 'latin1-scenario',
    description: 'caf@ notes',
  });
  const at = Buffer.byteLength(text.slice(0, text.indexOf('@')));
  const [before, after] = text.split('@') as [string, string];
  const latin1 = Buffer.concat([Buffer.from(before), Buffer.from([0xe9]), Buffer.from(after)]);
  await page
    .getByTestId('import-file')
    .setInputFiles({ name: 'latin1.json', mimeType: 'application/json', buffer: latin1 });
  await expect(page.getByTestId('charts')).toHaveAttribute('data-scenario', 'latin1-scenario', { timeout: 30_000 });
  await expect(page.getByTestId('notice-error').filter({ hasText: 'latin1.json' })).toContainText(
    `latin1.json is not valid UTF-8 from byte ${fmt(at)} (0-based)`,
  );
});

test('the request at the inspected step copies as an Anthropic body', async ({ page }) => {
  const scenario = exampleScenario(DEFAULT_EXAMPLE_ID);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/');
  await waitForTimeline(page);
  const step = Number(await page.getByTestId('inspector').getAttribute('data-step'));
  await page.getByTestId('copy-anthropic').click();
  await expect(page.getByTestId('notice-info').filter({ hasText: 'Copied the Anthropic body.' })).toBeVisible();
  const copied = JSON.parse(await page.evaluate(() => navigator.clipboard.readText()));
  const model = resolveModel(scenario.model);
  if (!model.ok) throw new Error(model.error);
  expect(copied).toEqual(anthropicBody(engineDetail(scenario, step).request, model.model));
});

test('a shape-only link of an imported run opens with the same charts and none of its text', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000); // two pages, each replaying the run
  await page.goto('/');
  await waitForTimeline(page);
  await drop(page, FIXTURE, trace);
  await page.getByTestId('trace-import').getByTestId('import-open').click();
  const scenario = expected();
  const steps = engineTimeline(scenario).steps.length;
  await waitForTimeline(page, steps);

  await page.getByTestId('open-share').click();
  await expect(page.getByTestId('link-option-shape-only')).toBeChecked();
  await expect(page.getByTestId('share-length')).not.toHaveText('Updating the link…');
  const url = await page.getByTestId('share-url').inputValue();
  expect(url.length).toBeLessThan(2_000);

  const other = await browser.newPage();
  await other.goto(url);
  await waitForTimeline(other, steps);
  await goToStep(other, steps - 1, steps);
  await expect(other.getByTestId('request-tokens')).toHaveText(fmt(engineDetail(scenario, steps - 1).request.tokens));
  const text = await other.locator('body').innerText();
  for (const secret of ['header parser rejects', 'EmptyValue', 'Plan approved', 'cargo test'])
    expect(text).not.toContain(secret);
  expect(text).toContain('read_file');
  await other.close();
});

test('a 50 MB session is read in the worker with progress, and the page keeps drawing frames', async ({ page }) => {
  test.setTimeout(180_000);
  const { text, turns } = bigSession(50_000_000);
  const path = join(mkdtempSync(join(tmpdir(), 'lev-e2e-import-')), 'big-session.jsonl');
  writeFileSync(path, text);
  await page.goto('/');
  await waitForTimeline(page);
  // Playwright's own transfer of the file into the page is not the import: watch from here.
  await page.getByTestId('import-file').setInputFiles(path);
  // The longest gap between two animation frames while the import runs: a frozen page draws none
  // (reading and converting 50 MB on the page's thread takes several seconds). The scenario comes
  // back in parts of about a megabyte: 0.09-0.13 s on a quiet machine (0.22 s as one message,
  // which a loaded CI run stretched to 1.1 s). At a load of 10-16 the parts' gap reached 1.7 s: the
  // bound is 2.5 s, under what a read on the page's thread freezes it for.
  await page.evaluate(() => {
    const w = window as unknown as { longestFrameGap: number; watching: boolean };
    w.longestFrameGap = 0;
    w.watching = true;
    let last = performance.now();
    const tick = (now: number) => {
      w.longestFrameGap = Math.max(w.longestFrameGap, now - last);
      last = now;
      if (w.watching) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  await expect(page.getByTestId('import-progress')).toBeVisible();
  const report = page.getByTestId('import-report');
  await expect(report).toContainText(
    `imported a claude-code trace: ${fmt(turns * 2)} events (${fmt(turns)} inferences, ${fmt(turns)} tool results, 0 user messages)`,
    { timeout: 120_000 },
  );
  const gap = await page.evaluate(() => {
    const w = window as unknown as { longestFrameGap: number; watching: boolean };
    const longest = w.longestFrameGap;
    w.longestFrameGap = 0;
    return longest;
  });
  console.log(`read gap ${Math.round(gap)} ms`);
  expect(gap).toBeLessThan(2_500);

  // Opening the run: its ~20,000 events are listed a page at a time, no JSON of it is written for
  // the address bar or the fingerprint, and the library never reads it back, so the page keeps
  // drawing (it froze for 20-90 s). 0.6-0.9 s on a quiet machine (it was 2.9 s, and 5.3 s on a
  // loaded CI run, before the last three); the bound leaves room for a loaded CI run.
  await page.getByTestId('import-open').click();
  // Reading 50 MB took up to 5 s on a loaded 2-core CI run; the frame gap below is what is held.
  await expect(page.getByTestId('events-pager')).toContainText(`events 1–200 of ${fmt(turns * 2)}`, {
    timeout: 15_000,
  });
  await page.waitForTimeout(8_000);
  const openGap = await page.evaluate(() => {
    const w = window as unknown as { longestFrameGap: number; watching: boolean };
    w.watching = false;
    return w.longestFrameGap;
  });
  console.log(`open gap ${Math.round(openGap)} ms`);
  expect(openGap).toBeLessThan(3_000);
  await expect(page.getByTestId('events').locator('li')).toHaveCount(200);
});

test('any file can be picked: a SWE-agent .traj imports as one inference per API call it counted', async ({ page }) => {
  const traj = readFileSync(new URL('../test/import/fixtures/real/swe-agent-function-calling.traj', import.meta.url));
  const apiCalls = (JSON.parse(traj.toString()) as { info: { model_stats: { api_calls: number } } }).info.model_stats
    .api_calls;
  await page.goto('/');
  await waitForTimeline(page);
  // The picker offers every file: nothing is greyed out by its extension.
  expect(await page.getByTestId('import-file').getAttribute('accept')).toBeNull();
  await page
    .getByTestId('import-file')
    .setInputFiles({ name: 'sweagenttestrepo-1c2844.traj', mimeType: 'application/octet-stream', buffer: traj });
  await expect(page.getByTestId('import-report')).toContainText(`imported a swe-agent trace: `);
  await expect(page.getByTestId('import-report')).toContainText(`(${apiCalls} inferences,`);
});

test("a file no format is detected in: the dialog offers the format choice, in the page's words, and imports as the one chosen", async ({
  page,
}) => {
  // A Gemini CLI chat without its session header: nothing in it says which tool wrote it.
  const chat = JSON.stringify({
    messages: [
      { type: 'user', content: 'Rename the file.' },
      { type: 'gemini', content: 'Renamed.', tokens: { input: 1200, output: 8 } },
    ],
  });
  await page.goto('/');
  await waitForTimeline(page);
  await page
    .getByTestId('import-file')
    .setInputFiles({ name: 'chat.json', mimeType: 'application/json', buffer: Buffer.from(chat) });
  const error = page.getByTestId('import-error');
  await expect(error).toContainText('matches no trace format');
  expect(await error.innerText()).not.toContain('--format');
  const choice = page.getByTestId('import-format-choice');
  await choice.getByLabel('trace format').selectOption('gemini-cli');
  await choice.getByTestId('import-as-format').click();
  await expect(page.getByTestId('import-report')).toContainText(
    'imported a gemini-cli trace: 1 events (1 inferences, 0 tool results, 0 user messages)',
  );
  await expect(page.getByTestId('import-report')).toContainText('recorded usage: 1 of 1 inferences');
});
