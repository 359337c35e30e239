// What the page keeps of the UI between visits: the editor settings (with the theme choice, the one
// place the theme is stored), the replay speed, the open file, the colour each region name was drawn
// in, the panes' sizes and the charts' zoom. The UI store keeps them through zustand's `persist` (its `partialize` is
// `preferencesOf`) under one localStorage key; what earlier versions kept under four keys of their
// own is read once, when that key is not there yet, and then removed.
import type { StateStorage } from 'zustand/middleware';
import { isZoom, type Zoom } from '../share/view.ts';

export const PREFERENCES_KEY = 'leviath.preferences.v1';

export type Theme = 'light' | 'dark';
export type ThemeChoice = 'system' | Theme;

/** The editor's keys: Monaco's own, or vim's or emacs's (each loaded only when chosen). */
export const KEYBINDINGS = ['standard', 'vim', 'emacs'] as const;
export type Keybindings = (typeof KEYBINDINGS)[number];

/** Editor preferences (Settings menu). */
export interface Settings {
  fontSize: number;
  wordWrap: boolean;
  minimap: boolean;
  theme: ThemeChoice;
  keybindings: Keybindings;
}

export const DEFAULT_SETTINGS: Readonly<Settings> = Object.freeze({
  fontSize: 12,
  wordWrap: false,
  minimap: false,
  theme: 'system',
  keybindings: 'standard',
});
export const FONT_SIZES = [11, 12, 13, 14, 16, 18] as const;
export const SPEEDS = [1, 2, 5, 10, 25] as const;
export const DEFAULT_SPEED = 5;

/** Region names whose colour is remembered at most; the oldest are forgotten first. */
export const REMEMBERED_COLOURS = 200;

/** What is kept, as it is stored. */
export interface Preferences {
  settings: Settings;
  /** Steps per second while playing. */
  speed: number;
  selectedFile: string;
  /** Region name and the colour it was last drawn in, oldest first. */
  regionColours: [string, string][];
  /** Each pane group's sizes, as react-resizable-panels writes them, by its storage key. */
  layouts: Record<string, string>;
  /** The charts' token axis the person chose last (share/view.ts); `auto` until they choose. */
  zoom: Zoom;
}

/** Where earlier versions of the page kept the same things, each under a key of its own. */
export const EARLIER_KEYS = {
  ui: 'leviath.ui.v1',
  settings: 'leviath.settings.v1',
  regionColours: 'leviath.regionColours.v1',
  /** Followed by the pane group's id (react-resizable-panels' own prefix first). */
  layoutPrefix: 'react-resizable-panels:leviath.layout.v1.',
} as const;

/** The storage key react-resizable-panels gives a pane group's sizes. */
export const layoutKey = (group: string): string => `react-resizable-panels:${group}`;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isColour = (v: unknown): v is string => typeof v === 'string' && /^#[0-9A-F]{6}$/i.test(v);

function parseJson(text: string | null | undefined): unknown {
  try {
    return JSON.parse(text ?? 'null');
  } catch {
    return null;
  }
}

/**
 * Saved settings, keeping only known keys with values of the right type: an old or hand-edited entry
 * cannot break the page (a `vim` key from before vim mode was removed is dropped: `keybindings` says it now).
 */
export function parseSettings(value: unknown): Settings {
  const raw = isRecord(value) ? value : {};
  const pick = <K extends keyof Settings>(key: K, ok: (v: unknown) => boolean): Settings[K] =>
    (ok(raw[key]) ? raw[key] : DEFAULT_SETTINGS[key]) as Settings[K];
  return {
    fontSize: pick('fontSize', (v) => (FONT_SIZES as readonly unknown[]).includes(v)),
    wordWrap: pick('wordWrap', (v) => typeof v === 'boolean'),
    minimap: pick('minimap', (v) => typeof v === 'boolean'),
    theme: pick('theme', (v) => v === 'system' || v === 'light' || v === 'dark'),
    keybindings: pick('keybindings', (v) => (KEYBINDINGS as readonly unknown[]).includes(v)),
  };
}

