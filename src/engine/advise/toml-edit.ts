// Edits an agent.leviath at the keys' own positions, so everything else the user wrote (comments,
// blank lines, key order, quoting, inline or section style) stays as it was. smol-toml's stringify
// would re-serialize the whole document and drop every comment; a proposal is meant to be read as a
// diff of the user's own file. The caller checks each result by parsing it (toml-check.ts), so an
// edit this module gets wrong is refused, never shown.
import { KeyIndex, type KeyLocation, type Position } from '../blueprint/locate.ts';
import { itemAt } from '../item-at.ts';

export type TomlValue = string | number | boolean | { [key: string]: TomlValue };
export type TomlPath = readonly string[];

/** A header (`[a.b]`) or a top-level assignment (`key = value`), as it sits in the source. */
interface Item {
  kind: 'header' | 'assignment';
  path: string[];
  /** Offset of the item's first character. */
  start: number;
  /** Offset just past its line (its value and any comment), before the newline. */
  lineEnd: number;
}

/** `section`: a new section, which goes after any line added to the body it follows. */
interface Splice {
  at: number;
  end: number;
  text: string;
  order: number;
  section: boolean;
}

const BARE = /^[A-Za-z0-9_-]+$/;

export function tomlKey(key: string): string {
  return BARE.test(key) ? key : JSON.stringify(key);
}

/** A value as TOML writes it: strings in basic quotes, numbers, booleans, inline tables. */
export function tomlLiteral(value: TomlValue): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const pairs = Object.entries(value).map(([k, v]) => `${tomlKey(k)} = ${tomlLiteral(v)}`);
  return pairs.length ? `{ ${pairs.join(', ')} }` : '{}';
}

const same = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((s, i) => s === b[i]);
const startsWith = (path: readonly string[], prefix: readonly string[]): boolean =>
  prefix.length <= path.length && prefix.every((s, i) => s === path[i]);

/**
 * A TOML source and the edits made to it, each against the original positions; `text()` applies
 * them. Keys are set, added or removed where they stand: a value is replaced in place, a key joins
 * its inline table or its section, a table that does not exist is added beside its relatives.
 */
export class TomlEditor {
  private readonly index: KeyIndex;
  private readonly items: Item[];
  private readonly lineStarts: number[] = [0];
  private readonly bom: boolean;
  private readonly splices: Splice[] = [];
  /** Tables created by earlier edits: a later key for one joins the text made for it. */
  private readonly created = new Map<
    string,
    { value: Record<string, TomlValue>; splice: Splice; render: (v: Record<string, TomlValue>) => string }
  >();

  constructor(private readonly source: string) {
    this.index = new KeyIndex(source);
    this.bom = source.startsWith('\ufeff');
    for (let i = 0; i < source.length; i++) if (source[i] === '\n') this.lineStarts.push(i + 1);
    this.items = scanItems(source);
  }

  text(): string {
    let out = this.source;
    // From the end back, so earlier offsets stay valid; at one offset, a line joining a section's body
    // goes before a new section that follows it, and otherwise later edits go after earlier ones.
    const ordered = [...this.splices].sort(
      (a, b) => b.at - a.at || Number(b.section) - Number(a.section) || b.order - a.order,
    );
    for (const s of ordered) out = out.slice(0, s.at) + s.text + out.slice(s.end);
    return out;
  }

  /** Sets `path` to `value`: in place when it is written, else added to its table (made if need be). */
  set(path: TomlPath, value: TomlValue): void {
    const found = this.index.get(path);
    if (found?.value && found.valueEnd) {
      this.splice(this.offset(found.value), this.offset(found.valueEnd), tomlLiteral(value));
      return;
    }
    this.add(path.slice(0, -1), itemAt(path, path.length - 1), value);
  }

  /** Removes `path` when it is written (a key of an inline table, or a line of a section). */
  remove(path: TomlPath): void {
    const found = this.index.get(path);
    if (!found?.value || !found.valueEnd) return;
    const parent = this.inlineTable(path.slice(0, -1));
    const keyStart = this.offset(found.key);
    const valueEnd = this.offset(found.valueEnd);
    if (parent) {
      // The key, its value and one separating comma with the spaces around it.
      const before = this.source.slice(parent.open + 1, keyStart);
      const after = this.source.slice(valueEnd, parent.close);
      const comma = after.search(/\S/);
      if (comma >= 0 && after[comma] === ',') {
        const next = after.slice(comma + 1).search(/\S|$/);
        this.splice(keyStart, valueEnd + comma + 1 + next, '');
      } else if (/,\s*$/.test(before)) {
        this.splice(keyStart - (before.length - before.search(/,\s*$/)), valueEnd, '');
      } else {
        this.splice(keyStart, valueEnd, '');
      }
      return;
    }
    const item = this.items.find((i) => i.kind === 'assignment' && i.start <= keyStart && keyStart < i.lineEnd);
    if (!item) return;
    const lineStart = this.source.lastIndexOf('\n', item.start - 1) + 1;
    const end = this.source[item.lineEnd] === '\n' ? item.lineEnd + 1 : item.lineEnd;
    this.splice(lineStart, end, '');
  }

