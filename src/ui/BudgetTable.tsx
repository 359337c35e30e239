// Each region's resolved budget on the chosen model, as the engine worked it out.
import { useResults } from '../state/results.ts';
import type { BudgetRow } from '../worker/protocol.ts';
import { fmt, pct } from './format.ts';

function how(row: BudgetRow): string {
  if (row.share === undefined) return `max_tokens ${fmt(row.maxTokens)}`;
  const parts = [`${pct(row.share, row.share * 100 % 1 ? 1 : 0)} of window`];
  if (row.maxTokensExplicit) parts.push(`≤ ${fmt(row.maxTokens)}`);
  if (row.minTokens !== undefined) parts.push(`≥ ${fmt(row.minTokens)}`);
  return parts.join(', ');
}

export function BudgetTable() {
  const validation = useResults((s) => s.validation);
  const rows = validation?.budgets ?? [];
  if (!validation) return <div className="muted" style={{ padding: '0 8px' }}>Resolving budgets…</div>;
  if (rows.length === 0) return <div className="muted" style={{ padding: '0 8px 6px' }}>No budgets: fix the blueprint's errors first.</div>;
  return (
    <table className="compact" data-testid="budgets" aria-label="Resolved budgets">
      <thead>
        <tr><th>Region</th><th>Budget as written</th><th className="num">Resolved</th><th className="num" title="compact_at / threshold_tokens, when lower than the budget">Acts at</th></tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={`${r.stage}/${r.region}`} data-region={r.region}>
            <td title={`kind = "${r.kind}"`}>{r.stage ? <span className="muted">{r.stage} · </span> : null}<code>{r.region}</code></td>
            <td className="muted">{how(r)}</td>
            <td className="num" data-testid={`budget-${r.stage ? `${r.stage}.` : ''}${r.region}`}>{fmt(r.budget)}</td>
            <td className="num" title={[r.compactAt !== undefined ? `compact_at ${fmt(r.compactAt)}` : '', r.threshold !== undefined ? `threshold_tokens ${fmt(r.threshold)}` : ''].filter(Boolean).join(', ')}>
              {r.trigger !== r.budget ? fmt(r.trigger) : '–'}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
