// Which script the engine is running. A script call is synchronous, so once it starts nothing else
// in its thread runs until it returns: the page's worker is told before each call starts, and
// tells the page, so that a time limit that has to stop the worker can name the script it was in.
// Nothing watches in `lev` or the tests, and a call then costs one check.

/** A custom region's hook (render, on_write, on_overflow) or a `rhai` seed, in its script's file. */
export interface ScriptCall {
  file: string;
  hook: 'render' | 'on_write' | 'on_overflow' | 'seed';
}

export interface ScriptWatcher {
  started(call: ScriptCall): void;
  finished(call: ScriptCall, ms: number): void;
}

let watcher: ScriptWatcher | undefined;

/** Sets (or with undefined, clears) the one watcher of this thread's script calls. */
export function watchScripts(next: ScriptWatcher | undefined): void {
  watcher = next;
}

/** Runs `call`'s script through `run`, telling the watcher when it starts and how long it took. */
export function inScript<T>(call: ScriptCall, run: () => T): T {
  const current = watcher;
  if (!current) return run();
  current.started(call);
  const started = performance.now();
  try {
    return run();
  } finally {
    current.finished(call, performance.now() - started);
  }
}
