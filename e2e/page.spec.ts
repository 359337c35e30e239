// The page's first load against the built app: what a cold load fetches before the charts show
// (no Monaco, one tokenizer encoding, nothing twice), and the page probe `npm run bench` reads
// (PAGE_PROBE=1; slow, so skipped otherwise): every chunk's size, the time to charts beside the
// time the same browser takes to fetch and parse those files, the longest main-thread task per
// phase, the token view of a 100 KB tool result opened and paged, and the main thread's heap after
// a 20,000-step run. The probe writes
// test-results/page-probe.json; bench/page.ts turns it into rows.
import { readdirSync, readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { gzipSync } from 'node:zlib';
import { expect, test, type Browser, type Page, type Request } from '@playwright/test';
import { DEFAULT_EXAMPLE_ID, EXAMPLES } from '../src/scenarios/examples.ts';
import { encodeScenario } from '../src/share/index.ts';
import { chunkName, ENCODING_CHUNK, FIRST_LOAD_GOAL_BYTES, type Chunk } from '../bench/page.ts';
import {
  bigToolResultScenario,
  engineDetail,
  engineTimeline,
  exampleScenario,
  goToStep,
  longTaskEntries,
  longTasks,
  recordLongTasks,
  resetLongTasks,
  waitForTimeline,
} from './helpers.ts';

const ASSETS = 'dist/assets';
const PROBE_STEPS = 20_000;

/** Every JS and CSS file and encoding (`.bin`, gzipped already) in dist/assets with its size raw and gzipped (vite preview serves them uncompressed). */
function chunks(): Chunk[] {
  return readdirSync(ASSETS)
    .filter((f) => /\.(js|css|bin)$/.test(f))
    .map((file) => {
      const bytes = readFileSync(`${ASSETS}/${file}`);
      return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
    });
}

interface ColdLoad {
  /** dist/assets files whose request started (page and workers) before the charts were drawn, in order, repeats kept. */
  fetched: string[];
  /** performance.now() on the page when the charts were drawn ready (navigation starts at 0). */
  chartsMs: number;
  /** Main-thread tasks over 50 ms (milliseconds each) from navigation until the charts are drawn. */
  tasksBeforeCharts: number[];
  /** ... and from then until the editor is up (Monaco arriving and mounting). */
  tasksAfterCharts: number[];
}

/**
 * Waits for `selector` with a cheap check in the page. expect() polling is Playwright's own work on
 * the page's thread: when a check fails it takes an aria snapshot of the whole page, a 70-170 ms
 * task that the phase would count as the page's.
 */
async function waitForSelectorQuietly(page: Page, selector: string): Promise<void> {
  await page.waitForFunction((s) => document.querySelector(s) !== null, selector, { timeout: 30_000 });
}

/** Waits, as cheaply, for the element at `selector` to contain `text`. */
async function waitForTextQuietly(page: Page, selector: string, text: string): Promise<void> {
  await page.waitForFunction(
    ({ s, t }) => document.querySelector(s)?.textContent?.includes(t) === true,
    { s: selector, t: text },
    { timeout: 30_000 },
  );
}

/**
 * A load of the page in a fresh context (an empty HTTP cache), recording what it fetched until the
 * charts were drawn: the moment `data-ready=yes` reaches the DOM, compared with each request's
 * start on the same wall clock (what the page fetches in reaction to the charts comes after).
 */
async function coldLoad(browser: Browser, after?: (page: Page) => Promise<void>): Promise<ColdLoad> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const requests: Request[] = [];
  page.on('request', (request) => {
    requests.push(request);
  });
  await recordLongTasks(page);
  await page.addInitScript(() => {
    const w = window as unknown as { __charts?: { ms: number; epochMs: number } };
    const observer = new MutationObserver(() => {
      if (w.__charts || !document.querySelector('[data-testid=charts][data-ready=yes]')) return;
      w.__charts = { ms: performance.now(), epochMs: performance.timeOrigin + performance.now() };
      observer.disconnect();
    });
    observer.observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-ready'] });
  });
  await page.goto('/');
  await waitForSelectorQuietly(page, '[data-testid=charts][data-ready=yes]');
  await waitForSelectorQuietly(page, '[data-testid=editor] .monaco-editor');
  await page.waitForTimeout(500);
  const charts = await page.evaluate(
    () => (window as unknown as { __charts: { ms: number; epochMs: number } }).__charts,
  );
  const tasks = await longTaskEntries(page);
  // When the first replay is slower than the editor's fallback (EditorPanel's EDITOR_AT_LATEST_MS,
  // 5 s after the page mounts, so never before 5 s after navigation), the page fetches Monaco by
  // design before the charts: what starts after that moment is the editor's, not the first load's.
  const editorFallbackEpochMs = charts.epochMs - charts.ms + 5_000;
  const cutoff = Math.min(charts.epochMs, editorFallbackEpochMs);
  const fetched = requests
    .filter((r) => new URL(r.url()).pathname.startsWith('/assets/') && r.timing().startTime <= cutoff)
    .map((r) => new URL(r.url()).pathname.slice('/assets/'.length));
  const load = {
    fetched,
    chartsMs: charts.ms,
    tasksBeforeCharts: tasks.filter((t) => t.start < charts.ms).map((t) => Math.round(t.ms)),
    tasksAfterCharts: tasks.filter((t) => t.start >= charts.ms).map((t) => Math.round(t.ms)),
  };
  await after?.(page);
  await context.close();
  return load;
}

