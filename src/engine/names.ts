// Tables keyed by a user's names (regions, stages, tools, files, commands, inputs, ledger rows).
// A plain object answers `table.toString` or `table.constructor` from Object.prototype and treats
// `table.__proto__ = x` as a prototype change, so a region named `toString` read a function and a
// stage named `hasOwnProperty` wrote into Object.prototype's methods. These tables have no
// prototype: every name is only a key.

export type NameTable<T> = Record<string, T>;

/** A table with no prototype, filled from `entries` (Object.fromEntries would give it one). */
export function nameTable<T>(entries: Iterable<readonly [string, T]> = []): NameTable<T> {
  const table = Object.create(null) as NameTable<T>;
  for (const [name, value] of entries) table[name] = value;
  return table;
}

/** `table[name]` when the table itself has that key (never an inherited member). */
export function own<T>(table: Readonly<Record<string, T>>, name: string): T | undefined {
  return Object.hasOwn(table, name) ? table[name] : undefined;
}