  /** Adds `key = value` to the table at `table`, making the table when the source has none. */
  private add(table: TomlPath, key: string, value: TomlValue): void {
    const made = this.created.get(table.join('\u001f'));
    if (made) {
      made.value[key] = value;
      made.splice.text = made.render(made.value);
      return;
    }
    const inline = this.inlineTable(table);
    if (inline) {
      this.inlineInsert(inline, key, value);
      return;
    }
    const header = this.header(table);
    if (header) {
      const at = this.bodyEnd(header);
      this.splice(at, at, `\n${tomlKey(key)} = ${tomlLiteral(value)}`);
      return;
    }
    this.createTable(table, { [key]: value });
  }

  /** `key = value` as the last pair of an inline table (`{ }` becomes `{ key = value }`). */
  private inlineInsert(inline: { open: number; close: number }, key: string, value: TomlValue): void {
    const inside = this.source.slice(inline.open + 1, inline.close);
    const empty = inside.trim().length === 0;
    const at = empty ? inline.open + 1 : inline.open + 1 + inside.search(/\s*$/);
    const end = empty ? inline.close : at;
    const pair = `${tomlKey(key)} = ${tomlLiteral(value)}`;
    this.splice(at, end, empty ? ` ${pair} ` : `, ${pair}`);
  }

  /**
   * A table the source does not have: inside its nearest inline ancestor when there is one; as a
   * line of its parent's section when the parent is a section of its own; else as a new section
   * after the last section under its nearest written ancestor (at the end of the file without one).
   */
  private createTable(path: TomlPath, value: Record<string, TomlValue>): void {
    for (let depth = path.length - 1; depth >= 1; depth--) {
      const inline = this.inlineTable(path.slice(0, depth));
      if (!inline) continue;
      // The new table as the nested value of the ancestor's next key (`a = { b = { key = value } }`).
      const wrap = (v: Record<string, TomlValue>): Record<string, TomlValue> => {
        let nested: Record<string, TomlValue> = v;
        for (let i = path.length - 1; i > depth; i--) nested = { [itemAt(path, i)]: nested };
        return nested;
      };
      const inside = this.source.slice(inline.open + 1, inline.close);
      const empty = inside.trim().length === 0;
      const at = empty ? inline.open + 1 : inline.open + 1 + inside.search(/\s*$/);
      const lead = (v: Record<string, TomlValue>) => `${tomlKey(itemAt(path, depth))} = ${tomlLiteral(wrap(v))}`;
      const render = (v: Record<string, TomlValue>) => (empty ? ` ${lead(v)} ` : `, ${lead(v)}`);
      this.remember(path, value, this.splice(at, empty ? inline.close : at, render(value)), render);
      return;
    }
    const parent = path.slice(0, -1);
    const parentHeader = parent.length > 0 ? this.header(parent) : undefined;
    if (parentHeader) {
      const at = this.bodyEnd(parentHeader);
      const render = (v: Record<string, TomlValue>) =>
        `\n${tomlKey(itemAt(path, path.length - 1))} = ${tomlLiteral(v)}`;
      this.remember(path, value, this.splice(at, at, render(value)), render);
      return;
    }
    let anchor: Item | undefined;
    for (let depth = path.length - 1; depth >= 1 && !anchor; depth--) {
      const ancestor = path.slice(0, depth);
      anchor = this.items.filter((i) => i.kind === 'header' && startsWith(i.path, ancestor)).at(-1);
    }
    const section = (v: Record<string, TomlValue>) =>
      `[${path.map(tomlKey).join('.')}]\n${Object.entries(v)
        .map(([k, x]) => `${tomlKey(k)} = ${tomlLiteral(x)}`)
        .join('\n')}`;
    if (anchor) {
      const at = this.bodyEnd(anchor);
      const render = (v: Record<string, TomlValue>) => `\n\n${section(v)}`;
      this.remember(path, value, this.splice(at, at, render(value), true), render);
      return;
    }
    const at = this.source.length;
    const lead =
      this.source.length === 0 || this.source.endsWith('\n\n') ? '' : this.source.endsWith('\n') ? '\n' : '\n\n';
    const render = (v: Record<string, TomlValue>) => `${lead}${section(v)}\n`;
    this.remember(path, value, this.splice(at, at, render(value), true), render);
  }

