// The user's saved scenarios: each with its name, when it last changed and its recent versions.
// Pure logic over a KeyValueStorage (IndexedDB in the page, a Map in tests); no DOM, no React.
import type { Scenario } from '../engine/page.ts';
import { jsonLengthAtLeast } from './jsonSize.ts';
import type { KeyValueStorage, Writes } from './storage.ts';

/** How many earlier versions each scenario keeps (older ones are dropped). */
export const MAX_VERSIONS = 10;
/** Automatic versions are at least this far apart, so a working session is not a version per keystroke. */
export const VERSION_INTERVAL_MS = 5 * 60_000;

export type Origin =
  | { kind: 'example'; exampleId: string }
  | { kind: 'link' }
  | { kind: 'import'; file: string }
  | { kind: 'blank' }
  | { kind: 'copy'; of: string }
  | { kind: 'earlier-work' };

export interface Version {
  savedAt: number;
  scenario: Scenario;
}

export interface LibraryEntry {
  id: string;
  /** Unique in the library ("coding-agent (2)"); renaming also renames the scenario. */
  name: string;
  createdAt: number;
  changedAt: number;
  origin: Origin;
  /** The current content. */
  scenario: Scenario;
  /** Earlier contents, newest first, at most MAX_VERSIONS. */
  versions: Version[];
  /** When the newest version was taken (createdAt before the first). */
  versionedAt: number;
  /** Bumped by every write: a save based on an older revision was made without seeing it. */
  revision: number;
}

/**
 * An entry as the Scenarios menu lists it: everything but its content, which is stored apart, so
 * listing a library that holds a 50 MB import reads a few hundred bytes per entry.
 */
export interface EntrySummary extends Omit<LibraryEntry, 'scenario' | 'versions'> {
  versions: { savedAt: number }[];
  /** A lower bound of the JSON length of the content without its name (see findByContent). */
  contentLengthAtLeast: number;
}

interface StoredContent {
  scenario: Scenario;
  versions: Version[];
}

export type SaveResult = { ok: true; entry: LibraryEntry } | { ok: false; conflict: LibraryEntry };

const ENTRY = 'entry:';
const CONTENT = 'content:';
const TRASH_KEY = 'trash';
const TRASH_CONTENT_KEY = 'trash-content';
const LAST_OPENED_KEY = 'last-opened';

export interface LibraryOptions {
  storage: KeyValueStorage;
  now?: () => number;
  newId?: () => string;
}

