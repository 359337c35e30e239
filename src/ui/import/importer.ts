// The page's side of trace import: one worker, one import at a time (a new file replaces the one
// being read), and the state the Import dialog draws.
import { create } from 'zustand';
import { DEFAULT_TOOL_MAP, type FormatName, type ImportReport, type ToolMap } from '../../import/index.ts';
import type { Scenario } from '../../engine/page.ts';
import { useScenario } from '../page.ts';
import {
  TraceImportResponseSchema,
  type ScenarioFileResult,
  type TraceImportRequest,
} from '../../worker/trace-protocol.ts';
import { describeIssues } from '../../worker/protocol.ts';

export type ImportState =
  | { status: 'idle' }
  | { status: 'working'; file: File; share: number }
  | { status: 'ready'; file: File; scenario: Scenario; report: ImportReport }
  /** `unknownFormat`: the content matched no format; the dialog offers the format choice. */
  | { status: 'error'; file: File; message: string; unknownFormat?: boolean };

export interface TraceImportStore {
  state: ImportState;
  toolMap: ToolMap;
  /** Replay through the blueprint in the editor, or the import's starting layout. */
  blueprint: 'editor' | 'starter';
  /** The format the user chose; undefined: detect it from the content. */
  format?: FormatName;
}

export const useTraceImport = create<TraceImportStore>()(() => ({
  state: { status: 'idle' },
  toolMap: DEFAULT_TOOL_MAP,
  blueprint: 'editor',
}));

let worker: Worker | undefined;
let nextId = 1;

/**
 * Imports `file` in the worker, with progress: a Leviath scenario, read and checked there, goes to
 * `openScenario` (the page's scenario import); a trace waits in the dialog to be opened.
 */
export function importFile(file: File, openScenario: (file: File, result: ScenarioFileResult) => void): void {
  worker?.terminate();
  worker = new Worker(new URL('../../worker/trace.worker.ts', import.meta.url), { type: 'module' });
  const id = nextId++;
  const { toolMap, blueprint, format } = useTraceImport.getState();
  const set = (state: ImportState) => useTraceImport.setState({ state });
  set({ status: 'working', file, share: 0 });
  const traffic: Scenario['traffic'] = [];
  worker.onmessage = (event: MessageEvent<unknown>) => {
    const parsed = TraceImportResponseSchema.safeParse(event.data);
    if (!parsed.success) {
      set({
        status: 'error',
        file,
        message: `the import worker sent a malformed answer (${describeIssues(parsed.error)})`,
      });
      return;
    }
    const message = parsed.data;
    if (message.id !== id) return;
    if (message.type === 'progress') set({ status: 'working', file, share: message.share });
    else if (message.type === 'scenario') {
      set({ status: 'idle' });
      openScenario(
        file,
        message.result.ok ? { ...message.result, scenario: { ...message.result.scenario, traffic } } : message.result,
      );
    } else if (message.type === 'traffic') {
      for (const e of message.events) traffic.push(e);
    } else if (message.type === 'imported')
      set({ status: 'ready', file, scenario: { ...message.scenario, traffic }, report: message.report });
    else
      set({
        status: 'error',
        file,
        message: message.message,
        ...(message.unknownFormat ? { unknownFormat: true } : {}),
      });
  };
  worker.onerror = (event) =>
    set({ status: 'error', file, message: `the import worker failed: ${event.message || 'unknown error'}` });
  const request: TraceImportRequest = {
    id,
    file,
    toolMap: { ...toolMap },
    ...(format ? { format } : {}),
    ...(blueprint === 'editor' ? { agent: useScenario.getState().scenario.agent } : {}),
  };
  worker.postMessage(request);
}

export function closeImport(): void {
  worker?.terminate();
  worker = undefined;
  // A format chosen for one file is not carried to the next: the next one is detected again.
  useTraceImport.setState({ state: { status: 'idle' }, format: undefined });
}
