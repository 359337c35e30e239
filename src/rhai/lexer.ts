// Rhai tokenizer (src/tokenizer.rs): positions are 1-based line and column, in chars.
import { parseError, type Pos } from './errors.ts';

export type TokenType = 'int' | 'float' | 'string' | 'char' | 'template' | 'ident' | 'keyword' | 'punct' | 'eof';

export interface Token {
  type: TokenType;
  /** Identifier / keyword / punctuation text, or the processed literal text for 'string' and 'char'. */
  text: string;
  pos: Pos;
  /** 'int': the exact value (may exceed i64 when negated later). 'float': the value. */
  int?: bigint;
  float?: number;
  /** 'template': literal text and embedded token lists, alternating. */
  parts?: (string | Token[])[];
  /** '(': directly followed by ')' — Rhai's `()` token, the unit value (`( )` is not). */
  unit?: boolean;
}

export const KEYWORDS = new Set([
  'let',
  'const',
  'if',
  'else',
  'switch',
  'while',
  'loop',
  'do',
  'until',
  'for',
  'in',
  'break',
  'continue',
  'return',
  'throw',
  'try',
  'catch',
  'fn',
  'private',
  'import',
  'export',
  'as',
  'true',
  'false',
  'this',
  'global',
]);

/** Words Rhai reserves for the future; using one as a name is a parse error. */
export const RESERVED = new Set([
  'var',
  'static',
  'shared',
  'goto',
  'match',
  'case',
  'public',
  'protected',
  'new',
  'use',
  'with',
  'module',
  'package',
  'super',
  'spawn',
  'thread',
  'go',
  'sync',
  'async',
  'await',
  'yield',
  'default',
  'void',
  'null',
  'nil',
  'is',
]);

// Looked up longest first (see next()), so that `..=` wins over `..` and `<<=` over `<<`.
const PUNCTS = [
  '..=',
  '<<=',
  '>>=',
  '**=',
  '??=',
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '<<',
  '>>',
  '**',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '&=',
  '|=',
  '^=',
  '..',
  '::',
  '=>',
  '??',
  '?.',
  '?[',
  '#{',
  '->',
  '+',
  '-',
  '*',
  '/',
  '%',
  '=',
  '<',
  '>',
  '!',
  '&',
  '|',
  '^',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  ',',
  ';',
  ':',
  '.',
  '?',
  '#',
  '@',
  '$',
  '~',
];

const PUNCT_SET = new Set(PUNCTS);

const isDigit = (c: string): boolean => c >= '0' && c <= '9';
const isLetter = (c: string): boolean => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
const isIdentStart = (c: string): boolean => isLetter(c) || c === '_';
const isIdentChar = (c: string): boolean => isIdentStart(c) || isDigit(c);
/** Rhai's `char::is_whitespace` for the line-continuation indentation a string skips. */
const isWhitespace = (c: string): boolean => c !== '' && /\s/.test(c);

/** Tokens after which an operand may start (Rhai's `Token::is_next_unary`). */
const UNARY_AFTER_PUNCT = new Set([
  ';',
  ':',
  ',',
  '??',
  '..',
  '..=',
  '{',
  '(',
  '[',
  '?[',
  '+',
  '+=',
  '-',
  '-=',
  '*',
  '*=',
  '/',
  '/=',
  '%',
  '%=',
  '**',
  '**=',
  '<<',
  '<<=',
  '>>',
  '>>=',
  '=',
  '==',
  '!=',
  '<',
  '>',
  '!',
  '<=',
  '>=',
  '|',
  '&',
  '&&',
  '&=',
  '||',
  '|=',
  '^',
  '^=',
  '!in',
]);
const UNARY_AFTER_KEYWORD = new Set(['if', 'while', 'until', 'in', 'return', 'throw']);

function unaryMayFollow(previous: Token | undefined): boolean {
  if (!previous) return true;
  if (previous.type === 'punct') return UNARY_AFTER_PUNCT.has(previous.text);
  return previous.type === 'keyword' && UNARY_AFTER_KEYWORD.has(previous.text);
}

function negateLiteral(t: Token, pos: Pos): Token {
  const text = `-${t.text}`;
  if (t.type === 'float') return { type: 'float', text, pos, float: -t.float! };
  return { type: 'int', text, pos, int: -t.int! };
}

