// One page's session: the scenario on screen and its whole life. It opens scenarios (an example, a
// library entry, a link, a file, a blank page), keeps every edit in the library, keeps the address
// bar on the open scenario's link, and has the workers replay it. It owns the page's stores (the
// scenario, the UI, the workers' results with their status, the library listing); the page makes
// one in src/start.ts and the components reach it through src/ui/page.ts. Nothing here touches the
// browser but through its PageHost, so tests run it whole with fake workers and a fake host.
import type { StoreApi } from 'zustand';
import { type Scenario, type Encoding, ScenarioSchema } from '../engine/page.ts';
import { DEFAULT_EXAMPLE_ID, EXAMPLES, findExample } from '../scenarios/examples.ts';
import { decodeFragment } from '../share/index.ts';
import { parseRoute, parseViewParams, viewParams, type ChartView, type ViewState, type Zoom } from '../share/view.ts';
import { describeAt, type LessonAt } from '../scenarios/lessons.ts';
import { landingStep } from './lesson.ts';
import type { WorkerClient } from '../worker/client.ts';
import type { ResultOf, Transform } from '../worker/protocol.ts';
import type { TimelineView } from '../worker/timeline-view.ts';
import { AddressBar } from './address-bar.ts';
import { Advisor } from './advisor.ts';
import { forgetEarlierWork, loadEarlierWork } from './earlier-work.ts';
import type { PageHost } from './host.ts';
import { KeptLibrary, type LibraryStore } from './kept-library.ts';
import { contentKey, type LibraryEntry, type Origin } from './library.ts';
import { createReplayGuard } from './replayGuard.ts';
import { Replays, SLOW_REPLAY_MS } from './replays.ts';
import { createResultsStore, type ResultsStore } from './results.ts';
import {
  AGENT_FILE,
  blankScenario,
  createScenarioStore,
  defaultScenario,
  exampleContent,
  placeholderScenario,
  type ScenarioStore,
} from './scenario.ts';
import { memoryStorage, type OpenedStorage } from './storage.ts';
import { createUiStore, type LessonNote, type Notice, type UiStore } from './ui.ts';

/** How long the session waits for quiet before acting, in ms. */
export interface Delays {
  /** After the last edit, before it is saved to the library. */
  save: number;
  /** After the last edit, before the address bar is rewritten. */
  address: number;
  /** After the last edit, before it is replayed. */
  edit: number;
  /** After the last scrub, before the step is inspected. */
  inspect: number;
  /** A replay that took longer than this turns auto-run off: edits then wait for Run. */
  slowReplay: number;
}

/** The tab's storage key for what it left as it went (`PageSession.leaving`). */
export const LEFT_KEY = 'leviath.leaving.v1';
/** What a tab leaves as it goes: its entry, its step, and edits not saved yet with where they belong. */
interface Left {
  entryId: string | null;
  step: number;
  /** The view it showed, as a link's view parts (`&view=cache&zoom=fit`): the address may not hold them (see start). */
  view?: string;
  unsaved?: { origin: Origin; scenario: Scenario };
}

export const DELAYS: Readonly<Delays> = Object.freeze({
  save: 300,
  address: 400,
  edit: 200,
  inspect: 40,
  slowReplay: SLOW_REPLAY_MS,
});

/** After the last change of the view (a scrub, a tab), before the address bar follows, in ms. */
const VIEW_ADDRESS_DELAY = 250;

/** Where an open lands: the view, and the step once its replay answers (none: step 1). */
interface Landing {
  at: LessonAt | null;
  view: ChartView;
  zoom?: Zoom;
  region?: string;
  entry?: number;
  lesson?: LessonNote;
}

/** A link's view parts as a landing (a link without them lands where links always did: step 1, Window). */
function landingOf(view: ViewState): Landing {
  return {
    at: view.step ? { step: view.step } : null,
    view: view.view ?? 'window',
    zoom: view.zoom,
    region: view.region,
    entry: view.entry,
  };
}

export interface PageSessionOptions {
  host: PageHost;
  /** The engine worker's client: replays, inspects, share transforms. */
  engine: WorkerClient;
  /** The edit worker's client: validation while edits wait for Run, Rhai checks. */
  edit: WorkerClient;
  /** The advisor's worker (advise.worker.ts), started on the first Advise. */
  advise: WorkerClient;
  /** The library's storage. Absent in the embed view, which keeps nothing and leaves the address alone. */
  storage?: OpenedStorage;
  /** Saves the scenario as a file: offered where the browser will not keep the work. */
  exportScenario?: (scenario: Scenario) => void;
  delays?: Partial<Delays>;
}

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
  /** Where it lands (default: step 1 of the Window view, the person's zoom). */
  land?: Landing;
}

