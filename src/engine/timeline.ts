// The replay's output: one step per traffic event, one request per inference.
// This is the shape `lev replay --json` prints and the UI draws; fields are only ever added.
import type { Diagnostic } from './diagnostics.ts';
import type { RegionKind } from './blueprint/types.ts';
import type { CACHE_COLUMNS, REGION_COLUMNS, REQUEST_COLUMNS, Row } from './figures.ts';
import type { Encoding } from './tokens.ts';
import type { TrafficEvent } from './scenario.ts';

/** Which part of the request a region renders into. */
export type Section = 'system' | 'messages';
/** Provider cache hint for a system block: pinned content never changes, the rest until it does. */
export type CacheHint = 'always' | 'until-changed';

/** A region as the run knows it: declared, or one of the four the runtime always carries. */
export interface RegionMeta {
  name: string;
  kind: RegionKind;
  /** Resolved budget in tokens on this model (the stage that first showed the region). */
  budget: number;
  /** Tokens at which the region acts (lowest of budget, compact_at, threshold_tokens). */
  trigger: number;
  admission: 'evict' | 'reject';
  section: Section;
  cache: CacheHint;
  /** False for a runtime-supplied region the blueprint did not declare. */
  declared: boolean;
}

/** Per-step figures for one region (their columns: figures.ts). */
export type RegionFigures = Row<typeof REGION_COLUMNS>;

export const CHANGE_TYPES = [
  'evict', // the region's own rule dropped entries (sliding window, temporary, hashmap max_entries)
  'compact', // entries folded into a summary entry
  'reject', // admission = "reject" refused a write
  'delete', // context_delete
  'clear', // a clearable region wiped
  'strip', // unpaired tool calls/results left out of the request
  'cascade', // the whole request exceeded the model window and a region shed
  'replace', // a hashmap key or the stage prompt overwritten
  'truncate', // a tool result capped by max_result_tokens or read_file's byte cap
] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];

export interface Change {
  type: ChangeType;
  region: string;
  /** Tokens removed from the region (for `reject`: tokens refused). */
  tokens: number;
  /** The touched entries' keys, or first lines. */
  entries: string[];
  /** Why, in words (e.g. "max_items 20 exceeded", "edge transform compact"). */
  reason?: string;
  /** The call ids of the tool results among `entries` (a routed result's stub is not one); absent when none. */
  toolResults?: string[];
}

/**
 * A path or key the run names again after the blueprint dropped, summarized or cut an entry under it
 * (read-again.ts): one per key and naming, however many entries under the key were lost before it.
 */
export interface ReadAgainItem {
  key: string;
  /** The step whose change first lost it (-1: at spawn), that change's type and region. */
  lostAt: number;
  change: ChangeType;
  region: string;
  /** The first later step whose assistant event names it. */
  namedAt: number;
  /** Every loss it answers for: the step (-1: the spawn's changes) and the index of the change in that step's `changes`. */
  losses: { step: number; change: number }[];
}

/** What the provider would do with a request's cache under its rules (cache.ts providerView; its columns: figures.ts). */
export type ProviderView = Row<typeof CACHE_COLUMNS> & {
  /** Which rule applied, in words. */
  rule: string;
};

export type CacheFigures = ProviderView;

/** Present only on inference (`assistant`) steps (its columns: figures.ts). */
export type RequestFigures = Row<typeof REQUEST_COLUMNS> & { cache: CacheFigures };

export interface StepResult {
  ok: boolean;
  message: string;
}

export interface TimelineStep {
  index: number;
  event: TrafficEvent;
  /** The stage in effect after the event. */
  stage: string;
  regions: Record<string, RegionFigures>;
  changes: Change[];
  request?: RequestFigures;
  /** For tool results and the runtime's own tools: what the model is told. */
  result?: StepResult;
  warnings: string[];
}

/** Tokens charged to each region name, per stage (written while that stage ran). */
export type StageLedger = Record<string, Record<string, number>>;

