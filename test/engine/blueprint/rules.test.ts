// Every validation rule, each with a real blueprint and the exact code, severity, line, column and path.
import { describe, expect, it } from 'vitest';
import { compileBlueprint } from '../../../src/engine/blueprint/index.ts';
import { TASK, compile, only, summary, withCode } from '../../builders.ts';

const R = '[context.regions]\n';

describe('syntax and shape', () => {
  it('toml-syntax: smol-toml position, no blueprint', () => {
    // TOML 1.1 lets an inline table span lines, so the parser stops at `x`, where it wanted `,` or
    // `}`; the missing `}` belongs at the end of line 2, which opened the table, so that is the place.
    const result = compile(`${R}task = { kind = "pinned"\nx = 1\n`);
    expect(result.blueprint).toBeUndefined();
    expect(summary(result.diagnostics)).toEqual(['toml-syntax error 2:25 ']);
    expect(result.diagnostics[0]!.message).toMatch(/^TOML syntax error: .+\. Fix this line/);
  });

  it('toml-syntax: a duplicate key', () => {
    const result = compile(`${R}a = {}\na = {}\n`);
    expect(summary(result.diagnostics)).toEqual(['toml-syntax error 3:1 ']);
  });

  it('agent-file-missing when the map has no agent.leviath', () => {
    const result = compileBlueprint({ 'brain.rhai': 'fn render(ctx) { "" }' });
    expect(result.blueprint).toBeUndefined();
    expect(summary(result.diagnostics)).toEqual(['agent-file-missing error 1:1 ']);
  });

  it('invalid-value: a region that is not a table', () => {
    const d = only(`${R}${TASK}notes = "pinned"\n`, 'invalid-value');
    expect([d.severity, d.line, d.column, d.path]).toEqual(['error', 3, 9, 'context.regions.notes']);
    expect(d.message).toContain('notes = { kind = "pinned"');
  });

  it('invalid-value: [context.regions] that is not a table, blueprint still returned', () => {
    const result = compile('[context]\nregions = 3\n');
    expect(result.blueprint).toBeDefined();
    expect(summary(result.diagnostics)).toContain('invalid-value error 2:11 context.regions');
  });
});

describe('kinds and strategies', () => {
  it('unknown-region-kind, pointing at the value, with a did-you-mean', () => {
    const d = only(`${R}${TASK}conv = { kind = "sliding-window", budget = "30%" }\n`, 'unknown-region-kind');
    expect([d.severity, d.line, d.column, d.path]).toEqual(['error', 3, 17, 'context.regions.conv.kind']);
    expect([d.endLine, d.endColumn]).toEqual([3, 33]); // the editor underlines exactly "sliding-window"
    expect(d.message).toContain('Did you mean "sliding_window"?');
  });

  it('unknown-region-kind for a non-string kind, in table form', () => {
    const d = only(`${TASK.replace(/^/, R)}[context.regions.x]\nkind = 3\n`, 'unknown-region-kind');
    expect([d.line, d.column, d.path]).toEqual([4, 8, 'context.regions.x.kind']);
  });

  it('hash_map is an alias of hashmap', () => {
    const result = compile(`${R}${TASK}f = { kind = "hash_map" }\n`);
    expect(result.diagnostics).toEqual([]);
    expect(result.blueprint!.regions[1]!.kind).toBe('hashmap');
  });

  it('unknown-strategy: "per-item" is refused and per_item suggested', () => {
    const d = only(
      `${R}${TASK}[context.regions.conv]\nkind = "sliding_window"\nstrategy = "per-item"\n`,
      'unknown-strategy',
    );
    expect([d.severity, d.line, d.column, d.path]).toEqual(['error', 5, 12, 'context.regions.conv.strategy']);
    expect(d.message).toContain('Did you mean "per_item"?');
  });

  it('per-kind values are still checked when the kind is unknown', () => {
    const result = compile(`${R}${TASK}x = { kind = "slidingwindow", strategy = "per-item", compact_at = "80" }\n`);
    expect(summary(result.diagnostics)).toEqual([
      'unknown-region-kind error 3:14 context.regions.x.kind',
      'unknown-strategy error 3:42 context.regions.x.strategy',
      'malformed-budget error 3:67 context.regions.x.compact_at',
    ]);
  });
});

