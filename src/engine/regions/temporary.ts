// temporary (the default kind): recent entries, trimmed oldest-first once over budget, and the
// first thing the window-level cascade sheds.
import type { Change } from '../timeline.ts';
import { BaseRegion } from './base.ts';
import { PLAIN, type KindDefinition } from './kind.ts';

export const temporaryKind: KindDefinition<'temporary'> = {
  kind: 'temporary',
  doc: 'The default when kind is omitted; recent entries, trimmed first under budget pressure.',
  // Recent scratch: what loses least when shed, so the cascade takes it first.
  tier: 1,
  section: 'by-name',
  abilities: PLAIN,
  keys: {},
};

export class TemporaryRegion extends BaseRegion {
  readonly definition = temporaryKind;

  protected override get evictsOversized(): boolean {
    return true;
  }

  protected enforce(): Change[] {
    return this.evictOldestWhile(() => this.over(), this.overReason());
  }
}
