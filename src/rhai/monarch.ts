// Monaco Monarch tokenizer and language configuration for Rhai, as plain data (no monaco import:
// the UI registers them with monaco.languages.setMonarchTokensProvider / setLanguageConfiguration).

import { KEYWORDS, RESERVED } from './lexer.ts';

export const RHAI_LANGUAGE_ID = 'rhai';

export const rhaiLanguageConfiguration = {
  comments: { lineComment: '//', blockComment: ['/*', '*/'] as [string, string] },
  brackets: [['{', '}'], ['[', ']'], ['(', ')']] as [string, string][],
  autoClosingPairs: [
    { open: '{', close: '}' },
    { open: '[', close: ']' },
    { open: '(', close: ')' },
    { open: '"', close: '"', notIn: ['string', 'comment'] },
    { open: '`', close: '`', notIn: ['string', 'comment'] },
    { open: "'", close: "'", notIn: ['string', 'comment'] },
    { open: '/*', close: ' */', notIn: ['string'] },
  ],
  surroundingPairs: [
    { open: '{', close: '}' },
    { open: '[', close: ']' },
    { open: '(', close: ')' },
    { open: '"', close: '"' },
    { open: '`', close: '`' },
    { open: "'", close: "'" },
  ],
  folding: { markers: { start: /^\s*\/\/\s*#?region\b/, end: /^\s*\/\/\s*#?endregion\b/ } },
  indentationRules: { increaseIndentPattern: /^.*(\{[^}]*|\([^)]*|\[[^\]]*)$/, decreaseIndentPattern: /^\s*[}\])]/ },
};

export const rhaiMonarch = {
  defaultToken: '',
  tokenPostfix: '.rhai',
  // The lexer's words: true/false are shown as constants and `this` as a builtin.
  keywords: [...KEYWORDS].filter((k) => k !== 'true' && k !== 'false' && k !== 'this'),
  constants: ['true', 'false'],
  builtins: ['this', 'Fn', 'call', 'curry', 'type_of', 'print', 'debug', 'is_def_var', 'is_def_fn', 'eval', 'is_shared'],
  reserved: [...RESERVED],
  operators: [
    '=', '+=', '-=', '*=', '/=', '%=', '**=', '<<=', '>>=', '&=', '|=', '^=', '??=',
    '==', '!=', '<', '<=', '>', '>=', '&&', '||', '!', '+', '-', '*', '/', '%', '**', '<<', '>>', '&', '|', '^',
    '??', '?.', '..', '..=', '=>', '::', '!in',
  ],
  symbols: /[=><!~?:&|+\-*/^%.]+/,
  escapes: /\\(?:[ntr\\"']|x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8})/,
  tokenizer: {
    root: [
      [/#\{/, 'delimiter.bracket'],
      [/[a-zA-Z_][\w]*(?=\s*\()/, { cases: { '@keywords': 'keyword', '@builtins': 'predefined', '@default': 'function' } }],
      [/[a-zA-Z_][\w]*/, {
        cases: {
          '@keywords': 'keyword', '@constants': 'constant', '@builtins': 'predefined', '@reserved': 'invalid',
          '@default': 'identifier',
        },
      }],
      { include: '@whitespace' },
      [/[{}()[\]]/, '@brackets'],
      [/@symbols/, { cases: { '@operators': 'operator', '@default': '' } }],
      [/0x[0-9a-fA-F_]+/, 'number.hex'],
      [/0o[0-7_]+/, 'number.octal'],
      [/0b[01_]+/, 'number.binary'],
      [/\d[\d_]*\.\d[\d_]*([eE][-+]?\d+)?/, 'number.float'],
      [/\d[\d_]*[eE][-+]?\d+/, 'number.float'],
      [/\d[\d_]*\.(?![\w.])/, 'number.float'], // `1.` before anything that cannot start a name
      [/\d[\d_]*/, 'number'],
      [/[;,]/, 'delimiter'],
      [/#+"/, 'string.raw', '@rawstring'],
      [/"/, 'string', '@string'],
      [/`/, 'string', '@template'],
      [/'(?:@escapes|[^\\'])'/, 'string.char'],
      [/'/, 'string.invalid'],
    ],
    whitespace: [
      [/[ \t\r\n]+/, ''],
      [/\/\*/, 'comment', '@comment'],
      [/\/\/.*$/, 'comment'],
    ],
    comment: [
      [/[^/*]+/, 'comment'],
      [/\/\*/, 'comment', '@push'],
      [/\*\//, 'comment', '@pop'],
      [/[/*]/, 'comment'],
    ],
    string: [
      [/[^\\"]+/, 'string'],
      [/@escapes/, 'string.escape'],
      [/\\./, 'string.escape.invalid'],
      [/""/, 'string.escape'],
      [/"/, 'string', '@pop'],
    ],
    rawstring: [
      [/"#+/, 'string.raw', '@pop'],
      [/[^"]+/, 'string.raw'],
      [/"/, 'string.raw'],
    ],
    template: [
      [/``/, 'string.escape'],
      [/\\\$\{/, 'string.escape'], // `\${` is the text `${`
      [/\$\{/, { token: 'delimiter.bracket', next: '@interpolation' }],
      [/[^`$]+/, 'string'],
      [/\$/, 'string'],
      [/`/, 'string', '@pop'],
    ],
    interpolation: [
      [/\}/, { token: 'delimiter.bracket', next: '@pop' }],
      [/#?\{/, { token: 'delimiter.bracket', next: '@interpolation' }], // nested braces pop in pairs
      { include: 'root' },
    ],
  },
};
