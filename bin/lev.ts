// `lev`: the playground's engine on the command line. Each command lives in src/cli/<name>.ts
// and returns its exit code: 0 success, 1 findings or failures, 2 bad usage.
import { usageError, type Command } from '../src/cli/io.ts';

const COMMANDS: Record<string, () => Promise<{ run: Command }>> = {
  validate: () => import('../src/cli/validate.ts'),
  test: () => import('../src/cli/test.ts'),
  replay: () => import('../src/cli/replay.ts'),
  rhai: () => import('../src/cli/rhai.ts'),
  share: () => import('../src/cli/share.ts'),
};

const USAGE = `usage: lev <command> [options]

commands:
  validate PATH [--json]            check an agent directory, agent.leviath or scenario JSON
  test SCENARIO [--step N] [--json] the provider request at inference N (default 0)
  replay SCENARIO [--json]          the whole timeline
  rhai FILE.rhai | --cases FILE     run a Rhai script, or a conformance case file
  share encode SCENARIO             print the URL fragment for a scenario
  share decode FRAGMENT|URL         print the scenario JSON a link holds`;

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(USAGE);
    return name ? 0 : 2;
  }
  const load = COMMANDS[name];
  if (!load) return usageError(`unknown command "${name}"\n\n${USAGE}`);
  const { run } = await load();
  return run(rest);
}

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (err: unknown) => {
    console.error(`lev: internal error: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
    process.exitCode = 1;
  },
);
