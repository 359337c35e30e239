// Every `lev` input is bounded while it is read (files, pipes, devices and stdin alike), a UTF-16 or
// UTF-32 file is named as such with the command that converts it, and `lev import` writes only a
// scenario `lev replay` reads.
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  ftruncateSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.ts';
import {
  MAX_AGENT_FILE_BYTES,
  MAX_BLUEPRINT_BYTES,
  MAX_SCENARIO_BYTES,
  MAX_TRACE_BYTES,
} from '../../src/engine/limits.ts';
import { scenarioFile } from '../../src/share/file.ts';
import { captureConsole } from '../capture-console.ts';

const n = (v: number) => v.toLocaleString('en-US');
const dir = mkdtempSync(join(tmpdir(), 'lev-limits-'));
const LEV = resolve(import.meta.dirname, '../../bin/lev.mjs');
const FIXTURES = resolve(import.meta.dirname, '../import/fixtures');
const EXAMPLE = resolve(import.meta.dirname, '../../examples/coding-agent.json');

afterEach(() => {
  vi.restoreAllMocks();
});

/** Runs `lev` in process and reports how much the resident set grew while it ran. */
async function levInProcess(...args: string[]) {
  const { out, err } = captureConsole();
  const before = process.memoryUsage().rss;
  const code = await main(args);
  return { code, out: out.join('\n'), err: err.join('\n'), grew: process.memoryUsage().rss - before };
}

