/// <reference lib="webworker" />
// The light worker: blueprint diagnostics, resolved budgets and Rhai parse errors. It loads no
// tokenizer, so diagnostics arrive while the engine worker is still starting.
import { validateScenario } from '../engine/validate.ts';
import { resolveModel, type Model } from '../engine/models.ts';
import { resolveBudget } from '../engine/budget.ts';
import type { Diagnostic } from '../engine/diagnostics.ts';
import type { RegionDecl } from '../engine/blueprint/types.ts';
import { checkSyntax } from '../rhai/index.ts';
import type { BudgetRow, ValidateResult, WorkerRequest } from './protocol.ts';
import { post, serve } from './serve.ts';

function budgetRow(region: RegionDecl, stage: string, window: number): BudgetRow {
  const resolved = resolveBudget(region, window);
  return {
    region: region.name, kind: region.kind, stage,
    share: region.budgetShare, maxTokens: region.maxTokens, maxTokensExplicit: region.maxTokensExplicit,
    minTokens: region.minTokens,
    budget: resolved.budget, compactAt: resolved.compactAt, threshold: resolved.threshold, trigger: resolved.trigger,
  };
}

function validate(req: Extract<WorkerRequest, { type: 'validate' }>): ValidateResult {
  const { blueprint, diagnostics } = validateScenario(req);
  const resolved = resolveModel(req.model);
  const model: Model | undefined = resolved.ok ? resolved.model : undefined;
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
    model: model ? { id: model.id, label: model.label, window: model.window, encoding: model.encoding, approximate: model.approximate } : null,
    modelError: resolved.ok ? undefined : resolved.error,
  };
}

function rhaiCheck(req: Extract<WorkerRequest, { type: 'rhaiCheck' }>): Diagnostic[] {
  const problem = checkSyntax(req.source);
  if (!problem) return [];
  return [{
    code: 'custom-script-invalid', severity: 'error', message: `${req.file} does not parse: ${problem.message}`,
    file: req.file, line: Math.max(1, problem.line), column: Math.max(1, problem.column), path: '',
  }];
}

serve({
  validate: (req) => post({ type: 'validate', id: req.id, result: validate(req) }),
  rhaiCheck: (req) => post({ type: 'rhaiCheck', id: req.id, result: { diagnostics: rhaiCheck(req) } }),
});