export class PageSession {
  readonly scenario: StoreApi<ScenarioStore> = createScenarioStore(placeholderScenario());
  readonly ui: StoreApi<UiStore>;
  readonly results: StoreApi<ResultsStore> = createResultsStore();
  /** The library listing and where the open scenario lives (the Scenarios menu). */
  readonly library: StoreApi<LibraryStore>;
  /** The Advise button's search and its proposals. */
  readonly advisor: Advisor;

  private readonly host: PageHost;
  private readonly kept: KeptLibrary;
  private readonly address: AddressBar;
  private readonly replays: Replays;
  private readonly delays: Delays;
  private readonly exportAction: Notice['action'];
  /** The entry revision this tab last read or wrote (see library.save). */
  private baseRevision = 0;
  /** The scenario store's edit count that is in the library (or is the unchanged example). */
  private savedEdits = 0;
  /** Saves run one after another, so a flush waits for one already in flight. */
  private saveQueue: Promise<unknown> = Promise.resolve();
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  /** The opened scenario's landing step, taken by its first replay. */
  private landing: { scenario: Scenario; at: LessonAt } | null = null;

  constructor(options: PageSessionOptions) {
    this.host = options.host;
    this.delays = { ...DELAYS, ...options.delays };
    this.ui = createUiStore({ storage: options.host.storage, prefersDark: options.host.prefersDark });
    const exportScenario = options.exportScenario;
    this.exportAction = exportScenario && {
      label: 'Export',
      run: () => exportScenario(this.scenario.getState().scenario),
    };
    this.kept = new KeptLibrary(options.storage ?? { storage: memoryStorage(), persistent: true }, (problem) =>
      this.notify({
        tone: 'error',
        sticky: true,
        action: this.exportAction,
        text: `Your work cannot be stored in this browser (${problem}). The page keeps working, but nothing will survive a reload: use Export to keep a copy.`,
      }),
    );
    this.library = this.kept.store;
    this.address = new AddressBar(
      this.host,
      () => ({ scenario: this.scenario.getState().scenario, entryId: this.library.getState().entryId }),
      () => this.viewState(),
    );
    this.replays = new Replays({
      engine: options.engine,
      edit: options.edit,
      results: this.results,
      ui: this.ui,
      scenario: () => this.scenario.getState().scenario,
      guard: createReplayGuard(options.host.storage),
      chartWidth: () => this.host.chartWidth(),
      delays: this.delays,
      landing: (scenario, timeline) => {
        const landing = this.landing;
        if (landing?.scenario !== scenario) return null;
        this.landing = null;
        return landingStep(landing.at, timeline);
      },
    });
    this.advisor = new Advisor({ client: options.advise, scenario: this.scenario, ui: this.ui });
  }

  /** What the address holds of the view: only what differs from where a link lands without it. */
  private viewState(): ViewState {
    const ui = this.ui.getState();
    return {
      step: ui.step > 0 ? ui.step + 1 : undefined,
      view: ui.chartView === 'window' ? undefined : ui.chartView,
      zoom: ui.zoom === 'auto' ? undefined : ui.zoom,
      region: ui.focusRegion ?? undefined,
      entry: ui.focusRegion !== null && ui.focusEntry !== null ? ui.focusEntry : undefined,
    };
  }

  // ---- Start ----------------------------------------------------------------------------------

