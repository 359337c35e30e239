// Page <-> trace-import worker messages. The worker reads the file itself (a 50 MB trace never
// passes through the page's thread as text) and answers with the scenario and its report.
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
  /** The file is a Leviath scenario, not a trace: the page opens it as one. */
  | { id: number; type: 'scenario' }
  | { id: number; type: 'imported'; scenario: Scenario; report: ImportReport }
  | { id: number; type: 'failed'; message: string };
