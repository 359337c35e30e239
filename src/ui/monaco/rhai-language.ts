// Placeholder until src/rhai/monarch.ts lands; then this re-exports it.
import type * as Monaco from 'monaco-editor/editor/editor.api';

export const rhaiLanguageConfiguration: Monaco.languages.LanguageConfiguration = {
  comments: { lineComment: '//', blockComment: ['/*', '*/'] },
  brackets: [['{', '}'], ['[', ']'], ['(', ')']],
};

export const rhaiMonarch: Monaco.languages.IMonarchLanguage = {
  keywords: ['fn', 'let', 'const', 'if', 'else', 'for', 'in', 'while', 'loop', 'return', 'break', 'continue', 'true', 'false', 'throw', 'try', 'catch', 'switch', 'do', 'until', 'private', 'import', 'export', 'as'],
  tokenizer: {
    root: [
      [/\/\/.*$/, 'comment'],
      [/[a-zA-Z_]\w*/, { cases: { '@keywords': 'keyword', '@default': 'identifier' } }],
      [/"([^"\\]|\\.)*"/, 'string'],
      [/`[^`]*`/, 'string'],
      [/\d+(\.\d+)?/, 'number'],
    ],
  },
};
