// Monaco, bundled (no CDN): @monaco-editor/react gets this instance, and every worker label is
// answered with the plain editor worker. Only the editor core and its features are imported, not
// the 80 language grammars and the TypeScript/JSON/CSS/HTML services we have no use for.
import 'monaco-editor/features/register.all';
import * as monaco from 'monaco-editor/editor/editor.api';
import { loader } from '@monaco-editor/react';
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
monaco.languages.setLanguageConfiguration(RHAI_LANGUAGE_ID, rhaiLanguageConfiguration as monaco.languages.LanguageConfiguration);

loader.config({ monaco });

export { monaco };

/** The Monaco language for a file in the agent directory. */
export function languageOf(path: string): string {
  if (path.endsWith('.rhai')) return RHAI_LANGUAGE_ID;
  if (path.endsWith('.leviath') || path.endsWith('.toml')) return 'toml';
  return 'plaintext';
}
