// Each region's resolved budget on the chosen model, as the engine worked it out. A region whose
// budget keys are malformed shows the finding, not the default it fell back to; while the file is
// not valid TOML the last good table stays, marked stale.
import { useRef } from 'react';
import type { Diagnostic } from '../engine/page.ts';
import type { ValidateResult } from '../worker/protocol.ts';
import type { BudgetRow } from '../worker/protocol.ts';
import { fmt, pct } from './format.ts';
import { useResults } from './page.ts';
import { TableScroll } from './TableScroll.tsx';

function how(row: BudgetRow): string {
  if (row.share === undefined) return `max_tokens ${fmt(row.maxTokens)}`;
  const parts = [`${pct(row.share, (row.share * 100) % 1 ? 1 : 0)} of window`];
  if (row.maxTokensExplicit) parts.push(`≤ ${fmt(row.maxTokens)}`);
  if (row.minTokens !== undefined) parts.push(`≥ ${fmt(row.minTokens)}`);
  return parts.join(', ');
}

const BUDGET_KEYS = ['budget', 'max_tokens', 'min_tokens', 'compact_at', 'threshold_tokens'];

/** The budget finding for a row's region (path `context.regions.<r>.<key>` or the stage's), if any. */
export function budgetProblem(
  row: Pick<BudgetRow, 'region' | 'stage'>,
  diagnostics: readonly Diagnostic[],
): Diagnostic | undefined {
  const base = row.stage ? `stages.${row.stage}.context.regions.${row.region}` : `context.regions.${row.region}`;
  return diagnostics.find((d) => d.severity === 'error' && BUDGET_KEYS.some((k) => d.path === `${base}.${k}`));
}

/** The last validation that had a table, kept while the file does not parse. */
function useLastGood(validation: ValidateResult | null): { shown: ValidateResult | null; stale: boolean } {
  const last = useRef<ValidateResult | null>(null);
  const broken = validation?.diagnostics.some((d) => d.code === 'toml-syntax') ?? false;
  if (validation && !broken) last.current = validation;
  return broken && last.current ? { shown: last.current, stale: true } : { shown: validation, stale: false };
}

export function BudgetTable() {
  const validation = useResults((s) => s.validation);
  const { shown, stale } = useLastGood(validation);
  const rows = shown?.budgets ?? [];
  if (!shown)
    return (
      <div className="muted" style={{ padding: '0 8px' }}>
        Resolving budgets…
      </div>
    );
  if (rows.length === 0)
    return (
      <div className="muted" style={{ padding: '0 8px 6px' }}>
        No budgets: fix the blueprint's errors first.
      </div>
    );
  return (
    <>
      {stale && (
        <div className="banner small" data-testid="budgets-stale">
          Stale: agent.leviath is not valid TOML right now (see the problems list), so these are the last budgets that
          resolved.
        </div>
      )}
      <TableScroll label="Resolved budgets, scrolls sideways">
        <table className={`compact ${stale ? 'stale' : ''}`} data-testid="budgets" aria-label="Resolved budgets">
          <thead>
            <tr>
              <th>Region</th>
              <th>Budget as written</th>
              <th className="num">Resolved</th>
              <th className="num" title="compact_at / threshold_tokens, when lower than the budget">
                Acts at
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => {
              const problem = budgetProblem(r, shown.diagnostics);
              return (
                <tr key={`${r.stage}/${r.region}`} data-region={r.region}>
                  <td title={`kind = "${r.kind}"`}>
                    {r.stage ? <span className="muted">{r.stage} · </span> : null}
                    <code>{r.region}</code>
                  </td>
                  {problem ? (
                    <td className="error-text" data-testid="budget-problem">
                      {problem.message}
                    </td>
                  ) : (
                    <td className="muted">{how(r)}</td>
                  )}
                  <td className="num" data-testid={`budget-${r.stage ? `${r.stage}.` : ''}${r.region}`}>
                    {problem ? '–' : fmt(r.budget)}
                  </td>
                  <td
                    className="num"
                    title={[
                      r.compactAt !== undefined ? `compact_at ${fmt(r.compactAt)}` : '',
                      r.threshold !== undefined ? `threshold_tokens ${fmt(r.threshold)}` : '',
                    ]
                      .filter(Boolean)
                      .join(', ')}
                  >
                    {!problem && r.trigger !== r.budget ? fmt(r.trigger) : '–'}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableScroll>
    </>
  );
}
