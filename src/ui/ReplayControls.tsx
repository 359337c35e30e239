// Play, pause, step, speed and the scrubber over the timeline's steps (keys: shortcuts.ts).
import { useEffect } from 'react';
import { fmt } from './format.ts';
import { inferenceAt, stageAt } from './chartData.ts';
import { togglePlay } from './shortcuts.ts';
import { page, useResults, useUi } from './page.ts';
import { SPEEDS } from '../state/preferences.ts';

function usePlayback(total: number): void {
  const playing = useUi((s) => s.playing);
  const speed = useUi((s) => s.speed);
  useEffect(() => {
    if (!playing) return;
    // Play follows the clock: a tick that comes late (a busy main thread) moves as many steps as the
    // time that passed, so 10 steps/s plays 10 steps a second rather than slowing down. A step moved
    // by hand while playing is where play goes on from.
    let anchor = { step: useUi.getState().step, at: performance.now() };
    let last = anchor.step;
    const timer = setInterval(() => {
      const { step, setStep, setPlaying } = useUi.getState();
      if (step !== last) anchor = { step, at: performance.now() };
      if (step >= total - 1) {
        setPlaying(false);
        return;
      }
      const due = anchor.step + Math.round(((performance.now() - anchor.at) * speed) / 1000);
      last = Math.min(total - 1, Math.max(step + 1, due));
      setStep(last);
    }, 1000 / speed);
    return () => clearInterval(timer);
  }, [playing, speed, total]);
}

/**
 * How the replay stands, for the pane's title bar: progress with Cancel while it runs, the time it
 * took, and Run with the auto-run switch (fixed width: it never moves its neighbours).
 */
export function ReplayStatus() {
  const status = useResults((s) => s.status);
  const replayMs = useResults((s) => s.replayMs);
  const autoRun = useResults((s) => s.autoRun);
  const reason = useResults((s) => s.autoRunOffReason);
  const pending = status.kind === 'waiting';
  return (
    <span className="replay-status muted">
      {status.kind === 'replaying' ? (
        <>
          <span data-testid="replaying">
            Replaying… {status.total ? `${Math.round((100 * status.done) / status.total)}%` : ''}
          </span>
          <button
            className="icon"
            onClick={() => page().cancelReplay()}
            data-testid="cancel-replay"
            title="Stop this replay; the charts keep the last one that finished"
          >
            Cancel
          </button>
        </>
      ) : replayMs !== null ? (
        <span title="Time the worker took for the last replay">{fmt(replayMs)} ms</span>
      ) : null}
      <label
        className="auto-run"
        title={
          autoRun ? 'Every edit replays by itself' : `Edits wait for Run (Ctrl+Enter)${reason ? `: ${reason}` : ''}`
        }
      >
        <input
          type="checkbox"
          checked={autoRun}
          onChange={(e) => page().setAutoRun(e.target.checked)}
          data-testid="auto-run"
        />{' '}
        auto
      </label>
      {(!autoRun || pending) && (
        <button
          className={pending ? 'primary' : ''}
          onClick={() => page().replayNow()}
          data-testid="run"
          title="Replay now (Ctrl+Enter)"
        >
          Run
        </button>
      )}
    </span>
  );
}

export function ReplayControls() {
  const timeline = useResults((s) => s.timeline);
  const { step, playing, speed, setStep, setPlaying, setSpeed } = useUi();
  const total = timeline?.steps.count ?? 0;
  const last = Math.max(0, total - 1);
  const at = Math.min(step, last);
  const inference = timeline ? inferenceAt(timeline, at) : null;
  const stage = timeline ? stageAt(timeline, at) : undefined;
  usePlayback(total);

  return (
    <div className="controls" role="group" aria-label="Replay controls">
      <button
        className="icon"
        title="First step (Home)"
        aria-label="First step"
        onClick={() => setStep(0)}
        disabled={!total}
      >
        |◀
      </button>
      <button
        className="icon"
        title="Previous step (←)"
        aria-label="Previous step"
        onClick={() => {
          setPlaying(false);
          setStep(step - 1);
        }}
        disabled={!total || step === 0}
      >
        ◀
      </button>
      <button
        className="primary play"
        title="Play / pause (Space)"
        data-testid="play"
        onClick={togglePlay}
        disabled={!total}
      >
        {playing ? '❙❙ Pause' : '▶ Play'}
      </button>
      <button
        className="icon"
        title="Next step (→)"
        aria-label="Next step"
        onClick={() => {
          setPlaying(false);
          setStep(Math.min(last, step + 1));
        }}
        disabled={!total || step >= last}
      >
        ▶
      </button>
      <button
        className="icon"
        title="Last step (End)"
        aria-label="Last step"
        onClick={() => setStep(last)}
        disabled={!total}
      >
        ▶|
      </button>
      <input
        className="scrubber"
        type="range"
        min={0}
        max={last}
        value={Math.min(step, last)}
        disabled={!total}
        aria-label="Step"
        aria-valuetext={total ? `Step ${Math.min(step, last) + 1} of ${total}` : 'No steps'}
        data-testid="scrubber"
        onChange={(e) => {
          setPlaying(false);
          setStep(Number(e.target.value));
        }}
      />
      <select aria-label="Speed (steps per second)" value={speed} onChange={(e) => setSpeed(Number(e.target.value))}>
        {SPEEDS.map((s) => (
          <option key={s} value={s}>
            {s} steps/s
          </option>
        ))}
      </select>
      <span className="step-label muted" data-testid="step-label">
        {total ? (
          <>
            Step <b>{Math.min(step, last) + 1}</b> of {fmt(total)}
            {inference !== null ? <> · inference #{inference}</> : null}
            {stage !== undefined ? (
              <>
                {' '}
                · stage <code>{stage}</code>
              </>
            ) : null}
          </>
        ) : (
          'No steps yet'
        )}
      </span>
    </div>
  );
}
