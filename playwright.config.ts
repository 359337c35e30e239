import { defineConfig } from '@playwright/test';

// PREVIEW_PORT lets several checkouts run their e2e suites side by side.
const port = Number(process.env.PREVIEW_PORT ?? 4173);

// Debian's Chromium: Playwright cannot download its own browsers on these machines.
export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  workers: 2,
  // Tests, not files, are handed to the workers: a long file (polish, persistence: 3-5 minutes)
  // would otherwise keep one worker busy at the end while the other has nothing left. No test
  // depends on another's state: each has its own browser context.
  fullyParallel: true,
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${port}`,
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: `npx vite preview --port ${port} --strictPort`,
    url: `http://localhost:${port}`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
});
