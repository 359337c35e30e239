// Text from the user's files reaches the terminal inert: the real `lev` binary, on files holding the
// escape sequences terminals obey (ECMA-48: OSC 0 sets the window title, ED clears the screen, SGR
// sets colours; C1's CSI is ESC [ in one character; U+202E reverses what follows on the line).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeScenario } from '../../src/share/index.ts';
import type { ScenarioInput } from '../../src/engine/scenario.ts';
import { inert } from '../../src/cli/inert.ts';

const LEV = resolve(import.meta.dirname, '../../bin/lev.mjs');
const dir = mkdtempSync(join(tmpdir(), 'lev-inert-'));

function lev(...args: string[]) {
  const r = spawnSync(process.execPath, [LEV, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const ESC = '\u001b';
const TITLE = `${ESC}]0;pwned\u0007`;
const CLEAR = `${ESC}[2J`;
const RED = `${ESC}[31m`;
const CSI = '\u009b';
const RLO = '\u202e';
/** What a terminal would obey: C0 (but tab and newline), DEL, C1, bidi controls, line separators. */
const LIVE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

const NAME = `${TITLE}${CLEAR}run${RLO}evil${CSI}1J`;
const TOOL = `grep${RED}`;
const scenario: ScenarioInput = {
  version: 1,
  name: NAME,
  model: { id: 'gpt-4o' },
  agent: {
    'agent.leviath': `[context.regions]\ntask = { kind = "pinned", seed = "task_input" }\n[stages.${JSON.stringify(`${RED}build`)}]\n`,
  },
  inputs: { task: `fix it${CLEAR}` },
  traffic: [
    { type: 'user', content: `hello${TITLE}` },
    { type: 'assistant', content: 'looking', tool_calls: [{ id: 'c1', name: TOOL }] },
    { type: 'tool_result', tool_call_id: 'c1', tool_name: TOOL, content: `match${CLEAR}\r\nline two${CSI}2J` },
    { type: 'assistant', content: 'done' },
  ],
};
const file = join(dir, 'hostile.json');
writeFileSync(file, JSON.stringify(scenario));

describe('inert', () => {
  it('writes each live character as its JSON escape and leaves tabs, newlines and other text alone', () => {
    expect(inert(`a${TITLE}b\tc\nd${CSI}e${RLO}f\r\u2028漢😀`)).toBe(
      'a\\u001b]0;pwned\\u0007b\tc\nd\\u009be\\u202ef\\u000d\\u2028漢😀',
    );
    expect(inert('plain text, unchanged')).toBe('plain text, unchanged');
  });
});

describe('lev prints user text inert', () => {
  it('lev replay: the scenario, stage and tool names escaped, the rest of the table as usual', () => {
    const r = lev('replay', file);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(LIVE);
    expect(r.stdout.split('\n')[0]).toBe(
      '\\u001b]0;pwned\\u0007\\u001b[2Jrun\\u202eevil\\u009b1J on gpt-4o (128,000-token window)',
    );
    expect(r.stdout).toContain('tool_result grep\\u001b[31m');
    expect(r.stdout).toContain('\\u001b[31mbuild');
  });

  it('lev replay --json: still exact JSON, of the very same names', () => {
    const r = lev('replay', file, '--json');
    expect(r.stdout).not.toMatch(LIVE);
    const timeline = JSON.parse(r.stdout);
    expect(timeline.scenario).toBe(NAME);
    expect(timeline.steps[2].event.content).toBe(`match${CLEAR}\r\nline two${CSI}2J`);
  });

  it("lev test: the request's text, system and messages alike", () => {
    const r = lev('test', file, '--step', '1');
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(LIVE);
    expect(r.stdout).toContain('match\\u001b[2J\\u000d\nline two\\u009b2J');
    expect(r.stdout).toContain('fix it\\u001b[2J');
  });

  it('lev validate and lev import: names and quoted text in messages', () => {
    const agent = join(dir, 'agent.leviath');
    writeFileSync(
      agent,
      `[context.regions]\ntask = { kind = "pinned" }\n[stages.${JSON.stringify(`${TITLE}s`)}]\nbogus = 1\n`,
    );
    const validated = lev('validate', agent);
    expect(validated.stdout).not.toMatch(LIVE);
    expect(validated.stdout).toContain('Unknown key `bogus` in stage "\\u001b]0;pwned\\u0007s"');

    const trace = join(dir, 'trace.json');
    writeFileSync(trace, JSON.stringify({ messages: [{ role: `${TITLE}${CLEAR}`, content: 'hi' }] }));
    const imported = lev('import', trace, '--format', 'anthropic');
    expect(imported.code).toBe(1);
    expect(imported.stderr).not.toMatch(LIVE);
    expect(imported.stderr).toContain('found role "\\u001b]0;pwned\\u0007\\u001b[2J"');
  });

  it("lev share decode and lev rhai: a link's scenario and a script's prints", () => {
    const decoded = lev('share', 'decode', encodeScenario(scenario));
    expect(decoded.code).toBe(0);
    expect(decoded.stdout).not.toMatch(LIVE);
    expect(JSON.parse(decoded.stdout).name).toBe(NAME);

    const script = join(dir, 'print.rhai');
    writeFileSync(script, 'print("\\x1b[2Jcleared\\u202e"); 42\n');
    const ran = lev('rhai', script);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toBe('\\u001b[2Jcleared\\u202e\n42\n');
  });

  it('a reader that goes away ends the output quietly: no EPIPE, no stack trace', () => {
    // 3,000 generated steps print far more than a pipe holds, so the writes after `head` exits fail.
    const long = join(dir, 'long.json');
    writeFileSync(
      long,
      JSON.stringify({
        version: 1,
        model: { id: 'gpt-4o' },
        agent: scenario.agent,
        generator: { kind: 'coding-agent', steps: 3000 },
      }),
    );
    for (const args of ['replay', 'replay --json']) {
      const r = spawnSync('bash', ['-c', `"${process.execPath}" "${LEV}" ${args} "${long}" | head -c 10`], {
        encoding: 'utf8',
        timeout: 120_000,
      });
      expect(r.stdout).toHaveLength(10);
      expect(r.stderr).not.toMatch(/EPIPE|Error|\n\s+at /);
    }
  }, 240_000);
});
