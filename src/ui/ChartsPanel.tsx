// The timeline pane: replay controls, the verdict, run warnings, then the charts (TimelineViews,
// loaded as a chunk of its own). Everything clickable on a chart jumps to its step.
import { lazy, Suspense, useDeferredValue, useEffect, useState } from 'react';
import type { TimelineView } from '../worker/timeline-view.ts';
import { useResults } from '../state/results.ts';
import { useUi } from '../state/ui.ts';
import { stepOfInference } from './chartData.ts';
import { fmt, pct } from './format.ts';
import { jumpTo } from './jump.ts';
import { PaneHead } from './layout/Pane.tsx';
import { ReplayControls, ReplayStatus } from './ReplayControls.tsx';
import { WarningsBar } from './WarningsBar.tsx';
import { HeldReplayBanner } from './HeldReplayBanner.tsx';

// Fetched as soon as this module runs, so the chunk is in by the time the first replay answers.
const loadViews = import('./TimelineViews.tsx');
const TimelineViews = lazy(() => loadViews);

/** Whether the charts' chunk has arrived (until then the charts are not drawn, so not "ready"). */
function useViewsLoaded(): boolean {
  const [loaded, setLoaded] = useState(false);
  useEffect(() => { void loadViews.then(() => setLoaded(true)); }, []);
  return loaded;
}

/** The run in two sentences, above the charts: what a newcomer should notice first. */
function Verdict({ run }: { run: TimelineView }) {
  const { baselineLosesTaskAt, taskLostAt, meanPrefixShare } = run.header.summary;
  const lostStep = stepOfInference(run, baselineLosesTaskAt);
  const ownLostStep = stepOfInference(run, taskLostAt);
  return (
    <div className="verdict" data-testid="comparison-verdict">
      {lostStep !== null
        ? <>A flat message list loses the task at <button className="link" onClick={() => jumpTo(lostStep)}>step {lostStep + 1}</button> (inference #{baselineLosesTaskAt}). </>
        : <>A flat message list keeps the task in its window for the whole run. </>}
      {ownLostStep !== null
        ? <span className="error-text">This blueprint loses it too, at <button className="link" onClick={() => jumpTo(ownLostStep)}>step {ownLostStep + 1}</button>. </span>
        : <span className="ok-text">This blueprint keeps it at every step. </span>}
      <span className="muted">Mean stable cache prefix: {pct(meanPrefixShare)} of each request.</span>
    </div>
  );
}

/** Edits wait for an explicit run: say so, and why. */
function PendingBanner() {
  const reason = useUi((s) => s.autoRunOffReason);
  const autoRun = useUi((s) => s.autoRun);
  return (
    <div className="banner" role="status" data-testid="pending-banner">
      Out of date: {autoRun ? 'the last replay was cancelled' : `your edits are not replayed yet (auto-run is off${reason ? ` because ${reason}` : ''})`}.
      Press Run or Ctrl+Enter to replay.
    </div>
  );
}

const chartsDrawn = (run: TimelineView) => useResults.setState({ drawnRun: run });

export function ChartsPanel() {
  // Deferred: a new timeline is drawn in an interruptible, time-sliced render, so drawing the
  // charts never blocks typing or scrubbing.
  const run = useDeferredValue(useResults((s) => s.run));
  const stale = useResults((s) => s.timelineStale);
  const replaying = useResults((s) => s.replaying);
  const replayError = useResults((s) => s.replayError);
  const runPending = useUi((s) => s.runPending);
  const viewsLoaded = useViewsLoaded();
  // Ready means drawn: the window chart draws its plot a task after the views mount (once measured).
  const drawn = useResults((s) => s.drawnRun);
  return (
    <section className="panel" aria-labelledby="pane-title-timeline" data-pane="timeline">
      <PaneHead>
        {run && <span className="muted ellipsis">{fmt(run.steps.count)} steps · {fmt(run.header.summary.inferences)} inferences · {run.header.model.id}{run.header.model.approximate ? ' (approximate counts)' : ''}</span>}
        <ReplayStatus />
      </PaneHead>
      <ReplayControls />
      <HeldReplayBanner />
      {replayError && <div className="banner error-text" role="alert" data-testid="replay-error">The replay failed: {replayError}. The charts below are out of date: they show the last replay that finished.</div>}
      {runPending && !replayError && <PendingBanner />}
      {stale && !replayError && !runPending && <div className="banner" data-testid="stale-banner">Out of date: the current blueprint has errors (see the problems list), so this is the last timeline that ran.</div>}
      {run && <Verdict run={run} />}
      {run && <WarningsBar warnings={run.warnings} />}
      <div className="timeline-views" data-testid="charts" data-ready={run && !replaying && viewsLoaded && drawn === run ? 'yes' : 'no'} data-steps={run?.steps.count ?? 0} data-scenario={run?.header.scenario} data-stale={stale || runPending || !!replayError ? 'yes' : 'no'}>
        {!run ? <div className="muted panel-body">Waiting for the first replay…</div> : (
          <Suspense fallback={<div className="muted panel-body">Drawing the charts…</div>}><TimelineViews run={run} onDrawn={chartsDrawn} /></Suspense>
        )}
      </div>
    </section>
  );
}
