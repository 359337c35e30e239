// Each example at its lesson, as a visitor lands on it (`#example/<id>`), at 1440×900, for the
// README and docs/guide.md: `npx tsx scripts/screenshots.ts` after `npm run build`. It serves the
// build with `vite preview` on PREVIEW_PORT (4173 unless set), drives Debian's Chromium with the
// flags playwright.config.ts gives it, and writes docs/screenshots/lessons/<id>.jpg (JPEG at quality 50, so the
// committed pictures stay small). `SCREENSHOTS_ONLY=cascade,brain-custom` takes only those examples.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { EXAMPLES } from '../src/scenarios/examples.ts';

const port = Number(process.env.PREVIEW_PORT ?? 4173);
const base = `http://localhost:${port}`;
const OUT = 'docs/screenshots/lessons';
/** The flags playwright.config.ts launches Chromium with. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

async function serverUp(): Promise<boolean> {
  try {
    return (await fetch(base)).ok;
  } catch {
    return false;
  }
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  // A preview already serving the port is used as it is; otherwise one is started and stopped here.
  const server = (await serverUp())
    ? null
    : spawn('npx', ['vite', 'preview', '--port', String(port), '--strictPort'], { stdio: 'ignore' });
  try {
    for (let waited = 0; !(await serverUp()); waited += 250) {
      if (waited > 60_000)
        throw new Error(`vite preview did not answer on ${base} within 60 s (run npm run build first)`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: 'light' });
      const only = process.env.SCREENSHOTS_ONLY?.split(',');
      for (const example of EXAMPLES.filter((e) => !only || only.includes(e.id))) {
        // A fresh page per example: the address is the lesson's, and nothing of the last one stays.
        await page.goto('about:blank');
        await page.goto(`${base}/#example/${example.id}`);
        const charts = page.getByTestId('charts');
        await charts
          .and(page.locator(`[data-scenario="${example.id}"][data-ready="yes"]`))
          .waitFor({ timeout: 60_000 });
        await page.getByTestId('lesson').waitFor();
        // The landing step (never the first: test/state/lesson.test.ts) is inspected once the replay
        // answers; wait until the inspector shows the step the slider is on.
        await page.waitForFunction(
          () => {
            const shown = document.querySelector('[data-testid="step-label"] b')?.textContent;
            const inspected = document.querySelector('[data-testid="inspector"]')?.getAttribute('data-step');
            return shown !== '1' && inspected != null && shown === String(Number(inspected) + 1);
          },
          undefined,
          { timeout: 60_000 },
        );
        await page.mouse.move(0, 0);
        await page.waitForTimeout(300);
        const path = `${OUT}/${example.id}.jpg`;
        await page.screenshot({ path, type: 'jpeg', quality: 50 });
        console.log(`${path}: ${example.title}`);
      }
    } finally {
      await browser.close();
    }
  } finally {
    server?.kill();
  }
}

await main();
