// UI state: what is selected, scrubbed, playing, how it looks, and the notices. A PageSession owns
// one store of it. The part kept between visits (preferences.ts) is persisted with zustand's
// `persist`; the rest starts afresh with each page. Replay results live in results.ts.
import { createStore, type StoreApi } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import {
  DEFAULT_SETTINGS,
  DEFAULT_SPEED,
  PREFERENCES_KEY,
  REMEMBERED_COLOURS,
  parsePreferences,
  preferencesStorage,
  resolveTheme,
  type Preferences,
  type Settings,
  type Theme,
} from './preferences.ts';
import { AGENT_FILE } from './scenario.ts';
import type { ChartView, Zoom } from '../share/view.ts';

/** The lesson of the example on screen, as the lesson bar shows it. */
export interface LessonNote {
  exampleId: string;
  title: string;
  look: string;
  where: string;
}

/**
 * An error, and a `sticky` notice, stays until dismissed; any other information fades (ui/Notices.tsx).
 * `about: 'scenario'` is a notice about the scenario on screen ("Copied the Anthropic body."): it
 * goes when another scenario opens.
 */
export type Notice = {
  id: number;
  tone: 'info' | 'error';
  text: string;
  sticky?: boolean;
  about?: 'scenario';
  action?: { label: string; run: () => void };
};

/** The kinds of notice: one of each is on screen at most, and a new one replaces its kind's. */
export type NoticeKind = 'error' | 'lasting' | 'info';
export function noticeKind(notice: Pick<Notice, 'tone' | 'sticky'>): NoticeKind {
  return notice.tone === 'error' ? 'error' : notice.sticky ? 'lasting' : 'info';
}

/** The workspace's panes; a maximised pane fills the workspace alone. */
export const PANES = ['timeline', 'inspector', 'editor', 'traffic'] as const;
export type PaneId = (typeof PANES)[number];

/** Notices shown at most: one of each kind. */
export const MAX_NOTICES = 3;

export interface UiStore {
  selectedFile: string;
  /** The scrubbed step (index into the timeline's steps). */
  step: number;
  playing: boolean;
  /** Steps per second while playing. */
  speed: number;
  /** The theme in force (Settings' "system" resolved against the browser); not stored, it follows from `settings.theme`. */
  theme: Theme;
  settings: Settings;
  /** Region focused in the inspector; null shows all. */
  focusRegion: string | null;
  /** The entry opened in the focused region (its index); null when none is. */
  focusEntry: number | null;
  /** The timeline's chart view (its tab). */
  chartView: ChartView;
  /** The charts' token axis in force: the person's choice, or what a lesson or a link asked for. */
  zoom: Zoom;
  /** The token axis the person chose last (kept between visits): what an open without its own zoom shows. */
  zoomPreference: Zoom;
  /** The lesson of the example on screen; null once dismissed or when something else is open. */
  lesson: LessonNote | null;
  /** The Guide's section a link asked for; the header opens the Guide there, then clears it. */
  guideSection: string | null;
  /** The pane filling the workspace, or null for the normal layout. */
  maximized: PaneId | null;
  /** Open dialogs (a count, since a dialog can open another); shortcuts stay off while > 0. */
  dialogs: number;
  /** The `?` sheet of shortcuts is open. */
  keysOpen: boolean;
  /** The Guide's side panel: whether it is open, and the section it was last at (reopened there). */
  guide: { open: boolean; section: string | null };
  notices: Notice[];
  /** The id the next notice gets. */
  nextNoticeId: number;
  /** Region name -> chart colour, as last drawn (see regionColors in ui/chartData.ts). */
  regionColours: ReadonlyMap<string, string>;
  /** Each pane group's sizes, by react-resizable-panels' storage key. */
  layouts: Readonly<Record<string, string>>;
  /** Remembers the colours a chart drew; a no-op when nothing changed. */
  rememberRegionColours: (colours: ReadonlyMap<string, string>) => void;
  setLayout: (key: string, sizes: string) => void;
  selectFile: (path: string) => void;
  setStep: (step: number) => void;
  setPlaying: (playing: boolean) => void;
  setSpeed: (speed: number) => void;
  setTheme: (theme: Theme) => void;
  setSettings: (patch: Partial<Settings>) => void;
  setFocusRegion: (region: string | null) => void;
  setFocusEntry: (entry: number | null) => void;
  setChartView: (view: ChartView) => void;
  /** The person's own choice: in force now, and kept for later opens. */
  chooseZoom: (zoom: Zoom) => void;
  /** What a lesson or a link asks for (undefined: the person's choice); the choice kept is unchanged. */
  setZoom: (zoom: Zoom | undefined) => void;
  setLesson: (lesson: LessonNote | null) => void;
  setGuideSection: (section: string | null) => void;
  toggleMaximized: (pane: PaneId) => void;
  setMaximized: (pane: PaneId | null) => void;
  dialogOpened: () => void;
  dialogClosed: () => void;
  setKeysOpen: (open: boolean) => void;
  setGuide: (patch: Partial<UiStore['guide']>) => void;
  notify: (notice: Omit<Notice, 'id'>) => void;
  dismiss: (id: number) => void;
  /** Another scenario opened: the notices about the one before go. */
  dropScenarioNotices: () => void;
}

