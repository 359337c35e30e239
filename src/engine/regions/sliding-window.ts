// sliding_window: keeps the most recent `max_items` entries within budget. `per_item` drops the
// oldest one at a time; `bulk` drops `overflow` at once; `compact` folds `compact_count` of the
// oldest into one summary entry (a summary counts as an item and may be folded again).
import type { Change } from '../timeline.ts';
import { BaseRegion, change } from './base.ts';
import { fmt } from '../format.ts';
import type { RegionContext } from './types.ts';
import { PLAIN, type KindDefinition } from './kind.ts';
import type { KeyPath } from '../blueprint/locate.ts';
import { describe, positiveInt, type Reporter, type Table } from '../blueprint/report.ts';
import { closest } from '../blueprint/suggest.ts';
import { SLIDING_STRATEGIES, type RegionDecl, type SlidingStrategy } from '../blueprint/types.ts';

export const DEFAULT_MAX_ITEMS = 10;

export const slidingWindowKind: KindDefinition<'sliding_window'> = {
  kind: 'sliding_window',
  doc: 'Keeps the most recent entries; the conversation lives here.',
  // Drops turns outright, unlike the kinds that summarize: shed after them.
  tier: 4,
  section: 'messages',
  abilities: PLAIN,
  keys: {
    max_items: { meaning: 'sliding_window: how many entries the window keeps.', default: String(DEFAULT_MAX_ITEMS) },
    strategy: {
      meaning:
        'sliding_window: how it makes room — per_item drops the oldest one at a time, bulk drops `overflow` at once, compact folds `compact_count` into a summary.',
      default: '"per_item"',
      values: {
        per_item: 'Drop the oldest entry, one at a time (the default).',
        bulk: 'Drop `overflow` entries at once.',
        compact: 'Fold `compact_count` entries into a summary.',
      } satisfies Record<SlidingStrategy, string>,
    },
    overflow: { meaning: 'sliding_window with strategy = "bulk": how many entries to drop at once.' },
    compact_count: { meaning: 'sliding_window with strategy = "compact": how many entries to fold into a summary.' },
  },
  read: readSliding,
};

export class SlidingWindowRegion extends BaseRegion {
  readonly definition = slidingWindowKind;

  protected override get evictsOversized(): boolean {
    return true;
  }

  get maxItems(): number {
    return Math.max(1, this.decl.maxItems ?? DEFAULT_MAX_ITEMS);
  }

  protected override itemLimit(): number {
    return this.maxItems;
  }

  private tooMany(): boolean {
    return this.entries.length > this.maxItems;
  }

  private reason(): string {
    return this.tooMany() ? `max_items ${fmt(this.maxItems)} exceeded` : this.overReason();
  }

  protected enforce(ctx: RegionContext): Change[] {
    if (!this.tooMany() && !this.over()) return [];
    switch (this.decl.strategy ?? 'per_item') {
      case 'per_item': {
        const reason = this.reason();
        return this.evictOldestWhile(() => this.tooMany() || this.over(), reason);
      }
      case 'bulk':
        return this.dropInBulk();
      case 'compact':
        return this.foldOldest(ctx);
    }
  }

  /** `overflow` entries at a time (default: half the window), until back within limits. */
  private dropInBulk(): Change[] {
    const chunk = Math.max(1, this.decl.overflow ?? Math.ceil(this.maxItems / 2));
    const reason = this.reason();
    const dropped = [];
    while (this.entries.length > 0 && (this.tooMany() || this.over())) {
      dropped.push(...this.removeRange(0, Math.min(chunk, this.entries.length)));
    }
    return [change('evict', this.name, dropped, `${reason}: dropped ${chunk} at a time`)];
  }

  /** Folds `compact_count` oldest entries into a summary; evicts when folding cannot help. */
  private foldOldest(ctx: RegionContext): Change[] {
    const count = Math.max(2, this.decl.compactCount ?? Math.ceil(this.maxItems / 2));
    const changes: Change[] = [];
    while (this.tooMany() || this.over()) {
      const reason = this.reason();
      const n = Math.min(count, this.entries.length);
      const before = this.tokens;
      if (n >= 2) changes.push(this.fold(0, n, ctx, reason));
      // A summary of one entry, or one bigger than what it replaced, cannot shrink the window.
      if (n < 2 || (!this.tooMany() && this.tokens >= before && this.over())) {
        changes.push(
          ...this.evictOldestWhile(() => this.tooMany() || this.over(), `${reason}: summary alone does not fit`),
        );
        break;
      }
    }
    return changes;
  }
}

function readSliding(r: Reporter, raw: Table, path: KeyPath, region: RegionDecl): void {
  region.maxItems = r.read(raw, 'max_items', path, positiveInt, 'a positive whole number') ?? DEFAULT_MAX_ITEMS;
  region.strategy = readStrategy(r, raw.strategy, [...path, 'strategy']);
  const overflow = r.read(raw, 'overflow', path, positiveInt, 'a positive whole number');
  const compactCount = r.read(raw, 'compact_count', path, positiveInt, 'a positive whole number');
  if (overflow !== undefined && region.strategy !== 'bulk') {
    r.add(
      'inert-key',
      'info',
      [...path, 'overflow'],
      `\`overflow\` only takes effect with strategy = "bulk", and this region uses "${region.strategy}". Set strategy = "bulk" or remove overflow.`,
    );
  }
  if (compactCount !== undefined && region.strategy !== 'compact') {
    r.add(
      'inert-key',
      'info',
      [...path, 'compact_count'],
      `\`compact_count\` only takes effect with strategy = "compact", and this region uses "${region.strategy}". Set strategy = "compact" or remove compact_count.`,
    );
  }
  // Unset counts default to half the window of items (the spec's example pairs max_items 20 with 10).
  const half = Math.max(1, Math.floor(region.maxItems / 2));
  if (region.strategy === 'bulk') region.overflow = overflow ?? half;
  if (region.strategy === 'compact') region.compactCount = compactCount ?? half;
}

function readStrategy(r: Reporter, value: unknown, path: KeyPath): SlidingStrategy {
  if (value === undefined) return 'per_item';
  if ((SLIDING_STRATEGIES as readonly unknown[]).includes(value)) return value as SlidingStrategy;
  const suggestion = typeof value === 'string' ? closest(value, SLIDING_STRATEGIES) : undefined;
  const hint = suggestion ? ` Did you mean "${suggestion}"?` : '';
  r.error(
    'unknown-strategy',
    path,
    `Unknown strategy ${describe(value)}.${hint} Use one of: ${SLIDING_STRATEGIES.join(', ')} (with underscores).`,
    'value',
  );
  return 'per_item';
}
