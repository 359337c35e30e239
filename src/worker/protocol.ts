// The page <-> engine worker protocol. Both sides parse what they receive with these schemas,
// so a malformed message is an error at the boundary, never a half-rendered screen. Each side
// builds only the schema of what it receives, on the first message (z.lazy): declaring them all
// costs the page's start tens of milliseconds of cold zod.
import { z } from 'zod';
import {
  InputsSchema,
  ModelRefSchema,
  SEVERITIES,
  type Scenario,
  type StepDetail,
  type Encoding,
  type TokenPage,
  type WindowBreakdown,
  type Advice,
} from '../engine/page.ts';
// Types only: the page must not load the tokenizer's code with the protocol.
import type { TimelineView, StepFigures } from './timeline-view.ts';
import { AS_RECORDED_COLUMNS, type AsRecordedView } from './as-recorded-view.ts';
import { formatIssues } from '../scenarios/issues.ts';

/** What fills the window at an inspected step, side by side. */
export interface StepBreakdown {
  blueprint: WindowBreakdown;
  /** The run as it was sent, for a scenario that records it; else the flat-list baseline (null before the first inference). */
  beside: WindowBreakdown | null;
  besideIs: 'asSent' | 'flatList';
}

const idSchema = () => z.number().int().nonnegative();

function diagnosticSchema() {
  return z.object({
    code: z.string(),
    severity: z.enum(SEVERITIES),
    message: z.string(),
    file: z.string(),
    line: z.number(),
    column: z.number(),
    endLine: z.number().optional(),
    endColumn: z.number().optional(),
    path: z.string(),
  });
}

// ---- requests (page -> worker) ----

/** Share options that count tokens: the worker has the tokenizer, so the page never loads it. */
export const TRANSFORMS = ['drop-tool-output', 'shape-only'] as const;
export type Transform = (typeof TRANSFORMS)[number];

/** The most token pieces one answer carries: the page draws each as an element. */
export const TOKEN_PAGE_MAX = 5_000;

function requestSchema() {
  const Files = z.record(z.string(), z.string());
  const Id = idSchema();
  const ValidateRequest = z.object({
    id: Id,
    type: z.literal('validate'),
    /** The scenario's files and inputs: validated exactly as `lev validate` and a replay judge them. */
    agent: Files,
    workdir: Files,
    commands: Files,
    inputs: InputsSchema,
    model: ModelRefSchema,
  });
  const ReplayRequest = z.object({
    id: Id,
    type: z.literal('replay'),
    /** The page's number for this replay; inspect names it to ask about its steps. */
    replayId: Id,
    /** Checked against ScenarioSchema inside the worker, where the error can say which field. */
    scenario: z.unknown(),
    /** About how many points wide the charts are: the series are downsampled to it. */
    points: z.number().int().positive().max(20_000).optional(),
  });
  /** Replays a scenario again only to answer inspects about it (the worker restarted and lost that replay). */
  const OpenRequest = z.object({ id: Id, type: z.literal('open'), replayId: Id, scenario: z.unknown() });
  /** One step of a replay the worker keeps: a lookup, nothing is replayed. */
  const InspectRequest = z.object({
    id: Id,
    type: z.literal('inspect'),
    replayId: Id,
    step: z.number().int().nonnegative(),
  });
  const RhaiCheckRequest = z.object({
    id: Id,
    type: z.literal('rhaiCheck'),
    file: z.string(),
    source: z.string(),
  });
  const TransformRequest = z.object({
    id: Id,
    type: z.literal('transform'),
    transform: z.enum(TRANSFORMS),
    scenario: z.unknown(),
  });
  /** An imported run replayed as its harness sent it (the engine's replayAsRecorded). */
  const AsRecordedRequest = z.object({ id: Id, type: z.literal('asRecorded'), scenario: z.unknown() });
  /** The advisor's search over the scenario's own traffic (the engine's advise), with progress through its phases. */
  const AdviseRequest = z.object({
    id: Id,
    type: z.literal('advise'),
    scenario: z.unknown(),
    candidates: z.number().int().positive().max(2_000).optional(),
    seed: z.number().int().optional(),
  });
  /** A text shown as its tokens (the token view): one page of its pieces, from piece `from`. */
  const TokensRequest = z.object({
    id: Id,
    type: z.literal('tokens'),
    text: z.string(),
    encoding: z.enum(['o200k_base', 'cl100k_base'] satisfies Encoding[]),
    from: z.number().int().nonnegative(),
    limit: z.number().int().positive().max(TOKEN_PAGE_MAX),
  });
  const CancelRequest = z.object({ id: Id, type: z.literal('cancel') });
  return z.discriminatedUnion('type', [
    ValidateRequest,
    ReplayRequest,
    OpenRequest,
    InspectRequest,
    RhaiCheckRequest,
    TransformRequest,
    AsRecordedRequest,
    AdviseRequest,
    TokensRequest,
    CancelRequest,
  ]);
}
export const WorkerRequestSchema = z.lazy(requestSchema);
export type WorkerRequest = z.infer<ReturnType<typeof requestSchema>>;
export type RequestType = Exclude<WorkerRequest['type'], 'cancel'>;

