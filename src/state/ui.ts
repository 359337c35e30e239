// UI state: what is selected, scrubbed, playing, and how it looks. Engine results live in results.ts.
import { create } from 'zustand';
import { AGENT_FILE } from './scenario.ts';

export type Theme = 'light' | 'dark';
export type ThemeChoice = 'system' | Theme;
/** `sticky` (and any notice with an action) stays until dismissed: its Undo must not expire. */
export type Notice = { id: number; tone: 'info' | 'error'; text: string; sticky?: boolean; action?: { label: string; run: () => void } };

export const SPEEDS = [1, 2, 5, 10, 25] as const;

/** The workspace's panes; a maximised pane fills the workspace alone. */
export const PANES = ['timeline', 'inspector', 'editor', 'traffic'] as const;
export type PaneId = (typeof PANES)[number];

/** Editor preferences, kept in this browser (Settings menu). */
export interface Settings {
  fontSize: number;
  wordWrap: boolean;
  minimap: boolean;
  theme: ThemeChoice;
}

export const DEFAULT_SETTINGS: Settings = { fontSize: 12, wordWrap: false, minimap: false, theme: 'system' };
export const FONT_SIZES = [11, 12, 13, 14, 16, 18] as const;
export const SETTINGS_KEY = 'leviath.settings.v1';

/**
 * Reads saved settings, keeping only known keys with values of the right type: an old or hand-edited
 * entry cannot break the page (a `vim` key from before vim mode was removed is dropped).
 */
export function parseSettings(text: string | null): Settings {
  let raw: Record<string, unknown> = {};
  try {
    const value: unknown = JSON.parse(text ?? '{}');
    if (value && typeof value === 'object') raw = value as Record<string, unknown>;
  } catch {
    // Unreadable settings fall back to the defaults.
  }
  const pick = <K extends keyof Settings>(key: K, ok: (v: unknown) => boolean): Settings[K] =>
    (ok(raw[key]) ? raw[key] : DEFAULT_SETTINGS[key]) as Settings[K];
  return {
    fontSize: pick('fontSize', (v) => (FONT_SIZES as readonly unknown[]).includes(v)),
    wordWrap: pick('wordWrap', (v) => typeof v === 'boolean'),
    minimap: pick('minimap', (v) => typeof v === 'boolean'),
    theme: pick('theme', (v) => v === 'system' || v === 'light' || v === 'dark'),
  };
}

function loadSettings(): Settings {
  try {
    return parseSettings(localStorage.getItem(SETTINGS_KEY));
  } catch {
    return DEFAULT_SETTINGS;
  }
}

function saveSettings(settings: Settings): void {
  try {
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings));
  } catch {
    // Preferences are a convenience; losing them is harmless.
  }
}

/** The colour each region name was given (charts), kept in this browser so a name keeps its colour. */
export const REGION_COLOURS_KEY = 'leviath.regionColours.v1';
/** Names remembered at most; the oldest are forgotten first. */
const REMEMBERED_COLOURS = 200;

function loadRegionColours(): Map<string, string> {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(REGION_COLOURS_KEY) ?? '[]');
    if (!Array.isArray(value)) return new Map();
    return new Map(value.filter((e): e is [string, string] =>
      Array.isArray(e) && typeof e[0] === 'string' && typeof e[1] === 'string' && /^#[0-9A-F]{6}$/i.test(e[1])));
  } catch {
    return new Map();
  }
}

