// temporary (the default kind): recent entries, trimmed oldest-first once over budget, and the
// first thing the window-level cascade sheds.
import type { Change } from '../timeline.ts';
import { BaseRegion } from './base.ts';

export class TemporaryRegion extends BaseRegion {
  readonly kind = 'temporary' as const;

  protected override get evictsOversized(): boolean {
    return true;
  }

  protected enforce(): Change[] {
    return this.evictOldestWhile(() => this.over(), this.overReason());
  }
}
