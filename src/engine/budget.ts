// Resolved budgets: what each region actually gets on a given model.
import type { RegionDecl } from './blueprint/types.ts';

export interface ResolvedBudget {
  /** Tokens the region may hold. */
  budget: number;
  /** `compact_at` as tokens (compacting kinds), when set. */
  compactAt?: number;
  /** `threshold_tokens`, when set: a hard ceiling applied as well as compact_at. */
  threshold?: number;
  /** The level at which the region must act: the lowest of budget, compactAt and threshold. */
  trigger: number;
}

// Shares come from decimal percent strings; rounding away float noise keeps 29% of 100 at 29.
function shareOf(share: number, total: number): number {
  return Math.floor(Math.round(share * total * 1e6) / 1e6);
}

/**
 * `budget` is a share of the window, floored by `min_tokens` and capped by an explicit `max_tokens`
 * (the cap wins when the two disagree).
 * Without `budget`, `max_tokens` (default 5000) is the budget.
 */
export function resolveBudget(region: RegionDecl, window: number): ResolvedBudget {
  let budget: number;
  if (region.budgetShare !== undefined) {
    budget = shareOf(region.budgetShare, window);
    if (region.minTokens !== undefined) budget = Math.max(budget, region.minTokens);
    // After the floor: the spec calls max_tokens "a limit that really is hard", so a written
    // max_tokens below min_tokens wins (lev validate warns that the floor cannot be met).
    if (region.maxTokensExplicit) budget = Math.min(budget, region.maxTokens);
  } else {
    budget = region.maxTokens;
  }
  const compactAt = region.compactAtShare !== undefined ? shareOf(region.compactAtShare, budget) : undefined;
  const threshold = region.thresholdTokens;
  const trigger = Math.min(budget, compactAt ?? Infinity, threshold ?? Infinity);
  return { budget, compactAt, threshold, trigger };
}

export function resolveBudgets(regions: readonly RegionDecl[], window: number): Map<string, ResolvedBudget> {
  return new Map(regions.map((r) => [r.name, resolveBudget(r, window)]));
}
