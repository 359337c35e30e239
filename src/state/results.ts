// What the workers answered about the scenario on screen, and how the charts stand against it
// (status.ts). The page renders these and never computes them itself. A PageSession owns one store
// of them; its replays (replays.ts) write it.
import { createStore, type StoreApi } from 'zustand';
import type { Diagnostic, StepDetail } from '../engine/page.ts';
import type { StepFigures, TimelineView } from '../worker/timeline-view.ts';
import type { StepBreakdown, ValidateResult } from '../worker/protocol.ts';
import type { ReplayStatus } from './status.ts';

export interface ResultsStore {
  validation: ValidateResult | null;
  /** Parse errors per Rhai file, from rhaiCheck. */
  rhai: Record<string, Diagnostic[]>;
  /** What the charts draw: the last timeline that replayed without errors, kept while the blueprint is broken. */
  timeline: TimelineView | null;
  /** The timeline the charts on screen are drawn for, once drawn (the page's own drawing, not a worker's answer). */
  drawn: TimelineView | null;
  status: ReplayStatus;
  /** Edits replay by themselves; off after a slow replay (then Run or Ctrl+Enter replays). */
  autoRun: boolean;
  /** Why auto-run is off, in words (null when the person turned it off). */
  autoRunOffReason: string | null;
  /** Problems of the latest replay (a broken blueprint, a bad scenario); empty when it succeeded. */
  replayDiagnostics: Diagnostic[];
  /** How long the last replay that finished took in the worker. */
  replayMs: number | null;
  detail: StepDetail | null;
  /** The scrubbed step's region figures and the request in force, answered with its detail. */
  figures: StepFigures | null;
  /** What fills the window at the scrubbed step: the blueprint's request beside the as-sent one (or the flat list). */
  breakdown: StepBreakdown | null;
  detailError: string | null;
}

export function createResultsStore(): StoreApi<ResultsStore> {
  return createStore<ResultsStore>()(() => ({
    validation: null,
    rhai: {},
    timeline: null,
    drawn: null,
    status: { kind: 'starting' },
    autoRun: true,
    autoRunOffReason: null,
    replayDiagnostics: [],
    replayMs: null,
    detail: null,
    figures: null,
    breakdown: null,
    detailError: null,
  }));
}
