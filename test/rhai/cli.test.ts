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
  vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => {
    out.push(a.join(' '));
  });
  vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => {
    err.push(a.join(' '));
  });
  const code = await run(args);
  return { code, out, err };
}

afterEach(() => {
  vi.restoreAllMocks();
});

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
    expect(r.err.join('\n')).toBe(
      [
        'ErrorInFunctionCall (ErrorArithmetic): Division by zero: 1 / 0',
        `  at ${path}:2:12`,
        `  in call to function 'b' at ${path}:1:10`,
        `  in call to function 'a' at ${path}:3:1`,
      ].join('\n'),
    );
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

describe('lev rhai limits', () => {
  it('prints the default limits and every limit flag with --help', async () => {
    const { USAGE } = await import('../../src/cli/rhai.ts');
    for (const line of [
      '--max-operations N',
      '(default 1,000,000)',
      '--max-call-depth N',
      '(default 64)',
      '--max-expr-depth N',
      '--max-function-expr-depth N',
      '(default 32)',
      '--max-string-size N',
      '(default 10,000,000)',
      '--max-array-size N',
      '--max-map-size N',
      '(default 100,000)',
      '--no-limits',
    ])
      expect(USAGE).toContain(line);
  });

  const RUNAWAYS: [string, string, string][] = [
    ['loop.rhai', 'loop {}', 'ErrorTooManyOperations: Too many operations'],
    ['double.rhai', 'let s = "x";\nloop { s += s }', 'ErrorDataTooLarge: Length of string too large'],
    ['push.rhai', 'let a = [];\nloop { a.push(1) }', 'ErrorTooManyOperations: Too many operations'],
  ];
  for (const [name, src, message] of RUNAWAYS) {
    it(`ends ${name} with the default limits, the Rhai error and its position`, async () => {
      const path = file(name, src);
      const started = Date.now();
      const r = await lev([path]);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(r.code).toBe(1);
      const where = name === 'loop.rhai' ? '1:1' : name === 'double.rhai' ? '2:10' : '2:1';
      expect(r.err.join('\n')).toBe(`${message}\n  at ${path}:${where}`);
    });
  }

  it('overrides one limit with its flag and keeps the others', async () => {
    const deep = file('deep.rhai', 'fn d(n) { if n == 0 { 0 } else { 1 + d(n - 1) } } d(100)');
    expect((await lev([deep])).err[0]).toContain('ErrorStackOverflow');
    expect((await lev([deep, '--max-call-depth', '200'])).out).toEqual(['100']);
    const long = file('long.rhai', 'let s = ""; s.pad(50, "x"); s.len()');
    expect((await lev([long, '--max-string-size=40'])).err[0]).toContain('ErrorDataTooLarge');
    expect((await lev([long, '--max-string-size', '0'])).out).toEqual(['50']);
    const nested = file('nested.rhai', '((((((1))))))');
    expect((await lev([nested, '--max-expr-depth', '3'])).err[0]).toContain('ErrorParsing');
    const arr = file('arr.rhai', '[1, 2, 3].len()');
    expect((await lev([arr, '--max-array-size', '2'])).err[0]).toContain('ErrorDataTooLarge');
    const map = file('map.rhai', '#{a: 1, b: 2}.len()');
    expect((await lev([map, '--max-map-size', '1'])).err[0]).toContain('ErrorDataTooLarge');
  });

  it("gives Rhai's unlimited defaults with --no-limits, and lets a flag set one limit again", async () => {
    const counting = file('count.rhai', 'let i = 0; while i < 2000000 { i += 1; } i');
    expect((await lev([counting])).err[0]).toContain('ErrorTooManyOperations');
    expect((await lev([counting, '--no-limits'])).out).toEqual(['2000000']);
    expect((await lev([counting, '--no-limits', '--max-operations', '1000'])).err[0]).toContain(
      'ErrorTooManyOperations',
    );
  });

  it('refuses a bad limit value with usage exit 2', async () => {
    for (const args of [
      ['--max-operations', '-1'],
      ['--max-call-depth', 'x'],
      ['--max-array-size'],
      ['--no-limits=yes'],
      ['--max-map-size', '1.5'],
    ]) {
      const r = await lev([file('ok2.rhai', '1'), ...args]);
      expect(r.code, args.join(' ')).toBe(2);
    }
  });

  it('places a parse error in a 100,000-term expression', async () => {
    const terms = Array.from({ length: 100_000 }, () => '1').join(' + ');
    const path = file('terms.rhai', `let x = 0;\nlet y = ${terms};`);
    // As in Rhai, each operator of a chain is one level of expression depth: the expression is one
    // level, so the 64th operator goes past the default depth of 64.
    const r = await lev([path]);
    expect(r.code).toBe(1);
    const [message, at] = r.err.join('\n').split('\n');
    expect(message).toContain('ErrorParsing: Expression exceeds maximum complexity');
    expect(at).toBe(`  at ${path}:2:${'let y = 1 '.length + 1 + 63 * 4}`);
    // Without a depth limit, one chain still stops at 1,000 operators (the JS stack's bound).
    const unlimited = await lev([path, '--max-expr-depth', '0']);
    const [message2, at2] = unlimited.err.join('\n').split('\n');
    expect(message2).toContain('ErrorParsing: More than 1000 operators in one expression');
    expect(at2).toBe(`  at ${path}:2:${'let y = 1 '.length + 1 + 1000 * 4}`);
  });

  it('places a parse error in a 100,000-link method chain', async () => {
    const path = file('chain.rhai', `let x = 0;\nlet y = x${'.abs()'.repeat(100_000)};`);
    const r = await lev([path]);
    expect(r.code).toBe(1);
    const [message, at] = r.err.join('\n').split('\n');
    expect(message).toBe(
      'ErrorParsing: More than 1000 properties, method calls and indexes in one chain; split it into several statements',
    );
    expect(at).toBe(`  at ${path}:2:${'let y = x'.length + 1 + 1000 * '.abs()'.length}`);
  });
});