  /**
   * Opens what the page was asked for: the link in the address bar (a reload of this tab finds its
   * own entry through history.state), else this tab's or the last opened entry, else the earlier
   * page's saved work, else the default example. Then it keeps every edit, follows the address bar
   * and replays what is on screen.
   */
  async start(): Promise<void> {
    // A reload is this tab's own page coming back, whether or not the browser kept the history
    // entry's state: a reload that crosses an address rewrite comes back with the state null and the
    // address (scenario and view) from before the rewrite, so what the tab left says what was open.
    const ours = this.address.ours || this.host.reloaded;
    const left = this.takeLeft(this.address.entryId, ours);
    const hintId = this.address.entryId ?? left?.entryId ?? null;
    const earlier = await this.moveEarlierWork();
    const { hash, href } = this.host.location();
    let opened = false;
    const route = parseRoute(href);
    if (left?.unsaved) {
      await this.restoreUnsaved(left.unsaved.scenario, left.entryId, left.unsaved.origin);
      opened = true;
    } else if (left?.entryId && (await this.reopenLeft(left.entryId))) {
      // Its edits were saved: the entry as it is now, not the older copy an address may still hold.
      opened = true;
    } else if (route?.kind === 'example') opened = await this.openExampleRoute(route.id, href);
    else if (route?.kind === 'guide') this.ui.getState().setGuideSection(route.section);
    else if (hash.length > 1) {
      const decoded = decodeFragment(href);
      if (decoded.ok) {
        // A state of ours means this tab's own address came back (a reload): nothing to announce.
        await this.openLink(decoded.scenario, hash, {
          history: 'replace',
          preferId: hintId,
          quiet: ours,
          view: parseViewParams(href).view,
        });
        opened = true;
      } else {
        this.notify({ tone: 'error', text: `${decoded.error} Your own work is unchanged.` });
      }
    }
    if (!opened) {
      const lastId = hintId ?? (await this.kept.call((l) => l.lastOpened())) ?? earlier?.id;
      const entry = lastId ? await this.kept.call((l) => l.get(lastId)) : undefined;
      if (entry)
        await this.open(entry.scenario, {
          entryId: entry.id,
          origin: entry.origin,
          baseRevision: entry.revision,
          history: 'replace',
        });
      // A first visit opens the default example at its lesson, as the Examples menu does: a bare
      // address names no scenario, so no old link's landing is at stake (docs/decisions/ui.md).
      else
        await this.open(defaultScenario(), {
          entryId: null,
          origin: { kind: 'example', exampleId: DEFAULT_EXAMPLE_ID },
          history: 'replace',
          land: exampleLanding(DEFAULT_EXAMPLE_ID),
        });
    }
    // A reload comes back to the view and the step it left (the replay clamps the step to the run's length).
    if (left) {
      // Not the lesson's or the address's landing, which would move the step once the replay answers.
      this.landing = null;
      this.applyView({ ...leftView(left), step: undefined });
      this.ui.getState().setStep(left.step);
    }
    this.follow();
    this.startReplays();
  }

  /**
   * What this tab left as it went (`leaving`), read once: only a reload of a history entry this
   * page wrote takes it up (a link pasted into the tab, or one naming another entry, does not).
   */
  private takeLeft(entryId: string | null, ours: boolean): Left | null {
    const storage = this.host.tabStorage;
    let left: Left | null = null;
    try {
      const text = storage?.getItem(LEFT_KEY);
      storage?.removeItem(LEFT_KEY);
      const parsed = text ? (JSON.parse(text) as Left) : null;
      // The history entry may not name the entry yet (its address is rewritten 400 ms after an
      // edit, the first save can take longer): the tab's own storage says which it was.
      if (parsed && ours && (parsed.entryId === entryId || entryId === null) && Number.isInteger(parsed.step))
        left = parsed;
      if (left?.unsaved) left.unsaved.scenario = ScenarioSchema.parse(left.unsaved.scenario);
    } catch {
      left = null;
    }
    return left;
  }

  /**
   * The tab is going away (pagehide): the step, and edits not saved yet with where they belong, go
   * to the tab's own storage at once. (The save begun now is asynchronous and a reload does not
   * wait for it; an address rewritten during pagehide is not kept by the reload either.)
   */
  private leaving(): void {
    const { entryId, origin } = this.library.getState();
    const { scenario, edits } = this.scenario.getState();
    const left: Left = { entryId, step: this.ui.getState().step, view: viewParams(this.viewState()) };
    if (edits !== this.savedEdits) left.unsaved = { origin, scenario };
    try {
      this.host.tabStorage?.setItem(LEFT_KEY, JSON.stringify(left));
    } catch {
      // Refused, or too large for the tab's storage (a big import): the save below is all there is.
    }
  }

