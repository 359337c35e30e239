// localStorage: the UI preferences, and the single-slot work of earlier versions of the page
// (moved into the library once, then removed). Scenarios themselves live in the library.
import { ScenarioSchema, type Scenario } from '../engine/scenario.ts';
import type { Theme } from './ui.ts';

/** Where the page kept the user's work before the library existed. */
export const EARLIER_WORK_KEYS = ['leviath.work.v1', 'leviath.backup.v1'] as const;
export const UI_KEY = 'leviath.ui.v1';

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/**
 * localStorage for conveniences (pane sizes): when the browser refuses site data, reading it throws,
 * and then nothing is kept rather than the page failing to draw.
 */
export const convenienceStorage = {
  getItem: (key: string): string | null => read(key),
  setItem: (key: string, value: string): void => {
    try {
      localStorage.setItem(key, value);
    } catch {
      // Refused or full: the sizes are simply not remembered.
    }
  },
};

/** The earlier page's saved work and backup that still parse as scenarios. */
export function loadEarlierWork(): Scenario[] {
  const found: Scenario[] = [];
  for (const key of EARLIER_WORK_KEYS) {
    try {
      const parsed = ScenarioSchema.safeParse(JSON.parse(read(key) ?? 'null'));
      if (parsed.success) found.push(parsed.data);
    } catch {
      // Not JSON: there is nothing to keep.
    }
  }
  return found;
}

/** Called once the earlier work is in the library. */
export function forgetEarlierWork(): void {
  try {
    for (const key of EARLIER_WORK_KEYS) localStorage.removeItem(key);
  } catch {
    // Storage refused: the keys were not readable either.
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
