// sliding_window: keeps the most recent `max_items` entries within budget. `per_item` drops the
// oldest one at a time; `bulk` drops `overflow` at once; `compact` folds `compact_count` of the
// oldest into one summary entry (a summary counts as an item and may be folded again).
import { DEFAULT_MAX_ITEMS } from '../blueprint/regions.ts';
import type { Change } from '../timeline.ts';
import { BaseRegion, change } from './base.ts';
import { fmt } from '../format.ts';
import type { RegionContext } from './types.ts';

export class SlidingWindowRegion extends BaseRegion {
  readonly kind = 'sliding_window' as const;

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
