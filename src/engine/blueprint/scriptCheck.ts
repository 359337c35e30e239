// THE HOOK POINT for the Rhai compile check of custom-region scripts.
// The blueprint compiler finds each `script` file and checks its path (custom-script-missing,
// script-outside-agent-dir); whether it parses and defines `fn render(ctx)` is the Rhai
// interpreter's business: index.ts plugs in src/engine/custom-script.ts's checkCustomScript as
// DEFAULT_SCRIPT_CHECK, and `compileBlueprint(agent, { checkScript })` can replace it.

export interface ScriptFinding {
  /** `custom-script-invalid` (does not parse) or `custom-render-missing` (no `fn render(ctx)`). */
  code: 'custom-script-invalid' | 'custom-render-missing';
  message: string;
  /** 1-based, inside the script file. */
  line: number;
  column: number;
}

/** Compile-checks one custom-region script; `file` is its path inside the agent directory. */
export type ScriptChecker = (source: string, file: string) => ScriptFinding[];
