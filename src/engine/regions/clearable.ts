// clearable: scratch space wiped in one shot when a write no longer fits (the new entry stays
// unless it alone is too big), and wholly cleared by the cascade.
import type { Change } from '../timeline.ts';
import { BaseRegion, change } from './base.ts';

export class ClearableRegion extends BaseRegion {
  readonly kind = 'clearable' as const;

  protected override get evictsOversized(): boolean {
    return true;
  }

  protected enforce(): Change[] {
    if (!this.over()) return [];
    const keepNewest = this.entries[this.entries.length - 1]!.tokens <= this.budget.trigger;
    const cleared = this.removeRange(0, keepNewest ? this.entries.length - 1 : this.entries.length);
    return [change('clear', this.name, cleared, this.overReason())];
  }

  override shed(): Change[] {
    if (this.entries.length === 0) return [];
    return [
      change(
        'cascade',
        this.name,
        this.removeRange(0, this.entries.length),
        'request exceeded the model window: cleared',
      ),
    ];
  }
}
