// Shared plumbing for `lev` commands: argument parsing, exit codes, reading files, writing JSON.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { fmt, MAX_AGENT_FILE_BYTES, MAX_BLUEPRINT_BYTES, MAX_SCENARIO_BYTES, itemAt } from '../engine/index.ts';
import { encodingAdvice, EncodingError, firstInvalidUtf8, invalidUtf8Warning, otherEncoding } from '../import/utf8.ts';

export type Command = (args: string[]) => Promise<number>;

export const EXIT_OK = 0;
export const EXIT_FINDINGS = 1;
export const EXIT_USAGE = 2;

/** Scenario files larger than this are refused while reading (limits.ts: the page reads the same). */
export { MAX_SCENARIO_BYTES };

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
    const arg = itemAt(args, i);
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq >= 0 ? arg.slice(2, eq) : arg.slice(2);
    if (eq >= 0) flags.set(name, arg.slice(eq + 1));
    else if (valued.includes(name) && i + 1 < args.length) flags.set(name, itemAt(args, ++i));
    else flags.set(name, true);
  }
  return { positional, flags };
}

/** Rejects flags a command does not know, so a typo is not silently ignored. */
export function unknownFlag(parsed: ParsedArgs, known: readonly string[]): string | undefined {
  for (const name of parsed.flags.keys()) if (!known.includes(name)) return name;
  return undefined;
}

/** What is read, under which limit, and what to do about a larger one (the end of the message). */
export interface InputLimit {
  bytes: number;
  /** Plural, for the message: "scenario files", "traces". */
  what: string;
  advice: string;
}

/**
 * An input past its limit, found while reading it: a pipe (`<(cat big.json)`), a device
 * (`/dev/zero`) or stdin has no size to check first, so the count of bytes read is the check.
 */
export class InputTooLargeError extends Error {
  constructor(
    readonly file: string,
    readonly limit: InputLimit,
  ) {
    super(`${file} is over ${fmt(limit.bytes)} bytes; ${limit.what} over that are refused. ${limit.advice}`);
    this.name = 'InputTooLargeError';
  }
}

/** How much one read asks for; what it returns is copied out, so a pipe's small reads keep no slack. */
const READ_CHUNK = 1 << 20;

/**
 * A file's bytes (or stdin's, `0`), read until its end or until one byte past `limit.bytes`, which
 * throws InputTooLargeError: at most limit + 1 MB is ever held, whatever the input is.
 */
export function readBytes(path: string | 0, limit: InputLimit, display = path === 0 ? 'stdin' : path): Uint8Array {
  const fd = path === 0 ? 0 : openSync(path, 'r');
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    // A regular file says its size: one too large is refused without reading it, and the rest is
    // read straight into one buffer of that size (no copy per chunk, no concatenation). A pipe, or a
    // file that grows while it is read, goes on in chunks (the one byte more finds the end in one read).
    const stats = fstatSync(fd);
    if (stats.isFile() && stats.size > limit.bytes) throw new InputTooLargeError(String(display), limit);
    let buffer = Buffer.allocUnsafe(stats.isFile() && stats.size > 0 ? stats.size + 1 : READ_CHUNK);
    let filled = 0;
    for (;;) {
      if (filled === buffer.length) {
        chunks.push(buffer);
        buffer = Buffer.allocUnsafe(READ_CHUNK);
        filled = 0;
      }
      let read: number;
      try {
        read = readSync(fd, buffer, filled, buffer.length - filled, null);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        // A non-blocking stdin with nothing to read yet: wait for the writer.
        if (code === 'EAGAIN') {
          pause(10);
          continue;
        }
        if (code === 'EOF') break;
        throw error;
      }
      if (read === 0) break;
      total += read;
      filled += read;
      if (total > limit.bytes) throw new InputTooLargeError(String(display), limit);
    }
    chunks.push(buffer.subarray(0, filled));
  } finally {
    if (path !== 0) closeSync(fd);
  }
  return chunks.length === 1 ? itemAt(chunks, 0) : Buffer.concat(chunks, total);
}

function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * A file (or stdin, `0`) read as UTF-8, bounded by `limit` (readBytes). UTF-16 and UTF-32 are
 * refused with an EncodingError (their text would read as garbage). Other bytes that are not valid
 * UTF-8 still read, as U+FFFD like every editor shows them, but `lev` says so on stderr with the
 * byte offset of the first bad sequence, so a count or a diagnostic that differs from the editor's
 * has its cause in view.
 */