describe('budgets', () => {
  const budget = (value: string) => compile(`${R}${TASK}b = { budget = ${value} }\n`).diagnostics;

  it.each(['"20"', '"abc%"', '"0%"', '"150%"', '"-5%"', '0.2', '5000'])('malformed-budget: budget = %s', (value) => {
    expect(summary(budget(value))).toEqual(['malformed-budget error 3:16 context.regions.b.budget']);
  });

  it('accepts decimal and spaced percentages', () => {
    expect(budget('"12.5%"')).toEqual([]);
    expect(budget('" 7 % "')).toEqual([]);
    expect(budget('"100%"')).toEqual([]);
  });

  it('malformed-budget: compact_at, min_tokens, max_tokens, threshold_tokens', () => {
    const result = compile(`${R}${TASK}[context.regions.c]
kind = "compacting"
budget = "20%"
compact_at = "eighty"
min_tokens = -1
max_tokens = "5000"
threshold_tokens = 0
`);
    expect(summary(result.diagnostics)).toEqual([
      'malformed-budget error 6:14 context.regions.c.compact_at',
      'malformed-budget error 7:14 context.regions.c.min_tokens',
      'malformed-budget error 8:14 context.regions.c.max_tokens',
      'malformed-budget error 9:20 context.regions.c.threshold_tokens',
    ]);
    expect(result.diagnostics[0]!.message).toContain('like "80%"');
    expect(result.diagnostics[0]!.message).not.toContain('Did you mean');
    expect(only(`${R}${TASK}b = { budget = "12" }\n`, 'malformed-budget').message).toContain('Did you mean "12%"?');
    expect(only(`${R}${TASK}b = { budget = 12 }\n`, 'malformed-budget').message).toContain('Did you mean "12%"?');
    expect(result.diagnostics[2]!.message).toBe('`max_tokens` must be a positive whole number of tokens, not "5000".');
  });

  it('malformed-budget warnings: min_tokens without budget, min above max', () => {
    const result = compile(
      `${R}${TASK}a = { min_tokens = 100 }\nb = { budget = "5%", max_tokens = 100, min_tokens = 200 }\n`,
    );
    expect(summary(result.diagnostics)).toEqual([
      'malformed-budget warning 3:7 context.regions.a.min_tokens',
      'malformed-budget warning 4:40 context.regions.b.min_tokens',
    ]);
  });
});

describe('unknown keys', () => {
  it('unknown-key in a region is an error with a did-you-mean', () => {
    const d = only(`${R}${TASK}codebase = { kind = "compacting", budegt = "20%" }\n`, 'unknown-key');
    expect([d.severity, d.line, d.column, d.path]).toEqual(['error', 3, 35, 'context.regions.codebase.budegt']);
    expect(d.message).toContain('Did you mean "budget"?');
  });

  it('unknown-key for a per-kind key on the wrong kind', () => {
    const d = only(`${R}${TASK}code = { kind = "compacting", max_items = 5 }\n`, 'unknown-key');
    expect([d.line, d.column, d.path]).toEqual([3, 31, 'context.regions.code.max_items']);
    expect(d.message).toBe(
      '`max_items` applies only to sliding_window regions, and region "code" is compacting. Remove it or change the kind.',
    );
  });

  it('unknown-key at the top level and in a stage: a near miss is an error, anything else a warning', () => {
    const result = compile(
      `[contxt.regions]\n${TASK}[agent]\nname = "coder"\n[stages.a]\nsystem_promt = "x"\nmodel = "gpt-4o"\n`,
    );
    const unknown = result.diagnostics.filter((d) => d.code === 'unknown-key');
    expect(summary(unknown)).toEqual([
      'unknown-key error 1:2 contxt',
      'unknown-key warning 3:2 agent',
      'unknown-key error 6:1 stages.a.system_promt',
      'unknown-key warning 7:1 stages.a.model',
    ]);
    expect(unknown[0]!.message).toContain('Did you mean "context"?');
    expect(unknown[1]!.message).toContain('The playground ignores it.');
    expect(unknown[2]!.message).toContain('Did you mean "system_prompt"?');
  });

  it('unknown-key in a gate, a transition, an override table, [security] and [safe_commands]', () => {
    const result = compile(`${R}${TASK}todos = { kind = "checklist" }
[stages.a.transitions.b]
gate = { require_no_open_item = "todos" }
transfrom = "compact"
[stages.a.tool_routing.overrides]
read_file = { region = "task", max_tokens = 5 }
[stages.b]
[security]
allow_seed_command = false
[safe_commands]
alow = ["ls"]
`);
    expect(summary(result.diagnostics.filter((d) => d.code === 'unknown-key'))).toEqual([
      'unknown-key error 5:10 stages.a.transitions.b.gate.require_no_open_item',
      'unknown-key error 6:1 stages.a.transitions.b.transfrom',
      'unknown-key error 8:32 stages.a.tool_routing.overrides.read_file.max_tokens',
      'unknown-key error 11:1 security.allow_seed_command',
      'unknown-key error 13:1 safe_commands.alow',
    ]);
  });
});

