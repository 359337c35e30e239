// What fills the window at the scrubbed step, as Claude Code's `/context` shows it: every region
// (or the as-sent run's message list), the harness overhead where it is known, the free space the
// budgets still allow and the headroom left for the reply, as tokens and as a share of the window;
// the blueprint's request beside the run as it was sent (or, with no recorded run, the flat list).
// The engine worker computes the rows (breakdown.ts, recorded-view.ts); this draws them.
import type { BreakdownRow, WindowBreakdown as Breakdown } from '../engine/page.ts';
import type { StepBreakdown } from '../worker/protocol.ts';
import { fmt, pct } from './format.ts';
import { useUi } from './page.ts';
import { TableScroll } from './TableScroll.tsx';

const KIND_COLOUR: Record<Exclude<BreakdownRow['kind'], 'region'>, string> = {
  messages: '#88CCEE',
  overhead: '#777777',
  free: 'transparent',
  headroom: 'transparent',
};

function colourOf(row: BreakdownRow, regions: ReadonlyMap<string, string>): string {
  return row.kind === 'region' ? (regions.get(row.name) ?? '#BBBBBB') : KIND_COLOUR[row.kind];
}

/** One request's window: a bar of its parts, then a row per part. */
function BreakdownTable({
  title,
  b,
  regions,
  testId,
}: {
  title: string;
  b: Breakdown;
  regions: ReadonlyMap<string, string>;
  testId: string;
}) {
  return (
    <div className="breakdown" data-testid={testId}>
      <div className="breakdown-title">
        <b>{title}</b>{' '}
        <span className="muted">
          {fmt(b.usedTokens)} of {fmt(b.window)} ({pct(b.usedTokens / b.window)})
          {b.overWindow ? ' · over the window' : ''}
        </span>
      </div>
      <div className="breakdown-bar" aria-hidden>
        {b.rows
          .filter((r) => r.tokens > 0)
          .map((r) => (
            <span
              key={`${r.kind}:${r.name}`}
              className={`seg seg-${r.kind}`}
              style={{ width: `${Math.min(100, r.share * 100)}%`, background: colourOf(r, regions) }}
              title={`${r.name}: ${fmt(r.tokens)}`}
            />
          ))}
      </div>
      <TableScroll label={`${title}: what fills the window, scrolls sideways`}>
        <table className="compact breakdown-rows">
          <tbody>
            {b.rows.map((r) => (
              <tr key={`${r.kind}:${r.name}`} data-kind={r.kind} data-name={r.name}>
                <td>
                  <span className={`legend-dot seg-${r.kind}`} style={{ background: colourOf(r, regions) }} />
                  {r.kind === 'region' ? <code>{r.name}</code> : r.name}
                </td>
                <td className="num" data-testid="breakdown-tokens">
                  {fmt(r.tokens)}
                </td>
                <td className="num muted">{pct(r.share, 1)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      {b.overhead && <div className="muted small">Harness overhead: {b.overhead.source}</div>}
    </div>
  );
}

export default function WindowBreakdown({ breakdown, step }: { breakdown: StepBreakdown; step: number }) {
  const remembered = useUi((s) => s.regionColours);
  return (
    <details className="window-breakdown" open data-testid="window-breakdown" data-step={step}>
      <summary>
        <b>What fills the window</b> <span className="muted">at step {step + 1}: tokens and share of the window</span>
      </summary>
      <div className="breakdown-pair">
        <BreakdownTable
          title="Through this blueprint"
          b={breakdown.blueprint}
          regions={remembered}
          testId="breakdown-blueprint"
        />
        {breakdown.beside ? (
          <BreakdownTable
            title={breakdown.besideIs === 'asSent' ? 'As it was sent (replayed)' : 'One flat message list'}
            b={breakdown.beside}
            regions={remembered}
            testId="breakdown-beside"
          />
        ) : (
          <div className="muted small">
            {breakdown.besideIs === 'asSent'
              ? 'The recorded run has sent no request yet at this step.'
              : 'No inference yet at this step.'}
          </div>
        )}
      </div>
      {breakdown.besideIs === 'flatList' && (
        <div className="muted small">
          This scenario records no run as it was sent; the flat list stands in for it. The harness's own overhead
          (system prompt, tool definitions) is not known here.
        </div>
      )}
    </details>
  );
}
