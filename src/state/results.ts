// What the engine worker answered. The page renders these and never computes them itself.
import { create } from 'zustand';
import type { Diagnostic } from '../engine/diagnostics.ts';
import type { StepDetail } from '../engine/timeline.ts';
import type { TimelineView, StepFigures } from '../worker/timeline-view.ts';
import type { ValidateResult } from '../worker/protocol.ts';

export interface ResultsStore {
  validation: ValidateResult | null;
  /** Parse errors per Rhai file, from rhaiCheck. */
  rhai: Record<string, Diagnostic[]>;
  /** What the charts draw of the last run that replayed without errors; kept while the blueprint is broken. */
  run: TimelineView | null;
  /** The run the charts on screen show, once they are drawn for it (the page's own drawing, not an engine answer). */
  drawnRun: TimelineView | null;
  /** Problems of the latest replay (a broken blueprint, a bad scenario); empty when it succeeded. */
  replayDiagnostics: Diagnostic[];
  /** True when `timeline` is older than the scenario on screen (latest replay failed). */
  timelineStale: boolean;
  replaying: { done: number; total: number } | null;
  replayMs: number | null;
  replayError: string | null;
  /** Why the scenario on screen was not replayed on load: its last replay failed or never ended. */
  replayHeld: string | null;
  detail: StepDetail | null;
  /** The scrubbed step's region figures and the request in force, answered with its detail. */
  figures: StepFigures | null;
  detailError: string | null;
}

export const useResults = create<ResultsStore>()(() => ({
  validation: null,
  rhai: {},
  run: null,
  drawnRun: null,
  replayDiagnostics: [],
  timelineStale: false,
  replaying: null,
  replayMs: null,
  replayError: null,
  replayHeld: null,
  detail: null,
  figures: null,
  detailError: null,
}));
