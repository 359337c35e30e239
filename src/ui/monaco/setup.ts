// Monaco, bundled (no CDN) and loaded with the editor's chunks only (load.ts); every worker label is
// answered with the plain editor worker (no language services).
// The editor core plus the features an editor's users expect, not the 80 grammars nor register.all
// (diff editor, inline completions, sticky scroll, colour picker... the page uses none of them).
import 'monaco-editor/features/codicon/register';
import 'monaco-editor/features/find/register';
import 'monaco-editor/features/hover/register';
import 'monaco-editor/editor/contrib/suggest/browser/suggestController';
import 'monaco-editor/features/snippet/register';
import 'monaco-editor/features/codeAction/register';
import 'monaco-editor/features/gotoError/register';
import 'monaco-editor/features/comment/register';
import 'monaco-editor/features/folding/register';
import 'monaco-editor/features/bracketMatching/register';
import 'monaco-editor/features/multicursor/register';
import 'monaco-editor/features/linesOperations/register';
import 'monaco-editor/features/wordOperations/register';
import 'monaco-editor/features/cursorUndo/register';
import 'monaco-editor/features/clipboard/register';
import 'monaco-editor/features/contextmenu/register';
import 'monaco-editor/features/gotoLine/register';
import 'monaco-editor/features/quickCommand/register';
import 'monaco-editor/features/toggleTabFocusMode/register';
import * as monaco from 'monaco-editor/editor/editor.api';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import { tomlLanguageConfiguration, tomlMonarch } from './toml.ts';
import { RHAI_LANGUAGE_ID, rhaiLanguageConfiguration, rhaiMonarch } from '../../rhai/monarch.ts';

declare global {
  interface Window {
    MonacoEnvironment?: monaco.Environment;
  }
}

self.MonacoEnvironment = {
  getWorker: () => new EditorWorker(),
};

monaco.languages.register({ id: 'toml', extensions: ['.toml', '.leviath'] });
monaco.languages.setMonarchTokensProvider('toml', tomlMonarch);
monaco.languages.setLanguageConfiguration('toml', tomlLanguageConfiguration);

monaco.languages.register({ id: RHAI_LANGUAGE_ID, extensions: ['.rhai'] });
monaco.languages.setMonarchTokensProvider(RHAI_LANGUAGE_ID, rhaiMonarch as monaco.languages.IMonarchLanguage);
monaco.languages.setLanguageConfiguration(
  RHAI_LANGUAGE_ID,
  rhaiLanguageConfiguration as monaco.languages.LanguageConfiguration,
);

export { monaco };

/** The Monaco language for a file in the agent directory. */
export function languageOf(path: string): string {
  if (path.endsWith('.rhai')) return RHAI_LANGUAGE_ID;
  if (path.endsWith('.leviath') || path.endsWith('.toml')) return 'toml';
  return 'plaintext';
}
