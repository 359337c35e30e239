// Preferences: kept under one localStorage key by the UI store's `persist`, the theme once (as the
// settings' choice); what earlier versions kept under four keys is carried over, then removed;
// an entry from an older visit or a hand edit loads, keeping only what is valid.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SETTINGS,
  EARLIER_KEYS,
  PREFERENCES_KEY,
  layoutKey,
  parseSettings,
  readEarlierPreferences,
} from '../../src/state/preferences.ts';
import { createUiStore } from '../../src/state/ui.ts';
import { fakeStorage } from './fakes.ts';

describe('parseSettings', () => {
  it('ignores the vim key saved before vim mode was removed, keeping the rest', () => {
    const saved = { fontSize: 16, wordWrap: true, minimap: false, vim: true, theme: 'dark' };
    expect(parseSettings(saved)).toEqual({
      fontSize: 16,
      wordWrap: true,
      minimap: false,
      theme: 'dark',
      keybindings: 'standard',
    });
  });

  it('keeps the keybindings chosen (standard, vim, emacs), and anything else is the standard keys', () => {
    for (const keybindings of ['standard', 'vim', 'emacs'] as const)
      expect(parseSettings({ keybindings }).keybindings).toBe(keybindings);
    expect(parseSettings({ keybindings: 'nano' }).keybindings).toBe('standard');
    expect(parseSettings({ keybindings: true }).keybindings).toBe('standard');
  });

  it('falls back per key on wrong types, and wholesale on what is not an object', () => {
    expect(parseSettings({ fontSize: 15, theme: 'sepia', minimap: true })).toEqual({
      ...DEFAULT_SETTINGS,
      minimap: true,
    });
    expect(parseSettings('{not json')).toEqual(DEFAULT_SETTINGS);
    expect(parseSettings(null)).toEqual(DEFAULT_SETTINGS);
  });
});

/** What a visit before this version left in localStorage: the four keys, as those versions wrote them. */
function earlierVisit() {
  const storage = fakeStorage();
  storage.setItem(
    EARLIER_KEYS.ui,
    JSON.stringify({ theme: 'dark', speed: 10, selectedFile: 'context_hooks/brain.rhai' }),
  );
  storage.setItem(
    EARLIER_KEYS.settings,
    JSON.stringify({ fontSize: 14, wordWrap: true, minimap: false, theme: 'dark' }),
  );
  storage.setItem(
    EARLIER_KEYS.regionColours,
    JSON.stringify([
      ['task', '#0072B2'],
      ['notes', '#E69F00'],
    ]),
  );
  storage.setItem(
    'react-resizable-panels:leviath.layout.v1.columns',
    '{"col-main,col-side":{"expandToSizes":{},"layout":[60,40]}}',
  );
  storage.setItem('leviath.work.v1', '{"not":"a preference"}');
  return storage;
}

