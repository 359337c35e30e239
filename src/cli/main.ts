// `lev`: the playground's engine on the command line. Each command lives in src/cli/<name>.ts,
// exports its USAGE and returns its exit code: 0 success, 1 findings or failures, 2 bad usage.
import { usageError, type Command } from './io.ts';
import { loadEncodings } from '../engine/index.ts';

interface CommandModule {
  run: Command;
  USAGE: string;
}

// A Map, so `lev constructor` or `lev __proto__` is an unknown command, not an Object member.
const COMMANDS = new Map<string, () => Promise<CommandModule>>([
  ['validate', () => import('./validate.ts')],
  ['test', () => import('./test.ts')],
  ['replay', () => import('./replay.ts')],
  ['rhai', () => import('./rhai.ts')],
  ['share', () => import('./share.ts')],
  ['import', () => import('./import.ts')],
  ['advise', () => import('./advise.ts')],
]);

export const USAGE = `usage: lev <command> [options]   (lev <command> --help for its options)

commands:
  validate PATH [--json]            check an agent directory, agent.leviath or scenario JSON
  test SCENARIO [--step N] [--json] the provider request at inference N (default 0)
  replay SCENARIO [--as-recorded] [--json]  the whole timeline (--as-recorded: an imported run as its harness sent it)
  rhai FILE.rhai | --cases FILE     run a Rhai script, or a conformance case file
  share encode SCENARIO             print the URL fragment for a scenario
  share decode FRAGMENT|URL         print the scenario JSON a link holds
  import TRACE [-o FILE]            an agent's real run (API bodies, Claude Code, Codex, SWE-agent, OpenHands, ... logs) as a scenario

  advise SCENARIO [--json]          blueprints that beat this one on cost, peak request and information lost`;

const HELP = new Set(['--help', '-h']);

export async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || HELP.has(name) || name === 'help') {
    console.log(USAGE);
    return name ? 0 : 2;
  }
  const load = COMMANDS.get(name);
  if (!load) return usageError(`unknown command "${name}"\n\n${USAGE}`);
  const command = await load();
  // `--help` anywhere asks for the usage, even after other arguments (`lev share encode --help`).
  if (rest.some((arg) => HELP.has(arg))) {
    console.log(command.USAGE);
    return 0;
  }
  // Either encoding may be asked for by a scenario's model; loading both costs a fraction of a second.
  // `lev import` loads the one its scenario's model uses, once it has the scenario.
  if (name !== 'import') await loadEncodings();
  return command.run(rest);
}
