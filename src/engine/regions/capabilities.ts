// What each kind can do, known from its name alone: stages and blueprint checks ask it of a
// declaration before any region exists, and the region classes read the same table, so the two
// never disagree. Nothing outside regions/ checks a kind's name.
import type { RegionKind } from '../blueprint/types.ts';

export interface KindCapabilities {
  /** False when its entries never leave it (pinned): context_delete is refused outright, and it can hold the stage prompt. */
  readonly removable: boolean;
  /** Entries are keyed: a write to a key already present rewrites it (file tracking needs this). */
  readonly keyed: boolean;
  /** Holds todo items (todo_add / todo_done / todo_note) and nothing else; a gate can require none open. */
  readonly checklist: boolean;
  /** Takes one summary of its `source_region` each time a stage ends. */
  readonly carriesHistory: boolean;
  /** Renders as messages whatever its name (other kinds do when named conversation or tool_results). */
  readonly alwaysMessages: boolean;
  /** Its own rule summarizes its oldest entries when it fills, whatever `summarizable` says. */
  readonly summarizesWhenFull: boolean;
  /** Runs a Rhai script from the agent directory. */
  readonly scripted: boolean;
}

const PLAIN: KindCapabilities = {
  removable: true, keyed: false, checklist: false, carriesHistory: false, alwaysMessages: false, summarizesWhenFull: false, scripted: false,
};

export const KIND_CAPABILITIES: Readonly<Record<RegionKind, KindCapabilities>> = {
  temporary: PLAIN,
  pinned: { ...PLAIN, removable: false },
  sliding_window: { ...PLAIN, alwaysMessages: true },
  compacting: { ...PLAIN, summarizesWhenFull: true },
  compact_history: { ...PLAIN, summarizesWhenFull: true, carriesHistory: true },
  clearable: PLAIN,
  hashmap: { ...PLAIN, keyed: true },
  checklist: { ...PLAIN, checklist: true },
  custom: { ...PLAIN, scripted: true },
};

export function capabilitiesOf(kind: RegionKind): KindCapabilities {
  return KIND_CAPABILITIES[kind];
}
