// zod issues as "where: what" lines a person can act on, e.g. `traffic[3].tool_call_id: ...`.
import type { z } from 'zod';

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

export function formatIssues(error: z.ZodError, root = ''): string[] {
  return error.issues.map((issue) => `${formatPath(root, issue.path)}: ${issue.message}`);
}
