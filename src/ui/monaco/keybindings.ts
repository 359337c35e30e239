// Vim and emacs keybindings for the editor (Settings: "Keybindings"). Each comes with its own
// package, imported only when chosen: monaco-vim is 30 KB gzip (emacs 9 KB), which the first load, already
// at its 1.0 MB budget, has no room for, and most visitors never turn it on.
import * as monaco from 'monaco-editor/editor/editor.api';
import { provideMonaco } from './monaco-for-emacs.ts';
import type { Keybindings } from '../../state/preferences.ts';

/** A keybinding mode running on an editor; `dispose` gives the editor its standard keys back. */
export interface KeybindingMode {
  dispose(): void;
}

/**
 * Starts `mode` on the editor; vim writes its mode and pending keys (`-- INSERT --`, `:w`) into
 * `status`, emacs its pending key chord (`C-x`). Undefined for the standard keys.
 */
export async function startKeybindings(
  mode: Keybindings,
  editor: monaco.editor.IStandaloneCodeEditor,
  status: HTMLElement,
): Promise<KeybindingMode | undefined> {
  if (mode === 'vim') {
    const { initVimMode } = await import('monaco-vim');
    return initVimMode(editor, status);
  }
  if (mode === 'emacs') {
    provideMonaco(monaco);
    const { EmacsExtension } = await import('monaco-emacs');
    const emacs = new EmacsExtension(editor);
    emacs.start();
    const keys = emacs.onDidChangeKey((key) => {
      status.textContent = key;
    });
    return {
      dispose: () => {
        keys.dispose();
        emacs.dispose();
        status.textContent = '';
      },
    };
  }
  return undefined;
}
