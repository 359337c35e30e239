// hashmap: keyed entries. A write to an existing key replaces it (and becomes the most recent);
// past `max_entries` or the budget the least recently written key goes. Each value renders under
// its key, so the model can name the key it needs.
import type { Change } from '../timeline.ts';
import { BaseRegion } from './base.ts';
import { fmt } from '../format.ts';
import { PLAIN, type KindDefinition } from './kind.ts';
import type { Entry, RegionContext, WriteOutcome } from './types.ts';
import { positiveInt } from '../blueprint/report.ts';

export const hashmapKind: KindDefinition<'hashmap'> = {
  kind: 'hashmap',
  doc: 'Keyed entries (alias hash_map); a write to a key replaces it.',
  aliases: { hash_map: 'An alias of hashmap.' },
  // Drops whole keys, the content a model asks for by name: shed last.
  tier: 5,
  section: 'by-name',
  abilities: { ...PLAIN, keyed: true },
  keys: { max_entries: { meaning: 'hashmap: the most keys it holds; a write to an existing key replaces it.' } },
  read: (r, raw, path, region) => {
    region.maxEntries = r.read(raw, 'max_entries', path, positiveInt, 'a positive whole number');
  },
};

export class HashmapRegion extends BaseRegion {
  readonly definition = hashmapKind;

  protected override get evictsOversized(): boolean {
    return true;
  }

  /** Every write to an existing key rewrites it, even with the same content: it becomes the most recent. */
  override write(entry: Entry, ctx: RegionContext): WriteOutcome {
    const at = entry.key === undefined ? -1 : this.entries.findIndex((e) => e.key === entry.key);
    return at < 0 ? super.write(entry, ctx) : this.rewrite(at, entry, ctx);
  }

  override put(entry: Entry, ctx: RegionContext): WriteOutcome {
    return this.write(entry, ctx);
  }

  /**
   * Each value under its key (`src/lib.rs: ...`): a keyed rewrite or `context_delete { key }` needs
   * the key, and the request is all the model sees. Content that already starts with its key
   * (file tracking's `src/lib.rs: read (1,234 tokens)`) is shown as it is.
   */
  protected override linePrefix(entry: Entry): string {
    const key = entry.key;
    if (key === undefined) return '';
    const prefix = `${key}: `;
    return entry.content.startsWith(prefix) ? '' : prefix;
  }

  protected override itemLimit(): number | undefined {
    return this.decl.maxEntries;
  }

  protected enforce(): Change[] {
    const max = this.decl.maxEntries;
    const changes: Change[] = [];
    if (max !== undefined && this.entries.length > max) {
      changes.push(...this.evictOldestWhile(() => this.entries.length > max, `max_entries ${fmt(max)} exceeded`));
    }
    if (this.over()) changes.push(...this.evictOldestWhile(() => this.over(), this.overReason()));
    return changes;
  }
}
