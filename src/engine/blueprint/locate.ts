// Where each key and value of a TOML document sits (1-based line and column).
// smol-toml reports positions only for syntax errors, so this scanner walks the (already parsed,
// therefore valid) source once and records every key path it defines: [table] and [[array]]
// headers, dotted keys, quoted keys, inline tables and array elements.
import { itemAt } from '../item-at.ts';

export type KeyPath = readonly (string | number)[];

export interface Position {
  line: number;
  column: number;
}

export interface KeyLocation {
  key: Position;
  /** Just past the key's last character. */
  keyEnd?: Position;
  /** Where the value starts; absent for table headers. */
  value?: Position;
  /** Just past the value's last character. */
  valueEnd?: Position;
}

/** A position plus, when known, where the thing there ends (exclusive), for editor underlines. */
export interface Span extends Position {
  end?: Position;
}

interface Segment {
  name: string;
  at: Position;
  end: Position;
}

/** Paths deeper than this are not recorded: no diagnostic points that deep, and it bounds the work. */
const MAX_RECORDED_DEPTH = 16;

export function pathId(path: KeyPath): string {
  return path.join('\u001f');
}

/** Dotted form for diagnostics: `stages.a.tool_routing.overrides.read_file`, array items as `files[0]`. */
export function dottedPath(path: KeyPath): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else {
      const text = /^[A-Za-z0-9_-]+$/.test(segment) ? segment : JSON.stringify(segment);
      out += out ? `.${text}` : text;
    }
  }
  return out;
}

export class KeyIndex {
  private readonly entries = new Map<string, KeyLocation>();

  constructor(source: string) {
    new Scanner(source, this.entries).run();
  }

  get(path: KeyPath): KeyLocation | undefined {
    return this.entries.get(pathId(path));
  }

  /**
   * The best position for a diagnostic about `path`: its value (when `at` is 'value' and it has one)
   * or its key; a path the source does not spell out falls back to its nearest written ancestor.
   */
  locate(path: KeyPath, at: 'key' | 'value' = 'key'): Span {
    for (let depth = path.length; depth > 0; depth--) {
      const found = this.entries.get(pathId(path.slice(0, depth)));
      if (!found) continue;
      if (at === 'value' && depth === path.length && found.value) return { ...found.value, end: found.valueEnd };
      return { ...found.key, end: found.keyEnd };
    }
    return { line: 1, column: 1 };
  }
}

const BARE_KEY = /[A-Za-z0-9_-]/;
const SIMPLE_ESCAPES: Record<string, string> = {
  b: '\b',
  t: '\t',
  n: '\n',
  f: '\f',
  r: '\r',
  e: '\x1b',
  '"': '"',
  '\\': '\\',
};

class Scanner {
  private pos = 0;
  private line = 1;
  private lineStart = 0;
  private readonly arrayTableCounts = new Map<string, number>();

  constructor(
    private readonly src: string,
    private readonly out: Map<string, KeyLocation>,
  ) {}

  run(): void {
    // Editors hide a byte-order mark, so columns on line 1 count from after it.
    if (this.src.startsWith('\ufeff')) this.pos = this.lineStart = 1;
    let table: (string | number)[] = [];
    while (this.pos < this.src.length) {
      this.skipTrivia(true);
      if (this.pos >= this.src.length) break;
      if (this.src[this.pos] === '[') table = this.header();
      else this.assignment(table, 0);
      this.skipLineRest();
    }
  }

  private here(): Position {
    return { line: this.line, column: this.pos - this.lineStart + 1 };
  }

  private record(path: KeyPath, location: KeyLocation): void {
    if (path.length > MAX_RECORDED_DEPTH) return;
    const id = pathId(path);
    // Implicit parents keep their first mention; a later definition of a leaf overrides nothing.
    if (!this.out.has(id)) this.out.set(id, location);
  }

  private advance(): void {
    if (this.src[this.pos] === '\n') {
      this.line++;
      this.lineStart = this.pos + 1;
    }
    this.pos++;
  }

  /** Whitespace and comments; newlines too when `newlines`. */
  private skipTrivia(newlines: boolean): void {
    while (this.pos < this.src.length) {
      const c = this.src.charAt(this.pos);
      if (c === ' ' || c === '\t' || c === '\r' || (newlines && c === '\n')) this.advance();
      else if (c === '#') while (this.pos < this.src.length && this.src[this.pos] !== '\n') this.pos++;
      else break;
    }
  }

  private skipLineRest(): void {
    while (this.pos < this.src.length && this.src[this.pos] !== '\n') this.pos++;
  }

  private header(): (string | number)[] {
    const isArray = this.src.startsWith('[[', this.pos);
    this.pos += isArray ? 2 : 1;
    const segments = this.dottedKey();
    const path: (string | number)[] = [];
    for (const { name, at, end } of segments) {
      path.push(name);
      this.record(path, { key: at, keyEnd: end });
    }
    if (isArray) {
      const id = pathId(path);
      const index = this.arrayTableCounts.get(id) ?? 0;
      this.arrayTableCounts.set(id, index + 1);
      path.push(index);
      const last = itemAt(segments, segments.length - 1);
      this.record(path, { key: last.at, keyEnd: last.end });
    }
    return path;
  }

