// compact_history: summaries carried from earlier stages. When a stage is left, the runtime
// appends one summary of `source_region` as it stands (see stages.ts); the region itself compacts
// like `compacting` when it fills, so it rolls forward.
import { CompactingRegion } from './compacting.ts';

export class CompactHistoryRegion extends CompactingRegion {
  override readonly kind = 'compact_history' as const;

  override get historySource(): string | undefined {
    return this.decl.sourceRegion;
  }
}