describe('lev rhai print output', () => {
  it('writes each print line while the script runs, before the script ends', async () => {
    const events: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => {
      events.push(`out ${a.join(' ')}`);
    });
    vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => {
      events.push(`err ${String(a[0]).split('\n')[0]}`);
    });
    // The script prints, then runs into the operation limit: its lines are out before that error.
    const code = await run([file('stream.rhai', 'for i in 0..3 { print(i) }\nloop { }'), '--max-operations', '1000']);
    expect(code).toBe(1);
    expect(events.slice(0, 3)).toEqual(['out 0', 'out 1', 'out 2']);
    expect(events[3]).toMatch(/^err ErrorTooManyOperations/);
    expect(events).toHaveLength(4);
  });

  it('stops a script whose print output passes --max-output with ErrorTerminated naming the flag', async () => {
    const path = file('flood.rhai', 'let s = "x"; s.pad(999, "x");\nloop { print(s) }');
    const r = await lev([path, '--max-output', '10000', '--max-operations', '0']);
    expect(r.code).toBe(1);
    expect(r.out).toHaveLength(10);
    expect(r.err.join('\n')).toContain(
      'ErrorTerminated: Script terminated: its print output passed 10,000 characters (raise --max-output to allow more)',
    );
    expect(r.err.join('\n')).toContain(`${path}:2:8`);
    // The default bound stops the same loop with no operation limit.
    const started = Date.now();
    const d = await lev([path, '--max-operations', '0']);
    expect(d.err.join('\n')).toContain('passed 10,000,000 characters');
    expect(d.out).toHaveLength(10_000);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((await lev([file('few.rhai', 'print("abc"); 1'), '--max-output', '0'])).out).toEqual(['abc', '1']);
  });

  it('keeps print lines for --json within --max-output, and stops past it', async () => {
    const within = await lev([
      file('jkeep.rhai', 'for i in 0..5 { print(`line ${i}`) } 7'),
      '--json',
      '--max-output',
      '35',
    ]);
    // five lines of 6 characters plus a newline each: 35 characters, exactly the bound
    expect(within).toEqual({
      code: 0,
      out: [JSON.stringify({ prints: ['line 0', 'line 1', 'line 2', 'line 3', 'line 4'], value: '7' })],
      err: [],
    });
    const r = await lev([file('jflood.rhai', 'loop { print("0123456789") }'), '--json', '--max-output', '55']);
    expect(r.code).toBe(1);
    // 5 lines of 10 characters and a newline fill the 55; the sixth stops the script
    const out = JSON.parse(r.out.join('')) as { prints: string[]; error: { kind: string; message: string } };
    expect(out.prints).toEqual(Array<string>(5).fill('0123456789'));
    expect(out.error.kind).toBe('ErrorTerminated');
    expect(out.error.message).toContain(
      'Script terminated: its print output passed 55 characters (raise --max-output to allow more)',
    );
  });

  it('refuses a bad --max-output with usage exit 2', async () => {
    for (const v of ['-1', 'lots', '1.5']) expect((await lev([file('ok3.rhai', '1'), '--max-output', v])).code).toBe(2);
    expect((await lev([file('ok4.rhai', '1'), '--max-output'])).code).toBe(2);
    const { USAGE } = await import('../../src/cli/rhai.ts');
    expect(USAGE).toContain('--max-output N');
    expect(USAGE).toContain('(default 10,000,000; 0 = unlimited)');
  });

  it('says a directory is not a file', async () => {
    const r = await lev([dir]);
    expect(r.code).toBe(1);
    expect(r.err[0]).toContain('is a directory, not a file');
  });
});

describe('lev rhai --cases', () => {
  const cases = [
    { id: 'ok-1', script: '1 + 1', expect: { debug: '2' } },
    { id: 'ok-2', script: 'print("x"); 5', expect: { debug: '5' }, prints: ['x'] },
    { id: 'bad-1', script: '2 * 2', expect: { debug: '5' } },
    {
      id: 'bad-2',
      script: 'fn f() { [1][9] } f()',
      expect: { error: 'ErrorInFunctionCall', inner_error: 'ErrorStringBounds' },
    },
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

  it('exits 0 when every case passes, and runs both project fixtures cleanly', async () => {
    const r = await lev(['--cases', new URL('./fixtures/cases.json', import.meta.url).pathname]);
    expect(r.out.at(-1)).toBe('240 passed, 0 failed');
    expect(r.code).toBe(0);
    const r2 = await lev(['--cases', new URL('./fixtures/cases-2.json', import.meta.url).pathname]);
    expect(r2.out.at(-1)).toBe('88 passed, 0 failed');
    expect(r2.code).toBe(0);
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
