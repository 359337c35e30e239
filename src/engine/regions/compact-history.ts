// compact_history: summaries carried from earlier stages. When a stage is left, the runtime
// appends one summary of what is new in `source_region` since the last carry (see
// run/transitions.ts); the region itself compacts like `compacting` when it fills, so it rolls
// forward. Its summaries list every item they fold, merged and counted: it exists to carry the
// keys and paths of what earlier stages saw, so none is cut to a `... and K more`.
import type { SummaryOptions } from '../summarize.ts';
import { COMPACTION_KEYS, CompactingRegion, compactingKind, readCompaction } from './compacting.ts';
import type { KindDefinition } from './kind.ts';
import { text } from '../blueprint/report.ts';

export const compactHistoryKind: KindDefinition<'compact_history'> = {
  kind: 'compact_history',
  doc: 'Carries summaries from earlier stages forward, so a later stage skips the raw content. source_region names what it summarizes.',
  tier: compactingKind.tier,
  section: 'by-name',
  abilities: { ...compactingKind.abilities, carriesHistory: true },
  keys: {
    source_region: { meaning: "compact_history: which region's summaries roll forward into this one." },
    ...COMPACTION_KEYS,
  },
  read: (r, raw, path, region) => {
    readCompaction(r, raw, path, region);
    region.sourceRegion = r.read(raw, 'source_region', path, text, 'a region name');
  },
};

const EVERY_ITEM: SummaryOptions = { everyItem: true };

export class CompactHistoryRegion extends CompactingRegion {
  override readonly definition = compactHistoryKind;

  override get historySource(): string | undefined {
    return this.decl.sourceRegion;
  }

  protected override get summaryOptions(): SummaryOptions {
    return EVERY_ITEM;
  }
}
