// The edit worker's answers: Rhai parse errors as you type, and the diagnostics and budgets of an
// edit that waits for Run (auto-run off). It loads no tokenizer, so it answers while the engine
// worker starts or replays; with auto-run on, the engine worker answers the validation from its
// replay's compile.
import { validateScenario, type Diagnostic } from '../engine/index.ts';
import { checkSyntax } from '../rhai/index.ts';
import type { ValidateResult, WorkerRequest } from './protocol.ts';
import type { Handlers } from './serve.ts';
import { validationResult } from './validation.ts';

function validate(req: Extract<WorkerRequest, { type: 'validate' }>): ValidateResult {
  return validationResult(req.model, validateScenario(req));
}

function rhaiCheck(req: Extract<WorkerRequest, { type: 'rhaiCheck' }>): Diagnostic[] {
  const problem = checkSyntax(req.source);
  if (!problem) return [];
  return [
    {
      code: 'custom-script-invalid',
      severity: 'error',
      message: `${req.file} does not parse: ${problem.message}`,
      file: req.file,
      line: Math.max(1, problem.line),
      column: Math.max(1, problem.column),
      path: '',
    },
  ];
}

export function editHandlers(): Handlers {
  return {
    validate: (req, { post }) => post({ type: 'validate', id: req.id, result: validate(req) }),
    rhaiCheck: (req, { post }) => post({ type: 'rhaiCheck', id: req.id, result: { diagnostics: rhaiCheck(req) } }),
  };
}