  /** `a.b = value` under `base`: a table header's path, or an inline table's. */
  private assignment(base: KeyPath, depth: number): void {
    const segments = this.dottedKey();
    const path = [...base];
    for (const { name, at, end } of segments.slice(0, -1)) {
      path.push(name);
      this.record(path, { key: at, keyEnd: end });
    }
    const last = itemAt(segments, segments.length - 1);
    path.push(last.name);
    this.skipTrivia(false);
    if (this.src[this.pos] === '=') this.pos++;
    this.skipTrivia(false);
    const location: KeyLocation = { key: last.at, keyEnd: last.end, value: this.here() };
    this.record(path, location);
    location.valueEnd = this.value(path, depth);
  }

  private dottedKey(): Segment[] {
    const segments: Segment[] = [];
    for (;;) {
      this.skipTrivia(false);
      const at = this.here();
      const name = this.simpleKey();
      segments.push({ name, at, end: this.here() });
      this.skipTrivia(false);
      if (this.src[this.pos] !== '.') break;
      this.pos++;
    }
    this.skipTrivia(false);
    while (this.src[this.pos] === ']') this.pos++;
    return segments;
  }

  private simpleKey(): string {
    const c = this.src[this.pos];
    if (c === '"' || c === "'") return this.string();
    const start = this.pos;
    while (this.pos < this.src.length && BARE_KEY.test(this.src.charAt(this.pos))) this.pos++;
    if (this.pos === start) this.pos++; // never stall on unexpected input
    return this.src.slice(start, this.pos);
  }

  /** Skips one value, recording what is inside it; returns where it ends. */
  private value(path: KeyPath, depth: number): Position {
    const c = this.src[this.pos];
    if (c === '{') this.inlineTable(path, depth);
    else if (c === '[') this.array(path, depth);
    else if (c === '"' || c === "'") this.string();
    else {
      const start = this.pos;
      while (this.pos < this.src.length && !',]}\n#'.includes(this.src.charAt(this.pos))) this.pos++;
      let end = this.pos;
      while (end > start && ' \t\r'.includes(this.src.charAt(end - 1))) end--;
      return { line: this.line, column: end - this.lineStart + 1 };
    }
    return this.here();
  }

  private inlineTable(path: KeyPath, depth: number): void {
    this.pos++;
    for (;;) {
      this.skipTrivia(true);
      const c = this.src[this.pos];
      if (c === undefined) return;
      if (c === '}') {
        this.pos++;
        return;
      }
      if (c === ',') {
        this.pos++;
        continue;
      }
      this.assignment(path, depth + 1);
    }
  }

  private array(path: KeyPath, depth: number): void {
    this.pos++;
    let index = 0;
    for (;;) {
      this.skipTrivia(true);
      const c = this.src[this.pos];
      if (c === undefined) return;
      if (c === ']') {
        this.pos++;
        return;
      }
      if (c === ',') {
        this.pos++;
        continue;
      }
      const itemPath = [...path, index++];
      const at = this.here();
      const location: KeyLocation = { key: at, value: at };
      this.record(itemPath, location);
      location.keyEnd = location.valueEnd = this.value(itemPath, depth + 1);
    }
  }

  /** Any of the four string forms, advancing past it; returns the decoded text (used for keys). */
  private string(): string {
    const quote = this.src.charAt(this.pos);
    const multi = this.src.startsWith(quote.repeat(3), this.pos);
    const close = multi ? quote.repeat(3) : quote;
    this.pos += close.length;
    let text = '';
    while (this.pos < this.src.length) {
      if (this.src.startsWith(close, this.pos)) {
        this.pos += close.length;
        // A multi-line string may end with up to two extra quotes: `""""` is `"` then the closer.
        while (multi && this.src[this.pos] === quote) {
          text += quote;
          this.pos++;
        }
        return text;
      }
      const c = this.src.charAt(this.pos);
      if (c === '\\' && quote === '"') {
        text += this.escape();
        continue;
      }
      text += c;
      this.advance();
    }
    return text;
  }

  private escape(): string {
    const next = this.src[this.pos + 1] ?? '';
    const simple = Object.hasOwn(SIMPLE_ESCAPES, next) ? SIMPLE_ESCAPES[next] : undefined;
    if (simple !== undefined) {
      this.pos += 2;
      return simple;
    }
    const width = next === 'u' ? 4 : next === 'U' ? 8 : next === 'x' ? 2 : 0;
    if (width) {
      const code = parseInt(this.src.slice(this.pos + 2, this.pos + 2 + width), 16);
      this.pos += 2 + width;
      return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
    // A line-ending backslash in a multi-line string: skip to the next non-blank.
    this.pos++;
    while (this.pos < this.src.length && ' \t\r\n'.includes(this.src.charAt(this.pos))) this.advance();
    return '';
  }
}
