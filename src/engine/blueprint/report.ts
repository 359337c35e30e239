// Collects diagnostics for one source file, placing each at its key or value, and reads typed values
// out of parsed TOML with zod so a wrong type becomes a located diagnostic instead of a throw.
import { z } from 'zod';
import { TomlDate } from 'smol-toml';
import type { Diagnostic, Severity } from '../diagnostics.ts';
import { dottedPath, type KeyIndex, type KeyPath } from './locate.ts';
import { didYouMean } from './suggest.ts';
import type { SourceLoc } from './types.ts';

export type Table = Record<string, unknown>;

export function isTable(value: unknown): value is Table {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof TomlDate);
}

/** How a TOML value reads in a message: strings quoted, tables and arrays by shape. */
export function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  if (Array.isArray(value)) return 'an array';
  if (value instanceof TomlDate) return 'a date';
  if (isTable(value)) return 'a table';
  return String(value);
}

export const positiveInt = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
export const boolean = z.boolean();
export const text = z.string();

export class Reporter {
  readonly diagnostics: Diagnostic[] = [];
  private readonly seen = new Set<string>();

  constructor(
    readonly file: string,
    private readonly index: KeyIndex | undefined,
  ) {}

  /** Where a declaration sits, for the Blueprint's `loc` fields. */
  loc(path: KeyPath): SourceLoc {
    const { line, column } = this.index ? this.index.locate(path) : { line: 1, column: 1 };
    return { file: this.file, line, column };
  }

  /**
   * Keys of a table in the order the source declares them. JavaScript objects put integer-like keys
   * (a region named "2") first, and declaration order decides render order and the starting stage.
   */
  inSourceOrder(table: Table, path: KeyPath): string[] {
    const keys = Object.keys(table);
    if (!this.index) return keys;
    const at = new Map(keys.map((k) => [k, this.index!.locate([...path, k])]));
    return keys.sort((a, b) => at.get(a)!.line - at.get(b)!.line || at.get(a)!.column - at.get(b)!.column);
  }

  /** Whether the source spells out this key path. */
  has(path: KeyPath): boolean {
    return this.index?.get(path) !== undefined;
  }

  add(code: string, severity: Severity, path: KeyPath, message: string, at: 'key' | 'value' = 'key'): void {
    const { line, column, end } = this.index ? this.index.locate(path, at) : { line: 1, column: 1, end: undefined };
    const id = `${code}\u0000${line}:${column}\u0000${message}`;
    if (this.seen.has(id)) return; // the same finding reached by two routes is reported once
    this.seen.add(id);
    const range = end ? { endLine: end.line, endColumn: end.column } : {};
    this.diagnostics.push({ code, severity, message, file: this.file, line, column, ...range, path: dottedPath(path) });
  }

  error(code: string, path: KeyPath, message: string, at: 'key' | 'value' = 'key'): void {
    this.add(code, 'error', path, message, at);
  }

  /** `table.key` parsed by `schema`, or undefined (reporting `code` with `expected`) when it does not fit. */
  read<T>(
    table: Table,
    key: string,
    path: KeyPath,
    schema: z.ZodType<T>,
    expected: string,
    code = 'invalid-value',
  ): T | undefined {
    const value = table[key];
    if (value === undefined) return undefined;
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    this.error(code, [...path, key], `\`${key}\` must be ${expected}, not ${describe(value)}.`, 'value');
    return undefined;
  }

  /**
   * Reports keys of `table` outside `known`: errors in sections the spec defines completely ('strict');
   * in open sections, where Leviath has settings the playground does not model, a warning, unless the
   * key is a near miss of a known one (`[context.region]`), which is a typo and an error.
   */
  unknownKeys(
    table: Table,
    path: KeyPath,
    known: readonly string[],
    where: string,
    section: 'strict' | 'open' = 'strict',
  ): void {
    for (const key of Object.keys(table)) {
      if (known.includes(key)) continue;
      const hint = didYouMean(key, known);
      const severity: Severity = section === 'strict' || hint ? 'error' : 'warning';
      const action = hint ? hint : ` Known keys: ${known.join(', ')}.`;
      const effect = severity === 'error' ? 'Remove or rename it.' : 'The playground ignores it.';
      this.add('unknown-key', severity, [...path, key], `Unknown key \`${key}\` in ${where}.${action} ${effect}`);
    }
  }
}