/** The part of the UI store `persist` keeps (its `partialize`). */
export function preferencesOf(s: UiStore): Preferences {
  return {
    settings: s.settings,
    speed: s.speed,
    selectedFile: s.selectedFile,
    regionColours: [...s.regionColours],
    layouts: { ...s.layouts },
    zoom: s.zoomPreference,
  };
}

export interface UiStoreOptions {
  /** localStorage, or null when the browser refuses it (then nothing is kept). */
  storage: Storage | null;
  /** Whether the browser prefers a dark theme (Settings' "system"). */
  prefersDark: boolean;
}

export function createUiStore({ storage, prefersDark }: UiStoreOptions): StoreApi<UiStore> {
  return createStore<UiStore>()(
    persist(
      (set) => ({
        selectedFile: AGENT_FILE,
        step: 0,
        playing: false,
        speed: DEFAULT_SPEED,
        theme: resolveTheme(DEFAULT_SETTINGS.theme, prefersDark),
        settings: { ...DEFAULT_SETTINGS },
        focusRegion: null,
        focusEntry: null,
        chartView: 'window',
        zoom: 'auto',
        zoomPreference: 'auto',
        lesson: null,
        guideSection: null,
        maximized: null,
        dialogs: 0,
        keysOpen: false,
        guide: { open: false, section: null },
        notices: [],
        nextNoticeId: 1,
        regionColours: new Map(),
        layouts: {},
        rememberRegionColours: (colours) =>
          set((s) => {
            if ([...colours].every(([name, colour]) => s.regionColours.get(name) === colour)) return s;
            const next = new Map([...s.regionColours].filter(([name]) => !colours.has(name)));
            for (const entry of colours) next.set(...entry);
            return { regionColours: new Map([...next].slice(-REMEMBERED_COLOURS)) };
          }),
        setLayout: (key, sizes) =>
          set((s) => (s.layouts[key] === sizes ? s : { layouts: { ...s.layouts, [key]: sizes } })),
        selectFile: (selectedFile) => set({ selectedFile }),
        setStep: (step) => set({ step: Math.max(0, step) }),
        setPlaying: (playing) => set({ playing }),
        setSpeed: (speed) => set({ speed }),
        setTheme: (theme) => set({ theme }),
        setSettings: (patch) => set((s) => ({ settings: { ...s.settings, ...patch } })),
        setFocusRegion: (focusRegion) =>
          set((s) => (s.focusRegion === focusRegion ? s : { focusRegion, focusEntry: null })),
        setFocusEntry: (focusEntry) => set({ focusEntry }),
        setChartView: (chartView) => set({ chartView }),
        chooseZoom: (zoom) => set({ zoom, zoomPreference: zoom }),
        setZoom: (zoom) => set((s) => ({ zoom: zoom ?? s.zoomPreference })),
        setLesson: (lesson) => set({ lesson }),
        setGuideSection: (guideSection) => set({ guideSection }),
        toggleMaximized: (pane) => set((s) => ({ maximized: s.maximized === pane ? null : pane })),
        setMaximized: (maximized) => set({ maximized }),
        dialogOpened: () => set((s) => ({ dialogs: s.dialogs + 1 })),
        dialogClosed: () => set((s) => ({ dialogs: Math.max(0, s.dialogs - 1) })),
        setKeysOpen: (keysOpen) => set({ keysOpen }),
        setGuide: (patch) => set((s) => ({ guide: { ...s.guide, ...patch } })),
        notify: (notice) =>
          set((s) => {
            // One notice per kind: a new one replaces its kind's, so opening four examples in a row
            // leaves one "Opened ..." notice, not a stack over the Traffic pane.
            const kind = noticeKind(notice);
            const notices = [...s.notices.filter((n) => noticeKind(n) !== kind), { ...notice, id: s.nextNoticeId }];
            return { notices, nextNoticeId: s.nextNoticeId + 1 };
          }),
        dismiss: (id) => set((s) => ({ notices: s.notices.filter((n) => n.id !== id) })),
        dropScenarioNotices: () =>
          set((s) =>
            s.notices.some((n) => n.about === 'scenario')
              ? { notices: s.notices.filter((n) => n.about !== 'scenario') }
              : s,
          ),
      }),
      {
        name: PREFERENCES_KEY,
        version: 1,
        storage: createJSONStorage(() => preferencesStorage(storage)),
        partialize: preferencesOf,
        // Version 0 is what readEarlierPreferences gathered from the earlier keys: already in today's shape.
        migrate: (persisted) => persisted,
        // What is stored is checked here: a value that is not a valid preference keeps its default.
        merge: (persisted, current) => {
          const kept = parsePreferences(persisted);
          const settings = kept.settings ?? current.settings;
          return {
            ...current,
            ...kept,
            settings,
            theme: resolveTheme(settings.theme, prefersDark),
            regionColours: kept.regionColours ? new Map(kept.regionColours) : current.regionColours,
            zoom: kept.zoom ?? current.zoom,
            zoomPreference: kept.zoom ?? current.zoomPreference,
          };
        },
      },
    ),
  );
}
