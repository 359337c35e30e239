// How the timeline on screen stands against the scenario on screen: one value, set by the replays
// (replays.ts) and read by the page. Every banner, the Run button, the inspector's "out of date" and
// the charts' `data-stale` and `data-ready` follow from it and the timeline (the functions below).
import type { TimelineView } from '../worker/timeline-view.ts';

/** What the charts settled on: every status but a replay in progress. */
export type SettledStatus =
  /** No replay has answered yet (the page is starting, or the first replay was cancelled). */
  | { kind: 'starting' }
  /** The charts show the scenario on screen. */
  | { kind: 'current' }
  /** The blueprint has errors (the problems list says which): the charts keep the last timeline that ran. */
  | { kind: 'broken' }
  /** The replay failed (a worker crash, its time limit): the charts keep the last timeline that finished. */
  | { kind: 'failed'; message: string }
  /** Edits not replayed yet: auto-run is off, or the last replay was cancelled. Run replays them. */
  | { kind: 'waiting' }
  /** Not replayed on load, because this scenario's last replay did not finish (`reason`). Run replays it. */
  | { kind: 'held'; reason: string };

/** A replay is running; `before` is where the charts stood when it started. */
export type Replaying = { kind: 'replaying'; done: number; total: number; before: SettledStatus };

export type ReplayStatus = SettledStatus | Replaying;

/** Where the charts stand apart from a replay in progress. */
export function settled(status: ReplayStatus): SettledStatus {
  return status.kind === 'replaying' ? status.before : status;
}

/** The status once a replay starts: a failure, a held replay or waiting edits are what it answers. */
export function replayStarted(status: ReplayStatus): Replaying {
  return { kind: 'replaying', done: 0, total: 0, before: settled(status) };
}

/**
 * Whether the timeline on screen is older than the scenario on screen ("is the chart current?" is
 * `status.kind === 'current'`; this is the stronger "it shows something else"). A replay in progress
 * after an edit does not make the charts out of date until it says so; one over charts that were
 * already out of date leaves them so.
 */
export function isOutOfDate(status: ReplayStatus, timeline: TimelineView | null): boolean {
  if (status.kind === 'replaying')
    return timeline !== null && ['broken', 'failed', 'waiting'].includes(status.before.kind);
  return status.kind === 'failed' || status.kind === 'waiting' || (status.kind === 'broken' && timeline !== null);
}

/** The banner over the charts, if any: why they are not current, in one of four kinds. */
export type Banner = 'failed' | 'waiting' | 'broken' | 'held' | null;

export function bannerOf(status: ReplayStatus, timeline: TimelineView | null): Banner {
  if (status.kind === 'replaying') return status.before.kind === 'broken' && timeline !== null ? 'broken' : null;
  if (status.kind === 'broken') return timeline !== null ? 'broken' : null;
  return status.kind === 'failed' || status.kind === 'waiting' || status.kind === 'held' ? status.kind : null;
}

/** Whether the charts are drawn for the scenario's latest replay (nothing replaying, the drawn timeline the one on screen). */
export function isDrawn(status: ReplayStatus, timeline: TimelineView | null, drawn: TimelineView | null): boolean {
  return timeline !== null && status.kind !== 'replaying' && drawn === timeline;
}
