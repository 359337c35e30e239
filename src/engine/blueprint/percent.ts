// Percentages in agent.leviath (`budget = "20%"`, `compact_at = "80%"`): read, and what is wrong
// with one that is not.
import { describe } from './report.ts';

/** `"35%"`, `"12.5 %"` -> 0.35, 0.125; undefined when not a percentage in (0, 100]. */
export function parsePercent(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^\s*(\d+(?:\.\d+)?)\s*%\s*$/.exec(value);
  if (!match) return undefined;
  const percent = Number(match[1]);
  return percent > 0 && percent <= 100 ? percent / 100 : undefined;
}

export function percentProblem(key: string, value: unknown): string {
  const bare = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  const hint = /^\d+(\.\d+)?$/.test(bare) && Number(bare) > 0 && Number(bare) <= 100 ? ` Did you mean "${bare}%"?` : '';
  const tail =
    key === 'budget'
      ? 'Write a share of the window like "20%" (more than 0, at most 100); use max_tokens for a fixed number of tokens.'
      : 'Write a share of the resolved budget like "80%" (more than 0, at most 100).';
  return `\`${key}\` must be a percentage string, not ${describe(value)}.${hint} ${tail}`;
}