export function readText(path: string | 0, limit: InputLimit, display = path === 0 ? 'stdin' : path): string {
  const bytes = readBytes(path, limit, display);
  const other = otherEncoding(bytes);
  if (other) throw new EncodingError(other);
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    console.error(`lev: warning: ${invalidUtf8Warning(String(display), firstInvalidUtf8(bytes))}`);
    return new TextDecoder('utf-8').decode(bytes);
  }
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * What went wrong reading `file`, in a sentence that starts with the file, or undefined for an
 * error that is not about the input (a bug, to be thrown on).
 */
export function readProblem(error: unknown, file: string): string | undefined {
  if (error instanceof InputTooLargeError) return error.message;
  if (error instanceof EncodingError) return encodingAdvice(file, error.found, 'cli');
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return `${file}: no such file`;
  if (code === 'EISDIR') return `${file} is a directory, not a file`;
  if (code === 'EACCES' || code === 'EPERM') return `${file}: permission denied`;
  if (typeof code === 'string') return `${file}: cannot read it (${(error as Error).message})`;
  return undefined;
}

/**
 * A read failure that is a finding about the input (too large: `tooLargeCode`; UTF-16 or UTF-32:
 * `not-utf8`), as a diagnostic's code and message; undefined for any other error.
 */
export function inputFinding(
  error: unknown,
  file: string,
  tooLargeCode: string,
): { code: string; message: string } | undefined {
  if (error instanceof InputTooLargeError) return { code: tooLargeCode, message: error.message };
  if (error instanceof EncodingError) return { code: 'not-utf8', message: encodingAdvice(file, error.found, 'cli') };
  return undefined;
}

export const SCENARIO_INPUT: InputLimit = {
  bytes: MAX_SCENARIO_BYTES,
  what: 'scenario files',
  advice: 'Split its traffic into several scenarios.',
};

/**
 * Writes `value` as JSON exactly as JSON.stringify would, but its top-level arrays one item at a
 * time: a long run's timeline is far longer than the longest string V8 can build (~512 MB), so
 * stringifying it whole fails with "Invalid string length". Memory stays at one item plus a buffer.
 */
export async function writeJsonStreamed(value: object, out: NodeJS.WritableStream = process.stdout): Promise<void> {
  let failure: NodeJS.ErrnoException | undefined;
  const onError = (error: NodeJS.ErrnoException) => {
    failure ??= error;
  };
  out.on('error', onError);
  let buffer = '';
  const flush = async () => {
    const text = buffer;
    buffer = '';
    if (failure || out.write(text)) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        out.off('drain', done);
        out.off('error', done);
        out.off('close', done);
        resolve();
      };
      out.on('drain', done).on('error', done).on('close', done);
    });
  };
  const push = async (text: string) => {
    buffer += text;
    if (buffer.length >= FLUSH_CHARACTERS) await flush();
  };
  try {
    let first = true;
    await push('{');
    for (const [key, item] of Object.entries(value)) {
      const prefix = `${first ? '' : ','}${JSON.stringify(key)}:`;
      if (Array.isArray(item)) {
        first = false;
        await push(`${prefix}[`);
        for (let i = 0; i < item.length && !failure; i++)
          await push(`${i ? ',' : ''}${JSON.stringify(item[i]) ?? 'null'}`);
        await push(']');
        continue;
      }
      const text = JSON.stringify(item);
      if (text === undefined) continue; // JSON.stringify leaves out undefined and functions
      first = false;
      await push(prefix + text);
    }
    await push('}\n');
    await flush();
  } finally {
    out.off('error', onError);
  }
  // The reader going away (`lev replay --json | head`) is its choice, not an error of ours.
  if (failure && failure.code !== 'EPIPE') throw failure;
}

const FLUSH_CHARACTERS = 1 << 20;

/** An agent's `agent.leviath`, however it is given. */
export const BLUEPRINT_INPUT: InputLimit = {
  bytes: MAX_BLUEPRINT_BYTES,
  what: 'blueprints',
  advice: 'Is this the right file?',
};

/** A custom region's script, or `lev rhai FILE.rhai`. */
export const SCRIPT_INPUT: InputLimit = {
  bytes: MAX_AGENT_FILE_BYTES,
  what: 'scripts',
  advice: 'Is this the right file?',
};

/** `lev rhai --cases FILE`: a conformance file is JSON of scripts, read like a scenario. */
export const CASES_INPUT: InputLimit = {
  bytes: MAX_SCENARIO_BYTES,
  what: 'case files',
  advice: 'Split it into several files.',
};
