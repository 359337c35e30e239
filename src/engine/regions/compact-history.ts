// compact_history: summaries carried from earlier stages. When a stage is left, the runtime
// appends one summary of what is new in `source_region` since the last carry (see
// run/transitions.ts); the region itself compacts like `compacting` when it fills, so it rolls
// forward. Its summaries list every item they fold, merged and counted: it exists to carry the
// keys and paths of what earlier stages saw, so none is cut to a `... and K more`.
import type { SummaryOptions } from '../summarize.ts';
import { CompactingRegion } from './compacting.ts';

const EVERY_ITEM: SummaryOptions = { everyItem: true };

export class CompactHistoryRegion extends CompactingRegion {
  override readonly kind = 'compact_history' as const;

  override get historySource(): string | undefined {
    return this.decl.sourceRegion;
  }

  protected override get summaryOptions(): SummaryOptions {
    return EVERY_ITEM;
  }
}
