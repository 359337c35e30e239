// The edit worker's answers: Rhai parse errors as you type, and the diagnostics and budgets of an
// edit that waits for Run (auto-run off). It loads no tokenizer, so it answers while the engine
// worker starts or replays; with auto-run on, the engine worker answers the validation from its
// replay's compile. The Rhai interpreter is loaded on demand, as in the engine worker (rhai.ts): by
// the first Rhai check, or the first validation of a scenario with scripts.
import { validateScenario, type CompileResult, type Diagnostic } from '../engine/index.ts';
import type { WorkerRequest } from './protocol.ts';
import type { Handlers } from './serve.ts';
import { validationResult } from './validation.ts';
import { withRhai } from './rhai.ts';

async function rhaiCheck(req: Extract<WorkerRequest, { type: 'rhaiCheck' }>): Promise<Diagnostic[]> {
  // The parser's chunk is the interpreter's (custom-script.ts imports it too): one fetch for both.
  const { checkSyntax } = await import('../rhai/index.ts');
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
    // In the same task, unless this is the first scenario with scripts (the interpreter loads first).
    validate: (req, { post }) => {
      const answer = (compiled: CompileResult) =>
        post({ type: 'validate', id: req.id, result: validationResult(req.model, compiled) });
      const compiled = withRhai((rhai) => validateScenario(req, rhai));
      return compiled instanceof Promise ? compiled.then(answer) : answer(compiled);
    },
    rhaiCheck: async (req, { post }) =>
      post({ type: 'rhaiCheck', id: req.id, result: { diagnostics: await rhaiCheck(req) } }),
  };
}