/** Whatever of `value` is a valid preference; the rest is left to the defaults. */
export function parsePreferences(value: unknown): Partial<Preferences> {
  const raw = isRecord(value) ? value : {};
  const out: Partial<Preferences> = { settings: parseSettings(raw.settings) };
  if ((SPEEDS as readonly unknown[]).includes(raw.speed)) out.speed = raw.speed as number;
  if (typeof raw.selectedFile === 'string' && raw.selectedFile) out.selectedFile = raw.selectedFile;
  if (Array.isArray(raw.regionColours)) {
    out.regionColours = raw.regionColours
      .filter((e): e is [string, string] => Array.isArray(e) && typeof e[0] === 'string' && isColour(e[1]))
      .slice(-REMEMBERED_COLOURS);
  }
  if (typeof raw.zoom === 'string' && isZoom(raw.zoom)) out.zoom = raw.zoom;
  if (isRecord(raw.layouts)) {
    out.layouts = Object.fromEntries(
      Object.entries(raw.layouts).filter((e): e is [string, string] => typeof e[1] === 'string'),
    );
  }
  return out;
}

/** The preferences earlier versions kept under their own keys, as one record (undefined when there are none). */
export function readEarlierPreferences(
  storage: Pick<Storage, 'getItem' | 'key' | 'length'>,
): Partial<Preferences> | undefined {
  const ui = parseJson(storage.getItem(EARLIER_KEYS.ui));
  const settings = storage.getItem(EARLIER_KEYS.settings);
  const colours = storage.getItem(EARLIER_KEYS.regionColours);
  const layouts: Record<string, string> = {};
  for (let k = 0; k < storage.length; k++) {
    const key = storage.key(k);
    if (key?.startsWith(EARLIER_KEYS.layoutPrefix))
      layouts[layoutKey(key.slice(EARLIER_KEYS.layoutPrefix.length))] = storage.getItem(key) ?? '';
  }
  if (ui === null && settings === null && colours === null && Object.keys(layouts).length === 0) return undefined;
  const { speed, selectedFile } = isRecord(ui) ? ui : {};
  // The theme the earlier ui.v1 key kept was the one in force, which follows from the settings' choice.
  return parsePreferences({
    settings: parseJson(settings),
    speed,
    selectedFile,
    regionColours: parseJson(colours),
    layouts,
  });
}

/** The keys earlier versions used, for removal once their content is kept under PREFERENCES_KEY. */
function earlierKeys(storage: Pick<Storage, 'key' | 'length'>): string[] {
  const keys: string[] = [EARLIER_KEYS.ui, EARLIER_KEYS.settings, EARLIER_KEYS.regionColours];
  for (let k = 0; k < storage.length; k++) {
    const key = storage.key(k);
    if (key?.startsWith(EARLIER_KEYS.layoutPrefix)) keys.push(key);
  }
  return keys;
}

/**
 * `persist`'s storage: localStorage, where reading a key that is not there yet gives the earlier
 * versions' preferences (as version 0), and the first write removes their keys. `persist` writes
 * after every change of the store, a step scrubbed included; only a change of what is kept reaches
 * localStorage. A browser that refuses site data (reading throws) keeps nothing, rather than failing
 * to draw.
 */
export function preferencesStorage(storage: Storage | null): StateStorage {
  let written: string | null = null;
  let earlierRemoved = false;
  return {
    getItem: (name) => {
      try {
        if (!storage) return null;
        written = storage.getItem(name);
        if (written !== null) return written;
        const earlier = readEarlierPreferences(storage);
        return earlier ? JSON.stringify({ state: earlier, version: 0 }) : null;
      } catch {
        return null;
      }
    },
    setItem: (name, value) => {
      if (value === written) return;
      try {
        storage?.setItem(name, value);
        written = value;
        if (!earlierRemoved) for (const key of storage ? earlierKeys(storage) : []) storage?.removeItem(key);
        earlierRemoved = true;
      } catch {
        // Refused or full: preferences are a convenience, and losing them is harmless.
      }
    },
    removeItem: (name) => {
      try {
        storage?.removeItem(name);
        written = null;
      } catch {
        // As above.
      }
    },
  };
}

/** The theme in force: the settings' choice, with "system" resolved against the browser. */
export function resolveTheme(choice: ThemeChoice, prefersDark: boolean): Theme {
  return choice === 'system' ? (prefersDark ? 'dark' : 'light') : choice;
}
