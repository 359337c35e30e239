// What each kind can do, known from its name alone: stages and blueprint checks ask it of a
// declaration before any region exists, and the region classes read the same table, so the two
// never disagree. Read from each kind's definition (kinds.ts). Nothing outside regions/ checks a
// kind's name.
import { REGION_KINDS, type RegionKind } from '../blueprint/types.ts';
import type { KindAbilities } from './kind.ts';
import { KINDS } from './kinds.ts';

export interface KindCapabilities extends KindAbilities {
  /** Renders as messages whatever its name (other kinds do when named conversation or tool_results). */
  readonly alwaysMessages: boolean;
  /**
   * Where the window-level cascade sheds it, lower first (its definition's tier). Undefined: never
   * shed (pinned, checklist; a reject region and a persistent custom region are exempt by their
   * declaration).
   */
  readonly cascadeTier: number | undefined;
}

export const KIND_CAPABILITIES: Readonly<Record<RegionKind, KindCapabilities>> = Object.freeze(
  Object.fromEntries(
    REGION_KINDS.map((kind) => {
      const { abilities, section, tier } = KINDS[kind];
      return [kind, { ...abilities, alwaysMessages: section === 'messages', cascadeTier: tier ?? undefined }];
    }),
  ) as Record<RegionKind, KindCapabilities>,
);

export function capabilitiesOf(kind: RegionKind): KindCapabilities {
  return KIND_CAPABILITIES[kind];
}
