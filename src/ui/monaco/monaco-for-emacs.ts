// What monaco-emacs takes from Monaco. It is CommonJS and requires `monaco-editor`; a require of
// Monaco's API module makes the bundler wrap that module and everything it imports for lazy
// CommonJS-style evaluation, which grew Monaco's chunks by about 26 KB gzip. So vite.config.ts
// hands it this module instead: no import of Monaco at all, only the few bindings it uses, filled
// in by keybindings.ts (from the Monaco the page has) before monaco-emacs is imported.
import type * as Monaco from 'monaco-editor/editor/editor.api';

export let KeyCode: typeof Monaco.KeyCode;
export let Position: typeof Monaco.Position;
export let Range: typeof Monaco.Range;
export let Selection: typeof Monaco.Selection;
export let SelectionDirection: typeof Monaco.SelectionDirection;
export let editor: typeof Monaco.editor;

/** Gives monaco-emacs the page's Monaco; called before it is imported. */
export function provideMonaco(monaco: typeof Monaco): void {
  ({ KeyCode, Position, Range, Selection, SelectionDirection, editor } = monaco);
}