/** JSON with sorted keys: two scenarios with the same content compare equal whatever the key order. */
export function contentKey(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** Whether JSON would write a property with this value (it leaves out undefined, functions, symbols). */
function written(v: unknown): boolean {
  return v !== undefined && typeof v !== 'function' && typeof v !== 'symbol';
}

/** What JSON.stringify writes for `v` in an array: what it would leave out of an object is null. */
function asJsonItem(v: unknown): unknown {
  return written(v) ? v : null;
}

/**
 * Whether `a` and `b` have the same contentKey, without writing either out: a save compares a whole
 * scenario, and writing a large import out is a long task of the page's thread (docs/performance.md),
 * so the walk stops at the first difference.
 */
export function sameContent(a: unknown, b: unknown): boolean {
  // JSON writes NaN and the infinities as null.
  if (typeof a === 'number' && !Number.isFinite(a)) a = null;
  if (typeof b === 'number' && !Number.isFinite(b)) b = null;
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const aJson = (a as { toJSON?: unknown }).toJSON;
  const bJson = (b as { toJSON?: unknown }).toJSON;
  if (typeof aJson === 'function' || typeof bJson === 'function') return contentKey(a) === contentKey(b);
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameContent(asJsonItem(a[i]), asJsonItem(b[i]))) return false;
    return true;
  }
  const aKeys = Object.keys(a).filter((k) => written((a as Record<string, unknown>)[k]));
  const bKeys = Object.keys(b).filter((k) => written((b as Record<string, unknown>)[k]));
  if (aKeys.length !== bKeys.length) return false;
  for (const k of aKeys) {
    if (!Object.prototype.hasOwnProperty.call(b, k)) return false;
    if (!sameContent((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

/** `base`, or `base (2)`, `base (3)`… whichever is not taken. */
export function uniqueName(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base} (${n})`)) return `${base} (${n})`;
}

function summaryOf(entry: LibraryEntry): EntrySummary {
  return {
    id: entry.id,
    name: entry.name,
    createdAt: entry.createdAt,
    changedAt: entry.changedAt,
    origin: entry.origin,
    versionedAt: entry.versionedAt,
    revision: entry.revision,
    versions: entry.versions.map((v) => ({ savedAt: v.savedAt })),
    contentLengthAtLeast: jsonLengthAtLeast({ ...entry.scenario, name: '' }),
  };
}

function joined(summary: EntrySummary, content: StoredContent): LibraryEntry {
  return {
    id: summary.id,
    name: summary.name,
    createdAt: summary.createdAt,
    changedAt: summary.changedAt,
    origin: summary.origin,
    versionedAt: summary.versionedAt,
    revision: summary.revision,
    scenario: content.scenario,
    versions: content.versions,
  };
}

/** The entry's two records: its summary and its content. */
function records(entry: LibraryEntry): Writes {
  return {
    [ENTRY + entry.id]: summaryOf(entry),
    [CONTENT + entry.id]: { scenario: entry.scenario, versions: entry.versions },
  };
}

/** The entry from the records `transact` read for it, if both are there. */
function fromRecords([summary, content]: unknown[]): LibraryEntry | undefined {
  return summary && content ? joined(summary as EntrySummary, content as StoredContent) : undefined;
}

/** Before summaries were stored apart, an entry (and the trash) was one record holding its content. */
function isWhole(value: unknown): value is LibraryEntry {
  return typeof value === 'object' && value !== null && 'scenario' in value;
}

/** Splits the records earlier versions of the page stored whole, so nothing saved then is lost. */
async function splitWholeRecords(storage: KeyValueStorage): Promise<void> {
  for (const [key, value] of await storage.entries<unknown>(ENTRY)) {
    if (!isWhole(value)) continue;
    await storage.transact([key], ([now]) => (isWhole(now) ? records(now) : {}));
  }
  const trash = await storage.get<unknown>(TRASH_KEY);
  if (isWhole(trash)) {
    await storage.transact([TRASH_KEY], ([now]) =>
      isWhole(now)
        ? { [TRASH_KEY]: summaryOf(now), [TRASH_CONTENT_KEY]: { scenario: now.scenario, versions: now.versions } }
        : {},
    );
  }
}

function randomId(): string {
  return globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

export type Library = ReturnType<typeof createLibrary>;

export function createLibrary({ storage, now = Date.now, newId = randomId }: LibraryOptions) {
  let upgrade: Promise<void> | undefined;
  /** Every call waits for records stored whole by an earlier version to be split (once). */
  const ready = () => (upgrade ??= splitWholeRecords(storage));

  async function read(id: string): Promise<LibraryEntry | undefined> {
    await ready();
    return fromRecords(await storage.getMany([ENTRY + id, CONTENT + id]));
  }

  const write = (entry: LibraryEntry) => storage.transact([], () => records(entry));

  /** Newest change first; summaries only (`get` reads an entry's content). */
  async function list(): Promise<EntrySummary[]> {
    await ready();
    const all = (await storage.entries<EntrySummary>(ENTRY)).map(([, summary]) => summary);
    return all.sort((a, b) => b.changedAt - a.changedAt || a.id.localeCompare(b.id));
  }

  async function takenNames(): Promise<Set<string>> {
    return new Set((await list()).map((e) => e.name));
  }

  /** A new entry, named after the scenario but unique in the library ("coding-agent (2)"). */
  async function create(scenario: Scenario, origin: Origin, name = scenario.name): Promise<LibraryEntry> {
    const at = now();
    const unique = uniqueName(name, await takenNames());
    // The scenario carries the entry's name, so the header, the menu and a link say the same.
    const entry: LibraryEntry = {
      id: newId(),
      name: unique,
      createdAt: at,
      changedAt: at,
      origin,
      scenario: scenario.name === unique ? scenario : { ...scenario, name: unique },
      versions: [],
      versionedAt: at,
      revision: 1,
    };
    await write(entry);
    return entry;
  }

  function withVersion(entry: LibraryEntry, scenario: Scenario, at: number): Version[] {
    const newest = entry.versions[0];
    if (newest && sameContent(newest.scenario, scenario)) return entry.versions;
    return [{ savedAt: at, scenario }, ...entry.versions].slice(0, MAX_VERSIONS);
  }

  /** The entry after `scenario` replaced its content: an automatic version is kept when due. */
  function advance(entry: LibraryEntry, scenario: Scenario, checkpoint: boolean): LibraryEntry {
    const at = now();
    const changed = !sameContent(entry.scenario, scenario);
    let { versions, versionedAt } = entry;
    if (changed && at - entry.versionedAt >= VERSION_INTERVAL_MS) {
      versions = withVersion({ ...entry, versions }, entry.scenario, entry.changedAt);
      versionedAt = at;
    }
    if (checkpoint) {
      versions = withVersion({ ...entry, versions }, scenario, at);
      versionedAt = at;
    }
    return {
      ...entry,
      scenario,
      versions,
      versionedAt,
      changedAt: changed ? at : entry.changedAt,
      revision: entry.revision + 1,
    };
  }

  /**
   * Saves `scenario` as the entry's content if nobody wrote it since `baseRevision`; otherwise
   * leaves it alone and returns what is stored (another tab saved it). `checkpoint` (Ctrl+S) also
   * keeps this content as a version. An entry deleted meanwhile is written back: the work is here.
   */
  async function save(
    id: string,
    scenario: Scenario,
    baseRevision: number,
    { checkpoint = false } = {},
  ): Promise<SaveResult> {
    await ready();
    let result: SaveResult | undefined;
    await storage.transact([ENTRY + id, CONTENT + id], (stored) => {
      const old = fromRecords(stored);
      if (old && old.revision !== baseRevision) {
        result = { ok: false, conflict: old };
        return {};
      }
      const base = old ?? {
        id,
        name: scenario.name,
        createdAt: now(),
        changedAt: now(),
        origin: { kind: 'earlier-work' },
        scenario,
        versions: [],
        versionedAt: now(),
        revision: baseRevision,
      };
      const entry = advance(base, scenario, checkpoint);
      result = { ok: true, entry };
      return records(entry);
    });
    return result!;
  }

  /** Applies `change` to a stored entry (bumping its revision); undefined when there is none. */
  async function change(id: string, fn: (entry: LibraryEntry) => LibraryEntry): Promise<LibraryEntry | undefined> {
    await ready();
    let out: LibraryEntry | undefined;
    await storage.transact([ENTRY + id, CONTENT + id], (stored) => {
      const old = fromRecords(stored);
      if (!old) return { [ENTRY + id]: undefined, [CONTENT + id]: undefined };
      out = { ...fn(old), revision: old.revision + 1 };
      return records(out);
    });
    return out;
  }

  /** A name another entry already has gets a number ("mine (2)"), so every name stays unique. */
  async function rename(id: string, name: string): Promise<LibraryEntry | undefined> {
    const trimmed = name.trim();
    if (!trimmed) return read(id);
    const others = new Set((await list()).filter((e) => e.id !== id).map((e) => e.name));
    const unique = uniqueName(trimmed, others);
    return change(id, (e) => ({ ...e, name: unique, scenario: { ...e.scenario, name: unique }, changedAt: now() }));
  }

  async function duplicate(id: string): Promise<LibraryEntry | undefined> {
    const entry = await read(id);
    if (!entry) return undefined;
    return create(entry.scenario, { kind: 'copy', of: entry.name }, `${entry.name} copy`);
  }

  /** Moves the entry to the trash, which holds one entry: the previous one there is gone for good. */
  async function remove(id: string): Promise<EntrySummary | undefined> {
    await ready();
    let removed: EntrySummary | undefined;
    await storage.transact([ENTRY + id, CONTENT + id], ([summary, content]) => {
      if (!summary || !content) return {};
      removed = summary as EntrySummary;
      return { [ENTRY + id]: undefined, [CONTENT + id]: undefined, [TRASH_KEY]: summary, [TRASH_CONTENT_KEY]: content };
    });
    return removed;
  }

  /** The trashed entry's summary (the menu offers to undo its delete). */
  async function trash(): Promise<EntrySummary | undefined> {
    await ready();
    return storage.get<EntrySummary>(TRASH_KEY);
  }

  /** Puts the trashed entry back (under a new id if its id was taken again meanwhile). */
  async function undoRemove(): Promise<LibraryEntry | undefined> {
    const trashed = await trash();
    if (!trashed) return undefined;
    let restored: LibraryEntry | undefined;
    await storage.transact([TRASH_KEY, TRASH_CONTENT_KEY, ENTRY + trashed.id], ([summary, content, taken]) => {
      const entry = fromRecords([summary, content]);
      if (!entry || entry.id !== trashed.id) return {};
      restored = taken ? { ...entry, id: newId() } : entry;
      return { ...records(restored), [TRASH_KEY]: undefined, [TRASH_CONTENT_KEY]: undefined };
    });
    return restored;
  }

  /** Makes a version the current content; the content it replaces is kept as a version first. */
  async function restoreVersion(id: string, savedAt: number): Promise<LibraryEntry | undefined> {
    return change(id, (e) => {
      const version = e.versions.find((v) => v.savedAt === savedAt);
      if (!version) return e;
      const at = now();
      return {
        ...e,
        versions: withVersion(e, e.scenario, at),
        versionedAt: at,
        changedAt: at,
        scenario: version.scenario,
      };
    });
  }

  /**
   * The most recently changed entry whose content equals `scenario` (whatever its name). Only
   * entries whose content could be that short are read: a link's scenario is never a 50 MB import.
   */
  async function findByContent(scenario: Scenario): Promise<LibraryEntry | undefined> {
    const wanted = contentKey({ ...scenario, name: '' });
    for (const summary of await list()) {
      if (summary.contentLengthAtLeast > wanted.length) continue;
      const entry = await read(summary.id);
      if (entry && contentKey({ ...entry.scenario, name: '' }) === wanted) return entry;
    }
    return undefined;
  }

  return {
    list,
    get: read,
    create,
    save,
    rename,
    duplicate,
    remove,
    trash,
    undoRemove,
    restoreVersion,
    findByContent,
    lastOpened: () => storage.get<string>(LAST_OPENED_KEY),
    setLastOpened: (id: string) => storage.set(LAST_OPENED_KEY, id),
  };
}
