// Inputs the page reads are held to the limits lev holds them to (src/engine/limits.ts): an absurd
// link is refused or handled without freezing the tab, what Export writes Import reads back, a
// file in another encoding is named as such, and Copy as Markdown keeps a name to its text.
import { expect, test, type Page } from '@playwright/test';
import { readFileSync, writeFileSync } from 'node:fs';
import { deflateSync } from 'fflate';
import { marked } from 'marked';
import { DEFAULT_EXAMPLE_ID } from '../src/scenarios/examples.ts';
import { MAX_AGENT_FILES, MAX_REGIONS, MAX_SCENARIO_BYTES } from '../src/engine/index.ts';
import { encodeScenario } from '../src/share/index.ts';
import {
  engineTimeline,
  exampleScenario,
  fmt,
  goToStep,
  longTaskEntries,
  recordLongTasks,
  resetLongTasks,
  waitForTimeline,
} from './helpers.ts';

const example = exampleScenario(DEFAULT_EXAMPLE_ID);

/** A share link holding `value` as its scenario, made as encodeScenario makes one but without its schema check. */
const linkOf = (value: unknown) =>
  `#s=1.${Buffer.from(deflateSync(new TextEncoder().encode(JSON.stringify(value)), { level: 9 })).toString('base64url')}`;

/**
 * The bound on one main-thread task while the page takes an absurd input: what the issue measured
 * was 3.6 s to 9 s; on the shared 2-core machine these run at 260-770 ms, and up to 1.3 s when the
 * whole suite loads it (load average 20), where other specs' large inputs take 2.2-3.5 s.
 */
const LONGEST_MS = 2_000;

/** The longest task on the page's thread since the last reset. */
async function longest(page: Page): Promise<number> {
  return Math.max(0, ...(await longTaskEntries(page)).map((t) => t.ms));
}

/** The blueprint of `count` regions: the task pinned, then sliding windows small enough for all to fit the window. */
const regions = (count: number) =>
  `[context.regions]\ntask = { kind = "pinned", seed = "task_input" }\n${Array.from({ length: count - 1 }, (_, i) => `r${i + 1} = { kind = "sliding_window", max_tokens = 300, max_items = 3 }`).join('\n')}\n`;

test('a link holding 10,000 agent files is refused with the count and the limit, and the tab stays responsive', async ({
  page,
}) => {
  await recordLongTasks(page);
  const agent = Object.fromEntries([
    ['agent.leviath', example.agent['agent.leviath']],
    ...Array.from({ length: 9_999 }, (_, i) => [`context_hooks/h${i}.rhai`, 'fn render(ctx) { "" }']),
  ]);
  await page.goto(`/${linkOf({ ...example, agent })}`);
  const notice = page.getByTestId('notice-error');
  await expect(notice).toContainText(
    `agent: 10,000 files; an agent directory holds at most ${MAX_AGENT_FILES} (agent.leviath and the scripts it names)`,
  );
  await expect(notice).toContainText('Your own work is unchanged');
  await waitForTimeline(page);
  // The example it fell back to, with its own tabs: none of the link's 10,000 files.
  await expect(page.getByRole('tab', { name: 'agent.leviath' })).toBeVisible();
  expect(
    await page
      .getByRole('tab')
      .filter({ hasText: /^h\d+\.rhai$/ })
      .count(),
  ).toBe(0);
  const worst = await longest(page);
  console.log(`10,000 agent files: longest task ${Math.round(worst)} ms`);
  expect(worst).toBeLessThan(LONGEST_MS);
});

test('a link whose blueprint has 10,000 regions says so at region 201 and draws nothing of them', async ({ page }) => {
  await recordLongTasks(page);
  await page.goto(`/${linkOf({ ...example, agent: { 'agent.leviath': regions(10_000) } })}`);
  const problems = page.getByTestId('diagnostics');
  await expect(problems).toContainText(`A blueprint declares at most ${MAX_REGIONS} regions`, { timeout: 30_000 });
  await expect(problems).toContainText('`r200` is region 201');
  // The page answers input while it holds the link.
  const theme = await page.locator('html').getAttribute('data-theme');
  await page.getByRole('button', { name: 'Toggle dark mode' }).click();
  await expect(page.locator('html')).not.toHaveAttribute('data-theme', theme!);
  const worst = await longest(page);
  console.log(`10,000 regions: longest task ${Math.round(worst)} ms`);
  expect(worst).toBeLessThan(LONGEST_MS);
});

// On the shared 2-core machine (load 10-12) a 3-region blueprint showed 450 ms and scrubbed 530 ms
// at worst, 200 regions 400-630 ms and 230-270 ms: the regions are not what makes the long tasks.
test(`a blueprint of ${MAX_REGIONS} regions, the most allowed, draws and scrubs without freezing`, async ({ page }) => {
  await recordLongTasks(page);
  const traffic = Array.from({ length: 60 }, (_, i) => [
    { type: 'user' as const, content: `question ${i}` },
    { type: 'assistant' as const, content: `answer ${i}` },
  ]).flat();
  const scenario = { ...example, generator: undefined, traffic, agent: { 'agent.leviath': regions(MAX_REGIONS) } };
  await page.goto(`/${encodeScenario(scenario)}`);
  await waitForTimeline(page, traffic.length);
  const loaded = await longest(page);
  await resetLongTasks(page);
  for (const step of [10, 60, 119]) await goToStep(page, step, traffic.length);
  const scrubbed = await longest(page);
  console.log(
    `${MAX_REGIONS} regions: longest task ${Math.round(loaded)} ms to show, ${Math.round(scrubbed)} ms scrubbing`,
  );
  expect(loaded).toBeLessThan(LONGEST_MS);
  expect(scrubbed).toBeLessThan(LONGEST_MS);
});

