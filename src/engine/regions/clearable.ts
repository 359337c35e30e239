// clearable: scratch space wiped in one shot when a write no longer fits (the new entry stays
// unless it alone is too big), and wholly cleared by the cascade.
import type { Change } from '../timeline.ts';
import { BaseRegion, change } from './base.ts';
import { PLAIN, type KindDefinition } from './kind.ts';
import { itemAt } from '../item-at.ts';

export const clearableKind: KindDefinition<'clearable'> = {
  kind: 'clearable',
  doc: 'Wiped in one shot when space is needed (scratch).',
  // Scratch by declaration: shed right after temporary content.
  tier: 2,
  section: 'by-name',
  abilities: PLAIN,
  keys: {},
};

export class ClearableRegion extends BaseRegion {
  readonly definition = clearableKind;

  protected override get evictsOversized(): boolean {
    return true;
  }

  protected enforce(): Change[] {
    if (!this.over()) return [];
    const keepNewest = itemAt(this.entries, this.entries.length - 1).tokens <= this.budget.trigger;
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
