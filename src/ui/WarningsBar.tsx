// Run-level and per-step warnings of the timeline (seed findings, hook scripts that failed and
// fell back), each with the step it happened at; clicking one scrubs there.
import type { WarningGroup } from '../worker/timeline-view.ts';
import { useUi } from './page.ts';

const SHOWN = 4;

export function WarningsBar({ warnings }: { warnings: WarningGroup[] }) {
  const setStep = useUi((s) => s.setStep);
  if (warnings.length === 0) return null;
  return (
    <div className="banner" data-testid="timeline-warnings" role="status" style={{ maxHeight: 84, overflow: 'auto' }}>
      <b>{warnings.length === 1 ? '1 warning' : `${warnings.length} warnings`}</b>
      {warnings.slice(0, SHOWN).map((w, k) => (
        <div key={k} className="row" style={{ flexWrap: 'nowrap' }}>
          <span className="warning-text">▲</span>
          <span className="grow">{w.text}</span>
          {w.first !== null && (
            <button className="link" onClick={() => setStep(w.first!)}>
              step {w.first + 1}
              {w.count > 1 ? ` (+${w.count - 1})` : ''}
            </button>
          )}
        </div>
      ))}
      {warnings.length > SHOWN && <div className="muted">and {warnings.length - SHOWN} more</div>}
    </div>
  );
}
