/// <reference types="vitest/config" />
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { gzipAsync } from '@gfx/zopfli';
import { packRanks, type Ranks } from './src/engine/rank-pairs.ts';

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

// main.tsx imports the scenario's schemas, the share codec, start.ts and
// App.tsx one after the other (so each is evaluated in its own task); listing their files in
// index.html lets the browser fetch them with the entry, not after it.
const STAGED = [
  /\/src\/engine\/scenario\.ts$/,
  /\/src\/share\/index\.ts$/,
  /\/src\/start\.ts$/,
  /\/src\/ui\/App\.tsx$/,
];

function preloadStagedImports(): Plugin {
  let base = '/';
  return {
    name: 'leviath-preload-staged-imports',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle, chunk }) {
        if (!bundle || !chunk) return html;
        const files = new Set<string>();
        const add = (file: string) => {
          const found = bundle[file];
          if (found?.type !== 'chunk' || files.has(file) || file === chunk.fileName || chunk.imports.includes(file))
            return;
          files.add(file);
          found.imports.forEach(add);
        };
        for (const file of chunk.dynamicImports) {
          const found = bundle[file];
          if (found?.type === 'chunk' && STAGED.some((re) => re.test(found.facadeModuleId ?? ''))) add(file);
        }
        const links = [...files].map((file) => `<link rel="modulepreload" crossorigin href="${base}${file}">`).join('');
        return html.replace('</head>', `${links}</head>`);
      },
    },
  };
}

