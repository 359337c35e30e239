// Shown instead of a timeline when the scenario's last replay failed, timed out or never finished:
// the page did not run it again on load, so a scenario that hangs a replay cannot trap a reload.
import { page } from './page.ts';

export function HeldReplayBanner({ reason }: { reason: string }) {
  return (
    <div className="banner" role="status" data-testid="replay-held">
      Out of date: this scenario was not replayed on load because its last replay did not finish ({reason}).{' '}
      <button className="primary" onClick={() => page().replayNow()} data-testid="run-replay">
        Run
      </button>
    </div>
  );
}
