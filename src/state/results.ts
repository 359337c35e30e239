// What the engine worker answered. The page renders these and never computes them itself.
import { create } from 'zustand';
import type { Diagnostic } from '../engine/diagnostics.ts';
import type { StepDetail, Timeline } from '../engine/timeline.ts';
import type { ValidateResult } from '../worker/protocol.ts';

export interface ResultsStore {
  validation: ValidateResult | null;
  /** Parse errors per Rhai file, from rhaiCheck. */
  rhai: Record<string, Diagnostic[]>;
  /** The last timeline that replayed without errors; kept while the blueprint is broken. */
  timeline: Timeline | null;
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
  detailError: string | null;
}

export const useResults = create<ResultsStore>()(() => ({
  validation: null,
  rhai: {},
  timeline: null,
  replayDiagnostics: [],
  timelineStale: false,
  replaying: null,
  replayMs: null,
  replayError: null,
  replayHeld: null,
  detail: null,
  detailError: null,
}));
