// Every keyboard shortcut of the page, in one place: the handler and the `?` sheet read this list.
import { useEffect } from 'react';
import { useResults } from '../state/results.ts';
import { useUi, type PaneId } from '../state/ui.ts';

export interface Shortcut {
  keys: string;
  does: string;
  /** Where it works, when not everywhere outside text fields. */
  where?: string;
}

export const SHORTCUTS: readonly Shortcut[] = [
  { keys: 'Space', does: 'Play / pause (at the last step, Play starts again from the first)', where: 'also with the step slider focused' },
  { keys: '← / →', does: 'Previous / next step' },
  { keys: 'Shift + ← / →', does: '10 steps back / forward' },
  { keys: 'Home / End', does: 'First / last step' },
  { keys: 'M', does: 'Maximise the pane holding the focus, or restore it (the title bar: double-click)' },
  { keys: 'Escape', does: 'Restore a maximised pane; close a dialog' },
  { keys: 'Ctrl + Enter', does: 'Run the replay now (needed when the page switched to explicit runs)', where: 'everywhere, the editor too' },
  { keys: '?', does: 'This list of shortcuts' },
  { keys: 'Ctrl + M', does: 'Tab moves the focus out of the editor instead of indenting (toggle)', where: 'in the editor' },
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

/** Play from the start when already at the end, so Play is never a dead button. */
export function togglePlay(): void {
  const ui = useUi.getState();
  const total = useResults.getState().run?.steps.count ?? 0;
  if (ui.playing) { ui.setPlaying(false); return; }
  if (total === 0) return;
  if (ui.step >= total - 1) ui.setStep(0);
  ui.setPlaying(true);
}

function focusedPane(): PaneId {
  const el = document.activeElement?.closest('[data-pane]');
  return (el?.getAttribute('data-pane') as PaneId | null) ?? 'timeline';
}

/** Listeners for Ctrl+Enter (the engine registers its explicit run here, so this file stays UI-only). */
const runListeners = new Set<() => void>();
export function onRunRequest(run: () => void): () => void {
  runListeners.add(run);
  return () => runListeners.delete(run);
}
export function requestRun(): void {
  for (const run of runListeners) run();
}

function handle(e: KeyboardEvent): boolean {
  const ui = useUi.getState();
  if (ui.dialogs > 0) return false; // nothing fires underneath an open dialog
  if ((e.ctrlKey || e.metaKey) && e.key === 'Enter') { requestRun(); return true; }
  if (isTyping(e.target) || e.ctrlKey || e.metaKey || e.altKey) return false;
  // A focused slider moves itself with the arrows and Home/End; only Space is the page's.
  if (e.target instanceof HTMLInputElement && e.key !== ' ' && e.key.length > 1 && e.key !== 'Escape') return false;
  const total = useResults.getState().run?.steps.count ?? 0;
  const last = Math.max(0, total - 1);
  const jump = e.shiftKey ? 10 : 1;
  switch (e.key) {
    case ' ': togglePlay(); return true;
    case 'ArrowRight': ui.setPlaying(false); ui.setStep(Math.min(last, ui.step + jump)); return true;
    case 'ArrowLeft': ui.setPlaying(false); ui.setStep(ui.step - jump); return true;
    case 'Home': ui.setStep(0); return true;
    case 'End': ui.setStep(last); return true;
    case 'm': case 'M': ui.toggleMaximized(ui.maximized ?? focusedPane()); return true;
    case 'Escape': if (!ui.maximized) return false; ui.setMaximized(null); return true;
    case '?': ui.setKeysOpen(true); return true;
    default: return false;
  }
}

export function useGlobalShortcuts(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => { if (handle(e)) e.preventDefault(); };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
