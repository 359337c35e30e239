// Cold loads of the built page with no inspector attached. Playwright drives Chromium through a
// DevTools session, and with one attached V8 keeps stack traces and re-parses code that a visitor's
// browser does not (react-dom's evaluation is a 60-90 ms task under Playwright, 20-40 ms without).
// So here Chromium runs headless with no debugging session at all: a small server serves dist/
// with one script added before the app's own, which records long tasks, acts out the Playwright
// probe's phases (open the largest example, scrub, inspect) with DOM events, and posts them back.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';

export interface BareLoad {
  /** performance.now() when the charts were drawn ready (navigation starts at 0). */
  chartsMs: number;
  /** Main-thread tasks over 50 ms until the charts are drawn, and from then until a second after the editor is up. */
  tasksBeforeCharts: number[];
  tasksAfterCharts: number[];
  /** Tasks over 50 ms in the phases the probe then acts out, as the Playwright probe does. */
  phases: Record<Phase, number[]>;
}

/** The example the phases open, and its timeline's length (to know when its replay is drawn). */
export interface Example {
  id: string;
  steps: number;
}

/** The phases after the load, named as the Playwright probe names them. */
export type Phase = 'replay' | 'scrub' | 'inspect';
type Task = { start: number; ms: number };
/** What the probe script posts. */
type Posted =
  { chartsMs: number; tasks: Task[]; phases: Record<Phase, { from: number; to: number }> } | { error: string };
type Results = { next: (posted: Posted) => void };

const DIST = 'dist';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const LOAD_TIMEOUT_MS = 120_000;
const WARM_UP_MS = 3_000;

/**
 * Runs in the page before the app: long tasks, when the charts and then the editor are up; then,
 * with DOM events rather than a driver, the phases of the Playwright probe: opening the example
 * (its replay), dragging the scrubber across the timeline, and opening the inspector on a change.
 */
const probeScript = (example: Example) => `(() => {
  const tasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) tasks.push({ start: e.startTime, ms: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const $ = (selector) => document.querySelector(selector);
  // Resolves in the mutation that makes test() true, so the time taken after it is exact.
  const until = (what, test) => new Promise((resolve, reject) => {
    if (test()) return resolve();
    const observer = new MutationObserver(() => {
      if (!test()) return;
      observer.disconnect();
      clearTimeout(timer);
      resolve();
    });
    const timer = setTimeout(() => { observer.disconnect(); reject(new Error('the page did not show ' + what + ' within 30 s')); }, 30000);
    observer.observe(document, { subtree: true, childList: true, attributes: true });
  });
  const timed = async (act) => {
    const from = performance.now();
    await act();
    await sleep(500);
    return { from, to: performance.now() };
  };
  const setRange = (input, value) => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(input, String(value));
    input.dispatchEvent(new Event('input', { bubbles: true }));
  };
  const post = (body) => void fetch('/__probe-result', { method: 'POST', body: JSON.stringify(body) });
  const run = async () => {
    await until('its charts', () => $('[data-testid=charts][data-ready=yes]'));
    const chartsMs = performance.now();
    await until('its editor', () => $('[data-testid=editor] .monaco-editor'));
    await sleep(1000);
    const replay = await timed(async () => {
      $('[data-testid=open-examples]').click();
      await until('the examples', () => $('[data-testid=examples] [data-example="${example.id}"]'));
      [...$('[data-testid=examples] [data-example="${example.id}"]').querySelectorAll('button')].find((b) => b.textContent.trim() === 'Open').click();
      await until('the example replayed', () => $('[data-testid=charts][data-ready=yes][data-steps="${example.steps}"]'));
    });
    // The example opens at its lesson, perhaps on another view: the markers clicked are the Window view's.
    $('[data-testid=view-window]').click();
    await until('the window chart', () => $('[data-testid=marker-lane] .marker'));
    const scrub = await timed(async () => {
      const input = $('[data-testid=scrubber]');
      for (let k = 0; k <= 40; k++) {
        setRange(input, Math.round((Number(input.max) * k) / 40));
        await sleep(16);
      }
    });
    const inspect = await timed(async () => {
      const marker = document.querySelectorAll('[data-testid=marker-lane] .marker')[1];
      const step = marker.getAttribute('data-step');
      marker.click();
      await until('the inspector at step ' + step, () => $('[data-testid=inspector][data-step="' + step + '"]'));
    });
    post({ chartsMs, tasks, phases: { replay, scrub, inspect } });
  };
  run().catch((error) => post({ error: String(error) }));
})();
`;

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.bin': 'application/octet-stream',
};