describe('inputs are bounded while they are read, not by their size on disk', () => {
  // /dev/zero has no size (stat says 0) and never ends: only counting what is read stops it.
  it.each([
    [
      'replay',
      ['replay', '/dev/zero'],
      `/dev/zero: error [scenario-too-large] /dev/zero is over ${n(MAX_SCENARIO_BYTES)} bytes; scenario files over that are refused. Split its traffic into several scenarios.`,
    ],
    [
      'test',
      ['test', '/dev/zero'],
      `/dev/zero: error [scenario-too-large] /dev/zero is over ${n(MAX_SCENARIO_BYTES)} bytes; scenario files over that are refused.`,
    ],
    [
      'validate',
      ['validate', '/dev/zero'],
      `/dev/zero:1:1 error blueprint-too-large: /dev/zero is over ${n(MAX_BLUEPRINT_BYTES)} bytes; blueprints over that are refused. Is this the right file?`,
    ],
    [
      'rhai',
      ['rhai', '/dev/zero'],
      `lev rhai: /dev/zero is over ${n(MAX_AGENT_FILE_BYTES)} bytes; scripts over that are refused. Is this the right file?`,
    ],
    [
      'share encode',
      ['share', 'encode', '/dev/zero'],
      `lev: share encode: /dev/zero is over ${n(MAX_SCENARIO_BYTES)} bytes; scenario files over that are refused.`,
    ],
  ])(
    'lev %s /dev/zero stops at its limit with exit 1',
    async (_name, args, message) => {
      const r = await levInProcess(...args);
      expect(r.code).toBe(1);
      expect(`${r.out}\n${r.err}`).toContain(message);
      // At most the limit plus a read's worth is held (64 MB here), never the gigabytes it used to reach.
      expect(r.grew).toBeLessThan(MAX_SCENARIO_BYTES + 200 * 2 ** 20);
    },
    60_000,
  );

  it('a regular file says its size: a 5 GB one is refused before any of it is read', async () => {
    const sparse = join(dir, 'huge.json');
    const fd = openSync(sparse, 'w');
    ftruncateSync(fd, 5_000_000_000); // a hole: no disk used, nothing to read but zeros
    closeSync(fd);
    await levInProcess('replay', sparse); // the first call loads the command and the tokenizer
    const started = performance.now();
    const r = await levInProcess('replay', sparse);
    expect(r).toMatchObject({
      code: 1,
      err: `${sparse}: error [scenario-too-large] ${sparse} is over ${n(MAX_SCENARIO_BYTES)} bytes; scenario files over that are refused. Split its traffic into several scenarios.`,
    });
    // Reading even the first 64 MB would take far longer than refusing it from its size.
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it(`lev import /dev/zero stops at ${n(MAX_TRACE_BYTES)} bytes`, async () => {
    const r = await levInProcess('import', '/dev/zero');
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      `/dev/zero: error [trace-too-large] /dev/zero is over ${n(MAX_TRACE_BYTES)} bytes; traces over that are refused. Import part of the session instead (split the file).`,
    );
  }, 60_000);

  it('lev replay <(cat big.json), a pipe with no size, is held to the same limit; one under it reads whole', () => {
    // bash's process substitution, as the issue ran it: 64 MB and one byte of JSON whitespace.
    const over = spawnSync(
      'bash',
      ['-c', `"${process.execPath}" "${LEV}" replay <(head -c ${MAX_SCENARIO_BYTES + 1} /dev/zero | tr '\\0' ' ')`],
      { encoding: 'utf8', timeout: 120_000 },
    );
    expect(over.stderr).toMatch(
      new RegExp(
        `^/dev/fd/\\d+: error \\[scenario-too-large\\] /dev/fd/\\d+ is over ${n(MAX_SCENARIO_BYTES)} bytes; scenario files over that are refused\\.`,
      ),
    );
    expect(over.status).toBe(1);
    const under = spawnSync('bash', ['-c', `"${process.execPath}" "${LEV}" share encode - < <(cat "${EXAMPLE}")`], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(under.status).toBe(0);
    expect(under.stdout).toMatch(/^#s=1\./);
  }, 240_000);
});

/** `text` as Windows PowerShell 5's `Out-File` and `>` write it: UTF-16LE with a byte-order mark. */
const utf16le = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
/** UTF-16BE without a mark (`iconv -t UTF-16BE`). */
const utf16be = (text: string) => Buffer.from(text, 'utf16le').swap16();
/** UTF-32LE without a mark (`iconv -t UTF-32LE`). */
const utf32le = (text: string) =>
  Buffer.from(
    [...text].flatMap((c) => {
      const p = c.codePointAt(0)!;
      return [p & 255, (p >> 8) & 255, p >> 16, 0];
    }),
  );

describe('a file in UTF-16 or UTF-32 is named as such, with the command that converts it', () => {
  const scenario = readFileSync(EXAMPLE, 'utf8');
  const session = readFileSync(join(FIXTURES, 'claude-code-session.jsonl'), 'utf8');

  it.each([
    ['UTF-16LE', utf16le, 'UTF-16 (little-endian)', 'it starts with the byte-order mark FF FE'],
    ['UTF-16BE', utf16be, 'UTF-16 (big-endian)', 'a zero byte before each character, as UTF-16BE writes plain text'],
    [
      'UTF-32LE',
      utf32le,
      'UTF-32 (little-endian)',
      'three zero bytes after each character, as UTF-32LE writes plain text',
    ],
  ])('%s: lev replay, validate, share encode and import each say it', async (encoding, encode, words, evidence) => {
    const file = join(dir, `scenario-${encoding}.json`);
    writeFileSync(file, encode(scenario));
    const trace = join(dir, `session-${encoding}.jsonl`);
    writeFileSync(trace, encode(session));
    const advice = (path: string, converted: string) =>
      `${path} is ${words} text, not UTF-8 (${evidence}). lev reads UTF-8 only: convert it (iconv -f ${encoding} -t UTF-8 ${path} > ${converted}) and pass the converted file.`;
    const converted = file.replace(/\.json$/, '-utf8.json');

    const replayed = await levInProcess('replay', file);
    expect(replayed).toMatchObject({ code: 1, err: `${file}: error [not-utf8] ${advice(file, converted)}` });
    const validated = await levInProcess('validate', file);
    expect(validated).toMatchObject({
      code: 1,
      out: `scenario-${encoding}.json:1:1 error not-utf8: ${advice(file, converted)}\n1 error, 0 warnings, 0 info`,
    });
    const encoded = await levInProcess('share', 'encode', file);
    expect(encoded).toMatchObject({ code: 1, err: `lev: share encode: ${advice(file, converted)}` });
    const imported = await levInProcess('import', trace);
    expect(imported).toMatchObject({
      code: 1,
      err: `${trace}: error [not-utf8] ${advice(trace, trace.replace(/\.jsonl$/, '-utf8.jsonl'))}`,
    });
  });

  it('a blueprint and a script of an agent directory say it too', async () => {
    const agent = join(dir, 'agent-utf16');
    mkdirSync(join(agent, 'context_hooks'), { recursive: true });
    writeFileSync(
      join(agent, 'agent.leviath'),
      '[context.regions]\nnotes = { kind = "custom", script = "context_hooks/notes.rhai" }\n',
    );
    writeFileSync(join(agent, 'context_hooks', 'notes.rhai'), utf16le('fn render(ctx) { "" }\n'));
    const r = await levInProcess('validate', agent);
    expect(r.code).toBe(1);
    expect(r.out).toContain(
      `${join(agent, 'context_hooks/notes.rhai')}:1:1 error not-utf8: context_hooks/notes.rhai is UTF-16 (little-endian) text, not UTF-8 (it starts with the byte-order mark FF FE).`,
    );
  });

  it('UTF-8 with a byte-order mark is not mistaken for it', async () => {
    const bom = join(dir, 'bom.jsonl');
    writeFileSync(bom, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(session)]));
    expect((await levInProcess('import', bom, '-o', join(dir, 'bom-scenario.json'))).code).toBe(0);
  });
});

describe('lev import writes only what lev replay reads', () => {
  const trace = join(FIXTURES, 'claude-code-session.jsonl');

  it('every fixture trace imports to a file that lev replay runs', async () => {
    for (const fixture of [
      'anthropic-messages.json',
      'openai-chat.json',
      'openai-responses.json',
      'claude-code-session.jsonl',
      'rollout-2026-11-30T10-01-00-0199a8f2.jsonl',
    ]) {
      const out = join(dir, `${fixture}.scenario.json`);
      expect((await levInProcess('import', join(FIXTURES, fixture), '-o', out)).code).toBe(0);
      expect((await levInProcess('replay', out)).code).toBe(0);
    }
  });

  it('an --agent whose blueprint lev replay would refuse is said before anything is written', async () => {
    const agent = join(dir, 'broken-agent');
    mkdirSync(agent, { recursive: true });
    writeFileSync(
      join(agent, 'agent.leviath'),
      '[context.regions]\nhistory = { kind = "sliding_window", max_items = 9223372036854775807 }\n',
    );
    const out = join(dir, 'never-written.json');
    const r = await levInProcess('import', trace, '--agent', agent, '-o', out);
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      `${trace}: error [scenario-would-not-replay] lev replay would refuse the imported scenario, so nothing was written: ` +
        'agent.leviath:2:50 [number-too-large] `max_items` = 9223372036854775807 is too large: the playground reads whole numbers from -9,007,199,254,740,991 to 9,007,199,254,740,991 (2^53 - 1). Use a smaller number. ' +
        'Fix the --agent blueprint, or import without --agent.',
    );
    expect(existsSync(out)).toBe(false);
  });

  it('a scenario over the file limit is not written: indented when that fits, compact when only that fits, else refused', () => {
    const scenario = {
      version: 1,
      agent: { 'agent.leviath': '' },
      traffic: [{ type: 'user', content: 'x'.repeat(100) }],
    };
    const pretty = `${JSON.stringify(scenario, null, 2)}\n`;
    const compact = `${JSON.stringify(scenario)}\n`;
    expect(scenarioFile(scenario)).toEqual({ ok: true, text: pretty, bytes: pretty.length });
    expect(scenarioFile(scenario, pretty.length)).toEqual({ ok: true, text: pretty, bytes: pretty.length });
    expect(scenarioFile(scenario, pretty.length - 1)).toEqual({ ok: true, text: compact, bytes: compact.length });
    expect(scenarioFile(scenario, compact.length - 1)).toEqual({ ok: false, bytes: compact.length });
    // Bytes, not characters: each é is two.
    const accented = { ...scenario, name: 'é'.repeat(10) };
    expect(scenarioFile(accented).bytes).toBe(Buffer.byteLength(`${JSON.stringify(accented, null, 2)}\n`));
  });
});
