// Every keyboard shortcut of the page, in one list: the key handler below finds the shortcut a key
// press is by going through it, and the `?` sheet shows it. The editor's own keys (Monaco's) are
// listed for the sheet with no action here.
import { useEffect } from 'react';
import type { PaneId } from '../state/ui.ts';
import { page, useResults, useUi } from './page.ts';

/**
 * Where a shortcut works: `page` outside text fields and dialogs; `typing` in text fields and the
 * editor too; `everywhere` in dialogs as well, seen before anything else on the page (the editor,
 * the browser's own Save) sees the key.
 */
export type ShortcutScope = 'page' | 'typing' | 'everywhere';

export interface Shortcut {
  keys: string;
  does: string;
  /** Where it works, in the sheet's words, when not everywhere outside text fields. */
  where?: string;
  /** Whether a key press is this shortcut; absent for the editor's own keys, which Monaco handles. */
  matches?: (e: KeyboardEvent) => boolean;
  /** Does it; false when there was nothing to do, so the key keeps its usual effect. */
  run?: (e: KeyboardEvent) => boolean;
  scope?: ShortcutScope;
  /** Only in the playground: the embed view keeps nothing, so it does not save. */
  playgroundOnly?: boolean;
}

const hasModifier = (e: KeyboardEvent) => e.ctrlKey || e.metaKey || e.altKey;
/** A key with no Ctrl, Cmd or Alt (Shift is part of some keys, as in `?`). */
const plain =
  (...keys: string[]) =>
  (e: KeyboardEvent) =>
    !hasModifier(e) && keys.includes(e.key);
const withCtrl = (key: string) => (e: KeyboardEvent) =>
  (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === key;

const stepCount = () => useResults.getState().timeline?.steps.count ?? 0;
const lastStep = () => Math.max(0, stepCount() - 1);

/** Moves the scrubber by `by` steps, stopping play. */
function stepBy(by: number): boolean {
  const ui = useUi.getState();
  ui.setPlaying(false);
  ui.setStep(Math.min(lastStep(), ui.step + by));
  return true;
}

/** Play from the start when already at the end, so Play is never a dead button. */
export function togglePlay(): void {
  const ui = useUi.getState();
  const total = stepCount();
  if (ui.playing) {
    ui.setPlaying(false);
    return;
  }
  if (total === 0) return;
  if (ui.step >= total - 1) ui.setStep(0);
  ui.setPlaying(true);
}

function focusedPane(): PaneId {
  const el = document.activeElement?.closest('[data-pane]');
  return (el?.getAttribute('data-pane') as PaneId | null) ?? 'timeline';
}

export const SHORTCUTS: readonly Shortcut[] = [
  {
    keys: 'Space',
    does: 'Play / pause (at the last step, Play starts again from the first)',
    where: 'also with the step slider focused',
    matches: plain(' '),
    run: () => {
      togglePlay();
      return true;
    },
  },
  {
    keys: '← / →',
    does: 'Previous / next step',
    matches: (e) => plain('ArrowLeft', 'ArrowRight')(e) && !e.shiftKey,
    run: (e) => stepBy(e.key === 'ArrowLeft' ? -1 : 1),
  },
  {
    keys: 'Shift + ← / →',
    does: '10 steps back / forward',
    matches: (e) => plain('ArrowLeft', 'ArrowRight')(e) && e.shiftKey,
    run: (e) => stepBy(e.key === 'ArrowLeft' ? -10 : 10),
  },
  {
    keys: 'Home / End',
    does: 'First / last step',
    matches: plain('Home', 'End'),
    run: (e) => {
      useUi.getState().setStep(e.key === 'Home' ? 0 : lastStep());
      return true;
    },
  },
  {
    keys: 'M',
    does: 'Maximise the pane holding the focus, or restore it (the title bar: double-click)',
    matches: plain('m', 'M'),
    run: () => {
      const ui = useUi.getState();
      ui.toggleMaximized(ui.maximized ?? focusedPane());
      return true;
    },
  },
  {
    keys: 'Escape',
    does: 'Restore a maximised pane; close a dialog',
    matches: plain('Escape'),
    run: () => {
      const ui = useUi.getState();
      if (!ui.maximized) return false;
      ui.setMaximized(null);
      return true;
    },
  },
  {
    keys: 'Ctrl + Enter',
    does: 'Run the replay now (needed when the page switched to explicit runs)',
    where: 'everywhere, the editor too',
    matches: (e) => (e.ctrlKey || e.metaKey) && e.key === 'Enter',
    run: () => {
      page().replayNow();
      return true;
    },
    scope: 'typing',
  },
  {
    keys: 'Ctrl + S',
    does: 'Save, keep this content as a version, and copy the link',
    where: 'everywhere, the editor and dialogs too',
    matches: withCtrl('s'),
    run: () => {
      void page().saveAndCopyLink();
      return true;
    },
    scope: 'everywhere',
    playgroundOnly: true,
  },
  {
    keys: '?',
    does: 'This list of shortcuts',
    matches: plain('?'),
    run: () => {
      useUi.getState().setKeysOpen(true);
      return true;
    },
  },
  {
    keys: 'Ctrl + M',
    does: 'Tab moves the focus out of the editor instead of indenting (toggle)',
    where: 'in the editor',
  },
  { keys: 'Ctrl + Space', does: 'Complete a table, key, value, region name or file path', where: 'in the editor' },
  { keys: 'Ctrl + .', does: 'Quick fix (apply a "did you mean")', where: 'in the editor, on an underlined problem' },
  { keys: 'F8 / Shift + F8', does: 'Next / previous problem', where: 'in the editor' },
];

/** True when a key press belongs to a text field or the editor, not to the page. */
export function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || !el.tagName) return false;
  if (el instanceof HTMLInputElement && el.type === 'range') return false;
  return el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName) || !!el.closest('.monaco-editor');
}