/**
 * The longest the page lets the engine worker spend on one request before it stops (restarts) it;
 * a replay stops itself a little earlier, between two events, and keeps the timeline so far.
 */
export const ENGINE_TIME_LIMIT_MS = 20_000;

// ---- responses (worker -> page) ----

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const isInt32 = (v: unknown, length?: number): boolean =>
  v instanceof Int32Array && (length === undefined || v.length === length);

function responseSchema() {
  const Id = idSchema();
  const DiagnosticSchema = diagnosticSchema();
  const BudgetRowSchema = z.object({
    region: z.string(),
    kind: z.string(),
    /** Stage whose own layout declares this region; empty for top-level `[context.regions]`. */
    stage: z.string(),
    /** `budget = "12%"` as 0.12, when written. */
    share: z.number().optional(),
    maxTokens: z.number(),
    maxTokensExplicit: z.boolean(),
    minTokens: z.number().optional(),
    budget: z.number(),
    compactAt: z.number().optional(),
    threshold: z.number().optional(),
    trigger: z.number(),
  });

  const ModelInfoSchema = z.object({
    id: z.string(),
    label: z.string(),
    window: z.number(),
    encoding: z.string(),
    approximate: z.boolean(),
  });

  const ValidateResultSchema = z.object({
    diagnostics: z.array(DiagnosticSchema),
    budgets: z.array(BudgetRowSchema),
    model: ModelInfoSchema.nullable(),
    modelError: z.string().optional(),
  });

  /**
   * What the charts draw of a timeline (timeline-view.ts), typed as such and checked at its envelope: the
   * columns are typed arrays of one length per series, so a malformed message fails here.
   */
  const TimelineViewSchema = z.custom<TimelineView>((v) => {
    if (
      !isRecord(v) ||
      !isRecord(v.header) ||
      !isRecord(v.steps) ||
      !isRecord(v.window) ||
      !isRecord(v.regions) ||
      !isRecord(v.changes)
    )
      return false;
    const { steps, window, changes } = v;
    return (
      typeof steps.count === 'number' &&
      steps.stage instanceof Uint16Array &&
      steps.stage.length === steps.count &&
      isInt32(steps.inference, steps.count) &&
      Array.isArray(v.charted) &&
      Array.isArray(v.stageChanges) &&
      Array.isArray(v.warnings) &&
      window.steps instanceof Int32Array &&
      Array.isArray(window.tokens) &&
      window.tokens.every((t) => isInt32(t, (window.steps as Int32Array).length)) &&
      isInt32(changes.step) &&
      Array.isArray(changes.names) &&
      isRecord(v.markdown)
    );
  }, 'not a timeline view: expected the header, per-step typed columns, series and the change table');

  /** One step in full, typed as the engine's StepDetail and checked at its envelope. */
  const StepDetailSchema = z.custom<StepDetail>(
    (v) =>
      isRecord(v) &&
      typeof v.index === 'number' &&
      Array.isArray(v.regions) &&
      Array.isArray(v.changes) &&
      isRecord(v.request),
    'not a step detail: expected index, regions, changes and request',
  );
  const StepFiguresSchema = z.custom<StepFigures>(
    (v) => isRecord(v) && typeof v.index === 'number' && isRecord(v.regions),
    'not step figures: expected index and regions',
  );
  const ReplayResultSchema = z.object({
    /** Scenario-level problems (blueprint diagnostics, schema errors); the timeline is absent when fatal. */
    diagnostics: z.array(DiagnosticSchema),
    view: TimelineViewSchema.nullable(),
    ms: z.number(),
  });

  /** What fills the window at the step: the blueprint's request, and the as-sent one (or the flat list) beside it. */
  const StepBreakdownSchema = z.custom<StepBreakdown>(
    (v) =>
      isRecord(v) &&
      isRecord(v.blueprint) &&
      Array.isArray(v.blueprint.rows) &&
      (v.beside === null || (isRecord(v.beside) && Array.isArray(v.beside.rows))) &&
      (v.besideIs === 'asSent' || v.besideIs === 'flatList'),
    "not a window breakdown: expected the blueprint's rows and the rows beside them",
  );
  const InspectResultSchema = z.object({
    detail: StepDetailSchema.nullable(),
    breakdown: StepBreakdownSchema.optional(),
    figures: StepFiguresSchema.nullable().optional(),
    error: z.string().optional(),
    /** The worker no longer keeps that replay (it was restarted): open it again, then ask again. */
    missing: z.boolean().optional(),
  });
  const OpenResultSchema = z.object({ ok: z.boolean(), error: z.string().optional() });
  const RhaiCheckResultSchema = z.object({ diagnostics: z.array(DiagnosticSchema) });
  /** The transformed scenario, checked at its envelope (the page only encodes it into a link). */
  const TransformResultSchema = z.object({
    scenario: z.custom<Scenario>(
      (v) => isRecord(v) && Array.isArray(v.traffic) && isRecord(v.agent),
      'not a scenario: expected agent and traffic',
    ),
  });
  /** The as-sent view, checked at its envelope: a header, and typed columns of one length per inference. */
  const AsRecordedViewSchema = z.custom<AsRecordedView>((v) => {
    if (!isRecord(v) || !isRecord(v.header) || !isRecord(v.columns)) return false;
    const columns = v.columns;
    const length = typeof v.header.inferences === 'number' ? v.header.inferences : -1;
    return AS_RECORDED_COLUMNS.every((c) => isInt32(columns[c], length));
  }, 'not an as-sent view: expected a header and one typed column per figure, one row per inference');
  /** The advice, checked at its envelope: the reference, the front (each a blueprint's text and its figures) and the search's counts. */
  const AdviceSchema = z.custom<Advice>(
    (v) =>
      isRecord(v) &&
      isRecord(v.asRecorded) &&
      isRecord(v.search) &&
      Array.isArray(v.diagnostics) &&
      Array.isArray(v.front) &&
      v.front.every(
        (p) =>
          isRecord(p) &&
          typeof p.toml === 'string' &&
          typeof p.peakRequestTokens === 'number' &&
          typeof p.inputCostUsd === 'number' &&
          typeof p.readAgain === 'number' &&
          Array.isArray(p.changes),
      ),
    'not advice: expected asRecorded, a front of proposals (toml and figures), search and diagnostics',
  );
  const AsRecordedResultSchema = z.object({
    diagnostics: z.array(DiagnosticSchema),
    view: AsRecordedViewSchema.nullable(),
  });
  /** A page of token pieces, checked at its envelope (thousands of pieces are not parsed one by one). */
  const TokenPageSchema = z.custom<TokenPage>(
    (v) =>
      isRecord(v) &&
      Array.isArray(v.pieces) &&
      v.pieces.length <= TOKEN_PAGE_MAX &&
      typeof v.from === 'number' &&
      typeof v.fromChar === 'number' &&
      typeof v.totalPieces === 'number' &&
      typeof v.totalTokens === 'number' &&
      v.pieces.every((p: unknown) => isRecord(p) && typeof p.text === 'string' && Array.isArray(p.ids)),
    'not a page of tokens: expected pieces (text and ids), from, fromChar, totalPieces and totalTokens',
  );
  return z.discriminatedUnion('type', [
    z.object({ type: z.literal('ready') }),
    z.object({
      type: z.literal('progress'),
      id: Id,
      done: z.number(),
      total: z.number(),
      /** The advisor's phase (`search`, then `front`) and the proposals on its front so far. */
      phase: z.enum(['search', 'front']).optional(),
      front: z.number().optional(),
    }),
    /** A script file (a custom region's hooks, a rhai seed) the worker went into, and its hooks called since: if a time limit stops the worker now, it is in there. */
    z.object({
      type: z.literal('script'),
      id: Id,
      file: z.string(),
      hooks: z.array(z.enum(['render', 'on_write', 'on_overflow', 'seed'])),
    }),
    /** A replay's compile, answered before the replay runs on it (so the page needs no separate validate). */
    z.object({ type: z.literal('validated'), id: Id, result: ValidateResultSchema }),
    z.object({ type: z.literal('validate'), id: Id, result: ValidateResultSchema }),
    z.object({ type: z.literal('replay'), id: Id, result: ReplayResultSchema }),
    z.object({ type: z.literal('inspect'), id: Id, result: InspectResultSchema }),
    z.object({ type: z.literal('open'), id: Id, result: OpenResultSchema }),
    z.object({ type: z.literal('rhaiCheck'), id: Id, result: RhaiCheckResultSchema }),
    z.object({ type: z.literal('transform'), id: Id, result: TransformResultSchema }),
    z.object({ type: z.literal('asRecorded'), id: Id, result: AsRecordedResultSchema }),
    z.object({ type: z.literal('advise'), id: Id, result: AdviceSchema }),
    z.object({ type: z.literal('tokens'), id: Id, result: TokenPageSchema }),
    z.object({ type: z.literal('failed'), id: Id, message: z.string(), cancelled: z.boolean() }),
  ]);
}
export const WorkerResponseSchema = z.lazy(responseSchema);
export type WorkerResponse = z.infer<ReturnType<typeof responseSchema>>;

/** The result a response of type `T` carries. */
type ResultFor<T extends WorkerResponse['type']> =
  Extract<WorkerResponse, { type: T }> extends { result: infer R } ? R : never;
export type ValidateResult = ResultFor<'validate'>;
export type BudgetRow = ValidateResult['budgets'][number];
export type ModelInfo = NonNullable<ValidateResult['model']>;

/** What each request type resolves to on the page. */
export interface ResultOf {
  validate: ValidateResult;
  replay: ResultFor<'replay'>;
  inspect: ResultFor<'inspect'>;
  open: ResultFor<'open'>;
  rhaiCheck: ResultFor<'rhaiCheck'>;
  transform: ResultFor<'transform'>;
  asRecorded: ResultFor<'asRecorded'>;
  advise: ResultFor<'advise'>;
  tokens: ResultFor<'tokens'>;
}

/** Describes a zod failure in one line: which field, what was wrong (worded as everywhere else). */
export function describeIssues(error: z.ZodError, max = 3): string {
  return formatIssues(error).slice(0, max).join('; ');
}