/** The time a fresh context takes to fetch and parse (modulepreload, not run; an encoding's `.bin` is fetched) the given files on a blank page of the same origin. */
async function fetchAndParseMs(browser: Browser, files: string[]): Promise<number> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('/robots.txt');
  const ms = await page.evaluate(
    async (paths) => {
      const started = performance.now();
      await Promise.all(
        paths.map((path) =>
          path.endsWith('.bin')
            ? fetch(`/assets/${path}`).then((r) => r.arrayBuffer())
            : new Promise((resolve, reject) => {
                const link = document.createElement('link');
                link.rel = path.endsWith('.css') ? 'stylesheet' : 'modulepreload';
                link.href = `/assets/${path}`;
                link.onload = resolve;
                link.onerror = reject;
                document.head.append(link);
              }),
        ),
      );
      return performance.now() - started;
    },
    [...new Set(files)],
  );
  await context.close();
  return ms;
}

const gzipOf = (all: Chunk[], files: string[]) =>
  files.reduce((sum, f) => sum + all.find((c) => c.file === f)!.gzip, 0);

test('a cold load fetches no Monaco, no Rhai interpreter, one encoding, nothing twice, and at most 1.0 MB gzip of code and encoding before the charts show', async ({
  browser,
}) => {
  const { fetched } = await coldLoad(browser);
  const names = fetched.map(chunkName);
  expect(names).toContain('engine.worker.js');
  expect(names.filter((n) => /^(CodeEditor|editor\.worker)/.test(n))).toEqual([]);
  // The default example has no custom region and no rhai seed: the interpreter's chunks stay unfetched.
  expect(names.filter((n) => /^(custom-script|rhai)\./.test(n))).toEqual([]);
  expect(fetched.filter((f) => ENCODING_CHUNK.test(f)).map(chunkName)).toEqual(['o200k_base.bin']);
  expect(fetched.filter((f, i) => fetched.indexOf(f) !== i)).toEqual([]);
  expect(
    gzipOf(
      chunks(),
      fetched.filter((f) => /\.(js|css|bin)$/.test(f)),
    ),
  ).toBeLessThanOrEqual(FIRST_LOAD_GOAL_BYTES);
});

/** The largest example by the size of its timeline (what the page replays longest). */
function largestExample(): { id: string; steps: number } {
  const sized = EXAMPLES.map((e) => {
    const timeline = engineTimeline(exampleScenario(e.id));
    return { id: e.id, steps: timeline.steps.length, size: JSON.stringify(timeline).length };
  });
  return sized.sort((a, b) => b.size - a.size)[0]!;
}

/** The longest task over 50 ms while `act` runs (0 when there was none). */
async function longestTaskDuring(page: Page, act: () => Promise<void>): Promise<number> {
  await resetLongTasks(page);
  await act();
  await page.waitForTimeout(500);
  return Math.round(Math.max(0, ...(await longTasks(page))));
}

async function phases(page: Page, largest: { id: string; steps: number }) {
  const replay = await longestTaskDuring(page, async () => {
    await page.getByTestId('open-examples').click();
    await page
      .getByTestId('examples')
      .locator(`[data-example="${largest.id}"]`)
      .getByRole('button', { name: 'Open' })
      .click();
    await waitForSelectorQuietly(page, `[data-testid=charts][data-ready=yes][data-steps="${largest.steps}"]`);
  });
  // The example opens at its lesson, perhaps on another view: the slider and markers measured are the Window view's.
  await page.getByTestId('view-window').click();
  await waitForSelectorQuietly(page, '[data-testid=marker-lane] .marker');
  const scrub = await longestTaskDuring(page, async () => {
    const box = (await page.getByTestId('scrubber').boundingBox())!;
    await page.mouse.move(box.x + 2, box.y + box.height / 2);
    await page.mouse.down();
    for (let k = 0; k <= 40; k++)
      await page.mouse.move(box.x + 2 + ((box.width - 4) * k) / 40, box.y + box.height / 2, { steps: 2 });
    await page.mouse.up();
  });
  const inspect = await longestTaskDuring(page, async () => {
    const marker = page.getByTestId('marker-lane').locator('.marker').nth(1);
    const step = await marker.getAttribute('data-step');
    await marker.click();
    await waitForSelectorQuietly(page, `[data-testid=inspector][data-step="${step}"]`);
  });
  return { replay, scrub, inspect };
}

