// `lev validate` reports a broken custom-region script with its own line and column.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const LEV = resolve(import.meta.dirname, '../../bin/lev.mjs');
const root = mkdtempSync(join(tmpdir(), 'lev-custom-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function agent(name: string, script: string, modules: Record<string, string> = {}): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'hooks'), { recursive: true });
  writeFileSync(
    join(dir, 'agent.leviath'),
    '[context.regions]\ntask = { kind = "pinned", seed = "task_input" }\nbrain = { kind = "custom", script = "hooks/brain.rhai" }\n',
  );
  writeFileSync(join(dir, 'hooks/brain.rhai'), script);
  for (const [path, text] of Object.entries(modules)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

function validate(dir: string) {
  const result = spawnSync(process.execPath, [LEV, 'validate', dir, '--json'], {
    cwd: dirname(dir),
    encoding: 'utf8',
    timeout: 60_000,
  });
  return {
    code: result.status,
    diagnostics: (
      JSON.parse(result.stdout) as { diagnostics: { code: string; line: number; column: number; file: string }[] }
    ).diagnostics,
  };
}

describe('lev validate on custom-region scripts', () => {
  it('a parse error and a missing render are errors at the script position; a good script is clean', () => {
    const bad = validate(agent('bad', 'fn render(ctx) {\n  let x = ;\n}\n'));
    expect(bad.code).toBe(1);
    expect(bad.diagnostics.map((d) => [d.code, d.file, d.line, d.column])).toEqual([
      ['custom-script-invalid', 'hooks/brain.rhai', 2, 11],
    ]);
    const norender = validate(agent('norender', 'fn on_write(ctx) { true }\n'));
    expect(norender.diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([['custom-render-missing', 1, 1]]);
    expect(validate(agent('good', 'fn render(ctx) { "" }\n'))).toEqual({ code: 0, diagnostics: [] });
  }, 90_000); // three runs of lev

  it('checks what a script imports: a missing module, a cycle, a path leaving the agent directory, a module that does not parse', () => {
    const render = 'fn render(ctx) { "" }\n';
    const missing = validate(agent('import-missing', `\nimport "helpers" as h;\n${render}`));
    expect(missing.code).toBe(1);
    expect(missing.diagnostics.map((d) => [d.code, d.file, d.line, d.column])).toEqual([
      ['script-import-missing', 'hooks/brain.rhai', 2, 8],
    ]);
    const cycle = validate(
      agent('import-cycle', `import "a" as a;\n${render}`, {
        'hooks/a.rhai': 'import "b" as b;',
        'hooks/b.rhai': '\n  import "a" as a;',
      }),
    );
    expect(cycle.diagnostics.map((d) => [d.code, d.file, d.line, d.column])).toEqual([
      ['script-import-cycle', 'hooks/b.rhai', 2, 10],
    ]);
    const outside = validate(agent('import-outside', `import "../../x" as x;\n${render}`));
    expect(outside.diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([['script-outside-agent-dir', 1, 8]]);
    const broken = validate(
      agent('import-broken', `import "lib/util" as u;\n${render}`, {
        'hooks/lib/util.rhai': 'fn f() {\n  let = 1;\n}',
      }),
    );
    expect(broken.diagnostics.map((d) => [d.code, d.file, d.line, d.column])).toEqual([
      ['custom-script-invalid', 'hooks/lib/util.rhai', 2, 7],
    ]);
    expect(
      validate(
        agent('import-good', `import "lib/util" as u;\nfn render(ctx) { u::f() }\n`, {
          'hooks/lib/util.rhai': 'fn f() { "ok" }',
        }),
      ),
    ).toEqual({ code: 0, diagnostics: [] });
  }, 150_000); // five runs of lev
});
