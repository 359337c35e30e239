// What a PageSession is given, faked for tests: localStorage on a Map, a browser tab (address,
// history, events, clipboard) and the three workers, each serving the real handlers in this process
// over a MessageChannel, so a session under test replays with the real engine.
import { afterEach } from 'vitest';
import type { Address, PageHost } from '../../src/state/host.ts';
import { PageSession, type Delays } from '../../src/state/page-session.ts';
import { memoryStorage, type KeyValueStorage, type OpenedStorage } from '../../src/state/storage.ts';
import { WorkerClient } from '../../src/worker/client.ts';
import { editHandlers } from '../../src/worker/edit-handlers.ts';
import { engineHandlers } from '../../src/worker/engine-handlers.ts';
import { adviseHandlers } from '../../src/worker/advise-handlers.ts';
import type { WorkerRequest } from '../../src/worker/protocol.ts';
import { serve, type Handlers } from '../../src/worker/serve.ts';

/** localStorage on a Map (`map` shows what is stored). */
export class FakeStorage implements Storage {
  readonly map = new Map<string, string>();
  get length(): number {
    return this.map.size;
  }
  key(index: number): string | null {
    return [...this.map.keys()][index] ?? null;
  }
  getItem(key: string): string | null {
    return this.map.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.map.set(key, String(value));
  }
  removeItem(key: string): void {
    this.map.delete(key);
  }
  clear(): void {
    this.map.clear();
  }
}

export const fakeStorage = () => new FakeStorage();

const open: { close(): void }[] = [];
afterEach(() => {
  for (const port of open.splice(0)) port.close();
});

/** A worker that serves `handlers` in this process, and the requests it was sent. */
export class InProcessWorker {
  onmessage: ((e: MessageEvent) => void) | null = null;
  onerror: ((e: ErrorEvent) => void) | null = null;
  onmessageerror: (() => void) | null = null;
  private readonly port: MessagePort;

  constructor(
    handlers: Handlers,
    readonly received: WorkerRequest[],
  ) {
    const { port1, port2 } = new MessageChannel();
    serve(handlers, port2);
    port1.onmessage = (e) => this.onmessage?.(e);
    this.port = port1;
    open.push(port1, port2);
  }

  postMessage(message: WorkerRequest): void {
    this.received.push(message);
    this.port.postMessage(message);
  }

  terminate(): void {
    this.port.close();
  }
}

/** A browser tab: an address with a history of entries, its events, and a clipboard. */
export class FakeTab {
  readonly copied: string[] = [];
  readonly storage = fakeStorage();
  /** sessionStorage: this tab's, kept across a reload (`reloaded` in the tests carries it over). */
  readonly tabStorage = fakeStorage();
  /** Whether this tab's page is a reload (Navigation Timing's type), as PageHost.reloaded. */
  reloaded = false;
  private readonly entries: { url: URL; state: unknown }[];
  private at = 0;
  private readonly listeners = new Map<string, (() => void)[]>();

  readonly host: PageHost;

  constructor(href = 'http://localhost:4173/', state: unknown = null) {
    this.entries = [{ url: new URL(href), state }];
    const tab = this;
    this.host = {
      location: (): Address => {
        const { href: at, hash, pathname, search, origin } = tab.url;
        return { href: at, hash, pathname, search, origin };
      },
      history: {
        get state() {
          return tab.historyState();
        },
        pushState: (pushed, _unused, url) => {
          tab.entries.splice(tab.at + 1);
          tab.entries.push({ url: new URL(url, tab.url), state: structuredClone(pushed) });
          tab.at++;
        },
        replaceState: (replaced, _unused, url) => {
          tab.entries[tab.at] = { url: new URL(url, tab.url), state: structuredClone(replaced) };
        },
      },
      listen: (event, listener) => tab.listeners.set(event, [...(tab.listeners.get(event) ?? []), listener]),
      clipboard: {
        writeText: async (text) => {
          tab.copied.push(text);
        },
      },
      storage: tab.storage,
      tabStorage: tab.tabStorage,
      get reloaded() {
        return tab.reloaded;
      },
      prefersDark: false,
      chartWidth: () => 1200,
    };
  }

  get url(): URL {
    return this.entries[this.at]!.url;
  }
  get historyLength(): number {
    return this.entries.length;
  }

  /** History's state of the entry on screen, as the browser gives it. */
  historyState(): unknown {
    return this.entries[this.at]!.state;
  }

  /** Back: the previous entry, and the events the browser fires. */
  back(): void {
    this.at--;
    this.fire('popstate');
    this.fire('hashchange');
  }

  fire(event: 'popstate' | 'hashchange' | 'pagehide'): void {
    for (const listener of this.listeners.get(event) ?? []) listener();
  }
}

/** The two workers' requests, as they were sent. */
export interface Sent {
  engine: WorkerRequest[];
  edit: WorkerRequest[];
  advise: WorkerRequest[];
}

/**
 * Delays short enough for a test, in the same order as the page's (an edit saves, then writes the
 * address). No replay turns auto-run off unless a test asks: a busy machine must not decide it.
 */
export const TEST_DELAYS: Delays = { save: 5, address: 10, edit: 5, inspect: 5, slowReplay: 60_000 };

/** A session on `tab`, its workers in this process; `library` is the storage its library starts on. */
export function testSession(
  tab: FakeTab,
  {
    library = memoryStorage(),
    storage,
    delays = TEST_DELAYS,
  }: { library?: KeyValueStorage; storage?: OpenedStorage; delays?: Delays } = {},
) {
  const sent: Sent = { engine: [], edit: [], advise: [] };
  const restarts: string[] = [];
  const client = (handlers: () => Handlers, into: WorkerRequest[]) =>
    new WorkerClient({
      spawn: () => new InProcessWorker(handlers(), into) as unknown as Worker,
      timeLimitMs: 60_000,
      cancelGraceMs: 300,
      onRestart: (m) => restarts.push(m),
    });
  const session = new PageSession({
    host: tab.host,
    engine: client(engineHandlers, sent.engine),
    edit: client(editHandlers, sent.edit),
    advise: client(adviseHandlers, sent.advise),
    storage: storage ?? { storage: library, persistent: true },
    delays,
  });
  return { session, sent, restarts };
}

/** Waits until `check` holds (polling), or fails saying what was awaited. */
export async function until(check: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Waits for the timers the session set (saves, address writes) to have run. */
export const settle = (ms = 60) => new Promise((resolve) => setTimeout(resolve, ms));