  /**
   * A reload of this tab that went away with edits not saved yet: they are saved where they
   * belong, the entry they were made in (or, for an example's first edit, a new entry named as that
   * save would have named it), not as a shared link of their own.
   */
  private async restoreUnsaved(scenario: Scenario, entryId: string | null, origin: Origin): Promise<void> {
    // The save begun as the tab went may have finished after all: then that entry holds them.
    const entry = entryId
      ? await this.kept.call((l) => l.get(entryId))
      : await this.kept.call((l) => l.findByContent(scenario));
    const kept = entry?.origin ?? origin;
    await this.open(scenario, {
      entryId: entry?.id ?? null,
      origin: kept,
      baseRevision: entry?.revision,
      history: 'replace',
      land: leftLanding(kept),
    });
    if (entry && contentKey(entry.scenario) === contentKey(scenario)) return;
    this.savedEdits = -1;
    await this.flushSave();
  }

  /** A reload of this tab that went with its edits saved: the entry it left, as the library has it. */
  private async reopenLeft(entryId: string): Promise<boolean> {
    const entry = await this.kept.call((l) => l.get(entryId));
    if (!entry) return false;
    await this.open(entry.scenario, {
      entryId: entry.id,
      origin: entry.origin,
      baseRevision: entry.revision,
      history: 'replace',
      land: leftLanding(entry.origin),
    });
    return true;
  }

  /** The embed view: the scenario of a link, replayed, with no library and the address left alone. */
  startEmbed(scenario: Scenario): void {
    this.scenario.getState().load(scenario);
    this.startReplays();
  }

  private startReplays(): void {
    this.scenario.subscribe((s, prev) => {
      if (s.edits !== prev.edits) this.replays.edited();
    });
    this.ui.subscribe((s, prev) => {
      if (s.step !== prev.step) this.replays.stepChanged(s.playing);
    });
    this.host.listen('pagehide', () => this.replays.leaving());
    this.replays.start();
  }

  /** Starts following edits (saving them, keeping the address bar on the scenario) and the address bar. */
  private follow(): void {
    this.scenario.subscribe((s, prev) => {
      if (s.edits === prev.edits || s.edits === this.savedEdits) return;
      clearTimeout(this.saveTimer);
      this.saveTimer = setTimeout(() => void this.flushSave(), this.delays.save);
      this.address.writeSoon(this.delays.address);
    });
    this.host.listen('popstate', () => void this.addressChanged());
    this.host.listen('hashchange', () => void this.addressChanged());
    this.host.listen('pagehide', () => {
      this.leaving();
      void this.flushSave();
    });
    this.host.listen('pagehide', () => this.address.flushView());
    this.ui.subscribe((s, prev) => {
      if (
        s.step !== prev.step ||
        s.chartView !== prev.chartView ||
        s.zoom !== prev.zoom ||
        s.focusRegion !== prev.focusRegion ||
        s.focusEntry !== prev.focusEntry
      ) {
        this.address.writeViewSoon(VIEW_ADDRESS_DELAY);
      }
    });
  }

  /** `#example/<id>`: the example at its lesson (view parts after it override the lesson's). */
  private async openExampleRoute(id: string, href: string): Promise<boolean> {
    if (findExample(id)) {
      await this.openExample(id, { history: 'replace', view: parseViewParams(href).view, quiet: true });
      return true;
    }
    this.notify({
      tone: 'error',
      text: `This link names an example "${id}" that this page does not have; the examples are ${EXAMPLES.map((e) => e.id).join(', ')}. Your own work is unchanged.`,
    });
    return false;
  }

  /** Applies a link's view parts to the scenario on screen (its step within the run). */
  private applyView(view: ViewState): void {
    const ui = this.ui.getState();
    const count = this.results.getState().timeline?.steps.count ?? 0;
    ui.setPlaying(false);
    if (view.step !== undefined) ui.setStep(Math.min(view.step - 1, Math.max(0, count - 1)));
    ui.setChartView(view.view ?? 'window');
    ui.setZoom(view.zoom);
    ui.setFocusRegion(view.region ?? null);
    ui.setFocusEntry(view.entry ?? null);
  }

  /** The lesson bar's "Show me": the example's view, zoom and region, at its step of the run on screen. */
  showLesson(): void {
    const note = this.ui.getState().lesson;
    const example = note && findExample(note.exampleId);
    const timeline = this.results.getState().timeline;
    if (!example) return;
    const { lesson } = example;
    const ui = this.ui.getState();
    ui.setPlaying(false);
    ui.setChartView(lesson.view);
    ui.setZoom(lesson.zoom);
    ui.setFocusRegion(lesson.region ?? null);
    const step = timeline ? landingStep(lesson.at, timeline) : null;
    if (step !== null) ui.setStep(step);
  }

