// What is on screen and where it lives: the open scenario is a library entry (or an example or a
// blank page not changed yet), every edit is saved to the library, and the address bar holds the
// scenario's link. Opening anything keeps the current work in the library first.
import { create } from 'zustand';
import type { Scenario } from '../engine/scenario.ts';
import { DEFAULT_EXAMPLE_ID, EXAMPLES, findExample } from '../scenarios/examples.ts';
import { decodeFragment, encodeScenario, MAX_ADDRESS_CHARS } from '../share/index.ts';
import { jsonLongerThan } from './jsonSize.ts';
import { replayOpened } from './engine.ts';
import { contentKey, createLibrary, type EntrySummary, type Library, type LibraryEntry, type Origin } from './library.ts';
import { forgetEarlierWork, loadEarlierWork } from './persist.ts';
import { AGENT_FILE, blankScenario, defaultScenario, exampleContent } from './scenario.ts';
import { memoryStorage, describeStorageError, type KeyValueStorage, type OpenedStorage } from './storage.ts';
import { useScenario } from './store.ts';
import { useUi, type Notice } from './ui.ts';
import { fmt } from '../engine/format.ts';

const SAVE_DELAY_MS = 300;
const ADDRESS_DELAY_MS = 400;

export interface SessionStore {
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

export const useSession = create<SessionStore>()(() => ({
  entryId: null, origin: { kind: 'blank' }, entries: [], trash: null, persistent: true, storageProblem: null,
}));

let storage: KeyValueStorage = memoryStorage();
let library: Library = createLibrary({ storage });
/** Settles once the library runs on memory (storage refused at load, or a call failed later). */
let onMemory: Promise<void> | null = Promise.resolve();
/** The entry revision this tab last read or wrote (see library.save). */
let baseRevision = 0;
/** The scenario store revision that is in the library (or is the unchanged example). */
let savedRevision = 0;
/** The fragment this tab last put in the address bar. */
let addressFragment = '';
let exportAction: Notice['action'];

export function attachLibrary(opened: OpenedStorage, onExport: () => void): void {
  storage = opened.storage;
  library = createLibrary({ storage });
  onMemory = opened.persistent ? null : Promise.resolve();
  exportAction = { label: 'Export', run: onExport };
  if (!opened.persistent) storageRefused(opened.problem);
}

function storageRefused(problem: string): void {
  const first = useSession.getState().persistent;
  useSession.setState({ persistent: false, storageProblem: problem });
  if (first) {
    useUi.getState().notify({
      tone: 'error', sticky: true, action: exportAction,
      text: `Your work cannot be stored in this browser (${problem}). The page keeps working, but nothing will survive a reload: use Export to keep a copy.`,
    });
  }
}

/**
 * Runs a library call; a refusal is reported once and never thrown. The library then moves to
 * memory with what could still be read, and the call is made again there, so the work on screen
 * is kept for this tab (opening something else must not drop it because the disk is full).
 */
async function guarded<T>(call: () => Promise<T>): Promise<T | undefined> {
  try {
    return await call();
  } catch (error) {
    storageRefused(describeStorageError(error));
    onMemory ??= moveToMemory();
    await onMemory;
    try {
      return await call();
    } catch {
      return undefined;
    }
  }
}

async function moveToMemory(): Promise<void> {
  const memory = memoryStorage();
  try {
    for (const [key, value] of await storage.entries<unknown>('')) await memory.set(key, value);
  } catch {
    // Nothing readable either: this tab starts an empty library; the work on screen is kept.
  }
  storage = memory;
  library = createLibrary({ storage });
}

async function refresh(): Promise<void> {
  const [entries, trash] = await Promise.all([guarded(() => library.list()), guarded(() => library.trash())]);
  useSession.setState({ entries: entries ?? useSession.getState().entries, trash: trash ?? null });
}

// ---- Saving -------------------------------------------------------------------------------------

let queue: Promise<unknown> = Promise.resolve();
/** Saves run one after another, so a flush waits for one already in flight. */
function serial<T>(task: () => Promise<T>): Promise<T> {
  const next = queue.then(task, task);
  queue = next.catch(() => undefined);
  return next;
}

async function saveNow(checkpoint: boolean): Promise<void> {
  const { scenario, revision } = useScenario.getState();
  if (revision === savedRevision && !checkpoint) return;
  const { entryId, origin } = useSession.getState();
  if (entryId === null) {
    const entry = await guarded(() => library.create(scenario, origin));
    if (!entry) return;
    track(entry, revision);
    if (checkpoint) await saveNow(true);
  } else {
    const result = await guarded(() => library.save(entryId, scenario, baseRevision, { checkpoint }));
    if (!result) return;
    if (result.ok) track(result.entry, revision);
    else await keepOwnCopy(scenario, result.conflict, revision);
  }
  await refresh();
}

function track(entry: LibraryEntry, revision: number): void {
  baseRevision = entry.revision;
  savedRevision = revision;
  useSession.setState({ entryId: entry.id, origin: entry.origin });
  void guarded(() => library.setLastOpened(entry.id));
}

/** Another tab saved this entry since this tab read it: this tab's work becomes its own entry. */
async function keepOwnCopy(scenario: Scenario, theirs: LibraryEntry, revision: number): Promise<void> {
  const copy = await guarded(() => library.create(scenario, { kind: 'copy', of: theirs.name }, theirs.name));
  if (!copy) return;
  track(copy, revision);
  writeAddress('replace');
  useUi.getState().notify({
    tone: 'info', sticky: true,
    text: `"${theirs.name}" was also changed in another tab. Both are kept: this tab's version is now "${copy.name}" in Scenarios, the other tab's stays "${theirs.name}".`,
  });
}

let saveTimer: ReturnType<typeof setTimeout> | undefined;
/** Saves any pending change now (before opening something else, or when the page goes). */
export function flushSave(): Promise<void> {
  clearTimeout(saveTimer);
  return serial(() => saveNow(false));
}

/** Ctrl/Cmd+S: saves, keeps this content as a version, and copies the link. */
export async function saveAndCopyLink(): Promise<void> {
  clearTimeout(saveTimer);
  await serial(() => saveNow(true));
  const address = addressOf(useScenario.getState().scenario);
  writeAddress('replace', address.fragment);
  const name = openName();
  const where = useSession.getState().persistent ? `Saved "${name}" in Scenarios` : `"${name}" is kept in this tab only (storage is refused)`;
  if (address.problem) {
    useUi.getState().notify({ tone: 'info', sticky: true, action: exportAction, text: `${where}. No link was copied: ${address.problem}. Export it as a file, or use Share to shorten the link.` });
    return;
  }
  try {
    await navigator.clipboard.writeText(window.location.href);
    useUi.getState().notify({ tone: 'info', text: `${where}; its link is copied.` });
  } catch {
    useUi.getState().notify({ tone: 'info', text: `${where}. The browser refused the clipboard: copy the link from the address bar.` });
  }
}

// ---- The address bar ----------------------------------------------------------------------------

/** Past this much JSON no link is made for the address bar (its link would be far past MAX_ADDRESS_CHARS anyway). */
const MAX_ADDRESS_SOURCE_CHARS = 2_000_000;

/**
 * The scenario's fragment for the address bar, or none (and why) when it cannot be a link or the
 * link would be longer than an address bar takes: the tab then finds its entry through
 * history.state on reload, and Ctrl+S says to export instead of copying a link.
 */
function addressOf(scenario: Scenario): { fragment: string; problem?: string } {
  // Deflating tens of MB on the page's thread stalled it for seconds, for a link no address bar
  // takes; so did measuring them with JSON.stringify (1.6 s for a 50 MB import).
  if (jsonLongerThan(scenario, MAX_ADDRESS_SOURCE_CHARS)) {
    return { fragment: '', problem: `it is more than ${fmt(MAX_ADDRESS_SOURCE_CHARS)} characters of JSON, the most a link is made for` };
  }
  let fragment: string;
  try {
    fragment = encodeScenario(scenario);
  } catch (error) {
    return { fragment: '', problem: error instanceof Error ? error.message : String(error) };
  }
  const length = window.location.origin.length + window.location.pathname.length + window.location.search.length + fragment.length;
  if (length > MAX_ADDRESS_CHARS) {
    return { fragment: '', problem: `its link would be ${fmt(length)} characters, more than an address bar takes (${fmt(MAX_ADDRESS_CHARS)})` };
  }
  return { fragment };
}

/** Puts the open scenario's link in the address bar: a new history entry only when opening. */
function writeAddress(mode: 'push' | 'replace', fragment = addressOf(useScenario.getState().scenario).fragment): void {
  const write = withPending(mode);
  clearTimeout(addressTimer);
  pendingWrite = null;
  addressFragment = fragment;
  const url = `${window.location.pathname}${window.location.search}${fragment}`;
  const state = { entryId: useSession.getState().entryId };
  try {
    if (write === 'push' && window.location.hash !== fragment) window.history.pushState(state, '', url);
    else window.history.replaceState(state, '', url);
  } catch {
    // The browser refused the address (too long for it, or too many changes too fast): the
    // scenario is still on screen and in the library; the address catches up on the next edit.
  }
}

let addressTimer: ReturnType<typeof setTimeout> | undefined;
/**
 * The address write waiting in addressTimer, if any: an edit not in the address bar yet, or an
 * open's new history entry, which later edits' rewrites must not turn into a replace.
 */
let pendingWrite: 'push' | 'replace' | null = null;

/** `mode`, unless an open's history entry is still waiting to be pushed: that push is kept. */
const withPending = (mode: 'push' | 'replace') => (pendingWrite === 'push' ? 'push' : mode);

/** Writes the address after `delay` ms, once however often it is asked meanwhile. */
function writeAddressSoon(delay: number, mode: 'push' | 'replace' = 'replace'): void {
  clearTimeout(addressTimer);
  pendingWrite = withPending(mode);
  addressTimer = setTimeout(() => writeAddress('replace'), delay);
}

/** Back/Forward or a pasted link changed the address: open what it names. */
async function onAddressChange(): Promise<void> {
  const { hash, href } = window.location;
  if (hash === addressFragment) return;
  // popstate and hashchange both arrive for one change: the second must find it handled.
  addressFragment = hash;
  // The address now names another scenario: a pending rewrite of the old one must not land on it.
  clearTimeout(addressTimer);
  pendingWrite = null;
  const state = window.history.state as { entryId?: string | null } | null;
  await flushSave();
  // Back/Forward to a library entry reopens the entry as it is now, not the copy its address held.
  const entry = state?.entryId ? await guarded(() => library.get(state.entryId!)) : undefined;
  const decoded = decodeFragment(href);
  if (entry) {
    await openEntry(entry.id, { history: 'replace' });
  } else if (decoded.ok) {
    await openLink(decoded.scenario, hash);
  } else if (hash.length > 1) {
    useUi.getState().notify({ tone: 'error', text: `${decoded.error} Your own work is unchanged.` });
    writeAddress('replace');
  }
}

/** The library name of what is on screen (an unchanged example: its scenario name). */
export function openName(): string {
  const { entryId, entries } = useSession.getState();
  return entries.find((e) => e.id === entryId)?.name ?? useScenario.getState().scenario.name;
}

// ---- Opening ------------------------------------------------------------------------------------

interface OpenOptions {
  entryId: string | null;
  origin: Origin;
  /** The text of the notice; the part about the work that was on screen is added. */
  say?: string;
  /** Whether the open gets a history entry of its own (Back returns to what was open). */
  history?: 'push' | 'replace';
  /** The fragment to show (a link keeps its own, byte for byte). */
  fragment?: string;
  baseRevision?: number;
}

/** What was on screen before, to say where it went and to offer going back to it. */
function describeLeaving(): { text: string; undo: () => void } | null {
  const { entryId, origin } = useSession.getState();
  const name = openName();
  if (entryId) {
    const where = useSession.getState().persistent ? 'saved' : 'kept for this tab';
    return { text: `Your work "${name}" is ${where} in Scenarios.`, undo: () => void openEntry(entryId) };
  }
  if (origin.kind === 'example') return { text: '', undo: () => void openExample(origin.exampleId) };
  return null;
}

async function open(scenario: Scenario, options: OpenOptions): Promise<void> {
  await flushSave();
  // The history entry being left gets its latest edits (or, opened a moment ago, its entry), so
  // Back returns to exactly them.
  if (pendingWrite) writeAddress('replace');
  const leaving = describeLeaving();
  useScenario.getState().load(scenario);
  replayOpened();
  savedRevision = useScenario.getState().revision;
  baseRevision = options.baseRevision ?? 0;
  useSession.setState({ entryId: options.entryId, origin: options.origin });
  if (options.entryId) void guarded(() => library.setLastOpened(options.entryId!));
  const ui = useUi.getState();
  if (!(ui.selectedFile in scenario.agent)) ui.selectFile(AGENT_FILE);
  ui.setStep(0);
  ui.setPlaying(false);
  // A link keeps its own fragment; any other address is the scenario deflated, written in a task of
  // its own so the open's render and the deflate are not one long task.
  if (options.fragment !== undefined) writeAddress(options.history ?? 'push', options.fragment);
  else writeAddressSoon(0, options.history ?? 'push');
  if (options.say) {
    const text = [options.say, leaving?.text].filter(Boolean).join(' ');
    ui.notify({ tone: 'info', text, sticky: leaving !== null, action: leaving ? { label: 'Undo', run: leaving.undo } : undefined });
  }
  await refresh();
}

export async function openEntry(id: string, { history = 'push' as 'push' | 'replace', say = true } = {}): Promise<void> {
  await flushSave();
  const entry = await guarded(() => library.get(id));
  if (!entry) {
    useUi.getState().notify({ tone: 'error', text: 'That scenario is no longer in the library (deleted in another tab?).' });
    await refresh();
    return;
  }
  if (useSession.getState().entryId === id && useScenario.getState().revision === savedRevision && baseRevision === entry.revision) return;
  await open(entry.scenario, {
    entryId: entry.id, origin: entry.origin, baseRevision: entry.revision, history,
    say: say ? `Opened "${entry.name}" from Scenarios.` : undefined,
  });
}

export async function openExample(id: string): Promise<void> {
  const example = findExample(id);
  const content = exampleContent(id);
  if (!example || !content) return;
  await open(content, { entryId: null, origin: { kind: 'example', exampleId: id }, say: `Opened the example "${example.title}".` });
}

export async function newBlank(): Promise<void> {
  await open(blankScenario(), { entryId: null, origin: { kind: 'blank' }, say: 'Opened a blank scenario.' });
}

/** An imported file is saved to the library at once: the file may not be at hand again. */
export async function openImported(scenario: Scenario, file: string): Promise<void> {
  await flushSave();
  const entry = await guarded(() => library.create(scenario, { kind: 'import', file }));
  await open(entry?.scenario ?? scenario, {
    entryId: entry?.id ?? null, origin: { kind: 'import', file }, baseRevision: entry?.revision,
    say: `Imported ${file}${entry ? ` as "${entry.name}" in Scenarios` : ''}.`,
  });
}

/**
 * A shared link: an example's own link opens the example; a scenario already in the library opens
 * that entry; anything else becomes a new entry. The address bar keeps the link as it came.
 */
export async function openLink(scenario: Scenario, fragment: string, { history = 'push' as 'push' | 'replace', preferId = null as string | null, quiet = false } = {}): Promise<void> {
  await flushSave();
  const key = contentKey(scenario);
  const preferred = preferId ? await guarded(() => library.get(preferId)) : undefined;
  if (preferred && contentKey(preferred.scenario) === key) {
    await open(preferred.scenario, { entryId: preferred.id, origin: preferred.origin, baseRevision: preferred.revision, history, fragment });
    return;
  }
  const example = EXAMPLES.find((e) => contentKey(exampleContent(e.id)) === key);
  if (example) {
    await open(scenario, { entryId: null, origin: { kind: 'example', exampleId: example.id }, history, fragment, say: quiet ? undefined : `Opened the example "${example.title}" from the link.` });
    return;
  }
  const known = await guarded(() => library.findByContent(scenario));
  const entry = known ?? await guarded(() => library.create(scenario, { kind: 'link' }));
  const where = known ? `already in Scenarios as "${known.name}"` : entry ? `saved in Scenarios as "${entry.name}"` : 'kept in this tab only';
  await open(entry?.scenario ?? scenario, {
    entryId: entry?.id ?? null, origin: entry?.origin ?? { kind: 'link' }, baseRevision: entry?.revision, history, fragment,
    say: quiet && known ? undefined : `Opened the shared scenario (${where}).`,
  });
}

// ---- Library actions (the Scenarios menu) -------------------------------------------------------

export async function renameEntry(id: string, name: string): Promise<void> {
  const trimmed = name.trim();
  if (!trimmed) return;
  await flushSave();
  const entry = await guarded(() => library.rename(id, trimmed));
  if (entry && id === useSession.getState().entryId) {
    baseRevision = entry.revision;
    useScenario.getState().setName(entry.name);
  }
  await refresh();
}

export async function duplicateEntry(id: string): Promise<void> {
  await flushSave();
  const copy = await guarded(() => library.duplicate(id));
  if (copy) useUi.getState().notify({ tone: 'info', text: `Duplicated as "${copy.name}".` });
  await refresh();
}

/** The scenario on screen cannot be deleted (open another first): what is shown is always kept. */
export async function deleteEntry(id: string): Promise<void> {
  if (id === useSession.getState().entryId) return;
  const gone = await guarded(() => library.remove(id));
  if (gone) useUi.getState().notify({ tone: 'info', text: `Deleted "${gone.name}". Undo is in the Scenarios menu until the next delete.` });
  await refresh();
}

export async function undoDelete(): Promise<void> {
  const back = await guarded(() => library.undoRemove());
  if (back) useUi.getState().notify({ tone: 'info', text: `"${back.name}" is back in Scenarios.` });
  await refresh();
}

export async function restoreVersion(id: string, savedAt: number): Promise<void> {
  await flushSave();
  const entry = await guarded(() => library.restoreVersion(id, savedAt));
  if (!entry) return;
  await openEntry(id, { say: false });
  useUi.getState().notify({ tone: 'info', text: `"${entry.name}" is back to its version of ${new Date(savedAt).toLocaleString()}; what it replaced is kept as a version.` });
}

/** "Reset this example": the example as it ships; the edited copy stays in the library. */
export async function resetExample(): Promise<void> {
  const { origin } = useSession.getState();
  if (origin.kind === 'example') await openExample(origin.exampleId);
}

// ---- Start --------------------------------------------------------------------------------------

/** Starts following edits: saving them, and keeping the address bar on the scenario. */
function follow(): void {
  useScenario.subscribe((s, prev) => {
    if (s.revision === prev.revision || s.revision === savedRevision) return;
    clearTimeout(saveTimer);
    saveTimer = setTimeout(() => void flushSave(), SAVE_DELAY_MS);
    writeAddressSoon(ADDRESS_DELAY_MS);
  });
  window.addEventListener('popstate', () => void onAddressChange());
  window.addEventListener('hashchange', () => void onAddressChange());
  window.addEventListener('pagehide', () => void flushSave());
  window.addEventListener('keydown', (e) => {
    if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 's') {
      e.preventDefault();
      void saveAndCopyLink();
    }
  }, { capture: true });
}