export interface TimelineSummary {
  steps: number;
  inferences: number;
  finalStage: string;
  stagesEntered: string[];
  peakRequestTokens: number;
  /** Mean prefixShare over inferences after the first. */
  meanPrefixShare: number;
  /** Count and tokens per change type over the run. */
  changes: Record<ChangeType, { count: number; tokens: number }>;
  /** First inference index at which the flat-list baseline no longer holds the task; null if never. */
  baselineLosesTaskAt: number | null;
  /** First inference index at which the blueprint's request no longer holds the task; null if never. */
  taskLostAt: number | null;
  ledger: StageLedger;
  warnings: number;
  /**
   * Entries dropped, summarized or cut whose path or key the run names again later, one per key and
   * naming (read-again.ts): `count` is the figure the advisor minimizes.
   */
  readAgain: { count: number; items: ReadAgainItem[] };
  /**
   * What the blueprint's own rules let go (read-again.ts `ReadAgainCounter`): `toolResults`, the
   * distinct tool results evicted, summarized, cleared, shed or left out of every request because
   * their call left; `toolResultsReadAgain`, the read-again items among those losses; `otherEntries`,
   * every other entry evicted, summarized, cleared or shed (turns, keyed notes).
   */
  lost: LostFigures;
}

export interface LostFigures {
  toolResults: number;
  toolResultsReadAgain: number;
  otherEntries: number;
}

export interface Timeline {
  scenario: string;
  model: { id: string; window: number; encoding: Encoding; approximate: boolean };
  /** Every region the run knew, in render order of the first stage then first appearance. */
  regions: RegionMeta[];
  stages: { name: string; regions: string[] }[];
  /** Blueprint, scenario and seed findings. Any error means `steps` is empty. */
  diagnostics: Diagnostic[];
  /** Seed findings and other run-level warnings not tied to one step. */
  warnings: string[];
  /** The regions after seeding and entering the first stage, before the first event. */
  spawn: { regions: Record<string, RegionFigures>; changes: Change[] };
  steps: TimelineStep[];
  summary: TimelineSummary;
  /** True when the caller cancelled; `steps` holds what was done. */
  cancelled: boolean;
}

// ---- Inspecting one step --------------------------------------------------------------------

export type EntryKind = 'text' | 'user_message' | 'assistant_turn' | 'tool_result' | 'summary' | 'stub' | 'todo';

export interface ToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

export interface ChecklistState {
  id: number;
  state: 'open' | 'done';
  notes: string[];
}

export interface EntryDetail {
  /** Position as `context_list` shows it (what `context_delete { index }` takes). */
  index: number;
  key?: string;
  content: string;
  tokens: number;
  kind: EntryKind;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
  tool_name?: string;
  is_error?: boolean;
  checklist?: ChecklistState;
  /** For summaries: how many entries (and tokens) were folded in. */
  folded?: { entries: number; tokens: number };
}

export interface RegionDetail extends RegionMeta {
  tokens: number;
  visible: boolean;
  entries: EntryDetail[];
}

export interface SystemBlock {
  region: string;
  text: string;
  tokens: number;
  cache: CacheHint;
}

export interface RequestMessage {
  role: 'user' | 'assistant' | 'tool';
  content: string;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
  /** A tool result that reported a failure. */
  is_error?: true;
  /** The region this message came from (not sent to a provider). */
  region: string;
  tokens: number;
}

/** The request exactly as it would be sent. */
export interface AssembledRequest {
  system: SystemBlock[];
  messages: RequestMessage[];
  tokens: number;
  /** Unpaired tool calls/results left out, with the ids. */
  stripped: { toolCalls: string[]; toolResults: string[] };
}

export interface StepDetail {
  index: number;
  event: TrafficEvent;
  stage: string;
  regions: RegionDetail[];
  /** What this step dropped, folded, refused or stripped, and why. */
  changes: Change[];
  /**
   * On an inference step, the request sent for it. On any other step, the request that would be
   * assembled from the state after the event (a preview).
   */
  request: AssembledRequest;
  inference: boolean;
  /** On an inference step: region figures as they were when the request was assembled. */
  requestRegions?: Record<string, RegionFigures>;
  /** On an inference step: the tokens the flat-list baseline sent for it (RequestFigures.baselineTokens). */
  baselineTokens?: number;
  result?: StepResult;
  warnings: string[];
  ledger: StageLedger;
}

export function emptyChangeTotals(): TimelineSummary['changes'] {
  return Object.fromEntries(CHANGE_TYPES.map((t) => [t, { count: 0, tokens: 0 }])) as TimelineSummary['changes'];
}