function serveDist(req: IncomingMessage, res: ServerResponse, example: Example): void {
  const path = new URL(req.url ?? '/', 'http://localhost').pathname;
  if (path === '/__warmup') {
    // The browser first settles its new profile on this page, then opens the app: its start-up
    // work would otherwise land on the load being measured.
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end(`<!doctype html><script>setTimeout(() => location.replace('/'), ${WARM_UP_MS})</script>`);
    return;
  }
  if (path === '/__probe.js') {
    res.writeHead(200, { 'content-type': 'text/javascript' }).end(probeScript(example));
    return;
  }
  const file = normalize(path === '/' ? 'index.html' : path.slice(1));
  if (file.startsWith('..')) {
    res.writeHead(404).end();
    return;
  }
  try {
    let body: Buffer | string = readFileSync(join(DIST, file));
    if (file === 'index.html')
      body = body.toString('utf8').replace('<head>', '<head><script src="/__probe.js"></script>');
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
  } catch {
    res.writeHead(404).end();
  }
}

/** One cold load (a fresh profile: no HTTP cache, no code cache) in a headless Chromium nobody inspects. */
async function loadOnce(origin: string, results: Results): Promise<BareLoad> {
  const profile = mkdtempSync(join(tmpdir(), 'lev-bare-load-'));
  const browser = spawn(
    CHROMIUM,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--user-data-dir=${profile}`,
      '--window-size=1280,800',
      `${origin}/__warmup`,
    ],
    { stdio: 'ignore', detached: true },
  );
  try {
    const posted = await new Promise<Posted>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the page did not report its load and phases within ${LOAD_TIMEOUT_MS / 1000} s`)),
        LOAD_TIMEOUT_MS,
      );
      browser.once('exit', (code) => reject(new Error(`Chromium exited (${code}) before the page reported`)));
      results.next = (load) => {
        clearTimeout(timer);
        resolve(load);
      };
    });
    if ('error' in posted) throw new Error(`the probe in the page failed: ${posted.error}`);
    const during = (from: number, to: number) =>
      posted.tasks.filter((t) => t.start >= from && t.start < to).map((t) => Math.round(t.ms));
    const { replay, scrub, inspect } = posted.phases;
    return {
      chartsMs: posted.chartsMs,
      tasksBeforeCharts: during(0, posted.chartsMs),
      tasksAfterCharts: during(posted.chartsMs, replay.from),
      phases: {
        replay: during(replay.from, replay.to),
        scrub: during(scrub.from, scrub.to),
        inspect: during(inspect.from, inspect.to),
      },
    };
  } finally {
    // Chromium and its helper processes (one process group) write to the profile until they exit.
    if (browser.exitCode === null && browser.signalCode === null) {
      const exited = new Promise((resolve) => browser.once('exit', resolve));
      process.kill(-browser.pid!, 'SIGTERM');
      await exited;
    }
    await rm(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  }
}

/** `rounds` cold loads of dist/, one after another, each acting out the phases on `example`. */
export async function bareLoads(rounds: number, example: Example): Promise<BareLoad[]> {
  const results: Results = { next: () => {} };
  const server = createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/__probe-result') {
      serveDist(req, res, example);
      return;
    }
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    req.on('end', () => {
      res.writeHead(204).end();
      results.next(JSON.parse(body) as Posted);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const loads: BareLoad[] = [];
    for (let i = 0; i < rounds; i++) loads.push(await loadOnce(origin, results));
    return loads;
  } finally {
    server.close();
  }
}