  /** Moves the earlier page's single-slot work into the library; returns the first entry. */
  private async moveEarlierWork(): Promise<LibraryEntry | undefined> {
    const earlier = loadEarlierWork(this.host.storage);
    let first: LibraryEntry | undefined;
    for (const work of earlier) {
      const entry = await this.kept.call(
        async (l) => (await l.findByContent(work)) ?? l.create(work, { kind: 'earlier-work' }),
      );
      first ??= entry;
    }
    if (earlier.length > 0 && this.library.getState().persistent) forgetEarlierWork(this.host.storage);
    return first;
  }

  // ---- Notices, names -------------------------------------------------------------------------

  notify(notice: Omit<Notice, 'id'>): void {
    this.ui.getState().notify(notice);
  }

  /** The library name of what is on screen (an unchanged example: its scenario name). */
  openName(): string {
    const { entryId, entries } = this.library.getState();
    return entries.find((e) => e.id === entryId)?.name ?? this.scenario.getState().scenario.name;
  }

  // ---- Replays --------------------------------------------------------------------------------

  /** Run, Ctrl+Enter, and the held banner's Run: replays the scenario on screen now. */
  replayNow(): void {
    this.replays.replayNow();
  }

  /** Stops the replay in progress; the charts keep the last finished timeline, marked out of date. */
  cancelReplay(): void {
    this.replays.cancel();
  }

  setAutoRun(on: boolean): void {
    this.replays.setAutoRun(on);
  }

  /** A share option that counts tokens, done where the tokenizer is (the engine worker). */
  transform(scenario: Scenario, transform: Transform): Promise<Scenario> {
    return this.replays.transform(scenario, transform);
  }

  /** One page of a text's tokens, for the token view (the engine worker has the tokenizer). */
  tokens(view: string, text: string, encoding: Encoding, from: number, limit: number): Promise<ResultOf['tokens']> {
    return this.replays.tokens(view, text, encoding, from, limit);
  }

  /** The charts finished drawing this timeline (they count as ready only then). */
  drawn(timeline: TimelineView): void {
    this.results.setState({ drawn: timeline });
  }