describe('positive whole numbers and enumerations', () => {
  it.each([
    ['max_items = 0', 'max_items', 44],
    ['max_items = 1.5', 'max_items', 44],
    ['overflow = -1', 'overflow', 43],
    ['compact_count = "3"', 'compact_count', 48],
  ])('invalid-value: %s', (entry, key, column) => {
    const d = only(`${R}${TASK}w = { kind = "sliding_window", ${entry} }\n`, 'invalid-value');
    expect([d.severity, d.line, d.column, d.path]).toEqual(['error', 3, column, `context.regions.w.${key}`]);
  });

  it('invalid-value: max_entries, required, admission', () => {
    const result = compile(
      `${R}${TASK}h = { kind = "hashmap", max_entries = 0, required = "yes", admission = "drop" }\n`,
    );
    expect(summary(result.diagnostics)).toEqual([
      'invalid-value error 3:39 context.regions.h.max_entries',
      'invalid-value error 3:53 context.regions.h.required',
      'invalid-value error 3:72 context.regions.h.admission',
    ]);
  });

  it('inert-key info: overflow without bulk', () => {
    const d = only(`${R}${TASK}w = { kind = "sliding_window", overflow = 3 }\n`, 'inert-key');
    expect([d.severity, d.line, d.column, d.path]).toEqual(['info', 3, 32, 'context.regions.w.overflow']);
  });
});

describe('seeds', () => {
  it('region-seed-not-understood: { caller_input = ... } suggests caller', () => {
    const d = only(
      `${R}${TASK}inherited = { kind = "pinned", seed = { caller_input = "brief" } }\n`,
      'region-seed-not-understood',
    );
    expect([d.severity, d.line, d.column, d.path]).toEqual([
      'warning',
      3,
      41,
      'context.regions.inherited.seed.caller_input',
    ]);
    expect(d.message).toContain('Did you mean { caller = ... }?');
    expect(d.message).toContain('starts empty');
  });

  it.each([
    ['seed = ""', 'context.regions.r.seed', 14],
    ['seed = 3', 'context.regions.r.seed', 14],
    ['seed = {}', 'context.regions.r.seed', 14],
    ['seed = { files = "README.md" }', 'context.regions.r.seed.files', 24],
    ['seed = { files = [] }', 'context.regions.r.seed.files', 24],
    ['seed = { literal = "a", command = "ls" }', 'context.regions.r.seed', 14],
    ['seed = { glob = "" }', 'context.regions.r.seed.glob', 23],
  ])('region-seed-not-understood: %s', (entry, path, column) => {
    const result = compile(`${R}${TASK}r = { ${entry} }\n`);
    const d = result.diagnostics.find((x) => x.code === 'region-seed-not-understood');
    expect(d && [d.severity, d.line, d.column, d.path]).toEqual(['warning', 3, column, path]);
    expect(result.blueprint!.regions[1]!.seed).toBeUndefined();
  });

  it('region-seed-suspicious: a near miss of task_input reads a caller key', () => {
    const d = only(`${R}t = { kind = "pinned", seed = "task-input" }\n`, 'region-seed-suspicious');
    expect([d.severity, d.line, d.column, d.path]).toEqual(['warning', 2, 31, 'context.regions.t.seed']);
    expect(d.message).toContain('Did you mean seed = "task_input"?');
  });
});

