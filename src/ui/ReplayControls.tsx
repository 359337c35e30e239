// Play, pause, step, speed and the scrubber over the timeline's steps; space and arrows drive it.
import { useEffect } from 'react';
import { useResults } from '../state/results.ts';
import { SPEEDS, useUi } from '../state/ui.ts';
import { fmt } from './format.ts';

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el) return false;
  return el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName) || !!el.closest('.monaco-editor');
}

function usePlayback(total: number): void {
  const playing = useUi((s) => s.playing);
  const speed = useUi((s) => s.speed);
  useEffect(() => {
    if (!playing) return;
    const timer = setInterval(() => {
      const { step, setStep, setPlaying } = useUi.getState();
      if (step >= total - 1) setPlaying(false);
      else setStep(step + 1);
    }, 1000 / speed);
    return () => clearInterval(timer);
  }, [playing, speed, total]);
}

function useShortcuts(total: number): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isTyping(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
      const ui = useUi.getState();
      const last = Math.max(0, total - 1);
      const jump = e.shiftKey ? 10 : 1;
      switch (e.key) {
        case ' ': ui.setPlaying(!ui.playing && ui.step < last); break;
        case 'ArrowRight': ui.setPlaying(false); ui.setStep(Math.min(last, ui.step + jump)); break;
        case 'ArrowLeft': ui.setPlaying(false); ui.setStep(ui.step - jump); break;
        case 'Home': ui.setStep(0); break;
        case 'End': ui.setStep(last); break;
        default: return;
      }
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [total]);
}

export function ReplayControls() {
  const timeline = useResults((s) => s.timeline);
  const replaying = useResults((s) => s.replaying);
  const replayMs = useResults((s) => s.replayMs);
  const { step, playing, speed, setStep, setPlaying, setSpeed } = useUi();
  const total = timeline?.steps.length ?? 0;
  const last = Math.max(0, total - 1);
  const current = timeline?.steps[Math.min(step, last)];
  usePlayback(total);
  useShortcuts(total);

  return (
    <div className="controls" aria-label="Replay controls">
      <div className="row">
        <button className="icon" title="First step (Home)" onClick={() => setStep(0)} disabled={!total}>|◀</button>
        <button className="icon" title="Previous step (←)" onClick={() => { setPlaying(false); setStep(step - 1); }} disabled={!total || step === 0}>◀</button>
        <button className="primary" style={{ minWidth: 64 }} title="Play / pause (space)" data-testid="play" onClick={() => setPlaying(!playing)} disabled={!total}>
          {playing ? '❙❙ Pause' : '▶ Play'}
        </button>
        <button className="icon" title="Next step (→)" onClick={() => { setPlaying(false); setStep(Math.min(last, step + 1)); }} disabled={!total || step >= last}>▶</button>
        <button className="icon" title="Last step (End)" onClick={() => setStep(last)} disabled={!total}>▶|</button>
        <select aria-label="Speed (steps per second)" value={speed} onChange={(e) => setSpeed(Number(e.target.value))}>
          {SPEEDS.map((s) => <option key={s} value={s}>{s} steps/s</option>)}
        </select>
      </div>
      <input
        type="range" min={0} max={last} value={Math.min(step, last)} disabled={!total}
        aria-label="Step" data-testid="scrubber"
        onChange={(e) => { setPlaying(false); setStep(Number(e.target.value)); }}
      />
      <div className="row muted" style={{ fontSize: 12 }}>
        <span data-testid="step-label">
          {total ? <>Step <b>{Math.min(step, last) + 1}</b> of {fmt(total)}{current?.request ? <> · inference #{current.request.inference}</> : null}{current ? <> · stage <code>{current.stage}</code></> : null}</> : 'No steps yet'}
        </span>
        <span className="spacer" />
        {replaying
          ? <span data-testid="replaying">Replaying… {replaying.total ? `${Math.round((100 * replaying.done) / replaying.total)}%` : ''}</span>
          : replayMs !== null ? <span title="Time the worker took for the last replay">{fmt(replayMs)} ms</span> : null}
      </div>
    </div>
  );
}