/**
 * The token view of a 100 KB tool result (e2e/tokens.spec.ts's case) in a fresh page: the longest
 * task over 50 ms (0 when none) from the click that opens it until its first 1,000 pieces are drawn,
 * then paging to the next 1,000. The editor is up and the page idle before the click.
 */
async function tokenViewLongest(browser: Browser): Promise<number> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await recordLongTasks(page);
  const scenario = bigToolResultScenario();
  const steps = engineTimeline(scenario).steps.length;
  await page.goto(`/${encodeScenario(scenario)}`);
  await waitForTimeline(page, steps);
  await goToStep(page, steps - 1, steps);
  const messages = engineDetail(scenario, steps - 1).request.messages;
  const longest = messages.reduce((a, b) => (b.content.length > a.content.length ? b : a));
  const message = page.getByTestId('message').nth(messages.indexOf(longest));
  await message.getByTestId('token-toggle').scrollIntoViewIfNeeded();
  await waitForSelectorQuietly(page, '[data-testid=editor] .monaco-editor');
  await page.waitForTimeout(1000);
  const ms = await longestTaskDuring(page, async () => {
    await message.getByTestId('token-toggle').click();
    await waitForTextQuietly(page, '[data-testid=token-pager]', 'Showing pieces 1–1,000 of');
    await message.getByTestId('token-view').getByRole('button', { name: 'Next' }).click();
    await waitForTextQuietly(page, '[data-testid=token-pager]', 'Showing pieces 1,001–2,000 of');
  });
  await context.close();
  return ms;
}

/** The main thread's JS heap after garbage collection, in bytes (CDP; the workers' heaps are their own). */
async function mainHeapBytes(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  await cdp.detach();
  return usedSize;
}

/** The default example generating PROBE_STEPS events, replayed; then the main heap. */
async function heapAfterLongRun(page: Page): Promise<{ steps: number; heapBytes: number }> {
  await page.getByTestId('open-examples').click();
  await page
    .getByTestId('examples')
    .locator(`[data-example="${DEFAULT_EXAMPLE_ID}"]`)
    .getByRole('button', { name: 'Open' })
    .click();
  await waitForTimeline(page);
  await page.getByLabel('Events', { exact: true }).fill(String(PROBE_STEPS));
  // A slow replay earlier in the session may have turned auto-run off.
  if (!(await page.getByTestId('auto-run').isChecked())) await page.getByTestId('run').click();
  const charts = page.getByTestId('charts');
  await expect(charts).toHaveAttribute('data-steps', /^\d{5,}$/, { timeout: 120_000 });
  await expect(charts).toHaveAttribute('data-ready', 'yes', { timeout: 120_000 });
  const steps = Number(await charts.getAttribute('data-steps'));
  return { steps, heapBytes: await mainHeapBytes(page) };
}

test('page probe (written for bench)', async ({ browser }) => {
  test.skip(!process.env.PAGE_PROBE, 'bench only: PAGE_PROBE=1 npx playwright test e2e/page.spec.ts -g probe');
  test.setTimeout(600_000);
  const largest = largestExample();
  const rounds = [];
  let measured:
    | {
        phases: Awaited<ReturnType<typeof phases>>;
        heap: Awaited<ReturnType<typeof heapAfterLongRun>> & { heapAtLoad: number };
      }
    | undefined;
  // Cold loads and blank-page fetches alternate, so a busy moment slows both alike.
  for (let round = 0; round < 3; round++) {
    const load = await coldLoad(
      browser,
      round > 0
        ? undefined
        : async (page) => {
            const heapAtLoad = await mainHeapBytes(page);
            measured = { phases: await phases(page, largest), heap: { ...(await heapAfterLongRun(page)), heapAtLoad } };
          },
    );
    rounds.push({ ...load, fetchAndParseMs: await fetchAndParseMs(browser, load.fetched), loadAverage: loadavg()[0] });
  }
  const tokenView = { longest: [] as number[], loadAverage: [] as number[] };
  for (let open = 0; open < 3; open++) {
    tokenView.longest.push(await tokenViewLongest(browser));
    tokenView.loadAverage.push(loadavg()[0]!);
  }
  mkdirSync('test-results', { recursive: true });
  writeFileSync(
    'test-results/page-probe.json',
    `${JSON.stringify(
      {
        measured: new Date().toISOString(),
        chunks: chunks(),
        rounds,
        example: largest,
        tokenView,
        ...measured,
      },
      null,
      2,
    )}\n`,
  );
});
