// compacting: summarizes instead of evicting. Once over its trigger (the lowest of budget,
// compact_at and threshold_tokens) it folds the oldest entries, earlier summaries included, into
// one summary until it is back under half the trigger. The summary keeps every folded entry's key
// or first line and the counts, so the fact that content existed is never lost.
import type { Change } from '../timeline.ts';
import { BaseRegion } from './base.ts';
import type { RegionContext } from './types.ts';
import { PLAIN, type KeyDoc, type KeyReader, type KindDefinition } from './kind.ts';
import { percentProblem, parsePercent } from '../blueprint/percent.ts';
import { positiveInt } from '../blueprint/report.ts';
import { itemAt } from '../item-at.ts';

/** The compaction limits, which compact_history takes too (it rolls forward what it carries the same way). */
export const COMPACTION_KEYS: Readonly<Record<string, KeyDoc>> = {
  compact_at: {
    meaning:
      'compacting / compact_history: compact once the region is this full, a share of its resolved budget ("80%" of a 40,000-token budget is 32,000).',
    default: 'the budget',
  },
  threshold_tokens: { meaning: 'compacting / compact_history: a hard token ceiling, applied as well as compact_at.' },
};

export const readCompaction: KeyReader = (r, raw, path, region) => {
  if (raw.compact_at !== undefined) {
    region.compactAtShare = parsePercent(raw.compact_at);
    if (region.compactAtShare === undefined)
      r.error('malformed-budget', [...path, 'compact_at'], percentProblem('compact_at', raw.compact_at), 'value');
  }
  region.thresholdTokens = r.read(
    raw,
    'threshold_tokens',
    path,
    positiveInt,
    'a positive whole number of tokens',
    'malformed-budget',
  );
};

export const compactingKind: KindDefinition<'compacting'> = {
  kind: 'compacting',
  doc: 'Summarizes instead of evicting: file reads and tool results.',
  // Summarizes rather than drops, so it loses less than scratch: shed after it.
  tier: 3,
  section: 'by-name',
  abilities: { ...PLAIN, summarizesWhenFull: true },
  keys: COMPACTION_KEYS,
  read: readCompaction,
};

export class CompactingRegion extends BaseRegion {
  readonly definition: KindDefinition<'compacting' | 'compact_history'> = compactingKind;

  protected enforce(ctx: RegionContext): Change[] {
    if (!this.over()) return [];
    const target = Math.floor(this.budget.trigger / 2);
    const reason = this.overReason();
    const changes: Change[] = [];
    while (this.tokens > target) {
      const only = this.entries.length === 1 ? this.entries[0] : undefined;
      if (only?.kind === 'summary') break; // one summary is as small as folding gets
      const before = this.tokens;
      changes.push(this.fold(0, this.foldCount(target), ctx, reason));
      if (this.tokens >= before) {
        // Folding the oldest few grew them (a summary's header outweighs short entries): one summary
        // of everything may still be smaller, so try that once before giving up.
        const all =
          this.entries.length > 1
            ? ctx.summarize(this.entries, this.name, itemAt(this.entries, 0).seq, this.summaryOptions)
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
    while (count < this.entries.length && remaining > target) remaining -= itemAt(this.entries, count++).tokens;
    const firstRaw = this.entries.findIndex((e) => e.kind !== 'summary');
    return Math.max(count, firstRaw < 0 ? this.entries.length : firstRaw + 1);
  }

  /**
   * Cascade: folds the fewest oldest entries whose summary frees `needed` tokens (all of them when
   * nothing less does), so a request a little over the window does not cost the whole region.
   */
  override shed(needed: number, ctx: RegionContext): Change[] {
    if (this.entries.length === 0 || (this.entries.length === 1 && this.entries[0]?.kind === 'summary')) return [];
    let count = this.foldCount(this.tokens - needed);
    for (;;) {
      const folded = this.entries.slice(0, count);
      const summary = ctx.summarize(folded, this.name, itemAt(folded, 0).seq, this.summaryOptions);
      const removed = folded.reduce((sum, e) => sum + e.tokens, 0);
      if (removed - summary.tokens >= needed || count >= this.entries.length) {
        return [{ ...this.fold(0, count, ctx, 'request exceeded the model window', summary), type: 'cascade' }];
      }
      // The summary takes room of its own: fold enough more to free it too.
      count = Math.max(count + 1, this.foldCount(this.tokens - needed - summary.tokens));
    }
  }
}