describe('preferences in the UI store', () => {
  it('carries over what earlier versions kept under four keys, then keeps it under one and removes theirs', () => {
    const storage = earlierVisit();
    const ui = createUiStore({ storage, prefersDark: false });
    const s = ui.getState();
    expect(s.settings).toEqual({
      fontSize: 14,
      wordWrap: true,
      minimap: false,
      theme: 'dark',
      keybindings: 'standard',
    });
    expect(s.theme).toBe('dark');
    expect([s.speed, s.selectedFile]).toEqual([10, 'context_hooks/brain.rhai']);
    expect([...s.regionColours]).toEqual([
      ['task', '#0072B2'],
      ['notes', '#E69F00'],
    ]);
    expect(s.layouts).toEqual({
      [layoutKey('columns')]: '{"col-main,col-side":{"expandToSizes":{},"layout":[60,40]}}',
    });
    // Written once under the new key; the earlier keys are gone, the earlier work is not a preference and stays.
    expect([...storage.map.keys()].sort()).toEqual(['leviath.preferences.v1', 'leviath.work.v1']);
    const again = createUiStore({ storage, prefersDark: false }).getState();
    expect([again.settings, again.speed, again.selectedFile, [...again.regionColours], again.layouts]).toEqual([
      s.settings,
      s.speed,
      s.selectedFile,
      [...s.regionColours],
      s.layouts,
    ]);
  });

  it('stores the theme once, as the choice; the theme in force follows the browser when the choice is "system"', () => {
    const storage = fakeStorage();
    const ui = createUiStore({ storage, prefersDark: true });
    expect(ui.getState().theme).toBe('dark');
    ui.getState().setSettings({ fontSize: 13 });
    const stored = JSON.parse(storage.getItem(PREFERENCES_KEY)!) as { state: Record<string, unknown> };
    expect(Object.keys(stored.state).sort()).toEqual([
      'layouts',
      'regionColours',
      'selectedFile',
      'settings',
      'speed',
      'zoom',
    ]);
    expect(stored.state.settings).toEqual({ ...DEFAULT_SETTINGS, fontSize: 13 });
    expect(createUiStore({ storage, prefersDark: false }).getState().theme).toBe('light');
  });

  it('keeps no transient state: a reload starts at step 0, nothing playing, no notice, no dialog', () => {
    const storage = fakeStorage();
    const ui = createUiStore({ storage, prefersDark: false });
    ui.setState({ step: 40, playing: true, maximized: 'editor', dialogs: 1 });
    ui.getState().notify({ tone: 'info', text: 'x' });
    ui.getState().setSpeed(25);
    const next = createUiStore({ storage, prefersDark: false }).getState();
    expect([next.step, next.playing, next.maximized, next.dialogs, next.notices, next.speed]).toEqual([
      0,
      false,
      null,
      0,
      [],
      25,
    ]);
  });

  it('writes localStorage only when what is kept changes: scrubbing and playing write nothing', () => {
    const storage = fakeStorage();
    const writes: string[] = [];
    const setItem = storage.setItem.bind(storage);
    storage.setItem = (key, value) => {
      writes.push(key);
      setItem(key, value);
    };
    const ui = createUiStore({ storage, prefersDark: false });
    ui.getState().setSpeed(10);
    expect(writes).toEqual([PREFERENCES_KEY]);
    for (let step = 1; step <= 50; step++) ui.getState().setStep(step);
    ui.getState().setPlaying(true);
    ui.getState().notify({ tone: 'info', text: 'x' });
    expect(writes).toEqual([PREFERENCES_KEY]);
    ui.getState().rememberRegionColours(new Map([['task', '#0072B2']]));
    expect(writes).toEqual([PREFERENCES_KEY, PREFERENCES_KEY]);
  });

  it('drops what is not a valid preference and keeps the rest', () => {
    const storage = fakeStorage();
    storage.setItem(
      PREFERENCES_KEY,
      JSON.stringify({
        state: {
          settings: { fontSize: 99, theme: 'light' },
          speed: 7,
          selectedFile: 42,
          regionColours: [
            ['a', 'red'],
            ['b', '#332288'],
          ],
          layouts: { k: 1, j: 'x' },
        },
        version: 1,
      }),
    );
    const s = createUiStore({ storage, prefersDark: true }).getState();
    expect(s.settings).toEqual({ ...DEFAULT_SETTINGS, theme: 'light' });
    expect([s.theme, s.speed, s.selectedFile, [...s.regionColours], s.layouts]).toEqual([
      'light',
      5,
      'agent.leviath',
      [['b', '#332288']],
      { j: 'x' },
    ]);
  });

  it('works without storage, or with storage that refuses: nothing is kept and nothing throws', () => {
    expect(createUiStore({ storage: null, prefersDark: false }).getState().speed).toBe(5);
    const refusing = fakeStorage();
    refusing.getItem = () => {
      throw new Error('SecurityError');
    };
    refusing.setItem = () => {
      throw new Error('QuotaExceededError');
    };
    const ui = createUiStore({ storage: refusing, prefersDark: false });
    expect(() => ui.getState().setSpeed(2)).not.toThrow();
    expect(ui.getState().speed).toBe(2);
  });

  it('reads an earlier visit whose settings key is unreadable as the defaults, keeping the other keys', () => {
    const storage = earlierVisit();
    storage.setItem(EARLIER_KEYS.settings, '{not json');
    expect(readEarlierPreferences(storage)?.settings).toEqual(DEFAULT_SETTINGS);
    expect(readEarlierPreferences(storage)?.speed).toBe(10);
    expect(readEarlierPreferences(fakeStorage())).toBeUndefined();
  });
});