export interface UiStore {
  selectedFile: string;
  /** The scrubbed step (index into timeline.steps). */
  step: number;
  playing: boolean;
  /** Steps per second while playing. */
  speed: number;
  /** The theme in force (Settings' "system" resolved against the browser). */
  theme: Theme;
  settings: Settings;
  /** Region focused in the inspector; null shows all. */
  focusRegion: string | null;
  /** The pane filling the workspace, or null for the normal layout. */
  maximized: PaneId | null;
  /** Open dialogs (a count, since a dialog can open another); shortcuts stay off while > 0. */
  dialogs: number;
  /** The `?` sheet of shortcuts is open. */
  keysOpen: boolean;
  /** Edits replay by themselves; off after a slow replay (then Run / Ctrl+Enter replays). */
  autoRun: boolean;
  /** Why auto-run is off, in words (null when the user turned it off). */
  autoRunOffReason: string | null;
  /** Edits made since the last replay that have not been replayed (auto-run off, or cancelled). */
  runPending: boolean;
  notices: Notice[];
  /** Region name → chart colour, as last drawn (see regionColors in ui/chartData.ts). */
  regionColours: ReadonlyMap<string, string>;
  /** Remembers the colours a chart drew; a no-op when nothing changed. */
  rememberRegionColours: (colours: ReadonlyMap<string, string>) => void;
  selectFile: (path: string) => void;
  setStep: (step: number) => void;
  setPlaying: (playing: boolean) => void;
  setSpeed: (speed: number) => void;
  setTheme: (theme: Theme) => void;
  setSettings: (patch: Partial<Settings>) => void;
  setFocusRegion: (region: string | null) => void;
  toggleMaximized: (pane: PaneId) => void;
  setMaximized: (pane: PaneId | null) => void;
  dialogOpened: () => void;
  dialogClosed: () => void;
  setKeysOpen: (open: boolean) => void;
  setAutoRun: (on: boolean, reason?: string) => void;
  setRunPending: (pending: boolean) => void;
  notify: (notice: Omit<Notice, 'id'>) => void;
  dismiss: (id: number) => void;
}

let noticeId = 1;
const MAX_NOTICES = 4;

export const useUi = create<UiStore>()((set) => ({
  selectedFile: AGENT_FILE,
  step: 0,
  playing: false,
  speed: 5,
  theme: 'light',
  settings: loadSettings(),
  focusRegion: null,
  maximized: null,
  dialogs: 0,
  keysOpen: false,
  autoRun: true,
  autoRunOffReason: null,
  runPending: false,
  notices: [],
  regionColours: loadRegionColours(),
  rememberRegionColours: (colours) => set((s) => {
    if ([...colours].every(([name, colour]) => s.regionColours.get(name) === colour)) return s;
    const next = new Map([...s.regionColours].filter(([name]) => !colours.has(name)));
    for (const entry of colours) next.set(...entry);
    const regionColours = new Map([...next].slice(-REMEMBERED_COLOURS));
    try {
      localStorage.setItem(REGION_COLOURS_KEY, JSON.stringify([...regionColours]));
    } catch {
      // Colours are a convenience; losing them only means a fresh assignment next time.
    }
    return { regionColours };
  }),
  selectFile: (selectedFile) => set({ selectedFile }),
  setStep: (step) => set({ step: Math.max(0, step) }),
  setPlaying: (playing) => set({ playing }),
  setSpeed: (speed) => set({ speed }),
  setTheme: (theme) => set({ theme }),
  setSettings: (patch) => set((s) => {
    const settings = { ...s.settings, ...patch };
    saveSettings(settings);
    return { settings };
  }),
  setFocusRegion: (focusRegion) => set({ focusRegion }),
  toggleMaximized: (pane) => set((s) => ({ maximized: s.maximized === pane ? null : pane })),
  setMaximized: (maximized) => set({ maximized }),
  dialogOpened: () => set((s) => ({ dialogs: s.dialogs + 1 })),
  dialogClosed: () => set((s) => ({ dialogs: Math.max(0, s.dialogs - 1) })),
  setKeysOpen: (keysOpen) => set({ keysOpen }),
  setAutoRun: (autoRun, reason) => set({ autoRun, autoRunOffReason: autoRun ? null : reason ?? null }),
  setRunPending: (runPending) => set({ runPending }),
  notify: (notice) => set((s) => {
    // The same message twice in a row is one notice, not a stack.
    const notices = [...s.notices.filter((n) => n.text !== notice.text), { ...notice, id: noticeId++ }];
    // At most MAX_NOTICES: passing information goes first, so an older Undo outlives it.
    while (notices.length > MAX_NOTICES) {
      const passing = notices.findIndex((n, i) => i < notices.length - 1 && !n.sticky && !n.action);
      notices.splice(Math.max(passing, 0), 1);
    }
    return { notices };
  }),
  dismiss: (id) => set((s) => ({ notices: s.notices.filter((n) => n.id !== id) })),
}));