describe('task-not-seeded', () => {
  it('is a warning at [context.regions] when no region reads the task', () => {
    const d = only(`${R}notes = { kind = "pinned", seed = { literal = "x" } }\n`, 'task-not-seeded');
    expect([d.severity, d.line, d.column, d.path]).toEqual(['warning', 1, 10, 'context.regions']);
  });

  it.each([
    ['a region named task (implicit)', `${R}task = {}\n`],
    ['seed = "task_input"', `${R}goal = { seed = "task_input" }\n`],
    ['seed = "task" (the caller key)', `${R}goal = { seed = "task" }\n`],
    ['a stage layout seeding it', '[stages.a.context.regions]\ngoal = { seed = "task_input" }\n'],
  ])('is quiet for %s', (_name, toml) => {
    expect(withCode(toml, 'task-not-seeded')).toEqual([]);
  });

  it('names a region that is almost called task', () => {
    const d = only(`${R}tsk = { kind = "pinned" }\n`, 'task-not-seeded');
    expect(d.message).toContain('Region "tsk" would be, if it were named "task".');
  });

  it('is still reported when the task region has a seed that is not the task', () => {
    expect(withCode(`${R}task = { seed = { literal = "x" } }\n`, 'task-not-seeded')).toHaveLength(1);
  });
});

describe('command seeds', () => {
  const env = 'env = { kind = "pinned", seed = { command = "git log --oneline -20" } }\n';

  it('command-seed (info) and command-seed-not-safe (warning: it does not run, the run goes on) without [safe_commands]', () => {
    const result = compile(`${R}${TASK}${env}`);
    expect(summary(result.diagnostics)).toEqual([
      'command-seed info 3:45 context.regions.env.seed.command',
      'command-seed-not-safe warning 3:45 context.regions.env.seed.command',
    ]);
    expect(result.diagnostics[1]!.message).toBe(
      'Command seed `git log --oneline -20` is not covered by [safe_commands], so it does not run at all and region "env" starts empty; the run goes on. ' +
        'It runs at spawn, before anyone can approve it: add it (or a prefix such as "git log") to [safe_commands] allow = [...].',
    );
  });

  it('a [safe_commands] prefix on a word boundary covers it', () => {
    expect(withCode(`[safe_commands]\nallow = ["git log"]\n${R}${TASK}${env}`, 'command-seed-not-safe')).toEqual([]);
    expect(withCode(`[safe_commands]\nallow = ["git lo"]\n${R}${TASK}${env}`, 'command-seed-not-safe')).toHaveLength(1);
  });

  it('a prefix does not cover a command with shell operators', () => {
    const toml = `[safe_commands]\nallow = ["git log"]\n${R}${TASK}env = { seed = { command = "git log; rm -rf ~" } }\n`;
    expect(summary(withCode(toml, 'command-seed-not-safe'))).toEqual([
      'command-seed-not-safe warning 5:28 context.regions.env.seed.command',
    ]);
  });

  it('command-seed-no-output when a scenario records no stdout for the command', () => {
    const toml = `[safe_commands]\nallow = ["git"]\n${R}${TASK}${env}`;
    expect(summary(withCode(toml, 'command-seed-no-output', {}, { commands: { 'git status': 'clean' } }))).toEqual([
      'command-seed-no-output warning 5:45 context.regions.env.seed.command',
    ]);
    expect(withCode(toml, 'command-seed-no-output', {}, { commands: { 'git log --oneline -20': 'abc fix' } })).toEqual(
      [],
    );
    expect(withCode(toml, 'command-seed-no-output')).toEqual([]);
  });

  it('command-seed-disabled when [security] allow_seed_commands = false', () => {
    const result = compile(`[security]\nallow_seed_commands = false\n${R}${TASK}${env}`);
    expect(summary(result.diagnostics)).toEqual([
      'command-seed info 5:45 context.regions.env.seed.command',
      'command-seed-disabled warning 5:45 context.regions.env.seed.command',
    ]);
  });
});

