// Run-level and per-step warnings of the timeline (seed findings, hook scripts that failed and
// fell back), each with the step it happened at; clicking one scrubs there.
import { useMemo } from 'react';
import type { Timeline } from '../engine/timeline.ts';
import { useUi } from '../state/ui.ts';
import { groupWarnings } from './runProblems.ts';

const SHOWN = 4;

export function WarningsBar({ timeline }: { timeline: Timeline }) {
  const warnings = useMemo(() => groupWarnings(timeline), [timeline]);
  const setStep = useUi((s) => s.setStep);
  if (warnings.length === 0) return null;
  return (
    <div className="banner" data-testid="timeline-warnings" role="status" style={{ maxHeight: 84, overflow: "auto" }}>
      <b>{warnings.length === 1 ? '1 warning' : `${warnings.length} warnings`}</b>
      {warnings.slice(0, SHOWN).map((w, k) => (
        <div key={k} className="row" style={{ flexWrap: 'nowrap' }}>
          <span className="warning-text">▲</span>
          <span className="grow">{w.text}</span>
          {w.steps.length > 0 && (
            <button className="link" onClick={() => setStep(w.steps[0])}>
              step {w.steps[0] + 1}{w.steps.length > 1 ? ` (+${w.steps.length - 1})` : ''}
            </button>
          )}
        </div>
      ))}
      {warnings.length > SHOWN && <div className="muted">and {warnings.length - SHOWN} more</div>}
    </div>
  );
}
