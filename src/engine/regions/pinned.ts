// pinned: never evicted, never shed by the cascade, never paraphrased by an edge transform.
// Over its budget it stays whole; the replay warns instead.
import type { CacheHint, Change } from '../timeline.ts';
import { BaseRegion } from './base.ts';
import { PLAIN, type KindDefinition } from './kind.ts';
import type { Entry, RegionContext, WriteOutcome } from './types.ts';

/** The key the stage prompt is stored under in the region that holds it (a pinned one). */
export const STAGE_PROMPT_KEY = 'stage prompt';

export const pinnedKind: KindDefinition<'pinned'> = {
  kind: 'pinned',
  doc: 'Never evicted (architecture, the task).',
  tier: null,
  section: 'by-name',
  abilities: { ...PLAIN, removable: false },
  keys: {},
};

export class PinnedRegion extends BaseRegion {
  readonly definition = pinnedKind;

  override get cache(): CacheHint {
    return 'always';
  }

  protected enforce(): Change[] {
    return [];
  }

  /**
   * A keyed write never replaces pinned content (context_delete refuses it too); only the runtime's
   * own stage prompt is swapped when the stage changes.
   */
  override put(entry: Entry, ctx: RegionContext): WriteOutcome {
    const taken =
      entry.key !== undefined && entry.key !== STAGE_PROMPT_KEY && this.entries.some((e) => e.key === entry.key);
    if (taken) {
      return {
        ok: false,
        message: `${this.name} is pinned: its entry "${entry.key}" is never replaced. Append under a new key instead.`,
        changes: [],
      };
    }
    return super.put(entry, ctx);
  }

  override shed(): Change[] {
    return [];
  }

  override compactAll(): Change[] {
    return [];
  }
}
