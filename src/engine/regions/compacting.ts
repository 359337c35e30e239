// compacting: summarizes instead of evicting. Once over its trigger (the lowest of budget,
// compact_at and threshold_tokens) it folds the oldest entries, earlier summaries included, into
// one summary until it is back under half the trigger. The summary keeps every folded entry's key
// or first line and the counts, so the fact that content existed is never lost.
import type { Change } from '../timeline.ts';
import { BaseRegion } from './base.ts';
import type { RegionContext } from './types.ts';

export class CompactingRegion extends BaseRegion {
  readonly kind: 'compacting' | 'compact_history' = 'compacting';

  protected enforce(ctx: RegionContext): Change[] {
    if (!this.over()) return [];
    const target = Math.floor(this.budget.trigger / 2);
    const reason = this.overReason();
    const changes: Change[] = [];
    while (this.tokens > target) {
      const only = this.entries.length === 1 ? this.entries[0]! : undefined;
      if (only?.kind === 'summary') break; // one summary is as small as folding gets
      const before = this.tokens;
      changes.push(this.fold(0, this.foldCount(target), ctx, reason));
      if (this.tokens >= before) {
        // Folding the oldest few grew them (a summary's header outweighs short entries): one summary
        // of everything may still be smaller, so try that once before giving up.
        const all =
          this.entries.length > 1
            ? ctx.summarize(this.entries, this.name, this.entries[0]!.seq, this.summaryOptions)
            : undefined;
        if (all && all.tokens < this.tokens) changes.push(this.fold(0, this.entries.length, ctx, reason, all));
        break;
      }
    }
    return changes;
  }

  /**
   * The fewest oldest entries whose removal brings the region to `target`, and at least one that
   * is not already a summary (re-folding a lone summary changes nothing).
   */
  private foldCount(target: number): number {
    let count = 0;
    let remaining = this.tokens;
    while (count < this.entries.length && remaining > target) remaining -= this.entries[count++]!.tokens;
    const firstRaw = this.entries.findIndex((e) => e.kind !== 'summary');
    return Math.max(count, firstRaw < 0 ? this.entries.length : firstRaw + 1);
  }

  /**
   * Cascade: folds the fewest oldest entries whose summary frees `needed` tokens (all of them when
   * nothing less does), so a request a little over the window does not cost the whole region.
   */
  override shed(needed: number, ctx: RegionContext): Change[] {
    if (this.entries.length === 0 || (this.entries.length === 1 && this.entries[0]!.kind === 'summary')) return [];
    let count = this.foldCount(this.tokens - needed);
    for (;;) {
      const folded = this.entries.slice(0, count);
      const summary = ctx.summarize(folded, this.name, folded[0]!.seq, this.summaryOptions);
      const removed = folded.reduce((sum, e) => sum + e.tokens, 0);
      if (removed - summary.tokens >= needed || count >= this.entries.length) {
        return [{ ...this.fold(0, count, ctx, 'request exceeded the model window', summary), type: 'cascade' }];
      }
      // The summary takes room of its own: fold enough more to free it too.
      count = Math.max(count + 1, this.foldCount(this.tokens - needed - summary.tokens));
    }
  }
}
