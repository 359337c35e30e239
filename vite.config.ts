/// <reference types="vitest/config" />
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

// index.html carries the strict CSP the built app ships with. The dev server injects an inline
// React-refresh preamble, so only in `vite` (serve) is script-src relaxed for it. Its HMR websocket
// needs nothing: it connects to the page's own host and port, which connect-src 'self' already
// allows (CSP Level 3 matches ws:/wss: on the same host and port as 'self').
function relaxCspForDevServer(): Plugin {
  return {
    name: 'leviath-relax-csp-for-dev',
    apply: 'serve',
    transformIndexHtml(html) {
      return html.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'");
    },
  };
}

export default defineConfig({
  plugins: [react(), relaxCspForDevServer()],
  worker: { format: 'es' },
  build: { chunkSizeWarningLimit: 4000 },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    setupFiles: ['test/load-encodings.ts'],
    environment: 'node',
    testTimeout: 30_000,
  },
});
