#!/usr/bin/env node
// Runs the TypeScript CLI with no build step. On the first run after its sources change, esbuild
// bundles it into node_modules/.cache/lev/ (about a second); every later run starts from that
// bundle, which Node loads in about a third of the time tsx takes to load and compile the sources
// on every start (docs/performance-import.md). Where no bundle can be made (no esbuild, a read-only
// node_modules) or LEV_TSX=1 asks for it, the sources run through tsx as they are.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const cache = join(root, 'node_modules', '.cache', 'lev');
const pointer = join(cache, 'current');

/**
 * What the bundle is made of, as one stamp: every source file's modification time and size (summed,
 * so a file put back with an older time changes it too), the entry, the dependencies' lock.
 */
function sourcesStamp() {
  let files = 0;
  let times = 0;
  let sizes = 0;
  const add = (stats) => {
    files++;
    times += stats.mtimeMs;
    sizes += stats.size;
  };
  const visit = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else add(statSync(path));
    }
  };
  visit(join(root, 'src'));
  for (const file of ['bin/lev.ts', 'bin/lev.mjs', 'package.json', 'package-lock.json', 'tsconfig.json']) {
    const stats = statSync(join(root, file), { throwIfNoEntry: false });
    if (stats) add(stats);
  }
  return `${files}:${times}:${sizes}`;
}

/** The bundle made from these sources, made now if there is none; undefined when none can be made. */
async function bundle() {
  const stamp = sourcesStamp();
  const [dir, built] = (readFileSync(pointer, { encoding: 'utf8', flag: 'a+' }) || '\n').split('\n');
  if (dir && built === stamp) return join(cache, dir, 'lev.mjs');
  const { build } = await import('esbuild');
  // A directory per build, named in the pointer only once complete: a lev already running from the
  // one before keeps its files, and two builds at once each finish their own.
  const name = `build-${Date.now()}-${process.pid}`;
  await build({
    entryPoints: [join(root, 'bin', 'lev.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    splitting: true,
    outdir: join(cache, name),
    outExtension: { '.js': '.mjs' },
    // Bundled CommonJS dependencies may still call require.
    banner: {
      js: "import { createRequire as __levRequire } from 'node:module'; const require = __levRequire(import.meta.url);",
    },
    logLevel: 'silent',
  });
  writeFileSync(`${pointer}.${process.pid}`, `${name}\n${stamp}`);
  renameSync(`${pointer}.${process.pid}`, pointer);
  // Builds older than a day are no longer anyone's.
  for (const old of readdirSync(cache)) {
    if (old.startsWith('build-') && old !== name && Date.now() - Number(old.split('-')[1]) > 86_400_000)
      rmSync(join(cache, old), { recursive: true, force: true });
  }
  return join(cache, name, 'lev.mjs');
}

let entry;
if (process.env.LEV_TSX !== '1') {
  try {
    mkdirSync(cache, { recursive: true });
    entry = await bundle();
  } catch {
    entry = undefined;
  }
}
if (entry) await import(pathToFileURL(entry).href);
else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./lev.ts');
}
