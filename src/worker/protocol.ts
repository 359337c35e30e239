// The page <-> engine worker protocol. Both sides parse what they receive with these schemas,
// so a malformed message is an error at the boundary, never a half-rendered screen.
import { z } from 'zod';
import { ModelRefSchema, ScenarioFields } from '../engine/scenario.ts';

const Files = z.record(z.string(), z.string());
const Id = z.number().int().nonnegative();

export const DiagnosticSchema = z.object({
  code: z.string(),
  severity: z.enum(['error', 'warning', 'info']),
  message: z.string(),
  file: z.string(),
  line: z.number(),
  column: z.number(),
  endLine: z.number().optional(),
  endColumn: z.number().optional(),
  path: z.string(),
});

// ---- requests (page -> worker) ----

export const ValidateRequest = z.object({
  id: Id, type: z.literal('validate'),
  /** The scenario's files and inputs: validated exactly as `lev validate` and a run judge them. */
  agent: Files, workdir: Files, commands: Files, inputs: ScenarioFields.shape.inputs, model: ModelRefSchema,
});
export const ReplayRequest = z.object({
  id: Id, type: z.literal('replay'),
  /** Checked against ScenarioSchema inside the worker, where the error can say which field. */
  scenario: z.unknown(),
});
export const InspectRequest = z.object({
  id: Id, type: z.literal('inspect'),
  scenario: z.unknown(), step: z.number().int().nonnegative(),
});
export const RhaiCheckRequest = z.object({
  id: Id, type: z.literal('rhaiCheck'),
  file: z.string(), source: z.string(),
});
export const CancelRequest = z.object({ id: Id, type: z.literal('cancel') });

export const WorkerRequestSchema = z.discriminatedUnion('type', [
  ValidateRequest, ReplayRequest, InspectRequest, RhaiCheckRequest, CancelRequest,
]);
export type WorkerRequest = z.infer<typeof WorkerRequestSchema>;
export type RequestType = Exclude<WorkerRequest['type'], 'cancel'>;

// ---- responses (worker -> page) ----

export const BudgetRowSchema = z.object({
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
export type BudgetRow = z.infer<typeof BudgetRowSchema>;

export const ModelInfoSchema = z.object({
  id: z.string(), label: z.string(), window: z.number(), encoding: z.string(), approximate: z.boolean(),
});
export type ModelInfo = z.infer<typeof ModelInfoSchema>;

export const ValidateResultSchema = z.object({
  diagnostics: z.array(DiagnosticSchema),
  budgets: z.array(BudgetRowSchema),
  model: ModelInfoSchema.nullable(),
  modelError: z.string().optional(),
});
export type ValidateResult = z.infer<typeof ValidateResultSchema>;

/** The engine's Timeline; checked shallowly here (steps can number in the thousands). */
export const TimelineEnvelopeSchema = z.object({ steps: z.array(z.looseObject({ index: z.number() })) }).loose();
export const ReplayResultSchema = z.object({
  /** Scenario-level problems (blueprint diagnostics, schema errors); the timeline is absent when fatal. */
  diagnostics: z.array(DiagnosticSchema),
  timeline: TimelineEnvelopeSchema.nullable(),
  ms: z.number(),
});

export const InspectResultSchema = z.object({ detail: z.looseObject({}).nullable(), error: z.string().optional() });
export const RhaiCheckResultSchema = z.object({ diagnostics: z.array(DiagnosticSchema) });

export const WorkerResponseSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('progress'), id: Id, done: z.number(), total: z.number() }),
  z.object({ type: z.literal('validate'), id: Id, result: ValidateResultSchema }),
  z.object({ type: z.literal('replay'), id: Id, result: ReplayResultSchema }),
  z.object({ type: z.literal('inspect'), id: Id, result: InspectResultSchema }),
  z.object({ type: z.literal('rhaiCheck'), id: Id, result: RhaiCheckResultSchema }),
  z.object({ type: z.literal('failed'), id: Id, message: z.string(), cancelled: z.boolean() }),
]);
export type WorkerResponse = z.infer<typeof WorkerResponseSchema>;

/** What each request type resolves to on the page. */
export interface ResultOf {
  validate: ValidateResult;
  replay: z.infer<typeof ReplayResultSchema>;
  inspect: z.infer<typeof InspectResultSchema>;
  rhaiCheck: z.infer<typeof RhaiCheckResultSchema>;
}

/** Describes a zod failure in one line: which field, what was wrong. */
export function describeIssues(error: z.ZodError, max = 3): string {
  return error.issues.slice(0, max)
    .map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`)
    .join('; ');
}
