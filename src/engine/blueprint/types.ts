// The typed Blueprint: what `agent.leviath` means once parsed and validated.
// Every default from the spec is already applied here, so the runtime never re-derives one.

export const REGION_KINDS = [
  'temporary',
  'pinned',
  'sliding_window',
  'compacting',
  'compact_history',
  'clearable',
  'hashmap',
  'checklist',
  'custom',
] as const;
export type RegionKind = (typeof REGION_KINDS)[number];

/** Where a declaration sits in its source file (1-based). */
export interface SourceLoc {
  file: string;
  line: number;
  column: number;
}

export type Seed =
  | { type: 'task_input' } // the caller's `task` key
  | { type: 'input' } // the caller key named after the region
  | { type: 'key'; key: string } // seed = "name": the caller key of that name
  | { type: 'files'; files: string[] }
  | { type: 'glob'; glob: string }
  | { type: 'literal'; text: string }
  | { type: 'command'; command: string }
  | { type: 'rhai'; script: string }
  | { type: 'caller'; name: string }; // a named value passed by a parent agent

export const SLIDING_STRATEGIES = ['per_item', 'bulk', 'compact'] as const;
export type SlidingStrategy = (typeof SLIDING_STRATEGIES)[number];

export interface RegionDecl {
  name: string;
  kind: RegionKind;
  /** `budget = "20%"` as a fraction of the window (0.2); undefined when unset. */
  budgetShare?: number;
  /** Ceiling; 5000 by default. With `budgetShare` it caps the resolved share. */
  maxTokens: number;
  /** True when `max_tokens` was written (so the default 5000 is not mistaken for a choice). */
  maxTokensExplicit: boolean;
  /** Floor for a percentage budget. */
  minTokens?: number;
  seed?: Seed;
  /** True when the seed was implied (a region named `task` gets `task_input`). */
  seedImplicit: boolean;
  required: boolean;
  /** Already has the spec's generated default when unset; may contain `{region}`. */
  requiredMessage: string;
  summarizable: boolean;
  admission: 'evict' | 'reject';

  // sliding_window
  maxItems?: number; // default 10
  strategy?: SlidingStrategy; // default per_item
  overflow?: number; // bulk: how many to drop at once (set with bulk; default half of maxItems, at least 1)
  compactCount?: number; // compact: how many to fold into a summary (set with compact; default half of maxItems)
  // compacting
  compactAtShare?: number; // `compact_at = "80%"` as 0.8 of the resolved budget
  thresholdTokens?: number;
  // compact_history
  sourceRegion?: string;
  // hashmap
  maxEntries?: number;
  // custom
  script?: string; // relative to the agent directory
  persistent?: boolean; // default false

  loc: SourceLoc;
}

export interface GateDecl {
  /** Name of a checklist region that must have no open items. */
  requireNoOpenItems?: string;
  message?: string;
  maxAttempts?: number;
}

export interface TransitionDecl {
  to: string;
  gate?: GateDecl;
  /** Edge transform; `compact` summarizes summarizable regions when crossing. */
  transform?: 'compact';
  loc: SourceLoc;
}

export interface RouteOverride {
  region?: string;
  maxResultTokens?: number;
}

export interface ToolRouting {
  defaultRegion?: string;
  maxResultTokens?: number;
  /** Keyed by tool name as written (aliases resolved by the runtime's routing). */
  overrides: Record<string, RouteOverride>;
  maxResultTokensPerTool: Record<string, number>;
}

export interface StageDecl {
  name: string;
  systemPrompt?: string;
  /** The stage's own layout; undefined means the stage sees the top-level regions. */
  regions?: RegionDecl[];
  transitions: TransitionDecl[];
  toolRouting?: ToolRouting;
  /** Shared attempt budget for this stage's gates. */
  maxAttempts?: number;
  loc: SourceLoc;
}

export interface Blueprint {
  /** `[context.regions]` in declaration order. */
  regions: RegionDecl[];
  /** `[stages.*]` in declaration order; the first is where a run starts. */
  stages: StageDecl[];
  /** `[safe_commands]`: commands that may run without asking (command seeds need one). */
  safeCommands: string[];
  /** `[read_paths]`: paths outside the working directory the agent may read. */
  readPaths: string[];
  security: { allowSeedCommands: boolean };
  /** `[context.file_tracking]`; `region` is the hashmap it writes to (the first hashmap when not written). */
  fileTracking?: { enabled: boolean; region?: string };
}
