// Text from the user's files reaches the terminal inert. A scenario, tool or stage name, a script's
// print or a trace quoted in an error may hold ESC and other control characters; written raw, a
// shared file could retitle the window, clear the screen or reorder what a line shows (bidi
// overrides). `lev` writes everything through `makeInert`, so no printer can forget.

/**
 * C0 controls but tab and newline, DEL, C1 controls, the bidi embeddings, overrides, isolates and
 * marks, and the line and paragraph separators (which some terminals and viewers break lines on).
 */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const escape = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * `text` with each unsafe character written as its JSON escape (`\u001b`). Inside a JSON string
 * that is the same character, so `--json` output stays exact JSON of the same values (JSON.stringify
 * escapes C0 already, not C1 or bidi); in human output it shows what the file holds.
 */
export function inert(text: string): string {
  UNSAFE.lastIndex = 0;
  return UNSAFE.test(text) ? text.replace(UNSAFE, escape) : text;
}

/**
 * Passes every string written to `stream` through `inert` (every `lev` printer writes strings). A
 * reader that goes away (`lev validate x | head -1`) is its choice: the broken pipe ends that
 * output quietly instead of an unhandled 'error' event's stack trace; any other write error makes
 * the exit code 1.
 */
export function makeInert(stream: NodeJS.WriteStream): void {
  const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
  stream.write = ((chunk: unknown, ...rest: unknown[]) =>
    write(typeof chunk === 'string' ? inert(chunk) : chunk, ...rest)) as typeof stream.write;
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') process.exitCode = 1;
  });
}
