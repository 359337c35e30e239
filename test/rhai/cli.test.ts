// `lev rhai`: script mode, conformance mode, exit codes.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { run } from '../../src/cli/rhai.ts';

const dir = mkdtempSync(join(tmpdir(), 'lev-rhai-'));
const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

async function lev(args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => { out.push(a.join(' ')); });
  vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => { err.push(a.join(' ')); });
  const code = await run(args);
  return { code, out, err };
}

afterEach(() => { vi.restoreAllMocks(); });

describe('lev rhai FILE', () => {
  it('prints print lines, then the Debug form of the value', async () => {
    const r = await lev([file('ok.rhai', 'print("hi");\nprint(1.0);\n[1, "s", \'c\']')]);
    expect(r).toEqual({ code: 0, out: ['hi', '1.0', '[1, "s", \'c\']'], err: [] });
  });

  it('reports a script error with kind, message and file:line:column, exit 1', async () => {
    const path = file('bad.rhai', 'let a = 1;\nlet b = a / 0;');
    const r = await lev([path]);
    expect(r.code).toBe(1);
    expect(r.err.join('\n')).toContain('ErrorArithmetic: Division by zero');
    expect(r.err.join('\n')).toContain(`${path}:2:11`);
  });

  it('shows where an error inside functions happened and the calls that led there', async () => {
    const path = file('nested.rhai', 'fn a() { b() }\nfn b() { 1 / 0 }\na()');
    const r = await lev([path]);
    expect(r.code).toBe(1);
    expect(r.err.join('\n')).toBe([
      'ErrorInFunctionCall (ErrorArithmetic): Division by zero: 1 / 0',
      `  at ${path}:2:12`,
      `  in call to function 'b' at ${path}:1:10`,
      `  in call to function 'a' at ${path}:3:1`,
    ].join('\n'));
  });

  it('reports parse errors the same way', async () => {
    const path = file('parse.rhai', 'let x = 1\nlet y = 2');
    const r = await lev([path]);
    expect(r.code).toBe(1);
    expect(r.err.join('\n')).toMatch(/^ErrorParsing: Expecting ';'/);
    expect(r.err.join('\n')).toContain(`${path}:2:1`);
  });

  it('applies --max-operations', async () => {
    const r = await lev([file('loop.rhai', 'loop {}'), '--max-operations', '1000']);
    expect(r.code).toBe(1);
    expect(r.err[0]).toContain('ErrorTooManyOperations');
  });

  it('prints JSON with --json', async () => {
    const r = await lev([file('j.rhai', 'print("p"); 40 + 2'), '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out[0]!)).toEqual({ prints: ['p'], value: '42' });
  });

  it('explains a missing file and bad usage', async () => {
    const missing = await lev([join(dir, 'none.rhai')]);
    expect(missing.code).toBe(1);
    expect(missing.err[0]).toContain('file not found');
    expect((await lev([])).code).toBe(2);
    expect((await lev(['a.rhai', '--bogus'])).code).toBe(2);
    expect((await lev(['a.rhai', '--max-operations', 'lots'])).code).toBe(2);
  });
});

describe('lev rhai --cases', () => {
  const cases = [
    { id: 'ok-1', script: '1 + 1', expect: { debug: '2' } },
    { id: 'ok-2', script: 'print("x"); 5', expect: { debug: '5' }, prints: ['x'] },
    { id: 'bad-1', script: '2 * 2', expect: { debug: '5' } },
    { id: 'bad-2', script: 'fn f() { [1][9] } f()', expect: { error: 'ErrorInFunctionCall', inner_error: 'ErrorStringBounds' } },
  ];

  it('lists each failure with expected and actual and ends with the summary line', async () => {
    const r = await lev(['--cases', file('cases.json', JSON.stringify(cases))]);
    expect(r.code).toBe(1);
    const text = r.out.join('\n');
    expect(text).toContain('FAIL bad-1: 2 * 2');
    expect(text).toContain('expected: value 5');
    expect(text).toContain('actual:   value 4');
    expect(text).toContain('expected: error ErrorInFunctionCall (inner ErrorStringBounds)');
    expect(text).toContain('actual:   error ErrorInFunctionCall (inner ErrorArrayBounds)');
    expect(r.out.at(-1)).toBe('2 passed, 2 failed');
  });

  it('exits 0 when every case passes, and runs the project fixture cleanly', async () => {
    const r = await lev(['--cases', new URL('./fixtures/cases.json', import.meta.url).pathname]);
    expect(r.out.at(-1)).toBe('240 passed, 0 failed');
    expect(r.code).toBe(0);
  });

  it('gives machine output with --json', async () => {
    const r = await lev(['--cases', file('cases2.json', JSON.stringify(cases)), '--json']);
    const out = JSON.parse(r.out[0]!);
    expect(out.passed).toBe(2);
    expect(out.failed).toBe(2);
    expect(out.failures.map((f: { id: string }) => f.id)).toEqual(['bad-1', 'bad-2']);
    expect(out.summary).toBe('2 passed, 2 failed');
  });

  it('names the bad entry in a malformed cases file', async () => {
    const r = await lev(['--cases', file('broken.json', JSON.stringify([{ id: 'a', script: 1, expect: {} }]))]);
    expect(r.code).toBe(1);
    expect(r.err[0]).toContain('case [0] (a): "script" must be a string');
  });
});
