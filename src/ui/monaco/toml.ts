// TOML highlighting for agent.leviath (Monaco ships no TOML grammar).
import type * as Monaco from 'monaco-editor/editor/editor.api';

export const tomlLanguageConfiguration: Monaco.languages.LanguageConfiguration = {
  comments: { lineComment: '#' },
  brackets: [
    ['[', ']'],
    ['{', '}'],
  ],
  autoClosingPairs: [
    { open: '[', close: ']' },
    { open: '{', close: '}' },
    { open: '"', close: '"', notIn: ['string'] },
    { open: "'", close: "'", notIn: ['string'] },
  ],
  surroundingPairs: [
    { open: '"', close: '"' },
    { open: '[', close: ']' },
    { open: '{', close: '}' },
  ],
};

export const tomlMonarch: Monaco.languages.IMonarchLanguage = {
  defaultToken: '',
  tokenPostfix: '.toml',
  tokenizer: {
    root: [
      [/^\s*\[\[[^\]]*\]\]/, 'type.identifier'],
      [/^\s*\[[^\]]*\]/, 'type.identifier'],
      { include: '@whitespace' },
      [/[A-Za-z0-9_\-]+(?=\s*(\.[A-Za-z0-9_\-"]+\s*)*=)/, 'key'],
      [/"[^"]*"(?=\s*=)/, 'key'],
      { include: '@values' },
      [/[{}[\],.=]/, 'delimiter'],
    ],
    values: [
      [/"""/, 'string', '@multiBasic'],
      [/'''/, 'string', '@multiLiteral'],
      [/"/, 'string', '@basic'],
      [/'[^']*'/, 'string'],
      [/\d{4}-\d{2}-\d{2}([Tt ][\d:.]+([Zz]|[+-]\d{2}:\d{2})?)?/, 'number'],
      [/[+-]?(inf|nan)\b/, 'number'],
      [/[+-]?0x[0-9a-fA-F_]+|[+-]?0o[0-7_]+|[+-]?0b[01_]+/, 'number'],
      [/[+-]?\d[\d_]*(\.\d[\d_]*)?([eE][+-]?\d+)?/, 'number'],
      [/\b(true|false)\b/, 'keyword'],
    ],
    whitespace: [
      [/\s+/, 'white'],
      [/#.*$/, 'comment'],
    ],
    basic: [
      [/[^\\"]+/, 'string'],
      [/\\./, 'string.escape'],
      [/"/, 'string', '@pop'],
    ],
    multiBasic: [
      [/[^\\"]+/, 'string'],
      [/\\./, 'string.escape'],
      [/"""/, 'string', '@pop'],
      [/"/, 'string'],
    ],
    multiLiteral: [
      [/[^']+/, 'string'],
      [/'''/, 'string', '@pop'],
      [/'/, 'string'],
    ],
  },
};
