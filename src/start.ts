// What the page does before its first draw, in the order main.tsx needs it: the page's one
// PageSession made over the browser (the workers' clients, the library's storage, the window), the
// scenario the address asks for opened, and its first replay asked for. main.tsx imports this
// module on its own so that evaluating it (zod's schemas, the state, the workers' clients) is a task
// of its own, apart from React's and the page's components'.
import { decodeFragment } from './share/index.ts';
import type { PageHost } from './state/host.ts';
import { PageSession } from './state/page-session.ts';
import { ADVISE_TIME_LIMIT_MS } from './state/advisor.ts';
import { openStorage, type OpenedStorage } from './state/storage.ts';
import { WorkerClient } from './worker/client.ts';
import { ENGINE_TIME_LIMIT_MS } from './worker/protocol.ts';
import { downloadScenario } from './ui/backup.ts';
import { bindPage } from './ui/page.ts';

/** The window as a PageSession sees it. */
function browserHost(): PageHost {
  let storage: Storage | null;
  try {
    storage = window.localStorage;
  } catch {
    // Site data refused: preferences and the replay guard are not kept.
    storage = null;
  }
  let tabStorage: Storage | null;
  try {
    tabStorage = window.sessionStorage;
  } catch {
    tabStorage = null;
  }
  return {
    location: () => window.location,
    history: window.history,
    listen: (event, listener) => window.addEventListener(event, listener),
    clipboard: { writeText: (text) => navigator.clipboard.writeText(text) },
    storage,
    tabStorage,
    reloaded: performance
      .getEntriesByType('navigation')
      .some((e) => (e as PerformanceNavigationTiming).type === 'reload'),
    prefersDark: window.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false,
    chartWidth: () => document.querySelector('[data-testid="charts"]')?.clientWidth || window.innerWidth / 2,
  };
}

/**
 * The page's session over its two workers: the edit worker (validation and Rhai checks while
 * typing; 10 s limit, 1 s grace after a cancel) and the engine worker (replays, kept for the
 * inspector; 20 s limit, and a superseded replay is abandoned after 300 ms). A worker restarted for
 * a reason the person should know is a notice.
 */
function makeSession(storage?: OpenedStorage): PageSession {
  const notify = (text: string) => session.notify({ tone: 'error', text });
  const session: PageSession = new PageSession({
    host: browserHost(),
    edit: new WorkerClient({
      spawn: () => new Worker(new URL('./worker/edit.worker.ts', import.meta.url), { type: 'module' }),
      timeLimitMs: 10_000,
      cancelGraceMs: 1_000,
      onRestart: notify,
    }),
    engine: new WorkerClient({
      spawn: () => new Worker(new URL('./worker/engine.worker.ts', import.meta.url), { type: 'module' }),
      timeLimitMs: ENGINE_TIME_LIMIT_MS,
      cancelGraceMs: 300,
      onRestart: notify,
    }),
    // The Advise button's search, in a worker of its own (started on the first Advise): replays and
    // scrubbing never wait behind it, and its longer time limit is its own.
    advise: new WorkerClient({
      spawn: () => new Worker(new URL('./worker/advise.worker.ts', import.meta.url), { type: 'module' }),
      timeLimitMs: ADVISE_TIME_LIMIT_MS,
      cancelGraceMs: 300,
      onRestart: notify,
    }),
    storage,
    exportScenario: downloadScenario,
  });
  bindPage(session);
  return session;
}

export async function startPlayground(): Promise<void> {
  await makeSession(await openStorage()).start();
}

/** Loads the link of an embed view; its problem, when it is not a scenario, is what the view shows. */
export function startEmbed(): string | null {
  const decoded = decodeFragment(window.location.href);
  const session = makeSession();
  if (!decoded.ok) return decoded.error;
  session.startEmbed(decoded.scenario);
  return null;
}
