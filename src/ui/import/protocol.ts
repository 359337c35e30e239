// Page <-> trace-import worker messages. The worker reads the file itself (a 50 MB trace never
// passes through the page's thread as text) and answers with the scenario and its report: its
// traffic first, in parts of about a megabyte, so the page copies each part in its own task and
// keeps drawing frames (one 50 MB message froze it for a second), then the rest of the scenario.
import type { FormatName, ImportReport, ToolMap } from '../../import/index.ts';
import type { Scenario } from '../../engine/scenario.ts';

export interface ImportRequest {
  id: number;
  file: File;
  toolMap: ToolMap;
  /** The blueprint to replay through; the import's starting layout when absent. */
  agent?: Record<string, string>;
  format?: FormatName;
}

export type ImportResponse =
  | { id: number; type: 'progress'; share: number }
  /**
   * The file is a Leviath scenario, not a trace, read and checked here: the page opens it (the
   * parts sent before are its traffic) or says what is wrong with it.
   */
  | { id: number; type: 'scenario'; result: ScenarioFileResult }
  /** The next events of the scenario's traffic, in order. */
  | { id: number; type: 'traffic'; events: Scenario['traffic'] }
  /** The scenario, its traffic left empty: the parts sent before it are its traffic. */
  | { id: number; type: 'imported'; scenario: Scenario; report: ImportReport }
  | { id: number; type: 'failed'; message: string };

/** A scenario file as the worker read it: the scenario, its traffic left empty, or why it is refused. */
export type ScenarioFileResult =
  | { ok: true; scenario: Scenario; invalidUtf8At?: number }
  | { ok: false; message: string };
