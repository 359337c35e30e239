// THE HOOK POINT for the Rhai compile check of custom-region scripts.
// The blueprint compiler finds each `script` file and checks its path (custom-script-missing,
// script-outside-agent-dir); whether it parses and defines `fn render(ctx)` is the Rhai
// interpreter's business: callers pass src/engine/custom-script.ts's checkCustomScript (RHAI) as
// `compileBlueprint(agent, { checkScript })`, and without one each script is a finding saying the
// interpreter is not loaded (DEFAULT_SCRIPT_CHECK, rhai-host.ts).

export interface ScriptFinding {
  /**
   * `custom-script-invalid` (it or a module it imports does not parse), `custom-render-missing` (no
   * `fn render(ctx)`), `script-import-missing` (an `import` names no file of the agent directory),
   * `script-import-cycle` (modules importing each other), `script-outside-agent-dir` (an `import`
   * path leaving the agent directory).
   */
  code:
    | 'custom-script-invalid'
    | 'custom-render-missing'
    | 'script-import-missing'
    | 'script-import-cycle'
    | 'script-outside-agent-dir';
  message: string;
  /** 1-based, inside `file`. */
  line: number;
  column: number;
  /** The file the finding is in, when not the script itself (a module it imports). */
  file?: string;
}

/**
 * Compile-checks one custom-region script; `file` is its path inside the agent directory, `agent`
 * the directory's files (where its `import`s are found).
 */
export type ScriptChecker = (source: string, file: string, agent?: Readonly<Record<string, string>>) => ScriptFinding[];