/** Whether the shortcut may take this key press where it happened. */
function applies(shortcut: Shortcut, e: KeyboardEvent): boolean {
  const scope = shortcut.scope ?? 'page';
  if (scope === 'everywhere') return true;
  if (useUi.getState().dialogs > 0) return false; // nothing fires underneath an open dialog
  if (scope === 'typing') return true;
  if (isTyping(e.target)) return false;
  // A focused slider moves itself with the arrows and Home/End; only Space is the page's.
  return !(e.target instanceof HTMLInputElement && e.key !== ' ' && e.key.length > 1 && e.key !== 'Escape');
}

/** Runs the first shortcut of `list` this key press is; true when one did something. */
export function handleKey(e: KeyboardEvent, list: readonly Shortcut[]): boolean {
  const shortcut = list.find((s) => s.matches?.(e) && applies(s, e));
  return shortcut?.run?.(e) ?? false;
}

/**
 * Listens for the page's shortcuts: `everywhere` ones in the capture phase (before the editor and
 * the browser see the key), the others as the key bubbles up. The embed view leaves out the ones
 * that keep work.
 */
export function useGlobalShortcuts({ embed = false } = {}): void {
  useEffect(() => {
    const shortcuts = SHORTCUTS.filter((s) => !(embed && s.playgroundOnly));
    const first = shortcuts.filter((s) => s.scope === 'everywhere');
    const rest = shortcuts.filter((s) => s.scope !== 'everywhere');
    const onKeyFirst = (e: KeyboardEvent) => {
      if (handleKey(e, first)) e.preventDefault();
    };
    const onKey = (e: KeyboardEvent) => {
      if (handleKey(e, rest)) e.preventDefault();
    };
    window.addEventListener('keydown', onKeyFirst, { capture: true });
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKeyFirst, { capture: true });
      window.removeEventListener('keydown', onKey);
    };
  }, [embed]);
}
