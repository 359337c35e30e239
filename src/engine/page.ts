// The page's door to the engine: what the page's main thread may import (src/ui, src/state,
// src/share, src/scenarios and the modules they reach). The engine's types, and the values that
// are light to load: the scenario's shape and limits, models, number formatting, the figure
// schema, the blueprint language as the editor offers it. No replay, no Rhai: those run in the
// workers, which use index.ts (the door for everything else, which exports all of this too).
// test/engine/structure.test.ts holds every module the page reaches to this door.

export type { Advice, Proposal, Reference } from './advise/index.ts';
export { GOAL_PEAK_SHARE, GOAL_READ_AGAIN } from './advise/target.ts';
export type { AsRecordedTimeline, Caching, CompactionFigures, RecordedSummary } from './as-recorded.ts';
export {
  ALWAYS_VALID_TARGETS,
  CONTEXT_KEYS,
  FILE_TRACKING_KEYS,
  READ_PATH_KEYS,
  REGION_KINDS,
  SAFE_COMMAND_KEYS,
  SECURITY_KEYS,
  SLIDING_STRATEGIES,
  TOP_KEYS,
} from './blueprint/index.ts';
export type { RegionKind } from './blueprint/index.ts';
export { jsonErrorPosition, locateJson } from './blueprint/jsonLocate.ts';
export { ADMISSIONS, COMMON_KEYS, COMMON_KEY_DOCS } from './blueprint/regions.ts';
export { SEED_TABLE_KEYS } from './blueprint/seedDecl.ts';
export {
  GATE_KEYS,
  OVERRIDE_KEYS,
  ROUTING_KEYS,
  STAGE_CONTEXT_KEYS,
  STAGE_KEYS,
  TRANSITION_KEYS,
} from './blueprint/stageDecl.ts';
export type { BreakdownRow, WindowBreakdown } from './breakdown.ts';
export { anthropicBreakpoints } from './cache.ts';
export { hasErrors, SEVERITIES } from './diagnostics.ts';
export type { Diagnostic } from './diagnostics.ts';
export { CACHE_COLUMNS, REGION_COLUMNS, REQUEST_COLUMNS, chartLines, rowAt } from './figures.ts';
export type { ChartedColumn, Row } from './figures.ts';
export { fillerText } from './filler.ts';
export { fmt, lostInWords } from './format.ts';
export { IMPLICIT_REGIONS } from './implicit-regions.ts';
export { MAX_INFLATED_BYTES, MAX_LINK_CHARS, MAX_SCENARIO_BYTES, utf8Length } from './limits.ts';
export { DEFAULT_MODEL_ID, MODELS, approximateNote, findModel, resolveModel } from './models.ts';
export type { Model } from './models.ts';
export { nameTable } from './names.ts';
export { createRandom } from './random.ts';
export type { Random } from './random.ts';
export { KINDS, KIND_ALIASES, kindKeys } from './regions/kinds.ts';
export type { KeyDoc, KindDefinition } from './regions/kinds.ts';
export type { ReplayOptions } from './replay.ts';
export {
  DEFAULT_SCENARIO_NAME,
  EventSchema,
  GENERATOR_KINDS,
  GeneratorSchema,
  InputsSchema,
  MAX_RESULT_SIZE_TOKENS,
  MAX_TRAFFIC_EVENTS,
  ModelRefSchema,
  SCENARIO_VERSION,
  ScenarioSchema,
  tooDeep,
} from './scenario.ts';
export type {
  EventType,
  GeneratorSpec,
  ModelRef,
  RecordedUsage,
  Scenario,
  ScenarioInput,
  TrafficEvent,
  TrafficGenerators,
} from './scenario.ts';
export type { ScriptCall, ScriptWatcher } from './script-activity.ts';
export { lowerBound } from './sorted.ts';
export { itemAt } from './item-at.ts';
export { CHANGE_TYPES } from './timeline.ts';
export type {
  AssembledRequest,
  ChangeType,
  EntryDetail,
  RegionDetail,
  RequestMessage,
  StepDetail,
  Timeline,
  ToolCall,
} from './timeline.ts';
export { countTokens } from './tokens.ts';
export type { Encoding, TokenPage } from './tokens.ts';