export class Lexer {
  private i = 0;
  private line = 1;
  private col = 1;

  constructor(private readonly src: string) {}

  static tokenize(src: string): Token[] {
    const lexer = new Lexer(src);
    const tokens = lexer.lexUntil(false);
    tokens.push({ type: 'eof', text: '', pos: lexer.pos() });
    return tokens;
  }

  private pos(): Pos {
    return { line: this.line, column: this.col };
  }
  private peek(offset = 0): string {
    return this.src[this.i + offset] ?? '';
  }

  private advance(): string {
    const c = this.src[this.i++] ?? '';
    if (c === '\n') {
      this.line++;
      this.col = 1;
    } else if (!(c >= '\udc00' && c <= '\udfff')) this.col++; // a surrogate pair counts as one char
    return c;
  }

  /** Tokens up to the end (or, inside `${`, up to the matching `}`, which is consumed). */
  private lexUntil(insideInterpolation: boolean): Token[] {
    const tokens: Token[] = [];
    let braceDepth = 0;
    for (;;) {
      this.skipTrivia();
      if (this.i >= this.src.length) {
        if (insideInterpolation)
          throw parseError('Open string is not terminated (missing "}" in interpolation)', this.pos());
        return tokens;
      }
      const c = this.peek();
      if (insideInterpolation && c === '}' && braceDepth === 0) {
        this.advance();
        return tokens;
      }
      const tok = this.next(tokens[tokens.length - 1]);
      if (tok.type === 'punct') {
        if (tok.text === '{' || tok.text === '#{') braceDepth++;
        else if (tok.text === '}') braceDepth--;
      }
      tokens.push(tok);
    }
  }

