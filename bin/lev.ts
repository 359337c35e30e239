// `lev`: runs src/cli/main.ts on the process arguments and turns its result into the exit code.
import { main } from '../src/cli/main.ts';
import { makeInert } from '../src/cli/inert.ts';

// Names, messages and scripts' prints come from the user's files: control characters in them are
// escaped on the way out (src/cli/inert.ts).
makeInert(process.stdout);
makeInert(process.stderr);

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (err: unknown) => {
    console.error(`lev: internal error: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
    process.exitCode = 1;
  },
);
