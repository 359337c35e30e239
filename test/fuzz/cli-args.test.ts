// `lev` on random command lines, in process (spawning is too slow for thousands): a command name or
// junk, then flags, flag values and files of every kind in any order. Each ends with exit 0, 1 or 2
// and something said, never a throw. Files are this test's own; nothing is read from stdin and
// nothing is written outside the test's temporary directory.
import { closeSync, ftruncateSync, mkdirSync, mkdtempSync, openSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { CONTROL, SEED } from './arbitraries.ts';
import { MAX_AGENT_FILE_BYTES, MAX_BLUEPRINT_BYTES, MAX_TRACE_BYTES } from '../../src/engine/limits.ts';
import { runs, triedAsync } from './harness.ts';

const dir = mkdtempSync(join(tmpdir(), 'lev-args-'));
const file = (name: string, content: string | Uint8Array) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};
/** A file of `bytes` zeros that takes no disk (a hole): over every limit, refused from its size. */
const sparse = (name: string, bytes: number) => {
  const path = join(dir, name);
  const fd = openSync(path, 'w');
  ftruncateSync(fd, bytes);
  closeSync(fd);
  return path;
};
const BLUEPRINT =
  '[context.regions]\ntask = { kind = "pinned", seed = "task_input" }\nnotes = { kind = "hashmap", max_tokens = 500 }\n';
const SCENARIO = JSON.stringify({
  version: 1,
  model: { id: 'gpt-4o' },
  agent: { 'agent.leviath': BLUEPRINT },
  inputs: { task: 'fix it' },
  traffic: [
    { type: 'user', content: 'hi' },
    { type: 'assistant', content: 'ok' },
  ],
});
const agentDir = join(dir, 'agent');
mkdirSync(agentDir);
writeFileSync(join(agentDir, 'agent.leviath'), BLUEPRINT);

const FILES = [
  file('ok.json', SCENARIO),
  file(
    'garbage.json',
    Uint8Array.from({ length: 300 }, (_, i) => (i * 97 + 13) & 0xff),
  ),
  file(
    'latin1.json',
    Buffer.concat([Buffer.from(SCENARIO.slice(0, 60)), Buffer.from([0xe9]), Buffer.from(SCENARIO.slice(60))]),
  ),
  file('agent.leviath', BLUEPRINT),
  file('script.rhai', 'let x = 40; x + 2'),
  file('cases.json', '[{"name":"n","script":"1 + 1","expect":{"value":"2"}}]'),
  file(
    'trace.json',
    JSON.stringify([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
    ]),
  ),
  file('empty.json', ''),
  // Control characters in every name the commands print, UTF-16 text, and files one byte over their limits.
  file(
    'hostile.json',
    JSON.stringify({
      version: 1,
      name: `${CONTROL.join('')}run`,
      model: { id: 'gpt-4o' },
      inputs: { task: CONTROL.join(' ') },
      agent: { 'agent.leviath': `${BLUEPRINT}[stages.${JSON.stringify(`s${CONTROL[0]}`)}]\n` },
      traffic: [
        { type: 'assistant', content: CONTROL.join(''), tool_calls: [{ id: 'c1', name: `grep${CONTROL[1]}` }] },
        { type: 'tool_result', tool_call_id: 'c1', tool_name: `grep${CONTROL[1]}`, content: CONTROL.join('\n') },
      ],
    }),
  ),
  file('utf16.json', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(SCENARIO, 'utf16le')])),
  sparse('over.json', MAX_TRACE_BYTES + 1),
  file('over.leviath', `# ${'x'.repeat(MAX_BLUEPRINT_BYTES)}\n`),
  file('over.rhai', `// ${'x'.repeat(MAX_AGENT_FILE_BYTES)}\n1`),
  agentDir,
  dir,
  join(dir, 'missing.json'),
];
const OUTPUT = join(dir, 'out.json');

const COMMANDS = [
  'validate',
  'test',
  'replay',
  'rhai',
  'share',
  'import',
  'help',
  'encode',
  'decode',
  'constructor',
  '__proto__',
  '',
];
const FLAGS = [
  '--json',
  '--help',
  '-h',
  '--step',
  '--format',
  '--url',
  '--agent',
  '--tool-map',
  '--workdir',
  '--cases',
  '--no-limits',
  '--max-operations',
  '--max-string-size',
  '--step=2',
  '--format=anthropic',
  '--format=openai',
  '--step=-1',
  '--',
  '--unknown',
  'encode',
  'decode',
];
const VALUES = [
  '0',
  '1',
  '-1',
  '99999999999',
  '1e3',
  'NaN',
  'anthropic',
  'openai',
  'codex',
  'Read=read_file',
  'a=',
  '=b',
  'http://x.io/p',
  '#s=1.abc',
  'https://example.com/play#s=1.eJyrVkrOzy0oSi0uTk1RslIqS8wpTtVRKkotLs0pASqoBQA',
  '',
  ' ',
  '\u0000',
  'ü',
  '🧪',
  ...CONTROL,
];

/** A token from the random-string arbitrary, kept off stdin (`-`), off `-o` and off paths outside the test's directory. */
const junk = fc
  .string({ maxLength: 8 })
  .filter((s) => s !== '-' && s !== '-o' && !s.startsWith('--output') && !/^[./~]/.test(s));
const token = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...FLAGS) },
  { weight: 3, arbitrary: fc.constantFrom(...FILES) },
  { weight: 2, arbitrary: fc.constantFrom(...VALUES) },
  { weight: 1, arbitrary: fc.constant(['-o', OUTPUT]) },
  { weight: 1, arbitrary: junk },
);
const argv = fc
  .tuple(
    fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...COMMANDS) }, { weight: 1, arbitrary: junk }),
    fc.array(token, { maxLength: 6 }),
  )
  .map(([command, rest]) => [command, ...rest.flat()]);

let said = '';
beforeAll(async () => {
  vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => {
    said += a.join(' ');
  });
  vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => {
    said += a.join(' ');
  });
  // `lev replay --json` streams to stdout; keep it out of the test's output too.
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    said += String(chunk);
    return true;
  });
  // Loading a command's modules and the token tables takes seconds once; that is not an input's time.
  for (const command of ['validate', 'test', 'rhai', 'share', 'import']) await main([command, '--help']);
  await main(['replay', FILES[0]!]);
}, 120_000);
afterAll(() => {
  vi.restoreAllMocks();
});

describe('lev on random command lines', () => {
  it('exits 0, 1 or 2 with something said, never throws', async () => {
    await fc.assert(
      fc.asyncProperty(argv, async (args) => {
        said = '';
        const code = await triedAsync(
          'CLI arguments',
          () => main(args),
          (exit) => exit !== 0,
        );
        expect([0, 1, 2], `lev ${JSON.stringify(args)}`).toContain(code);
        expect(said.trim().length, `lev ${JSON.stringify(args)} said nothing`).toBeGreaterThan(0);
      }),
      { numRuns: runs(300), seed: SEED },
    );
  });
});
