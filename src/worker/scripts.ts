// A worker's record of the scripts one request runs: the page is told when a different script
// starts (so a time limit that stops the worker can say which one it was in), and the time each
// took is summed (so a replay that stops itself can say where its time went).
import { type ScriptCall, type ScriptWatcher, fmt } from '../engine/page.ts';

export interface ScriptLog extends ScriptWatcher {
  /** The scripts that took longest, slowest first, in words: `context_hooks/x.rhai on_write 12.3 s (4,567 calls)`. */
  slowest(count: number): string[];
  /** All script time so far, in ms. */
  readonly totalMs: number;
}

/** The script file the worker is in, and its hooks called since it came in: what the page is told. */
export interface RunningScript {
  file: string;
  hooks: ScriptCall['hook'][];
}

/**
 * `announce` is called when a script file starts that is not the one announced last, or that file
 * calls a hook it has not called since: a run of one custom region announces once per hook, however
 * many events it has. (Announcing every call cost about 28 µs a call in Chromium, a third of a
 * small hook's own time; a file of the same hooks costs nothing after its first calls.)
 */
export function scriptLog(announce: (running: RunningScript) => void): ScriptLog {
  const totals = new Map<string, { call: ScriptCall; ms: number; calls: number }>();
  let running: RunningScript | undefined;
  let totalMs = 0;
  return {
    started(call) {
      if (running?.file !== call.file) running = { file: call.file, hooks: [] };
      else if (running.hooks.includes(call.hook)) return;
      running.hooks.push(call.hook);
      announce({ file: running.file, hooks: [...running.hooks] });
    },
    finished(call, ms) {
      const key = `${call.file}\u0000${call.hook}`;
      const sum = totals.get(key) ?? { call, ms: 0, calls: 0 };
      sum.ms += ms;
      sum.calls++;
      totals.set(key, sum);
      totalMs += ms;
    },
    get totalMs() {
      return totalMs;
    },
    slowest(count) {
      return [...totals.values()]
        .sort((a, b) => b.ms - a.ms)
        .slice(0, count)
        .map(
          ({ call, ms, calls }) =>
            `${call.file} ${call.hook === 'seed' ? '(a rhai seed)' : call.hook} ${(ms / 1000).toFixed(1)} s (${fmt(calls)} call${calls === 1 ? '' : 's'})`,
        );
    },
  };
}

/** `context_hooks/x.rhai (render or on_write)`, or `seeds/y.rhai (a rhai seed)`. */
export function describeScript({ file, hooks }: RunningScript): string {
  const names = hooks.map((h) => (h === 'seed' ? 'a rhai seed' : h));
  return `${file} (${names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : names[0]})`;
}
