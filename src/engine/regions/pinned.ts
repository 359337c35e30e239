// pinned: never evicted, never shed by the cascade, never paraphrased by an edge transform.
// Over its budget it stays whole; the replay warns instead.
import type { Change } from '../timeline.ts';
import { BaseRegion } from './base.ts';

export class PinnedRegion extends BaseRegion {
  readonly kind = 'pinned' as const;
  protected readonly tier = undefined;

  protected enforce(): Change[] {
    return [];
  }

  override shed(): Change[] {
    return [];
  }

  override compactAll(): Change[] {
    return [];
  }
}
