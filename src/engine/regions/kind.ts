// What a region kind is, declared once in its own module (regions/<kind>.ts) and registered in
// regions/kinds.ts: its cascade tier, where it renders, what it can do, and its keys with their
// docs. The blueprint reader's key lists, the capabilities the run asks, and the editor's hover and
// completion are all read from these definitions, so nothing restates a kind's facts.
import type { KeyPath } from '../blueprint/locate.ts';
import type { Reporter, Table } from '../blueprint/report.ts';
import type { RegionDecl, RegionKind } from '../blueprint/types.ts';

/** What a key means and its default, as the editor shows it (the spec's own tables). */
export interface KeyDoc {
  readonly meaning: string;
  readonly default?: string;
  /** The values it takes, each with what it means (completion lists them in this order). */
  readonly values?: Readonly<Record<string, string>>;
}

/**
 * Where a kind's entries go in the request. `by-name`: as messages when the region is named
 * `conversation` or `tool_results` (MESSAGE_REGION_NAMES), in the system section otherwise.
 * `system` for a script's region: its script decides per render what it emits.
 */
export const SECTION_RULES = ['by-name', 'messages', 'system'] as const;
export type SectionRule = (typeof SECTION_RULES)[number];

/** What a kind can do, known from its name alone (stages and blueprint checks ask it before any region exists). */
export interface KindAbilities {
  /** False when its entries never leave it (pinned): context_delete is refused outright, and it can hold the stage prompt. */
  readonly removable: boolean;
  /** Entries are keyed: a write to a key already present rewrites it (file tracking needs this). */
  readonly keyed: boolean;
  /** Holds todo items (todo_add / todo_done / todo_note) and nothing else; a gate can require none open. */
  readonly checklist: boolean;
  /** Takes one summary of its `source_region` each time a stage ends. */
  readonly carriesHistory: boolean;
  /** Its own rule summarizes its oldest entries when it fills, whatever `summarizable` says. */
  readonly summarizesWhenFull: boolean;
  /** Runs a Rhai script from the agent directory. */
  readonly scripted: boolean;
}

export const ABILITIES = [
  'removable',
  'keyed',
  'checklist',
  'carriesHistory',
  'summarizesWhenFull',
  'scripted',
] as const satisfies readonly (keyof KindAbilities)[];

/** Reads the kind's own keys of one region table into its declaration, reporting what is wrong. */
export type KeyReader = (r: Reporter, raw: Table, path: KeyPath, region: RegionDecl) => void;

export interface KindDefinition<K extends RegionKind = RegionKind> {
  readonly kind: K;
  /** What `kind = "<kind>"` means (hover and completion on the value). */
  readonly doc: string;
  /** Other spellings the blueprint accepts for this kind, each with its doc. */
  readonly aliases?: Readonly<Record<string, string>>;
  /**
   * Where the window-level cascade sheds it, lower first: what loses least goes first (DESIGN.md).
   * Null: never shed (a reject region and a persistent custom region are exempt by their declaration).
   */
  readonly tier: number | null;
  readonly section: SectionRule;
  readonly abilities: KindAbilities;
  /** Its own keys, beside the keys every region accepts (COMMON_KEYS), in the order completion offers them. */
  readonly keys: Readonly<Record<string, KeyDoc>>;
  /** Reads `keys` from a region table; a kind without keys has none. */
  readonly read?: KeyReader;
}

/** The abilities of a kind that has none of its own. */
export const PLAIN: KindAbilities = {
  removable: true,
  keyed: false,
  checklist: false,
  carriesHistory: false,
  summarizesWhenFull: false,
  scripted: false,
};
