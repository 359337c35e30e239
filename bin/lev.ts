// `lev`: runs src/cli/main.ts on the process arguments and turns its result into the exit code.
import { main } from '../src/cli/main.ts';

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (err: unknown) => {
    console.error(`lev: internal error: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
    process.exitCode = 1;
  },
);