  // ---- Saving ---------------------------------------------------------------------------------

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const next = this.saveQueue.then(task, task);
    this.saveQueue = next.catch(() => undefined);
    return next;
  }

  private async saveNow(checkpoint: boolean): Promise<void> {
    const { scenario, edits } = this.scenario.getState();
    if (edits === this.savedEdits && !checkpoint) return;
    const { entryId, origin } = this.library.getState();
    if (entryId === null) {
      const entry = await this.kept.call((l) => l.create(scenario, origin));
      if (!entry) return;
      this.track(entry, edits);
      this.adoptName(entry);
      if (checkpoint) await this.saveNow(true);
    } else {
      const result = await this.kept.call((l) => l.save(entryId, scenario, this.baseRevision, { checkpoint }));
      if (!result) return;
      if (result.ok) this.track(result.entry, edits);
      else await this.keepOwnCopy(scenario, result.conflict, edits);
    }
    await this.kept.refresh();
  }

  private track(entry: LibraryEntry, edits: number): void {
    this.baseRevision = entry.revision;
    this.savedEdits = edits;
    this.library.setState({ entryId: entry.id, origin: entry.origin });
    void this.kept.call((l) => l.setLastOpened(entry.id));
  }

  /**
   * A new entry's name is made unique ("coding-agent (2)"): the scenario on screen takes it, so the
   * header, the Scenarios menu and Copy as Markdown name it alike. Not an edit: the entry already
   * holds that name.
   */
  private adoptName(entry: LibraryEntry): void {
    const { scenario, load } = this.scenario.getState();
    if (scenario.name !== entry.name) load({ ...scenario, name: entry.name });
  }

  /** Another tab saved this entry since this tab read it: this tab's work becomes its own entry. */
  private async keepOwnCopy(scenario: Scenario, theirs: LibraryEntry, edits: number): Promise<void> {
    const copy = await this.kept.call((l) => l.create(scenario, { kind: 'copy', of: theirs.name }, theirs.name));
    if (!copy) return;
    this.track(copy, edits);
    this.adoptName(copy);
    this.address.write('replace');
    this.notify({
      tone: 'info',
      sticky: true,
      text: `"${theirs.name}" was also changed in another tab. Both are kept: this tab's version is now "${copy.name}" in Scenarios, the other tab's stays "${theirs.name}".`,
    });
  }

  /** Saves any pending change now (before opening something else, or when the page goes). */
  flushSave(): Promise<void> {
    clearTimeout(this.saveTimer);
    return this.serial(() => this.saveNow(false));
  }

  /** Ctrl/Cmd+S: saves, keeps this content as a version, and copies the link. */
  async saveAndCopyLink(): Promise<void> {
    clearTimeout(this.saveTimer);
    await this.serial(() => this.saveNow(true));
    const link = this.address.linkOf(this.scenario.getState().scenario);
    this.address.write('replace', link.fragment);
    const name = this.openName();
    const where = this.library.getState().persistent
      ? `Saved "${name}" in Scenarios`
      : `"${name}" is kept in this tab only (storage is refused)`;
    if (link.problem) {
      this.notify({
        tone: 'info',
        sticky: true,
        action: this.exportAction,
        text: `${where}. No link was copied: ${link.problem}. Export it as a file, or use Share to shorten the link.`,
      });
      return;
    }
    try {
      await this.host.clipboard.writeText(this.host.location().href);
      this.notify({ tone: 'info', text: `${where}; its link is copied.` });
    } catch {
      this.notify({
        tone: 'info',
        text: `${where}. The browser refused the clipboard: copy the link from the address bar.`,
      });
    }
  }

  // ---- Opening --------------------------------------------------------------------------------

  /** Back/Forward or a pasted link changed the address: open what it names. */
  private async addressChanged(): Promise<void> {
    const change = this.address.changed();
    if (!change) return;
    const { hash, href } = this.host.location();
    if (change === 'view') {
      this.applyView(parseViewParams(href).view);
      return;
    }
    const route = parseRoute(href);
    if (route) {
      if (route.kind === 'example') {
        await this.flushSave();
        if (await this.openExampleRoute(route.id, href)) return;
      } else {
        this.ui.getState().setGuideSection(route.section);
      }
      // The address goes back to naming the scenario on screen.
      this.address.write('replace');
      return;
    }
    const entryId = this.address.entryId;
    await this.flushSave();
    // Back/Forward to a library entry reopens the entry as it is now, not the copy its address held.
    const entry = entryId ? await this.kept.call((l) => l.get(entryId)) : undefined;
    const decoded = decodeFragment(href);
    if (entry) {
      await this.openEntry(entry.id, { history: 'replace' });
    } else if (decoded.ok) {
      await this.openLink(decoded.scenario, hash, { view: parseViewParams(href).view });
    } else if (hash.length > 1) {
      this.notify({ tone: 'error', text: `${decoded.error} Your own work is unchanged.` });
      this.address.write('replace');
    }
  }

  /** What was on screen before, to say where it went and to offer going back to it. */
  private describeLeaving(): { text: string; undo: () => void } | null {
    const { entryId, origin, persistent } = this.library.getState();
    const name = this.openName();
    if (entryId) {
      const where = persistent ? 'saved' : 'kept for this tab';
      return { text: `Your work "${name}" is ${where} in Scenarios.`, undo: () => void this.openEntry(entryId) };
    }
    if (origin.kind === 'example') return { text: '', undo: () => void this.openExample(origin.exampleId) };
    return null;
  }

  private async open(scenario: Scenario, options: OpenOptions): Promise<void> {
    await this.flushSave();
    // The history entry being left gets its latest edits (or, opened a moment ago, its entry), so
    // Back returns to exactly them.
    if (this.address.waiting) this.address.write('replace');
    const leaving = this.describeLeaving();
    this.scenario.getState().load(scenario);
    this.savedEdits = this.scenario.getState().edits;
    this.baseRevision = options.baseRevision ?? 0;
    this.library.setState({ entryId: options.entryId, origin: options.origin });
    this.landing = options.land?.at ? { scenario, at: options.land.at } : null;
    this.replays.opened();
    const entryId = options.entryId;
    if (entryId) void this.kept.call((l) => l.setLastOpened(entryId));
    const ui = this.ui.getState();
    if (!(ui.selectedFile in scenario.agent)) ui.selectFile(AGENT_FILE);
    ui.setStep(0);
    ui.setPlaying(false);
    const land = options.land;
    ui.setChartView(land?.view ?? 'window');
    ui.setZoom(land?.zoom);
    ui.setFocusRegion(land?.region ?? null);
    ui.setFocusEntry(land?.entry ?? null);
    ui.setLesson(land?.lesson ?? null);
    // A link keeps its own fragment; any other address is the scenario deflated, written in a task of
    // its own so the open's render and the deflate are not one long task.
    if (options.fragment !== undefined) this.address.write(options.history ?? 'push', options.fragment);
    else this.address.writeSoon(0, options.history ?? 'push');
    ui.dropScenarioNotices();
    if (options.say) {
      // The Undo fades with its notice (after longer than plain information): what it goes back
      // to is in Scenarios either way, as the notice says.
      const text = [options.say, leaving?.text].filter(Boolean).join(' ');
      this.notify({ tone: 'info', text, action: leaving ? { label: 'Undo', run: leaving.undo } : undefined });
    }
    await this.kept.refresh();
  }

  async openEntry(id: string, { history = 'push' as 'push' | 'replace', say = true } = {}): Promise<void> {
    await this.flushSave();
    const entry = await this.kept.call((l) => l.get(id));
    if (!entry) {
      this.notify({ tone: 'error', text: 'That scenario is no longer in the library (deleted in another tab?).' });
      await this.kept.refresh();
      return;
    }
    if (
      this.library.getState().entryId === id &&
      this.scenario.getState().edits === this.savedEdits &&
      this.baseRevision === entry.revision
    )
      return;
    await this.open(entry.scenario, {
      entryId: entry.id,
      origin: entry.origin,
      baseRevision: entry.revision,
      history,
      say: say ? `Opened "${entry.name}" from Scenarios.` : undefined,
    });
  }

  /** An example, at its lesson (or where `view` says: a link's parts override the lesson's). */
  async openExample(
    id: string,
    { view = {} as ViewState, history = 'push' as 'push' | 'replace', quiet = false } = {},
  ): Promise<void> {
    const example = findExample(id);
    const content = exampleContent(id);
    if (!example || !content) return;
    await this.open(content, {
      entryId: null,
      origin: { kind: 'example', exampleId: id },
      history,
      say: quiet ? undefined : `Opened the example "${example.title}".`,
      land: exampleLanding(id, view),
    });
  }

  async newBlank(): Promise<void> {
    await this.open(blankScenario(), { entryId: null, origin: { kind: 'blank' }, say: 'Opened a blank scenario.' });
  }

  /** An imported file is saved to the library at once: the file may not be at hand again. */
  async openImported(scenario: Scenario, file: string): Promise<void> {
    await this.flushSave();
    const entry = await this.kept.call((l) => l.create(scenario, { kind: 'import', file }));
    await this.open(entry?.scenario ?? scenario, {
      entryId: entry?.id ?? null,
      origin: { kind: 'import', file },
      baseRevision: entry?.revision,
      say: `Imported ${file}${entry ? ` as "${entry.name}" in Scenarios` : ''}.`,
    });
  }

  /**
   * A shared link: an example's own link opens the example; a scenario already in the library opens
   * that entry; anything else becomes a new entry. The address bar keeps the link as it came.
   */
  async openLink(
    scenario: Scenario,
    fragment: string,
    {
      history = 'push' as 'push' | 'replace',
      preferId = null as string | null,
      quiet = false,
      view = {} as ViewState,
    } = {},
  ): Promise<void> {
    await this.flushSave();
    const key = contentKey(scenario);
    const land = landingOf(view);
    const preferred = preferId ? await this.kept.call((l) => l.get(preferId)) : undefined;
    if (preferred && contentKey(preferred.scenario) === key) {
      const exampleId = preferred.origin.kind === 'example' ? preferred.origin.exampleId : undefined;
      await this.open(preferred.scenario, {
        entryId: preferred.id,
        origin: preferred.origin,
        baseRevision: preferred.revision,
        history,
        fragment,
        land: { ...land, lesson: exampleId ? lessonNote(exampleId) : undefined },
      });
      return;
    }
    const example = EXAMPLES.find((e) => contentKey(exampleContent(e.id)) === key);
    if (example) {
      // The example's own link opens where the link says (step 1 of Window when it says nothing), with its lesson one click away.
      await this.open(scenario, {
        entryId: null,
        origin: { kind: 'example', exampleId: example.id },
        history,
        fragment,
        land: { ...land, lesson: lessonNote(example.id) },
        say: quiet ? undefined : `Opened the example "${example.title}" from the link.`,
      });
      return;
    }
    const known = await this.kept.call((l) => l.findByContent(scenario));
    const entry = known ?? (await this.kept.call((l) => l.create(scenario, { kind: 'link' })));
    const where = known
      ? `already in Scenarios as "${known.name}"`
      : entry
        ? `saved in Scenarios as "${entry.name}"`
        : 'kept in this tab only';
    await this.open(entry?.scenario ?? scenario, {
      entryId: entry?.id ?? null,
      origin: entry?.origin ?? { kind: 'link' },
      baseRevision: entry?.revision,
      history,
      fragment,
      land,
      say: quiet && known ? undefined : `Opened the shared scenario (${where}).`,
    });
  }

  /** "Reset this example": the example as it ships; the edited copy stays in the library. */
  async resetExample(): Promise<void> {
    const { origin } = this.library.getState();
    if (origin.kind === 'example') await this.openExample(origin.exampleId);
  }

  // ---- Library actions (the Scenarios menu) ---------------------------------------------------

  async renameEntry(id: string, name: string): Promise<void> {
    const trimmed = name.trim();
    if (!trimmed) return;
    await this.flushSave();
    const entry = await this.kept.call((l) => l.rename(id, trimmed));
    if (entry && id === this.library.getState().entryId) {
      this.baseRevision = entry.revision;
      this.scenario.getState().setName(entry.name);
    }
    await this.kept.refresh();
  }

  async duplicateEntry(id: string): Promise<void> {
    await this.flushSave();
    const copy = await this.kept.call((l) => l.duplicate(id));
    if (copy) this.notify({ tone: 'info', text: `Duplicated as "${copy.name}".` });
    await this.kept.refresh();
  }

  /** The scenario on screen cannot be deleted (open another first): what is shown is always kept. */
  async deleteEntry(id: string): Promise<void> {
    if (id === this.library.getState().entryId) return;
    const gone = await this.kept.call((l) => l.remove(id));
    if (gone)
      this.notify({
        tone: 'info',
        text: `Deleted "${gone.name}". Undo is in the Scenarios menu until the next delete.`,
      });
    await this.kept.refresh();
  }

  async undoDelete(): Promise<void> {
    const back = await this.kept.call((l) => l.undoRemove());
    if (back) this.notify({ tone: 'info', text: `"${back.name}" is back in Scenarios.` });
    await this.kept.refresh();
  }

  async restoreVersion(id: string, savedAt: number): Promise<void> {
    await this.flushSave();
    const entry = await this.kept.call((l) => l.restoreVersion(id, savedAt));
    if (!entry) return;
    await this.openEntry(id, { say: false });
    this.notify({
      tone: 'info',
      text: `"${entry.name}" is back to its version of ${new Date(savedAt).toLocaleString()}; what it replaced is kept as a version.`,
    });
  }
}

/** Where an example opens: its lesson, with whatever a link's view parts say instead. */
function exampleLanding(id: string, view: ViewState = {}): Landing | undefined {
  const lesson = findExample(id)?.lesson;
  if (!lesson) return undefined;
  return {
    at: view.step ? { step: view.step } : lesson.at,
    view: view.view ?? lesson.view,
    zoom: view.zoom ?? lesson.zoom,
    region: view.region ?? lesson.region,
    entry: view.entry,
    lesson: lessonNote(id),
  };
}

/** The lesson bar's words for an example. */
/** The view a tab left (what cannot be read is left out, as in a link). */
function leftView(left: Left): ViewState {
  return typeof left.view === 'string' ? parseViewParams(left.view).view : {};
}

/** Where a reload's open lands before the view it left is applied: an example's lesson one click away. */
function leftLanding(origin: Origin): Landing {
  return { at: null, view: 'window', lesson: origin.kind === 'example' ? lessonNote(origin.exampleId) : undefined };
}

function lessonNote(id: string): LessonNote | undefined {
  const example = findExample(id);
  return (
    example && { exampleId: id, title: example.title, look: example.lesson.look, where: describeAt(example.lesson.at) }
  );
}
