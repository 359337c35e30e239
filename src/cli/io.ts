// Shared plumbing for `lev` commands: argument parsing, exit codes, reading files, writing JSON.
import { readFileSync } from 'node:fs';
import { firstInvalidUtf8, invalidUtf8Warning } from '../import/utf8.ts';

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

/**
 * A file (or stdin, `0`) read as UTF-8. Bytes that are not valid UTF-8 still read, as U+FFFD like
 * every editor shows them, but `lev` says so on stderr with the byte offset of the first bad
 * sequence, so a count or a diagnostic that differs from the editor's has its cause in view.
 */
export function readText(path: string | 0, display = path === 0 ? 'stdin' : path): string {
  const bytes = readFileSync(path);
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    console.error(`lev: warning: ${invalidUtf8Warning(String(display), firstInvalidUtf8(bytes))}`);
    return new TextDecoder('utf-8').decode(bytes);
  }
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Writes `value` as JSON exactly as JSON.stringify would, but its top-level arrays one item at a
 * time: a long run's timeline is far longer than the longest string V8 can build (~512 MB), so
 * stringifying it whole fails with "Invalid string length". Memory stays at one item plus a buffer.
 */
export async function writeJsonStreamed(value: object, out: NodeJS.WritableStream = process.stdout): Promise<void> {
  let failure: NodeJS.ErrnoException | undefined;
  const onError = (error: NodeJS.ErrnoException) => { failure ??= error; };
  out.on('error', onError);
  let buffer = '';
  const flush = async () => {
    const text = buffer;
    buffer = '';
    if (failure || out.write(text)) return;
    await new Promise<void>((resolve) => {
      const done = () => { out.off('drain', done); out.off('error', done); out.off('close', done); resolve(); };
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
        for (let i = 0; i < item.length && !failure; i++) await push(`${i ? ',' : ''}${JSON.stringify(item[i]) ?? 'null'}`);
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
