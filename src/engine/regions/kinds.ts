// The region kinds, one definition each (regions/<kind>.ts): a new kind is its module and its line
// here (its name in REGION_KINDS makes the compiler ask for both). Everything that knows a kind's
// facts reads them from this table: capabilities.ts, the blueprint reader's key lists, the
// editor's docs. The kinds' behaviour (their classes) is registered in regions/index.ts.
import type { RegionKind } from '../blueprint/types.ts';
import { checklistKind } from './checklist.ts';
import { clearableKind } from './clearable.ts';
import { compactHistoryKind } from './compact-history.ts';
import { compactingKind } from './compacting.ts';
import { customKind } from './custom.ts';
import { hashmapKind } from './hashmap.ts';
import type { KeyDoc, KindDefinition } from './kind.ts';
import { pinnedKind } from './pinned.ts';
import { slidingWindowKind } from './sliding-window.ts';
import { temporaryKind } from './temporary.ts';

export type { KeyDoc, KindAbilities, KindDefinition, SectionRule } from './kind.ts';
export { ABILITIES, SECTION_RULES } from './kind.ts';

export const KINDS: { readonly [K in RegionKind]: KindDefinition<K> } = {
  temporary: temporaryKind,
  pinned: pinnedKind,
  sliding_window: slidingWindowKind,
  compacting: compactingKind,
  compact_history: compactHistoryKind,
  clearable: clearableKind,
  hashmap: hashmapKind,
  checklist: checklistKind,
  custom: customKind,
};

/** Other spellings of kinds the blueprint accepts (`hash_map`), to the kind each means. */
export const KIND_ALIASES: Readonly<Record<string, RegionKind>> = Object.fromEntries(
  Object.values(KINDS).flatMap((d) => Object.keys(d.aliases ?? {}).map((alias) => [alias, d.kind])),
);

/** Each kind's own keys, in the order its definition lists them. */
export function kindKeys(kind: RegionKind): readonly string[] {
  return Object.keys(KINDS[kind].keys);
}

/** What a kind's own key means, or undefined when no kind has it. Kinds sharing a key share its doc. */
export function kindKeyDoc(key: string): KeyDoc | undefined {
  for (const definition of Object.values(KINDS)) if (Object.hasOwn(definition.keys, key)) return definition.keys[key];
  return undefined;
}
