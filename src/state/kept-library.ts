// The library as the page uses it: every call guarded, so a browser that refuses storage (at load or
// later, when the disk is full) never throws at the person; the library then moves to memory with
// every entry it can still read and the call is made again there, so the work on screen is kept for
// this tab. Its store is what the Scenarios menu lists.
import { createStore, type StoreApi } from 'zustand';
import { createLibrary, type EntrySummary, type Library, type Origin } from './library.ts';
import { describeStorageError, memoryStorage, type KeyValueStorage, type OpenedStorage } from './storage.ts';

export interface LibraryStore {
  /** The library entry on screen; null while an example or a blank page is unchanged. */
  entryId: string | null;
  /** Where the content on screen came from. */
  origin: Origin;
  /** The library, newest change first (for the Scenarios menu). */
  entries: EntrySummary[];
  /** The last deleted entry, until the next delete. */
  trash: EntrySummary | null;
  /** False when the browser refused storage: work lives only in this tab. */
  persistent: boolean;
  storageProblem: string | null;
}

export function createLibraryStore(): StoreApi<LibraryStore> {
  return createStore<LibraryStore>()(() => ({
    entryId: null,
    origin: { kind: 'blank' },
    entries: [],
    trash: null,
    persistent: true,
    storageProblem: null,
  }));
}

export class KeptLibrary {
  readonly store = createLibraryStore();
  private storage: KeyValueStorage;
  private library: Library;
  /** Settles once the library runs on memory (storage refused at load, or a call failed later). */
  private onMemory: Promise<void> | null;

  /** `onRefused` tells the person, once, that their work will not survive a reload. */
  constructor(
    opened: OpenedStorage,
    private readonly onRefused: (problem: string) => void,
  ) {
    this.storage = opened.storage;
    this.library = createLibrary({ storage: this.storage });
    this.onMemory = opened.persistent ? null : Promise.resolve();
    if (!opened.persistent) this.refused(opened.problem);
  }

  /**
   * Runs a library call; a refusal is reported once and never thrown. The library then moves to
   * memory with what could still be read, and the call is made again there, so the work on screen
   * is kept for this tab (opening something else must not drop it because the disk is full).
   */
  async call<T>(call: (library: Library) => Promise<T>): Promise<T | undefined> {
    try {
      return await call(this.library);
    } catch (error) {
      this.refused(describeStorageError(error));
      this.onMemory ??= this.moveToMemory();
      await this.onMemory;
      try {
        return await call(this.library);
      } catch {
        return undefined;
      }
    }
  }

  /** Reads the listing and the trash again (for the Scenarios menu). */
  async refresh(): Promise<void> {
    const [entries, trash] = await Promise.all([this.call((l) => l.list()), this.call((l) => l.trash())]);
    this.store.setState((s) => ({ entries: entries ?? s.entries, trash: trash ?? null }));
  }

  private refused(problem: string): void {
    const first = this.store.getState().persistent;
    this.store.setState({ persistent: false, storageProblem: problem });
    if (first) this.onRefused(problem);
  }

  private async moveToMemory(): Promise<void> {
    const memory = memoryStorage();
    try {
      for (const [key, value] of await this.storage.entries<unknown>('')) await memory.set(key, value);
    } catch {
      // Nothing readable either: this tab starts an empty library; the work on screen is kept.
    }
    this.storage = memory;
    this.library = createLibrary({ storage: memory });
  }
}
