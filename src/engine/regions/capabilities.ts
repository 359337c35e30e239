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
  /**
   * Where the window-level cascade sheds it, lower first: what loses least goes first (DESIGN.md).
   * Temporary content (and a custom region that is not `persistent`) is recent scratch; a clearable
   * region is scratch by declaration; compacting kinds summarize rather than drop; a sliding window
   * drops turns outright; a hashmap drops whole keys. Undefined: never shed (pinned, checklist; a
   * reject region and a persistent custom region are exempt by their declaration).
   */
  readonly cascadeTier: number | undefined;
}

const PLAIN: KindCapabilities = {
  removable: true,
  keyed: false,
  checklist: false,
  carriesHistory: false,
  alwaysMessages: false,
  summarizesWhenFull: false,
  scripted: false,
  cascadeTier: undefined,
};

export const KIND_CAPABILITIES: Readonly<Record<RegionKind, KindCapabilities>> = {
  temporary: { ...PLAIN, cascadeTier: 1 },
  pinned: { ...PLAIN, removable: false },
  sliding_window: { ...PLAIN, alwaysMessages: true, cascadeTier: 4 },
  compacting: { ...PLAIN, summarizesWhenFull: true, cascadeTier: 3 },
  compact_history: { ...PLAIN, summarizesWhenFull: true, carriesHistory: true, cascadeTier: 3 },
  clearable: { ...PLAIN, cascadeTier: 2 },
  hashmap: { ...PLAIN, keyed: true, cascadeTier: 5 },
  checklist: { ...PLAIN, checklist: true },
  // The tier of temporary, which a custom region that is not persistent behaves like.
  custom: { ...PLAIN, scripted: true, cascadeTier: 1 },
};

export function capabilitiesOf(kind: RegionKind): KindCapabilities {
  return KIND_CAPABILITIES[kind];
}