describe('seed paths', () => {
  it.each([
    ['{ files = ["../secret.txt"] }', 'context.regions.r.seed.files[0]', 25],
    ['{ files = ["/etc/passwd"] }', 'context.regions.r.seed.files[0]', 25],
    ['{ files = ["src/../../x"] }', 'context.regions.r.seed.files[0]', 25],
    ['{ rhai = "../plan.rhai" }', 'context.regions.r.seed.rhai', 23],
  ])('seed-path-escapes: seed = %s', (seed, path, column) => {
    const d = only(`${R}${TASK}r = { seed = ${seed} }\n`, 'seed-path-escapes');
    expect([d.severity, d.line, d.column, d.path]).toEqual(['error', 3, column, path]);
  });

  it('a glob is checked per match, after expansion: escaping matches are errors, none is the no-match warning', () => {
    const workdir = { 'Cargo.toml': '[package]', '../secrets.toml': 'token', '../shared/a.md': 'a' };
    const toml = `${R}${TASK}r = { seed = { glob = "../*.toml" } }\n`;
    const d = only(toml, 'seed-path-escapes', {}, { workdir });
    expect([d.severity, d.line, d.column, d.path]).toEqual(['error', 3, 23, 'context.regions.r.seed.glob']);
    expect(d.message).toBe(
      'Glob "../*.toml" matches "../secrets.toml", which is outside the working directory, so the seed of region "r" is refused at spawn and nothing is read. ' +
        'Narrow the pattern, or declare the directory under [read_paths] paths = [...].',
    );
    // Matches nothing outside: not an error, only the no-match warning. Matches all inside: nothing.
    expect(summary(compile(toml, {}, { workdir: { 'Cargo.toml': '' } }).diagnostics)).toEqual([
      'seed-glob-no-match warning 3:23 context.regions.r.seed.glob',
    ]);
    expect(
      compile(`${R}${TASK}r = { seed = { glob = "src/**/../../*.toml" } }\n`, {}, { workdir }).diagnostics,
    ).toEqual([]);
    // Without a working directory nothing can be expanded, so nothing is judged.
    expect(compile(toml).diagnostics).toEqual([]);
  });

  it('[read_paths] covers files and glob matches (info), but never a rhai script', () => {
    const toml = `[read_paths]\npaths = ["../shared"]\n${R}${TASK}a = { seed = { files = ["../shared/rules.md"] } }\nb = { seed = { glob = "../shared/*.md" } }\nc = { seed = { rhai = "../shared/s.rhai" } }\nd = { seed = { files = ["../other/x"] } }\n`;
    const result = compile(
      toml,
      {},
      { workdir: { '../shared/rules.md': 'r', '../shared/a.md': 'a', '../other/x': 'x' } },
    );
    expect(summary(result.diagnostics)).toEqual([
      'seed-path-via-read-paths info 5:25 context.regions.a.seed.files[0]',
      'seed-path-via-read-paths info 6:23 context.regions.b.seed.glob',
      'seed-path-escapes error 7:23 context.regions.c.seed.rhai',
      'seed-path-escapes error 8:25 context.regions.d.seed.files[0]',
    ]);
  });

  it('with a working directory: missing files, empty globs, and glob matches checked one by one', () => {
    const workdir = { 'README.md': '# hi', 'src/lib.rs': 'fn x() {}', '../outside/a.rs': 'leak' };
    // `**` never crosses `..`: `**/*.rs` is only src/lib.rs; `../*/a.rs` names the parent itself.
    const toml = `${R}${TASK}a = { seed = { files = ["README.md", "NOPE.md"] } }\nb = { seed = { glob = "**/*.rs" } }\nc = { seed = { glob = "docs/*.md" } }\nd = { seed = { glob = "../*/a.rs" } }\ne = { seed = { rhai = "seeds/plan.rhai" } }\n`;
    const result = compile(toml, { 'seeds/plan.rhai': '42' }, { workdir });
    expect(summary(result.diagnostics)).toEqual([
      'seed-file-missing warning 3:38 context.regions.a.seed.files[1]',
      'seed-glob-no-match warning 5:23 context.regions.c.seed.glob',
      'seed-path-escapes error 6:23 context.regions.d.seed.glob',
      'seed-file-missing warning 7:23 context.regions.e.seed.rhai',
    ]);
    expect(result.diagnostics[2]!.message).toContain('"../outside/a.rs"');
    expect(result.diagnostics[3]!.message).toContain('resolve against the working directory');
  });

  it('without a working directory, existence is not checked', () => {
    expect(compile(`${R}${TASK}a = { seed = { files = ["NOPE.md"] } }\n`).diagnostics).toEqual([]);
  });
});

