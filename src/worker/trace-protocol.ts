// The page <-> trace-import worker protocol. The worker reads the file itself (a 50 MB trace never
// passes through the page's thread as text) and answers with the scenario and its report: its
// traffic first, in parts of about a megabyte, so the page copies each part in its own task and
// keeps drawing frames (one 50 MB message froze it for a second), then the rest of the scenario.
// Both sides parse what they receive with these schemas (built on first use, as the engine
// worker's are), so a malformed message is an error at the boundary.
import { z } from 'zod';
import { FORMAT_NAMES, type FormatName, type ImportReport } from '../import/index.ts';
import type { Scenario } from '../engine/page.ts';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function requestSchema() {
  return z.object({
    id: z.number().int().nonnegative(),
    /** The file as the page got it (a File crosses to the worker without being read). */
    file: z.custom<File>((v) => typeof File !== 'undefined' && v instanceof File, 'not a file'),
    toolMap: z.record(z.string(), z.string()),
    /** The blueprint to replay through; the import's starting layout when absent. */
    agent: z.record(z.string(), z.string()).optional(),
    /** The format the user chose in the page, instead of detecting it. */
    format: z.enum(FORMAT_NAMES as [FormatName, ...FormatName[]]).optional(),
  });
}
export const TraceImportRequestSchema = z.lazy(requestSchema);
export type TraceImportRequest = z.infer<ReturnType<typeof requestSchema>>;

function responseSchema() {
  const Id = z.number().int().nonnegative();
  // The scenario and report are the importer's own output, checked at their envelope.
  const Events = z.custom<Scenario['traffic']>(
    (v) => Array.isArray(v) && v.every((e) => isRecord(e) && typeof e.type === 'string'),
    'not a list of events',
  );
  const ScenarioShell = z.custom<Scenario>(
    (v) => isRecord(v) && Array.isArray(v.traffic) && isRecord(v.agent) && isRecord(v.model),
    'not a scenario',
  );
  const ScenarioFile = z.union([
    z.object({
      ok: z.literal(true),
      scenario: ScenarioShell,
      invalidUtf8At: z.number().int().nonnegative().optional(),
    }),
    z.object({ ok: z.literal(false), message: z.string() }),
  ]);
  const Report = z.custom<ImportReport>(
    (v) => isRecord(v) && typeof v.format === 'string' && typeof v.inferences === 'number' && Array.isArray(v.tools),
    'not an import report',
  );
  return z.discriminatedUnion('type', [
    z.object({ id: Id, type: z.literal('progress'), share: z.number().min(0).max(1) }),
    /**
     * The file is a Leviath scenario, not a trace, read and checked here: the page opens it (the
     * parts sent before are its traffic) or says what is wrong with it.
     */
    z.object({ id: Id, type: z.literal('scenario'), result: ScenarioFile }),
    /** The next events of the scenario's traffic, in order. */
    z.object({ id: Id, type: z.literal('traffic'), events: Events }),
    /** The scenario, its traffic left empty: the parts sent before it are its traffic. */
    z.object({ id: Id, type: z.literal('imported'), scenario: ScenarioShell, report: Report }),
    /** `unknownFormat`: detection found no format, so the page offers its format choice. */
    z.object({ id: Id, type: z.literal('failed'), message: z.string(), unknownFormat: z.boolean().optional() }),
  ]);
}
export const TraceImportResponseSchema = z.lazy(responseSchema);
export type TraceImportResponse = z.infer<ReturnType<typeof responseSchema>>;

/** A scenario file as the worker read it: the scenario, its traffic left empty, or why it is refused. */
export type ScenarioFileResult = Extract<TraceImportResponse, { type: 'scenario' }>['result'];