/** An Anthropic Messages body of about `bytes`: a task, then read_file calls each answered by a ~8 KB file. */
function anthropicRun(bytes: number): { body: string; calls: number } {
  const file = "pub fn parse(line: &str) -> Option<(&str, &str)> { line.split_once(':') }\n".repeat(110);
  // The first user text becomes the scenario's task; every other message is an event.
  const messages: unknown[] = [{ role: 'user', content: 'Fix the header parser.' }];
  let calls = 0;
  let size = 0;
  while (size < bytes) {
    calls++;
    messages.push(
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: `toolu_${calls}`, name: 'read_file', input: { path: `src/f${calls}.rs` } }],
      },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: `toolu_${calls}`, content: `${file}// ${calls}\n` }],
      },
    );
    size += file.length + 200;
  }
  messages.push({ role: 'assistant', content: 'Done.' });
  return { body: JSON.stringify({ model: 'claude-sonnet-4-20250514', max_tokens: 1024, messages }), calls };
}

test('a 10 MB imported run exports to a file that Import opens again', async ({ page }, info) => {
  test.setTimeout(240_000);
  const { body, calls } = anthropicRun(10_500_000);
  await page.goto('/');
  await waitForTimeline(page);
  // From a file on disk, as a person picks it: Playwright then hands the page the path, not 10 MB
  // sent over its connection to the browser.
  const file = info.outputPath('big-run.json');
  writeFileSync(file, body);
  await page.getByTestId('import-file').setInputFiles(file);
  const dialog = page.getByTestId('trace-import');
  await expect(dialog.getByTestId('import-report')).toContainText(
    `imported an anthropic trace: ${fmt(calls * 2 + 1)} events`,
    { timeout: 120_000 },
  );
  await dialog.getByTestId('import-open').click();
  await waitForTimeline(page, calls * 2 + 1);

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  const path = info.outputPath('big-run-exported.json');
  await (await download).saveAs(path);
  const written = readFileSync(path);
  // The case: more than 10 MB, which Import used to refuse ("up to 5 MB").
  expect(written.length).toBeGreaterThan(10_000_000);
  expect(written.length).toBeLessThanOrEqual(MAX_SCENARIO_BYTES);

  await page.getByTestId('import-file').setInputFiles(path);
  await expect(page.getByTestId('notice-info').filter({ hasText: 'Imported big-run-exported.json' })).toBeVisible({
    timeout: 60_000,
  });
  await waitForTimeline(page, calls * 2 + 1);
  // The library already holds the first import as "big-run", so the file opens as a new entry, numbered.
  await expect(page.getByTestId('charts')).toHaveAttribute('data-scenario', 'big-run (2)');
});

test('a scenario saved as UTF-16 (as Windows PowerShell writes files) is named as such, with what to do', async ({
  page,
}) => {
  await page.goto('/');
  await waitForTimeline(page);
  const text = JSON.stringify(exampleScenario('flat-vs-regions'));
  await page.getByTestId('import-file').setInputFiles({
    name: 'saved.json',
    mimeType: 'application/json',
    buffer: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]),
  });
  await expect(page.getByTestId('import-error')).toHaveText(
    'saved.json is UTF-16 (little-endian) text, not UTF-8 (it starts with the byte-order mark FF FE). ' +
      'The playground reads UTF-8 only: open it in a text editor, save it with the encoding UTF-8 (often under Save As or Save with Encoding), and import it again. Nothing was changed.',
  );
  await expect(page.getByTestId('charts')).toHaveAttribute('data-scenario', example.name);
});

test("Copy as Markdown keeps a shared scenario's hostile name to the text of its one link", async ({ page }) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  // The case: a name that closes the link text, adds a remote image and opens another link.
  const name = 'notes](https://evil.example) ![pixel](https://evil.example/p.png) [more';
  const shared = { ...example, name };
  await page.goto(`/${encodeScenario(shared)}`);
  await waitForTimeline(page, engineTimeline(shared).steps.length);
  await expect(page.getByTestId('charts')).toHaveAttribute('data-scenario', name);
  await page.getByTestId('open-share').click();
  await expect(page.getByTestId('share-url')).not.toHaveValue('');
  const url = await page.getByTestId('share-url').inputValue();
  await page.getByTestId('copy-markdown').click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toContain('Cache prefix');
  const markdown = await page.evaluate(() => navigator.clipboard.readText());
  const html = marked.parse(markdown, { async: false });
  const links = [...html.matchAll(/<a href="([^"]*)">/g)].map((m) => m[1]);
  expect(links).toEqual([url.replace(/&/g, '&amp;')]);
  expect(html).not.toContain('<img');
  expect(html.split('\n')[0]).toContain('>notes](https://evil.example) ![pixel](https://evil.example/p.png) [more</a>');
});