describe('custom scripts', () => {
  it('script-outside-agent-dir', () => {
    const d = only(
      `${R}${TASK}brain = { kind = "custom", script = "../shared/brain.rhai" }\n`,
      'script-outside-agent-dir',
    );
    expect([d.severity, d.line, d.column, d.path]).toEqual(['error', 3, 37, 'context.regions.brain.script']);
  });

  it('custom-script-missing: no script key, and a script not in the agent directory', () => {
    const result = compile(`${R}${TASK}a = { kind = "custom" }\nb = { kind = "custom", script = "hooks/b.rhai" }\n`);
    expect(summary(result.diagnostics)).toEqual([
      'custom-script-missing error 3:1 context.regions.a',
      'custom-script-missing error 4:33 context.regions.b.script',
    ]);
  });

  it('by default the Rhai interpreter checks each script: custom-script-invalid and custom-render-missing', () => {
    const toml = `${R}${TASK}a = { kind = "custom", script = "a.rhai" }\nb = { kind = "custom", script = "b.rhai" }\nc = { kind = "custom", script = "c.rhai" }\n`;
    const result = compile(toml, {
      'a.rhai': 'fn render(ctx) {\n  let x = ;\n}\n',
      'b.rhai': 'fn on_write(ctx) { () }\n',
      'c.rhai': 'fn render(ctx) { ctx.entries.len().to_string() }\n',
    });
    expect(result.diagnostics.map((d) => `${d.code} ${d.file}:${d.line}:${d.column}`)).toEqual([
      'custom-script-invalid a.rhai:2:11',
      'custom-render-missing b.rhai:1:1',
    ]);
  });

  it('the script check hook reports in the script file', () => {
    const checkScript = (source: string, file: string) =>
      source.includes('fn render')
        ? []
        : [
            {
              code: 'custom-render-missing' as const,
              message: `${file} defines no fn render(ctx).`,
              line: 1,
              column: 1,
            },
          ];
    const result = compile(
      `${R}${TASK}b = { kind = "custom", script = "./hooks/b.rhai" }\n`,
      { 'hooks/b.rhai': 'fn on_write(ctx) { () }' },
      { checkScript },
    );
    expect(result.diagnostics).toEqual([
      {
        code: 'custom-render-missing',
        severity: 'error',
        message: 'hooks/b.rhai defines no fn render(ctx).',
        file: 'hooks/b.rhai',
        line: 1,
        column: 1,
        path: '',
      },
    ]);
  });
});

