// One validation for a scenario. The page, `lev validate` and `lev replay` all call this with the
// scenario's own working directory, command output and inputs, so the same file gets the same
// findings everywhere, and a run seeds from exactly what was validated.
import { compileBlueprint, type CompileResult, type ScriptChecker } from './blueprint/index.ts';
import { NO_RHAI, type RhaiSeedRunner } from './rhai-host.ts';
import { resolveModel } from './models.ts';
import type { Scenario } from './scenario.ts';
import type { SeedInputs } from './seeds.ts';

/** The parts of a scenario its blueprint is judged against; budgets are judged against the model's window. */
export type ScenarioFiles = Pick<Scenario, 'agent' | 'workdir' | 'commands' | 'inputs'> &
  Partial<Pick<Scenario, 'model'>>;

export interface ValidateOptions {
  checkScript?: ScriptChecker;
  /** Runs `rhai` seeds (the interpreter is the caller's: rhai-host.ts). */
  runRhaiSeed?: RhaiSeedRunner;
}

/** What seeds read in a run of this scenario (and so what validation checks them against). */
export function seedInputsOf(scenario: ScenarioFiles, runRhaiSeed: RhaiSeedRunner = NO_RHAI.runRhaiSeed): SeedInputs {
  // A seed script's `import`s come from the agent directory (scripts are code the agent ships).
  const agent = scenario.agent;
  return {
    workdir: scenario.workdir,
    commands: scenario.commands,
    inputs: scenario.inputs,
    runRhaiSeed: (path, source) => runRhaiSeed(path, source, agent),
  };
}

export function validateScenario(scenario: ScenarioFiles, options: ValidateOptions = {}): CompileResult {
  const inputs = seedInputsOf(scenario, options.runRhaiSeed);
  // An unknown model is its own finding (unknown-model); budgets are then judged without a window.
  const model = scenario.model ? resolveModel(scenario.model) : undefined;
  const window = model?.ok ? { tokens: model.model.window, model: model.model.id } : undefined;
  return compileBlueprint(scenario.agent, {
    ...inputs,
    ...(window ? { window } : {}),
    ...(options.checkScript ? { checkScript: options.checkScript } : {}),
  });
}