/** Moves the earlier page's single-slot work into the library; returns the first entry. */
async function moveEarlierWork(): Promise<LibraryEntry | undefined> {
  const earlier = loadEarlierWork();
  let first: LibraryEntry | undefined;
  for (const work of earlier) {
    const entry = await guarded(async () => (await library.findByContent(work)) ?? library.create(work, { kind: 'earlier-work' }));
    first ??= entry;
  }
  if (earlier.length > 0 && useSession.getState().persistent) forgetEarlierWork();
  return first;
}

/**
 * Opens what the page was asked for: the link in the address bar (a reload of this tab finds its
 * own entry through history.state), else this tab's or the last opened entry, else the earlier
 * page's saved work, else the default example.
 */
export async function startSession(): Promise<void> {
  const state = window.history.state as { entryId?: string | null } | null;
  const hintId = state?.entryId ?? null;
  const earlier = await moveEarlierWork();
  const hash = window.location.hash;
  if (hash.length > 1) {
    const decoded = decodeFragment(window.location.href);
    if (decoded.ok) {
      // A state of ours means this tab's own address came back (a reload): nothing to announce.
      await openLink(decoded.scenario, hash, { history: 'replace', preferId: hintId, quiet: state !== null });
      follow();
      return;
    }
    useUi.getState().notify({ tone: 'error', text: `${decoded.error} Your own work is unchanged.` });
  }
  const lastId = hintId ?? await guarded(() => library.lastOpened()) ?? earlier?.id;
  const entry = lastId ? await guarded(() => library.get(lastId)) : undefined;
  if (entry) await open(entry.scenario, { entryId: entry.id, origin: entry.origin, baseRevision: entry.revision, history: 'replace' });
  else await open(defaultScenario(), { entryId: null, origin: { kind: 'example', exampleId: DEFAULT_EXAMPLE_ID }, history: 'replace' });
  follow();
}