describe('stages: gates, transitions, routing', () => {
  it('gate-region-undeclared with a did-you-mean', () => {
    const d = only(
      `${R}${TASK}todos = { kind = "checklist" }\n[stages.a.transitions.b]\ngate = { require_no_open_items = "todo" }\n[stages.b]\n`,
      'gate-region-undeclared',
    );
    expect([d.severity, d.line, d.column, d.path]).toEqual([
      'error',
      5,
      34,
      'stages.a.transitions.b.gate.require_no_open_items',
    ]);
    expect(d.message).toContain('Did you mean "todos"?');
  });

  it('gate-region-not-checklist', () => {
    const d = only(
      `${R}${TASK}todos = { kind = "pinned" }\n[stages.a.transitions.b]\ngate = { require_no_open_items = "todos" }\n[stages.b]\n`,
      'gate-region-not-checklist',
    );
    expect([d.severity, d.line, d.column, d.path]).toEqual([
      'error',
      5,
      34,
      'stages.a.transitions.b.gate.require_no_open_items',
    ]);
    expect(d.message).toContain('pinned region');
  });

  it("a gate on a checklist declared only by another stage is refused: the gate's stage cannot reach it (issue 32)", () => {
    const toml = `${R}${TASK}[stages.a.transitions.b]\ngate = { require_no_open_items = "todos" }\n[stages.b.context.regions]\ntodos = { kind = "checklist" }\n`;
    expect(summary(compile(toml).diagnostics)).toEqual([
      'gate-region-not-visible error 4:34 stages.a.transitions.b.gate.require_no_open_items',
    ]);
  });

  it('transition-target-undeclared and unknown-transform', () => {
    const result = compile(
      `${R}${TASK}[stages.plan.transitions.implment]\ntransform = "summarize"\n[stages.implement]\n`,
    );
    expect(summary(result.diagnostics)).toEqual([
      'transition-target-undeclared error 3:26 stages.plan.transitions.implment',
      'unknown-transform error 4:13 stages.plan.transitions.implment.transform',
    ]);
    expect(result.diagnostics[0]!.message).toContain('Did you mean "implement"?');
  });

  it('routing-target-not-visible: a region the stage layout leaves out', () => {
    const toml = `${R}${TASK}codebase = { kind = "compacting" }
[stages.analyze.context.regions]
task = { kind = "pinned" }
scratch = { kind = "clearable" }
[stages.analyze.tool_routing]
default_region = "scratch"
[stages.analyze.tool_routing.overrides]
read_file = "codebase"
grep = { region = "codebase" }
`;
    const result = compile(toml);
    expect(summary(result.diagnostics)).toEqual([
      'routing-target-not-visible error 10:13 stages.analyze.tool_routing.overrides.read_file',
      'routing-target-not-visible error 11:19 stages.analyze.tool_routing.overrides.grep.region',
    ]);
    expect(result.diagnostics[0]!.message).toContain('Add codebase to [stages.analyze.context.regions]');
  });

  it('the four always-valid targets route anywhere', () => {
    const toml = `${R}${TASK}[stages.a.context.regions]\ntask = {}\n[stages.a.tool_routing]\ndefault_region = "tool_results"\n[stages.a.tool_routing.overrides]\nx = "conversation"\ny = "final_output"\nz = { region = "stage_instructions" }\n`;
    expect(compile(toml).diagnostics).toEqual([]);
  });

  it('routing-target-not-visible: a region declared nowhere', () => {
    const d = only(`${R}${TASK}[stages.a.tool_routing]\ndefault_region = "scrach"\n`, 'routing-target-not-visible');
    expect([d.line, d.column, d.path]).toEqual([4, 18, 'stages.a.tool_routing.default_region']);
  });

  it.each([
    ['read_file = 5', 13],
    ['read_file = ["codebase"]', 13],
    ['read_file = {}', 13],
    ['read_file = ""', 13],
  ])('routing-override-invalid: %s', (entry, column) => {
    const d = only(
      `${R}${TASK}codebase = {}\n[stages.a.tool_routing.overrides]\n${entry}\n`,
      'routing-override-invalid',
    );
    expect([d.severity, d.line, d.column, d.path]).toEqual([
      'error',
      5,
      column,
      'stages.a.tool_routing.overrides.read_file',
    ]);
  });

  it('max_result_tokens must be positive whole numbers', () => {
    const result = compile(
      `${R}${TASK}[stages.a.tool_routing]\nmax_result_tokens = 0\n[stages.a.tool_routing.max_result_tokens_per_tool]\nread_file = "big"\n`,
    );
    expect(summary(result.diagnostics)).toEqual([
      'invalid-value error 4:21 stages.a.tool_routing.max_result_tokens',
      'invalid-value error 6:13 stages.a.tool_routing.max_result_tokens_per_tool.read_file',
    ]);
  });
});

describe('source regions and file tracking', () => {
  it('source-region-undeclared', () => {
    const d = only(
      `${R}${TASK}history = { kind = "compact_history", source_region = "codebse" }\ncodebase = { kind = "compacting" }\n`,
      'source-region-undeclared',
    );
    expect([d.severity, d.line, d.column, d.path]).toEqual(['error', 3, 55, 'context.regions.history.source_region']);
    expect(d.message).toContain('Did you mean "codebase"?');
  });

  it('file-tracking-needs-hashmap without any hashmap region', () => {
    const d = only(`[context.file_tracking]\nenabled = true\n${R}${TASK}`, 'file-tracking-needs-hashmap');
    expect([d.severity, d.line, d.column, d.path]).toEqual(['error', 1, 10, 'context.file_tracking']);
  });

  it('file-tracking-needs-hashmap when region names a non-hashmap', () => {
    const d = only(
      `[context.file_tracking]\nregion = "notes"\n${R}${TASK}notes = { kind = "pinned" }\n`,
      'file-tracking-needs-hashmap',
    );
    expect([d.line, d.column, d.path]).toEqual([2, 10, 'context.file_tracking.region']);
  });

  it('disabled file tracking needs nothing', () => {
    expect(compile(`[context.file_tracking]\nenabled = false\n${R}${TASK}`).diagnostics).toEqual([]);
  });
});
