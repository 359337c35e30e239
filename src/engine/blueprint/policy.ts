// The two permission lists a blueprint carries, and how a command or path is judged against them.
// The runtime's seeding uses these same functions, so `lev validate` and a run never disagree.
import { isWithin, normalizeAny } from './paths.ts';

// A command that chains, pipes, redirects or substitutes is more than the prefix it starts with.
const SHELL_OPERATORS = /[;&|<>`$()\n\r]/;

const squash = (s: string): string => s.trim().replace(/\s+/g, ' ');

/**
 * `[safe_commands] allow = ["git log", "ls"]`: an entry covers the command itself and the command
 * followed by more arguments (`git log --oneline -20`), matched on whole words. A command containing
 * shell operators is covered only by an entry equal to it.
 */
export function commandIsSafe(command: string, allow: readonly string[]): boolean {
  const cmd = squash(command);
  return allow.some((entry) => {
    const prefix = squash(entry);
    if (prefix === '') return false;
    if (cmd === prefix) return true;
    return !SHELL_OPERATORS.test(cmd) && cmd.startsWith(`${prefix} `);
  });
}

/** The `[read_paths]` entry that covers a path outside the working directory, if any. */
export function readPathCovering(path: string, readPaths: readonly string[]): string | undefined {
  const target = normalizeAny(path);
  return readPaths.find((entry) => isWithin(target, normalizeAny(entry)));
}
