// Shared plumbing for `lev` commands: argument parsing and exit codes.
export type Command = (args: string[]) => Promise<number>;

export const EXIT_OK = 0;
export const EXIT_FINDINGS = 1;
export const EXIT_USAGE = 2;

/** Scenario files larger than this are refused before reading (`lev validate`, `replay`, `test`). */
export const MAX_SCENARIO_BYTES = 64_000_000;

export function usageError(message: string): number {
  console.error(`lev: ${message}`);
  return EXIT_USAGE;
}

export interface ParsedArgs {
  positional: string[];
  flags: Map<string, string | true>;
}

/** `--json`, `--step 3`, `--step=3`; `valued` names the flags that take a value. */
export function parseArgs(args: string[], valued: readonly string[] = []): ParsedArgs {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('--')) { positional.push(arg); continue; }
    const eq = arg.indexOf('=');
    const name = eq >= 0 ? arg.slice(2, eq) : arg.slice(2);
    if (eq >= 0) flags.set(name, arg.slice(eq + 1));
    else if (valued.includes(name) && i + 1 < args.length) flags.set(name, args[++i]!);
    else flags.set(name, true);
  }
  return { positional, flags };
}

/** Rejects flags a command does not know, so a typo is not silently ignored. */
export function unknownFlag(parsed: ParsedArgs, known: readonly string[]): string | undefined {
  for (const name of parsed.flags.keys()) if (!known.includes(name)) return name;
  return undefined;
}
