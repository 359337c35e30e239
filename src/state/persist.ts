// Keeps the user's work in localStorage: saved a moment after every edit, restored on load.
import { ScenarioSchema, type Scenario } from '../engine/scenario.ts';
import type { Theme } from './ui.ts';

export const WORK_KEY = 'leviath.work.v1';
export const BACKUP_KEY = 'leviath.backup.v1';
export const UI_KEY = 'leviath.ui.v1';
const SAVE_DELAY_MS = 250;

export type Loaded = { scenario: Scenario } | { scenario: null; problem?: string };

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function loadScenario(key = WORK_KEY): Loaded {
  const text = read(key);
  if (text === null) return { scenario: null };
  try {
    const parsed = ScenarioSchema.safeParse(JSON.parse(text));
    if (parsed.success) return { scenario: parsed.data };
    return { scenario: null, problem: 'Your saved work could not be read back (it does not match the scenario format), so the default example is shown.' };
  } catch {
    return { scenario: null, problem: 'Your saved work was not valid JSON, so the default example is shown.' };
  }
}

/** Returns an error message when the browser refused (quota, private mode). */
export function saveScenario(scenario: Scenario, key = WORK_KEY): string | null {
  try {
    localStorage.setItem(key, JSON.stringify(scenario));
    return null;
  } catch (error) {
    return `Could not save your work in this browser: ${error instanceof Error ? error.message : String(error)}`;
  }
}

export function copyWorkToBackup(): void {
  const text = read(WORK_KEY);
  if (text !== null) {
    try {
      localStorage.setItem(BACKUP_KEY, text);
    } catch {
      // A backup that cannot be written only means "restore" is unavailable.
    }
  }
}

export interface SavedUi { theme?: Theme; speed?: number; selectedFile?: string }

export function loadUi(): SavedUi {
  try {
    const value: unknown = JSON.parse(read(UI_KEY) ?? '{}');
    return typeof value === 'object' && value !== null ? (value as SavedUi) : {};
  } catch {
    return {};
  }
}

export function saveUi(ui: SavedUi): void {
  try {
    localStorage.setItem(UI_KEY, JSON.stringify(ui));
  } catch {
    // Preferences are a convenience; losing them is harmless.
  }
}

/** Calls `save` at most once per SAVE_DELAY_MS after changes, and once more before the page goes. */
export function debounced(save: () => void, delay = SAVE_DELAY_MS): { schedule: () => void; flush: () => void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    if (timer === undefined) return;
    clearTimeout(timer);
    timer = undefined;
    save();
  };
  return {
    schedule: () => {
      clearTimeout(timer);
      timer = setTimeout(() => { timer = undefined; save(); }, delay);
    },
    flush,
  };
}