  private skipTrivia(): void {
    for (;;) {
      const c = this.peek();
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\uFEFF') {
        this.advance();
        continue;
      }
      if (c === '/' && this.peek(1) === '/') {
        while (this.i < this.src.length && this.peek() !== '\n') this.advance();
        continue;
      }
      if (c === '/' && this.peek(1) === '*') {
        this.skipBlockComment();
        continue;
      }
      if (c === '#' && this.peek(1) === '!' && this.i === 0) {
        // shebang line
        while (this.i < this.src.length && this.peek() !== '\n') this.advance();
        continue;
      }
      return;
    }
  }

  private skipBlockComment(): void {
    const start = this.pos();
    this.advance();
    this.advance();
    let depth = 1; // Rhai block comments nest
    while (depth > 0) {
      if (this.i >= this.src.length) throw parseError('Block comment is not terminated', start);
      if (this.peek() === '/' && this.peek(1) === '*') {
        this.advance();
        this.advance();
        depth++;
      } else if (this.peek() === '*' && this.peek(1) === '/') {
        this.advance();
        this.advance();
        depth--;
      } else this.advance();
    }
  }

  private next(previous: Token | undefined): Token {
    const pos = this.pos();
    const c = this.peek();
    if (isDigit(c)) return this.number(pos);
    // As in Rhai's tokenizer, a `-` directly before a digit where an operand may start is part of
    // the literal: `-5.abs()` is `(-5).abs()`, and `-9223372036854775808` is the i64 minimum.
    if (c === '-' && isDigit(this.peek(1)) && unaryMayFollow(previous)) {
      this.advance();
      return negateLiteral(this.number(this.pos()), pos);
    }
    if (isIdentStart(c)) return this.word(pos);
    if (c === '"') return { type: 'string', text: this.quotedString(pos), pos };
    if (c === '`') return this.template(pos);
    if (c === "'") return this.charLiteral(pos);
    if (c === '#' && (this.peek(1) === '"' || this.peek(1) === '#'))
      return { type: 'string', text: this.rawString(pos), pos };
    if (c === '!' && this.src.startsWith('in', this.i + 1) && !isIdentChar(this.peek(3))) {
      this.advance();
      this.advance();
      this.advance();
      return { type: 'punct', text: '!in', pos };
    }
    for (let len = 3; len >= 1; len--) {
      const p = this.src.substr(this.i, len);
      if (PUNCT_SET.has(p)) {
        for (let k = 0; k < len; k++) this.advance();
        if (p === '(' && this.peek() === ')') return { type: 'punct', text: p, pos, unit: true };
        return { type: 'punct', text: p, pos };
      }
    }
    throw parseError(`Unknown character '${c}'`, pos);
  }

  private word(pos: Pos): Token {
    const start = this.i;
    while (isIdentChar(this.peek())) this.advance();
    const text = this.src.slice(start, this.i);
    // Rhai 1.26's is_valid_identifier: a name starts with a letter (`_` alone is the symbol `_`).
    if (text !== '_' && !isLetter(text.charAt(0)))
      throw parseError(`Malformed identifier '${text}': a name must start with a letter`, pos);
    return { type: KEYWORDS.has(text) ? 'keyword' : 'ident', text, pos };
  }

  private number(pos: Pos): Token {
    const start = this.i;
    if (this.peek() === '0' && /[xXoObB]/.test(this.peek(1))) {
      const radixChar = this.peek(1).toLowerCase();
      this.advance();
      this.advance();
      const digitsStart = this.i;
      while (/[0-9a-fA-F_]/.test(this.peek())) this.advance();
      const digits = this.src.slice(digitsStart, this.i).replace(/_/g, '');
      const prefix = radixChar === 'x' ? '0x' : radixChar === 'o' ? '0o' : '0b';
      let value: bigint;
      try {
        value = BigInt(prefix + digits);
      } catch {
        throw parseError(`Invalid number: ${this.src.slice(start, this.i)}`, pos);
      }
      // Hex/octal/binary literals are the bit pattern of an i64.
      if (value > 0xffffffffffffffffn) throw parseError(`Integer too large: ${this.src.slice(start, this.i)}`, pos);
      return { type: 'int', text: this.src.slice(start, this.i), pos, int: BigInt.asIntN(64, value) };
    }
    while (isDigit(this.peek()) || this.peek() === '_') this.advance();
    let isFloat = false;
    if (this.peek() === '.' && isDigit(this.peek(1))) {
      isFloat = true;
      this.advance();
      while (isDigit(this.peek()) || this.peek() === '_') this.advance();
    } else if (
      this.peek() === '.' &&
      this.peek(1) !== '' &&
      this.peek(1) !== '.' &&
      this.peek(1) !== '_' &&
      !isLetter(this.peek(1))
    ) {
      // Rhai's tokenizer: `1.` before anything that cannot start a property name (`1.;`, `1. + x`)
      // is the float 1.0; before a letter it is a method call, before `.` a range.
      this.advance();
      const text = this.src.slice(start, this.i);
      return { type: 'float', text, pos, float: Number(text.replace(/_/g, '').slice(0, -1)) };
    }
    if (
      (this.peek() === 'e' || this.peek() === 'E') &&
      (isDigit(this.peek(1)) || ((this.peek(1) === '-' || this.peek(1) === '+') && isDigit(this.peek(2))))
    ) {
      isFloat = true;
      this.advance();
      if (this.peek() === '-' || this.peek() === '+') this.advance();
      while (isDigit(this.peek())) this.advance();
    }
    const text = this.src.slice(start, this.i);
    if (isIdentStart(this.peek())) throw parseError(`Invalid number: ${text}${this.peek()}`, pos);
    const clean = text.replace(/_/g, '');
    if (isFloat) return { type: 'float', text, pos, float: Number(clean) };
    return { type: 'int', text, pos, int: BigInt(clean) };
  }

  /**
   * An escape in a `"` string or a char literal (Rhai's parse_string_literal): `\n`, `\t`, `\r`,
   * `\\`, `\x..`, `\u....`, `\U........` and the closing quote itself. In a `"` string a backslash
   * before the line end continues the string on the next line, skipping that line's whitespace up
   * to the column of the opening quote (so indentation lines up with it).
   */
  private escape(pos: Pos, quote: '"' | "'"): string {
    const escPos = this.pos();
    this.advance(); // backslash
    const e = this.advance();
    switch (e) {
      case 'n':
        return '\n';
      case 't':
        return '\t';
      case 'r':
        return '\r';
      case '\\':
        return '\\';
      case 'x':
        return this.hexEscape(2, escPos);
      case 'u':
        return this.hexEscape(4, escPos);
      case 'U':
        return this.hexEscape(8, escPos);
    }
    if (e === quote) return quote;
    const lineEnd = e === '\n' || (e === '\r' && this.peek() === '\n');
    if (lineEnd && quote === '"') {
      if (e === '\r') this.advance();
      while (this.col <= pos.column && this.peek() !== '\n' && isWhitespace(this.peek())) this.advance();
      return '';
    }
    if (e === '') throw parseError(`Open string is not terminated (missing ${quote})`, pos);
    throw parseError(`Invalid escape sequence: \\${e}`, escPos);
  }

  private hexEscape(len: number, escPos: Pos): string {
    let hex = '';
    for (let k = 0; k < len; k++) {
      const h = this.peek();
      if (!/[0-9a-fA-F]/.test(h)) throw parseError(`Invalid escape sequence: ${hex}`, escPos);
      hex += this.advance();
    }
    const code = parseInt(hex, 16);
    if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff))
      throw parseError(`Invalid escape sequence: ${hex}`, escPos);
    return String.fromCodePoint(code);
  }

  private quotedString(pos: Pos): string {
    this.advance();
    let out = '';
    for (;;) {
      const c = this.peek();
      if (c === '' || c === '\n') throw parseError("Open string is not terminated (missing '\"')", pos);
      if (c === '"') {
        this.advance();
        if (this.peek() === '"') {
          this.advance();
          out += '"';
          continue;
        } // "" is an escaped quote
        return out;
      }
      if (c === '\\') {
        out += this.escape(pos, '"');
        continue;
      }
      out += this.advance();
    }
  }

  private rawString(pos: Pos): string {
    let hashes = 0;
    while (this.peek() === '#') {
      this.advance();
      hashes++;
    }
    if (this.peek() !== '"') throw parseError("Expecting '\"' to start a raw string", this.pos());
    this.advance();
    const close = '"' + '#'.repeat(hashes);
    let out = '';
    for (;;) {
      if (this.i >= this.src.length) throw parseError('Open string is not terminated (raw string)', pos);
      if (this.src.startsWith(close, this.i)) {
        for (let k = 0; k < close.length; k++) this.advance();
        return out;
      }
      out += this.advance();
    }
  }

  private charLiteral(pos: Pos): Token {
    this.advance();
    let ch: string;
    if (this.peek() === '\\') ch = this.escape(pos, "'");
    else {
      const cp = this.src.codePointAt(this.i);
      if (cp === undefined || this.peek() === "'" || this.peek() === '\n')
        throw parseError('Expecting a character literal', pos);
      ch = String.fromCodePoint(cp);
      this.advance();
      if (ch.length === 2) this.advance();
    }
    if (this.peek() !== "'") throw parseError('Character literal must be a single character (missing "\'")', pos);
    this.advance();
    return { type: 'char', text: ch, pos };
  }

  /** Backtick string: no escapes, `` for a backtick, `${expr}` interpolation. */
  private template(pos: Pos): Token {
    this.advance();
    if (this.peek() === '\r' && this.peek(1) === '\n') {
      this.advance();
      this.advance();
    } else if (this.peek() === '\n') this.advance();
    const parts: (string | Token[])[] = [];
    let text = '';
    for (;;) {
      if (this.i >= this.src.length) throw parseError("Open string is not terminated (missing '`')", pos);
      const c = this.peek();
      if (c === '`') {
        this.advance();
        if (this.peek() === '`') {
          this.advance();
          text += '`';
          continue;
        }
        break;
      }
      if (c === '\\' && this.peek(1) === '$' && this.peek(2) === '{') {
        // `\${` is the text `${`
        this.advance();
        this.advance();
        this.advance();
        text += '${';
        continue;
      }
      if (c === '$' && this.peek(1) === '{') {
        this.advance();
        this.advance();
        parts.push(text);
        text = '';
        const inner = this.lexUntil(true);
        inner.push({ type: 'eof', text: '', pos: this.pos() });
        parts.push(inner);
        continue;
      }
      if (c === '\r' && this.peek(1) === '\n') {
        this.advance();
        continue;
      } // CRLF reads as LF, as in Rhai
      text += this.advance();
    }
    parts.push(text);
    return { type: 'template', text: '', pos, parts };
  }
}
