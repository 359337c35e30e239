// The timeline pane: replay controls, the verdict, run warnings, then the charts (TimelineViews,
// loaded as a chunk of its own). Everything clickable on a chart jumps to its step.
import { lazy, Suspense, useDeferredValue, useEffect, useState } from 'react';
import type { TimelineView } from '../worker/timeline-view.ts';
import { stepOfInference } from './chartData.ts';
import { fmt, pct } from './format.ts';
import { jumpTo } from './jump.ts';
import { PaneHead } from './layout/Pane.tsx';
import { ReplayControls, ReplayStatus } from './ReplayControls.tsx';
import { WarningsBar } from './WarningsBar.tsx';
import { HeldReplayBanner } from './HeldReplayBanner.tsx';
// Only a scenario that records its run has these sentences: fetched when one is opened.
const RecordedVerdict = lazy(() => import('./RecordedVerdict.tsx'));
import { page, useResults, useUi } from './page.ts';
import { bannerOf, isDrawn, isOutOfDate } from '../state/status.ts';

// Fetched as soon as this module runs, so the chunk is in by the time the first replay answers.
const loadViews = import('./TimelineViews.tsx');
const TimelineViews = lazy(() => loadViews);

/** Whether the charts' chunk has arrived (until then the charts are not drawn, so not "ready"). */
function useViewsLoaded(): boolean {
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    void loadViews.then(() => setLoaded(true));
  }, []);
  return loaded;
}

/** The run in two sentences, above the charts: what a newcomer should notice first. */
function Verdict({ timeline }: { timeline: TimelineView }) {
  const { baselineLosesTaskAt, taskLostAt, meanPrefixShare } = timeline.header.summary;
  const lostStep = stepOfInference(timeline, baselineLosesTaskAt);
  const ownLostStep = stepOfInference(timeline, taskLostAt);
  return (
    <div className="verdict" data-testid="comparison-verdict">
      {lostStep !== null ? (
        <>
          A flat message list loses the task at{' '}
          <button
            className="link"
            data-testid="verdict-lost-step"
            title="Show it on the Flat list vs blueprint chart"
            onClick={() => jumpTo(lostStep, undefined, 'flat')}
          >
            step {lostStep + 1}
          </button>{' '}
          (inference #{baselineLosesTaskAt}).{' '}
        </>
      ) : (
        <>A flat message list keeps the task in its window for the whole run. </>
      )}
      {ownLostStep !== null ? (
        <span className="error-text">
          This blueprint loses it too, at{' '}
          <button
            className="link"
            title="Show it on the Flat list vs blueprint chart"
            onClick={() => jumpTo(ownLostStep, undefined, 'flat')}
          >
            step {ownLostStep + 1}
          </button>
          .{' '}
        </span>
      ) : (
        <span className="ok-text">This blueprint keeps it at every step. </span>
      )}
      <ReadAgainSentence timeline={timeline} />
      <span className="muted">Mean stable cache prefix: {pct(meanPrefixShare)} of each request.</span>
      {timeline.recorded && (
        <Suspense fallback={null}>
          <RecordedVerdict c={timeline.recorded} model={timeline.header.model.id} />
        </Suspense>
      )}
    </div>
  );
}

/** The example's lesson: what to look at, where it is, and a way back to it. */
function LessonBar() {
  const lesson = useUi((s) => s.lesson);
  if (!lesson) return null;
  return (
    <div className="lesson" role="note" data-testid="lesson" data-example={lesson.exampleId}>
      <span className="lesson-look">
        <b>Look:</b> {lesson.look}
      </span>
      <button
        className="link"
        data-testid="lesson-show"
        title={`Go to ${lesson.where}, in the view that shows it`}
        onClick={() => page().showLesson()}
      >
        show me
      </button>
      <button
        className="link"
        aria-label="Hide the lesson"
        title="Hide the lesson"
        onClick={() => useUi.getState().setLesson(null)}
      >
        ×
      </button>
    </div>
  );
}

/** Entries the blueprint let go that the run named again later (read-again.ts), with a link to the first. */
function ReadAgainSentence({ timeline }: { timeline: TimelineView }) {
  const { count, items } = timeline.header.summary.readAgain;
  if (count === 0) return null;
  const first = items.reduce((a, b) => (b.namedAt < a.namedAt ? b : a));
  return (
    <span data-testid="read-again-sentence">
      {fmt(count)} {count === 1 ? 'entry it let go was' : 'entries it let go were'} read again later (first{' '}
      <code>{first.key}</code>, named at{' '}
      <button className="link" onClick={() => jumpTo(first.namedAt)}>
        step {first.namedAt + 1}
      </button>
      ).{' '}
    </span>
  );
}

/** Edits wait for an explicit run: say so, and why. */
function PendingBanner() {
  const reason = useResults((s) => s.autoRunOffReason);
  const autoRun = useResults((s) => s.autoRun);
  return (
    <div className="banner" role="status" data-testid="pending-banner">
      Out of date:{' '}
      {autoRun
        ? 'the last replay was cancelled'
        : `your edits are not replayed yet (auto-run is off${reason ? ` because ${reason}` : ''})`}
      . Press Run or Ctrl+Enter to replay.
    </div>
  );
}

const chartsDrawn = (timeline: TimelineView) => page().drawn(timeline);

export function ChartsPanel() {
  // Deferred: a new timeline is drawn in an interruptible, time-sliced render, so drawing the
  // charts never blocks typing or scrubbing.
  const timeline = useDeferredValue(useResults((s) => s.timeline));
  const status = useResults((s) => s.status);
  const viewsLoaded = useViewsLoaded();
  // Ready means drawn: the window chart draws its plot a task after the views mount (once measured).
  const drawn = useResults((s) => s.drawn);
  const banner = bannerOf(status, timeline);
  return (
    <section className="panel" aria-labelledby="pane-title-timeline" data-pane="timeline">
      <PaneHead>
        {timeline && (
          <span className="muted ellipsis">
            {fmt(timeline.steps.count)} steps · {fmt(timeline.header.summary.inferences)} inferences ·{' '}
            {timeline.header.model.id}
            {timeline.header.model.approximate ? ' (approximate counts)' : ''}
          </span>
        )}
        <ReplayStatus />
      </PaneHead>
      <ReplayControls />
      {status.kind === 'held' && <HeldReplayBanner reason={status.reason} />}
      {status.kind === 'failed' && (
        <div className="banner error-text" role="alert" data-testid="replay-error">
          The replay failed: {status.message}. The charts below are out of date: they show the last replay that
          finished.
        </div>
      )}
      {banner === 'waiting' && <PendingBanner />}
      {banner === 'broken' && (
        <div className="banner" data-testid="stale-banner">
          Out of date: the current blueprint has errors (see the problems list), so this is the last timeline that ran.
        </div>
      )}
      <LessonBar />
      {timeline && <Verdict timeline={timeline} />}
      {timeline && <WarningsBar warnings={timeline.warnings} />}
      <div
        className="timeline-views"
        data-testid="charts"
        data-ready={viewsLoaded && isDrawn(status, timeline, drawn) ? 'yes' : 'no'}
        data-steps={timeline?.steps.count ?? 0}
        data-scenario={timeline?.header.scenario}
        data-stale={isOutOfDate(status, timeline) ? 'yes' : 'no'}
      >
        {!timeline ? (
          <div className="muted panel-body">Waiting for the first replay…</div>
        ) : (
          <Suspense fallback={<div className="muted panel-body">Drawing the charts…</div>}>
            <TimelineViews timeline={timeline} onDrawn={chartsDrawn} />
          </Suspense>
        )}
      </div>
    </section>
  );
}