  private remember(
    path: TomlPath,
    value: Record<string, TomlValue>,
    splice: Splice,
    render: (v: Record<string, TomlValue>) => string,
  ): void {
    // A later key for this table joins the text made for it, instead of making it twice.
    this.created.set(path.join('\u001f'), { value, splice, render });
  }

  private splice(at: number, end: number, text: string, section = false): Splice {
    const s: Splice = { at, end, text, order: this.splices.length, section };
    this.splices.push(s);
    return s;
  }

  /** The offsets of `{` and `}` when `path` is written as an inline table. */
  private inlineTable(path: TomlPath): { open: number; close: number } | undefined {
    if (path.length === 0) return undefined;
    const found: KeyLocation | undefined = this.index.get(path);
    if (!found?.value || !found.valueEnd) return undefined;
    const open = this.offset(found.value);
    if (this.source[open] !== '{') return undefined;
    return { open, close: this.offset(found.valueEnd) - 1 };
  }

  private header(path: TomlPath): Item | undefined {
    return this.items.find((i) => i.kind === 'header' && same(i.path, path));
  }

  /** Just past the last line of a section's own assignments (its header line when it has none). */
  private bodyEnd(header: Item): number {
    const at = this.items.indexOf(header);
    let end = header.lineEnd;
    for (const item of this.items.slice(at + 1)) {
      if (item.kind !== 'assignment') break;
      end = item.lineEnd;
    }
    return end;
  }

  private offset(p: Position): number {
    return itemAt(this.lineStarts, p.line - 1) + p.column - 1 + (p.line === 1 && this.bom ? 1 : 0);
  }
}

/**
 * The document's headers and top-level assignments, in order, with where each starts and where its
 * line ends: strings (all four forms), comments, arrays and inline tables are stepped over, so a
 * `[` inside a multi-line string is not a header.
 */
function scanItems(src: string): Item[] {
  const items: Item[] = [];
  let pos = src.startsWith('\ufeff') ? 1 : 0;
  const skipBlank = () => {
    while (pos < src.length) {
      const c = src.charAt(pos);
      if (c === ' ' || c === '\t' || c === '\r' || c === '\n') pos++;
      else if (c === '#') while (pos < src.length && src[pos] !== '\n') pos++;
      else break;
    }
  };
  const skipString = () => {
    const quote = src.charAt(pos);
    const triple = src.startsWith(quote.repeat(3), pos);
    const close = triple ? quote.repeat(3) : quote;
    pos += close.length;
    while (pos < src.length) {
      if (quote === '"' && src[pos] === '\\') {
        pos += 2;
        continue;
      }
      if (src.startsWith(close, pos)) {
        pos += close.length;
        while (triple && src[pos] === quote) pos++;
        return;
      }
      if (!triple && src[pos] === '\n') return;
      pos++;
    }
  };
  const key = (): string[] => {
    const parts: string[] = [];
    for (;;) {
      while (src[pos] === ' ' || src[pos] === '\t') pos++;
      const c = src[pos];
      if (c === '"' || c === "'") {
        const from = pos;
        skipString();
        const raw = src.slice(from, pos);
        parts.push(c === '"' ? safeJson(raw) : raw.slice(1, -1));
      } else {
        const from = pos;
        while (pos < src.length && /[A-Za-z0-9_-]/.test(src.charAt(pos))) pos++;
        parts.push(src.slice(from, pos));
        if (pos === from) return parts;
      }
      while (src[pos] === ' ' || src[pos] === '\t') pos++;
      if (src[pos] !== '.') return parts;
      pos++;
    }
  };
  const lineEnd = () => {
    let depth = 0;
    while (pos < src.length) {
      const c = src.charAt(pos);
      if (c === '"' || c === "'") {
        skipString();
        continue;
      }
      if (c === '#') {
        while (pos < src.length && src[pos] !== '\n') pos++;
        continue;
      }
      if (c === '[' || c === '{') depth++;
      else if (c === ']' || c === '}') depth--;
      else if (c === '\n' && depth <= 0) break;
      pos++;
    }
    return pos;
  };
  while (pos < src.length) {
    skipBlank();
    if (pos >= src.length) break;
    const start = pos;
    if (src[pos] === '[') {
      pos += src.startsWith('[[', pos) ? 2 : 1;
      const path = key();
      while (pos < src.length && src[pos] !== '\n' && src[pos] !== '#') pos++;
      while (pos < src.length && src[pos] !== '\n') pos++;
      items.push({ kind: 'header', path, start, lineEnd: pos });
      continue;
    }
    const path = key();
    items.push({ kind: 'assignment', path, start, lineEnd: lineEnd() });
  }
  return items;
}

function safeJson(raw: string): string {
  try {
    return JSON.parse(raw) as string;
  } catch {
    return raw.slice(1, -1);
  }
}
