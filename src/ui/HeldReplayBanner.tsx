// Shown instead of a timeline when the scenario's last replay failed, timed out or never finished:
// the page did not run it again on load, so a scenario that hangs a replay cannot trap a reload.
import { replayNow } from '../state/engine.ts';
import { useResults } from '../state/results.ts';

export function HeldReplayBanner() {
  const held = useResults((s) => s.replayHeld);
  if (held === null) return null;
  return (
    <div className="banner" role="status" data-testid="replay-held">
      Out of date: this scenario was not replayed on load because its last replay did not finish ({held}).{' '}
      <button className="primary" onClick={replayNow} data-testid="run-replay">Run</button>
    </div>
  );
}
