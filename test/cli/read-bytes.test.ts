// readBytes: a regular file is read into one buffer of its size, a pipe in chunks; either way the
// bytes come back exactly, and the limit is kept.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputTooLargeError, readBytes } from '../../src/cli/io.ts';

const dir = mkdtempSync(join(tmpdir(), 'lev-read-bytes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const limit = (bytes: number) => ({ bytes, what: 'traces', advice: 'Split it.' });
// 2.5 chunks of 1 MiB, multi-byte characters across every chunk boundary.
const content = Buffer.from('é€😀 line\n'.repeat(Math.ceil((2.5 * 2 ** 20) / 17)));

describe('readBytes', () => {
  it('a regular file: every byte, in one buffer of its size', () => {
    const path = join(dir, 'file.jsonl');
    writeFileSync(path, content);
    const bytes = readBytes(path, limit(10 * 2 ** 20));
    expect(Buffer.compare(Buffer.from(bytes), content)).toBe(0);
    expect(bytes.buffer.byteLength).toBe(content.length + 1);
  });

  it('an empty file, and a file over the limit (refused from its size)', () => {
    const empty = join(dir, 'empty');
    writeFileSync(empty, '');
    expect(readBytes(empty, limit(10)).length).toBe(0);
    const big = join(dir, 'big');
    writeFileSync(big, content);
    expect(() => readBytes(big, limit(content.length - 1))).toThrow(InputTooLargeError);
  });

  it('a pipe: read in chunks to the end, every byte', async () => {
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const source = join(dir, 'source');
    writeFileSync(source, content);
    const writer = spawn('sh', ['-c', `cat "${source}" > "${fifo}"`]);
    const bytes = readBytes(fifo, limit(10 * 2 ** 20));
    await new Promise((resolve) => writer.on('close', resolve));
    expect(Buffer.compare(Buffer.from(bytes), content)).toBe(0);
  });

  it('a pipe past the limit is refused while it is read', async () => {
    const fifo = join(dir, 'fifo2');
    execFileSync('mkfifo', [fifo]);
    const source = join(dir, 'source2');
    writeFileSync(source, content);
    const writer = spawn('sh', ['-c', `cat "${source}" > "${fifo}" 2>/dev/null; true`]);
    expect(() => readBytes(fifo, limit(2 ** 20))).toThrow(InputTooLargeError);
    await new Promise((resolve) => writer.on('close', resolve));
  });
});
