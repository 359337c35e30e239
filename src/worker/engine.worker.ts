/// <reference lib="webworker" />
// The engine's home in the browser. Every number the page shows is computed here.
import { z } from 'zod';
import { compileBlueprint } from '../engine/blueprint/index.ts';
import { replay, inspect } from '../engine/index.ts';
import { resolveModel, type Model } from '../engine/models.ts';
import { resolveBudget } from '../engine/budget.ts';
import { ScenarioSchema, type Scenario } from '../engine/scenario.ts';
import type { Diagnostic } from '../engine/diagnostics.ts';
import type { RegionDecl } from '../engine/blueprint/types.ts';
import { compile as compileRhai } from '../rhai/index.ts';
import {
  WorkerRequestSchema, describeIssues,
  type BudgetRow, type ValidateResult, type WorkerRequest, type WorkerResponse,
} from './protocol.ts';

declare const self: DedicatedWorkerGlobalScope;

const controllers = new Map<number, AbortController>();
const PROGRESS_INTERVAL_MS = 50;

function post(message: WorkerResponse): void {
  self.postMessage(message);
}

function scenarioDiagnostic(message: string, path = ''): Diagnostic {
  return { code: 'scenario-invalid', severity: 'error', message, file: 'scenario.json', line: 1, column: 1, path };
}

function parseScenario(raw: unknown): { scenario?: Scenario; diagnostics: Diagnostic[] } {
  const parsed = ScenarioSchema.safeParse(raw);
  if (parsed.success) return { scenario: parsed.data, diagnostics: [] };
  return {
    diagnostics: parsed.error.issues.map((i) =>
      scenarioDiagnostic(`${i.path.join('.') || 'scenario'}: ${i.message}`, i.path.join('.'))),
  };
}

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
  const { blueprint, diagnostics } = compileBlueprint(req.agent, { workdir: req.workdir });
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

async function runReplay(req: Extract<WorkerRequest, { type: 'replay' }>): Promise<void> {
  const started = performance.now();
  const { scenario, diagnostics } = parseScenario(req.scenario);
  if (!scenario) {
    post({ type: 'replay', id: req.id, result: { diagnostics, timeline: null, ms: 0 } });
    return;
  }
  const controller = new AbortController();
  controllers.set(req.id, controller);
  let lastProgress = 0;
  try {
    const timeline = await replay(scenario, {
      signal: controller.signal,
      onProgress: (done: number, total: number) => {
        const now = performance.now();
        if (now - lastProgress < PROGRESS_INTERVAL_MS && done < total) return;
        lastProgress = now;
        post({ type: 'progress', id: req.id, done, total });
      },
    });
    if (controller.signal.aborted) {
      post({ type: 'failed', id: req.id, message: 'cancelled', cancelled: true });
      return;
    }
    post({
      type: 'replay', id: req.id,
      result: { diagnostics: timeline.diagnostics, timeline: timeline as never, ms: performance.now() - started },
    });
  } finally {
    controllers.delete(req.id);
  }
}

function runInspect(req: Extract<WorkerRequest, { type: 'inspect' }>): void {
  const { scenario, diagnostics } = parseScenario(req.scenario);
  if (!scenario) {
    post({ type: 'inspect', id: req.id, result: { detail: null, error: diagnostics.map((d) => d.message).join('; ') } });
    return;
  }
  const detail = inspect(scenario, req.step);
  post({ type: 'inspect', id: req.id, result: { detail: detail as never } });
}

function rhaiCheck(req: Extract<WorkerRequest, { type: 'rhaiCheck' }>): Diagnostic[] {
  try {
    compileRhai(req.source);
    return [];
  } catch (error) {
    const e = error as { kind?: string; message?: string; line?: number; column?: number };
    return [{
      code: 'custom-script-invalid', severity: 'error',
      message: `${e.kind ? `${e.kind}: ` : ''}${e.message ?? String(error)}`,
      file: req.file, line: Math.max(1, e.line ?? 1), column: Math.max(1, e.column ?? 1), path: '',
    }];
  }
}

async function handle(req: WorkerRequest): Promise<void> {
  switch (req.type) {
    case 'cancel':
      controllers.get(req.id)?.abort();
      return;
    case 'validate':
      post({ type: 'validate', id: req.id, result: validate(req) });
      return;
    case 'replay':
      await runReplay(req);
      return;
    case 'inspect':
      runInspect(req);
      return;
    case 'rhaiCheck':
      post({ type: 'rhaiCheck', id: req.id, result: { diagnostics: rhaiCheck(req) } });
      return;
  }
}

self.onmessage = (event: MessageEvent) => {
  const parsed = WorkerRequestSchema.safeParse(event.data);
  if (!parsed.success) {
    const id = z.object({ id: z.number() }).safeParse(event.data);
    post({ type: 'failed', id: id.success ? id.data.id : 0, message: `bad request: ${describeIssues(parsed.error)}`, cancelled: false });
    return;
  }
  handle(parsed.data).catch((error: unknown) => {
    post({
      type: 'failed', id: parsed.data.id,
      message: error instanceof Error ? error.message : String(error), cancelled: false,
    });
  });
};

post({ type: 'ready' });
