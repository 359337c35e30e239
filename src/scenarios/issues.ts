// zod issues as "where: what" lines a person can act on, e.g. `traffic[3].tool_call_id: Required`.
// The one way scenario problems are worded: every reader of a scenario (share links, the page,
// `lev validate`, `lev replay`) should word them through here, so the same file reads the same.
import type { z } from 'zod';
import type { Diagnostic } from '../engine/page.ts';

/** `traffic[12].tool_call_id`; empty for the top level. */
export function issuePath(path: readonly PropertyKey[], root = ''): string {
  let out = root;
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

export function formatPath(root: string, path: readonly PropertyKey[]): string {
  return issuePath(path, root) || '(top level)';
}

/** What is wrong, without zod's boilerplate: `Required`, `unknown type; expected one of "user", ...`. */
export function issueMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type' && /received undefined/.test(issue.message)) return 'Required';
  if (issue.code === 'invalid_union' && 'discriminator' in issue && issue.discriminator) {
    const options = (issue as { options?: unknown[] }).options ?? [];
    return `unknown ${String(issue.discriminator)}; expected one of ${options.map((o) => JSON.stringify(o)).join(', ')}`;
  }
  return issue.message.replace(/^Invalid input: /, '');
}

export function formatIssues(error: z.ZodError, root = ''): string[] {
  return error.issues.map((issue) => `${formatPath(root, issue.path)}: ${issueMessage(issue)}`);
}

/**
 * A scenario's zod problems as diagnostics (code `scenario-invalid`), one per issue, worded as
 * formatIssues words them. `locate` places each at its line and column in the file's text (the
 * CLI has it; the page's scenario is not text, so its problems sit at 1:1).
 */
export function scenarioIssueDiagnostics(
  error: z.ZodError,
  file: string,
  locate: (path: (string | number)[]) => { line: number; column: number } = () => ({ line: 1, column: 1 }),
): Diagnostic[] {
  return error.issues.map((issue) => {
    const keyPath = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
    const { line, column } = locate(keyPath);
    return {
      code: 'scenario-invalid',
      severity: 'error',
      message: `${formatPath('', keyPath)}: ${issueMessage(issue)}`,
      file,
      line,
      column,
      path: issuePath(keyPath),
    };
  });
}
