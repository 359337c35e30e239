// `lev` reading files that are not valid UTF-8, and printing JSON too long for one string.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { captureConsole } from '../capture-console.ts';
import { writeJsonStreamed } from '../../src/cli/io.ts';
import { table } from '../../src/cli/replay.ts';
import fc from 'fast-check';
import { replay } from '../../src/engine/index.ts';
import { BUILT_IN_TRAFFIC } from '../../src/scenarios/generators.ts';
import { RHAI } from '../../src/engine/custom-script.ts';
import { ScenarioSchema } from '../../src/engine/scenario.ts';

const dir = mkdtempSync(join(tmpdir(), 'lev-output-'));
const BLUEPRINT = '[context.regions]\ntask = { kind = "pinned", seed = "task_input" }\n';
const scenario = (task: string) =>
  JSON.stringify({
    version: 1,
    model: { id: 'gpt-4o' },
    agent: { 'agent.leviath': BLUEPRINT },
    inputs: { task },
    traffic: [
      { type: 'user', content: 'hi' },
      { type: 'assistant', content: 'ok' },
    ],
  });

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a lev input that is not valid UTF-8', () => {
  // "caf\xe9" is Latin-1 for "café": in UTF-8, 0xE9 starts a three-byte sequence that never comes.
  const [before, after] = scenario('café 漢字 caf@').split('@') as [string, string];
  const at = Buffer.byteLength(before);
  const latin1 = join(dir, 'latin1.json');
  writeFileSync(latin1, Buffer.concat([Buffer.from(before), Buffer.from([0xe9]), Buffer.from(after)]));
  const warning = `lev: warning: ${latin1} is not valid UTF-8 from byte ${at} (0-based); those bytes read as U+FFFD (�). Save the file as UTF-8 to keep its text as written.`;

  it.each([['validate'], ['replay'], ['test'], ['share', 'encode']])(
    'lev %s warns with the byte offset of the first bad sequence, then goes on',
    async (...command) => {
      const { out, err } = captureConsole();
      expect(await main([...command, latin1])).toBe(0);
      expect(err).toEqual([warning]);
      expect(out.length).toBeGreaterThan(0);
    },
  );

  it('a blueprint read from an agent directory warns the same way', async () => {
    const agentDir = mkdtempSync(join(dir, 'agent-'));
    const blueprint = join(agentDir, 'agent.leviath');
    writeFileSync(blueprint, Buffer.concat([Buffer.from('# caf'), Buffer.from([0xe9]), Buffer.from(`\n${BLUEPRINT}`)]));
    const { err } = captureConsole();
    expect(await main(['validate', agentDir])).toBe(0);
    expect(err).toEqual([
      `lev: warning: ${blueprint} is not valid UTF-8 from byte 5 (0-based); those bytes read as U+FFFD (�). Save the file as UTF-8 to keep its text as written.`,
    ]);
  });

  it('valid UTF-8 (accents, CJK, emoji) reads without a warning', async () => {
    const clean = join(dir, 'clean.json');
    writeFileSync(clean, scenario('café 漢字 🧪'));
    const { err } = captureConsole();
    expect(await main(['validate', clean])).toBe(0);
    expect(err).toEqual([]);
  });
});

/** A stream that takes a write per event-loop turn, so `write` returns false past its buffer, as a full pipe does. */
class SlowSink extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.text += chunk.toString();
    setImmediate(done);
  }
}

describe('lev replay --json streams the timeline', () => {
  const parsed = ScenarioSchema.parse(JSON.parse(scenario('the task')));
  const timeline = replay(
    {
      ...parsed,
      traffic: Array.from({ length: 300 }, (_, i) => ({
        type: 'user' as const,
        content: `message ${i} ${'x'.repeat(i * 40)}`,
      })),
    },
    { ...BUILT_IN_TRAFFIC, ...RHAI },
  );

  it('writes exactly what JSON.stringify would, in chunks, waiting when the reader is full', async () => {
    const sink = new SlowSink({ highWaterMark: 1024 });
    await writeJsonStreamed(timeline, sink);
    expect(sink.text).toBe(`${JSON.stringify(timeline)}\n`);
    expect(sink.text.length).toBeGreaterThan(1 << 20); // more than one flush
  });

  it('leaves out undefined fields and writes holes in arrays as null, like JSON.stringify', async () => {
    const sink = new SlowSink();
    const value = { a: undefined, b: [1, undefined, () => 0], c: 'x', d: { e: undefined } };
    await writeJsonStreamed(value, sink);
    expect(sink.text).toBe('{"b":[1,null,null],"c":"x","d":{}}\n');
    expect(sink.text).toBe(`${JSON.stringify(value)}\n`);
  });

  it('stops quietly when the reader goes away (lev replay --json | head)', async () => {
    const closed = new Writable({
      write: (_chunk, _encoding, done) => done(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })),
    });
    await expect(writeJsonStreamed(timeline, closed)).resolves.toBeUndefined();
  });

  it('the CLI prints the same JSON as the engine computes', async () => {
    const file = join(dir, 'small.json');
    writeFileSync(file, scenario('the task'));
    let printed = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      printed += String(chunk);
      return true;
    });
    expect(await main(['replay', file, '--json'])).toBe(0);
    vi.restoreAllMocks();
    expect(JSON.parse(printed)).toEqual(JSON.parse(JSON.stringify(replay(parsed, { ...BUILT_IN_TRAFFIC, ...RHAI }))));
  });
});

// `lev replay`'s table is built with loops (a row per step; a spread per column of 100,000+
// lengths was slow and would overflow the stack): the same text as the plain map-and-join it replaced.
describe('the human table', () => {
  const plain = (rows: string[][], rightAligned: ReadonlySet<number>) => {
    const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
    return rows
      .map((r) =>
        r
          .map((cell, i) => (rightAligned.has(i) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
          .join('  ')
          .trimEnd(),
      )
      .join('\n');
  };

  it('lays out any rows as the plain version did, ragged rows and blank cells included', () => {
    const cell = fc.oneof(fc.constantFrom('', ' ', 'a ', '12,345'), fc.string({ maxLength: 6 }));
    fc.assert(
      fc.property(
        fc.array(fc.array(cell, { maxLength: 6 }), { minLength: 1, maxLength: 8 }),
        fc.uniqueArray(fc.nat(6)),
        (rows, right) => {
          expect(table(rows, new Set(right))).toBe(plain(rows, new Set(right)));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('takes rows by the hundred thousand', () => {
    const rows = Array.from({ length: 300_000 }, (_, i) => [
      String(i),
      'user',
      i % 7 ? '' : 'evict conversation 12t (1)',
    ]);
    const lines = table(rows, new Set([0])).split('\n');
    expect(lines).toHaveLength(300_000);
    expect(lines[299_998]).toBe('299998  user');
    expect(lines[0]).toBe('     0  user  evict conversation 12t (1)');
  });
});
