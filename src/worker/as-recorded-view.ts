// What the page draws of an as-sent replay (the engine's replayAsRecorded): its header and summary,
// and one row per inference as typed columns, transferred rather than copied. Recorded figures a
// trace did not keep are -1.
import type { AsRecordedTimeline, Caching, CompactionFigures, RecordedSummary } from '../engine/page.ts';

export interface AsRecordedView {
  header: {
    scenario: string;
    model: AsRecordedTimeline['model'];
    caching: Caching;
    traceModel?: string;
    inferences: number;
    peakRequestTokens: number;
    compactions: CompactionFigures[];
    recorded: RecordedSummary | null;
    note?: string;
  };
  /** Per inference, in order: the event index it answers, and its figures. */
  columns: {
    step: Int32Array;
    requestTokens: Int32Array;
    harnessTokens: Int32Array;
    reasoningTokens: Int32Array;
    cacheReadTokens: Int32Array;
    cacheWriteTokens: Int32Array;
    recordedPromptTokens: Int32Array;
    recordedCacheReadTokens: Int32Array;
  };
}

export const AS_RECORDED_COLUMNS = [
  'step',
  'requestTokens',
  'harnessTokens',
  'reasoningTokens',
  'cacheReadTokens',
  'cacheWriteTokens',
  'recordedPromptTokens',
  'recordedCacheReadTokens',
] as const;

export function asRecordedView(t: AsRecordedTimeline): { view: AsRecordedView; transfer: ArrayBuffer[] } {
  const requests = t.steps.flatMap((s) => (s.request ? [{ index: s.index, r: s.request }] : []));
  const column = (pick: (x: (typeof requests)[number]) => number) => Int32Array.from(requests, pick);
  const columns: AsRecordedView['columns'] = {
    step: column((x) => x.index),
    requestTokens: column((x) => x.r.requestTokens),
    harnessTokens: column((x) => x.r.harnessTokens),
    reasoningTokens: column((x) => x.r.reasoningTokens),
    cacheReadTokens: column((x) => x.r.cache.cacheReadTokens),
    cacheWriteTokens: column((x) => x.r.cache.cacheWriteTokens),
    recordedPromptTokens: column((x) => x.r.recorded?.promptTokens ?? -1),
    recordedCacheReadTokens: column((x) => x.r.recorded?.cacheReadTokens ?? -1),
  };
  const s = t.summary;
  const view: AsRecordedView = {
    header: {
      scenario: t.scenario,
      model: t.model,
      caching: t.caching,
      ...(t.traceModel ? { traceModel: t.traceModel } : {}),
      inferences: s.inferences,
      peakRequestTokens: s.peakRequestTokens,
      compactions: s.compactions,
      recorded: s.recorded,
      ...(s.note ? { note: s.note } : {}),
    },
    columns,
  };
  return { view, transfer: AS_RECORDED_COLUMNS.map((c) => columns[c].buffer as ArrayBuffer) };
}
