// What the page shows of a compile: the diagnostics, each region's resolved budget per stage, and
// the model. Both workers answer it: the edit worker for an edit that waits for Run, the engine
// worker from the very compile its replay then runs on (one compile per edit).
import { type CompileResult, type RegionDecl, resolveBudget, resolveModel, type ModelRef } from '../engine/index.ts';
import type { BudgetRow, ValidateResult } from './protocol.ts';

function budgetRow(region: RegionDecl, stage: string, window: number): BudgetRow {
  const resolved = resolveBudget(region, window);
  return {
    region: region.name,
    kind: region.kind,
    stage,
    share: region.budgetShare,
    maxTokens: region.maxTokens,
    maxTokensExplicit: region.maxTokensExplicit,
    minTokens: region.minTokens,
    budget: resolved.budget,
    compactAt: resolved.compactAt,
    threshold: resolved.threshold,
    trigger: resolved.trigger,
  };
}

export function validationResult(modelRef: ModelRef, { blueprint, diagnostics }: CompileResult): ValidateResult {
  const resolved = resolveModel(modelRef);
  const model = resolved.ok ? resolved.model : undefined;
  const budgets: BudgetRow[] = [];
  if (blueprint && model) {
    for (const region of blueprint.regions) budgets.push(budgetRow(region, '', model.window));
    for (const stage of blueprint.stages) {
      for (const region of stage.regions ?? []) budgets.push(budgetRow(region, stage.name, model.window));
    }
  }
  return {
    diagnostics,
    budgets,
    model: model
      ? {
          id: model.id,
          label: model.label,
          window: model.window,
          encoding: model.encoding,
          approximate: model.approximate,
        }
      : null,
    modelError: resolved.ok ? undefined : resolved.error,
  };
}