// Monaco in layers, lowest first: each layer imports only the layers before it, so
// src/ui/monaco/load.ts evaluates them one per task instead of ~3.5 MB in one long task.
const MONACO_LAYERS: [string, RegExp][] = [
  ['base-common', /^(nls|amdX)\.js|^base\/common\//],
  ['base-browser', /^base\//],
  ['platform', /^platform\//],
  ['editor-common', /^editor\/common\//],
  ['editor-browser', /^editor\/browser\//],
  ['contrib', /^editor\/contrib\//],
  ['standalone', /^/],
];

/** The chunk of a monaco-editor module (null for any other module). */
function monacoChunk(id: string): string | null {
  const path = /monaco-editor\/esm\/vs\/(.*)/.exec(id.replaceAll('\\', '/'))?.[1];
  if (path === undefined) return null;
  return `CodeEditor-${MONACO_LAYERS.find(([, test]) => test.test(path))![0]}`;
}

/**
 * Every Monaco chunk is preloaded (fetched, not evaluated) as the first one is imported, so the
 * layers download side by side while load.ts evaluates them one by one (fetched one after the other,
 * the editor took about 0.8 s longer to show at 80 ms latency). The plugin lists the chunks before
 * Vite's own generateBundle asks resolveDependencies.
 */
function preloadMonacoTogether(): { plugin: Plugin; resolveDependencies: (file: string, deps: string[]) => string[] } {
  let monacoFiles: string[] = [];
  const isMonaco = (file: string) => /(^|\/)CodeEditor-[^/]*\.js$/.test(file);
  return {
    plugin: {
      name: 'leviath-preload-monaco-together',
      apply: 'build',
      generateBundle: {
        order: 'pre',
        handler(_, bundle) {
          monacoFiles = Object.keys(bundle).filter(isMonaco);
        },
      },
    },
    resolveDependencies: (_, deps) => (deps.some(isMonaco) ? [...new Set([...deps, ...monacoFiles])] : deps),
  };
}
const monacoPreload = preloadMonacoTogether();

const ZOPFLI_ITERATIONS = 5;

/**
 * In the build, an encoding's ranks are a gzipped file of token pairs (src/engine/rank-pairs.ts),
 * 0.70 MB for o200k_base against 1.0 MB as gpt-tokenizer's module: tokens.ts's import of
 * `gpt-tokenizer/bpeRanks/<encoding>` becomes a module that fetches the file and rebuilds the ranks.
 * The dev server, vitest and Node import the package's module as it is. zopfli writes a gzip
 * stream 20 KB smaller than zlib's best (700 KB for o200k_base) in about 5 s per build.
 */
function ranksAsPairs(): Plugin {
  const PREFIX = '\0rank-pairs:';
  return {
    name: 'leviath-ranks-as-pairs',
    enforce: 'pre',
    apply: 'build',
    resolveId(source) {
      const encoding = /^gpt-tokenizer\/bpeRanks\/(o200k_base|cl100k_base)$/.exec(source)?.[1];
      return encoding ? PREFIX + encoding : null;
    },
    async load(id) {
      if (!id.startsWith(PREFIX)) return null;
      const encoding = id.slice(PREFIX.length);
      const { default: ranks } = (await import(`gpt-tokenizer/bpeRanks/${encoding}`)) as { default: Ranks };
      const file = this.emitFile({
        type: 'asset',
        name: `${encoding}.bin`,
        source: await gzipAsync(packRanks(ranks), { numiterations: ZOPFLI_ITERATIONS }),
      });
      const fetcher = JSON.stringify(fileURLToPath(new URL('./src/engine/rank-pairs.ts', import.meta.url)));
      return `import { fetchRanks } from ${fetcher};\nexport default await fetchRanks(import.meta.ROLLUP_FILE_URL_${file});\n`;
    },
  };
}

// Loading an engine module does nothing but define it (test/engine/structure.test.ts), so a module
// a chunk imports nothing from is left out of it: the engine's doors (src/engine/index.ts and, for
// the page, page.ts) re-export many modules, and each chunk and worker gets only those it uses.
const ENGINE_TREESHAKE = { moduleSideEffects: (id: string) => !/[\\/]src[\\/]engine[\\/]/.test(id) };

export default defineConfig({
  plugins: [react(), relaxCspForDevServer(), preloadStagedImports(), monacoPreload.plugin],
  resolve: {
    // monaco-vim and monaco-emacs import Monaco as `monaco-editor` (whose entry is the full editor
    // with every language) and by its pre-0.5x `esm/vs/...` paths: both are pointed at the modules
    // the page already bundles, so the keybindings bring no second Monaco. Only monaco-emacs
    // imports the bare name, and gets the few exports it uses (src/ui/monaco/monaco-for-emacs.ts).
    alias: [
      {
        find: /^monaco-editor$/,
        replacement: fileURLToPath(new URL('./src/ui/monaco/monaco-for-emacs.ts', import.meta.url)),
      },
      { find: /^monaco-editor\/esm\/vs\/(.*)$/, replacement: 'monaco-editor/$1' },
      // Its `browser` export is a UMD file with its own copy of parts of Monaco 0.33; its ES module
      // (not exported by path) imports them from the Monaco the page has.
      {
        find: /^monaco-vim$/,
        replacement: fileURLToPath(new URL('./node_modules/monaco-vim/dist/index.mjs', import.meta.url)),
      },
    ],
  },
  worker: { format: 'es', plugins: () => [ranksAsPairs()], rolldownOptions: { treeshake: ENGINE_TREESHAKE } },
  build: {
    chunkSizeWarningLimit: 4000,
    modulePreload: { resolveDependencies: monacoPreload.resolveDependencies },
    rolldownOptions: {
      treeshake: ENGINE_TREESHAKE,
      output: {
        // Only the matched modules: pulling in their dependencies would take lower layers' modules
        // (and Vite's preload helper, which the page's first script needs) into a higher layer.
        codeSplitting: { includeDependenciesRecursively: false, groups: [{ name: monacoChunk }] },
      },
    },
  },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    setupFiles: ['test/load-encodings.ts'],
    environment: 'node',
    testTimeout: 30_000,
    // Two at least: on a 2-core machine the default (one fewer than the cores) runs the files one
    // at a time, while much of their time is spent waiting on the `lev` processes they start.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Files in one worker share its modules: loading both encodings and importing the engine again
    // for each of 163 files was 60% of the suite's time (294 s isolated, 126 s shared, on 2 cores).
    // Each test builds what it uses (stores, sessions, replays); one about what a fresh worker has not
    // loaded yet resets the modules itself (docs/architecture.md, "Tests").
    isolate: false,
  },
});
