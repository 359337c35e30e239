// Where the library keeps its records: a tiny key-value interface, backed by IndexedDB in the page
// and by a Map in tests, or when the browser refuses IndexedDB (private mode, quota, disabled).
import { createStore, del, get, getMany, promisifyRequest, set, type UseStore } from 'idb-keyval';

/** What `transact` writes: key to value, undefined deleting the key. */
export type Writes = Record<string, unknown>;

export interface KeyValueStorage {
  get<T>(key: string): Promise<T | undefined>;
  /** Several keys read in one step (one IndexedDB transaction). */
  getMany(keys: readonly string[]): Promise<unknown[]>;
  set(key: string, value: unknown): Promise<void>;
  del(key: string): Promise<void>;
  /**
   * Reads `keys`, then writes what `change` returns, in a single step (one IndexedDB transaction):
   * two tabs never interleave. Only the keys read are deserialized, not those written.
   */
  transact(keys: readonly string[], change: (old: unknown[]) => Writes): Promise<void>;
  /** Every key starting with `prefix`, with its value (the others are not read). */
  entries<T>(prefix: string): Promise<[string, T][]>;
}

/** Values are cloned in and out, as IndexedDB's structured clone does, so tests see the same. */
export function memoryStorage(): KeyValueStorage {
  const map = new Map<string, unknown>();
  const read = (key: string) => (map.has(key) ? structuredClone(map.get(key)) : undefined);
  return {
    get: async <T>(key: string) => read(key) as T | undefined,
    getMany: async (keys) => keys.map(read),
    set: async (key, value) => {
      map.set(key, structuredClone(value));
    },
    del: async (key) => {
      map.delete(key);
    },
    transact: async (keys, change) => {
      for (const [key, value] of Object.entries(change(keys.map(read)))) {
        if (value === undefined) map.delete(key);
        else map.set(key, structuredClone(value));
      }
    },
    entries: async <T>(prefix: string) =>
      [...map.entries()]
        .filter(([key]) => key.startsWith(prefix))
        .map(([key, value]) => [key, structuredClone(value) as T]),
  };
}

export const DATABASE_NAME = 'leviath';
const STORE_NAME = 'library';

function idbStorage(store: UseStore): KeyValueStorage {
  return {
    get: (key) => get(key, store),
    getMany: (keys) => getMany([...keys], store),
    set: (key, value) => set(key, value, store),
    del: (key) => del(key, store),
    transact: (keys, change) =>
      store('readwrite', async (objects) => {
        const old = await Promise.all(keys.map((key) => promisifyRequest(objects.get(key))));
        for (const [key, value] of Object.entries(change(old))) {
          if (value === undefined) objects.delete(key);
          else objects.put(value, key);
        }
        return promisifyRequest(objects.transaction);
      }),
    entries: <T>(prefix: string) =>
      store('readonly', async (objects) => {
        // A key range, so a listing of small records never deserializes the large ones beside them.
        const range = IDBKeyRange.bound(prefix, `${prefix}\uffff`);
        const [keys, values] = await Promise.all([
          promisifyRequest(objects.getAllKeys(range)),
          promisifyRequest(objects.getAll(range)),
        ]);
        return keys.map((key, i): [string, T] => [String(key), values[i] as T]);
      }),
  };
}

export type OpenedStorage =
  { storage: KeyValueStorage; persistent: true } | { storage: KeyValueStorage; persistent: false; problem: string };

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
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

/** A short reason a person can act on: full, refused, or the browser's own words. */
export function describeStorageError(error: unknown): string {
  const name = error instanceof DOMException || error instanceof Error ? error.name : '';
  if (name === 'QuotaExceededError') return "the browser's storage for this site is full";
  if (name === 'SecurityError' || name === 'InvalidStateError')
    return 'the browser refuses to store data for this site (private mode or a privacy setting)';
  return error instanceof Error ? error.message : String(error);
}
