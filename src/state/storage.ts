// Where the library keeps its records: a tiny key-value interface, backed by IndexedDB in the page
// and by a Map in tests, or when the browser refuses IndexedDB (private mode, quota, disabled).
import { createStore, del, entries, get, set, update, type UseStore } from 'idb-keyval';

export interface KeyValueStorage {
  get<T>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown): Promise<void>;
  del(key: string): Promise<void>;
  /** Reads, changes and writes one key in a single step (an IndexedDB transaction). */
  update<T>(key: string, change: (old: T | undefined) => T): Promise<void>;
  /** Every key starting with `prefix`, with its value. */
  entries<T>(prefix: string): Promise<[string, T][]>;
}

/** Values are cloned in and out, as IndexedDB's structured clone does, so tests see the same. */
export function memoryStorage(): KeyValueStorage {
  const map = new Map<string, unknown>();
  return {
    get: async <T>(key: string) => (map.has(key) ? structuredClone(map.get(key)) as T : undefined),
    set: async (key, value) => { map.set(key, structuredClone(value)); },
    del: async (key) => { map.delete(key); },
    update: async <T>(key: string, change: (old: T | undefined) => T) => {
      const old = map.has(key) ? structuredClone(map.get(key)) as T : undefined;
      map.set(key, structuredClone(change(old)));
    },
    entries: async <T>(prefix: string) => [...map.entries()]
      .filter(([key]) => key.startsWith(prefix))
      .map(([key, value]) => [key, structuredClone(value) as T]),
  };
}

export const DATABASE_NAME = 'leviath';
const STORE_NAME = 'library';

function idbStorage(store: UseStore): KeyValueStorage {
  return {
    get: (key) => get(key, store),
    set: (key, value) => set(key, value, store),
    del: (key) => del(key, store),
    update: (key, change) => update(key, change, store),
    entries: async <T>(prefix: string) => (await entries<string, T>(store)).filter(([key]) => String(key).startsWith(prefix)),
  };
}

export type OpenedStorage = { storage: KeyValueStorage; persistent: true } | { storage: KeyValueStorage; persistent: false; problem: string };

const PROBE_KEY = 'probe';
const OPEN_TIMEOUT_MS = 3000;

/**
 * IndexedDB if the browser lets us write and read back a value, else memory (and why). Some
 * browsers hang on open instead of failing, hence the timeout.
 */
export async function openStorage(): Promise<OpenedStorage> {
  try {
    if (typeof indexedDB === 'undefined') throw new Error('this browser has no IndexedDB');
    const storage = idbStorage(createStore(DATABASE_NAME, STORE_NAME));
    const probe = (async () => {
      const stamp = Date.now();
      await storage.set(PROBE_KEY, stamp);
      if ((await storage.get(PROBE_KEY)) !== stamp) throw new Error('IndexedDB did not keep a test value');
    })();
    await withTimeout(probe, OPEN_TIMEOUT_MS);
    return { storage, persistent: true };
  } catch (error) {
    return { storage: memoryStorage(), persistent: false, problem: describeStorageError(error) };
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`IndexedDB did not answer within ${ms / 1000} s`)), ms);
    promise.then((v) => { clearTimeout(timer); resolve(v); }, (e: unknown) => { clearTimeout(timer); reject(e); });
  });
}

/** A short reason a person can act on: full, refused, or the browser's own words. */
export function describeStorageError(error: unknown): string {
  const name = error instanceof DOMException || error instanceof Error ? error.name : '';
  if (name === 'QuotaExceededError') return 'the browser\'s storage for this site is full';
  if (name === 'SecurityError' || name === 'InvalidStateError') return 'the browser refuses to store data for this site (private mode or a privacy setting)';
  return error instanceof Error ? error.message : String(error);
}
