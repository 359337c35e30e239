// A finding about user input: where it is, what is wrong, and what to do about it.
export const SEVERITIES = ['error', 'warning', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

export interface Diagnostic {
  /** Stable code from DESIGN.md (e.g. `unknown-region-kind`); never renamed. */
  code: string;
  severity: Severity;
  /** Says what is wrong and what to do. */
  message: string;
  /** File inside the agent directory (e.g. `agent.leviath`, `context_hooks/brain.rhai`) or scenario field. */
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
  endLine?: number;
  endColumn?: number;
  /** Dotted key path, e.g. `context.regions.codebase.compact_at`; empty when not about a key. */
  path: string;
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

/** An error about a whole file or field rather than a place in it (a run that cannot start), pointed at its top. */
export function runError(code: string, message: string, file = 'scenario.json', path = ''): Diagnostic {
  return { code, severity: 'error', message, file, line: 1, column: 1, path };
}
