import { describe, expect, it } from 'vitest';
import { normalizePath, resolveSeeds } from '../../src/engine/seeds.ts';
import { commandIsSafe as isCommandSafe } from '../../src/engine/blueprint/policy.ts';
import { blueprint, region, scenario, seeded } from './fixtures.ts';

const workdir = {
  'README.md': '# Demo\nA demo crate.',
  'src/lib.rs': 'pub fn add() {}',
  'src/main.rs': 'fn main() {}',
  'src/util/mod.rs': 'pub mod x;',
  'src/notes.txt': 'notes',
  'Cargo.toml': '[package]',
  '../secrets.toml': 'token = "x"',
  '../docs/guide.md': 'guide',
};

describe('resolveSeeds: caller inputs', () => {
  it('task_input, input, key and caller fill from inputs', () => {
    const regions = [
      seeded('task', { type: 'task_input' }, { seedImplicit: true }),
      seeded('standards', { type: 'input' }),
      seeded('style', { type: 'key', key: 'style_guide' }),
      seeded('inherited', { type: 'caller', name: 'brief' }),
    ];
    const result = resolveSeeds(blueprint(regions), regions, scenario({
      inputs: { task: 'Fix the test', standards: 'No unwrap', style_guide: 'rustfmt', caller: { brief: 'From parent' } },
    }));
    expect(result).toEqual({
      seeds: [
        { region: 'task', entries: [{ content: 'Fix the test', source: 'task_input' }] },
        { region: 'standards', entries: [{ content: 'No unwrap', source: 'input:standards' }] },
        { region: 'style', entries: [{ content: 'rustfmt', source: 'input:style_guide' }] },
        { region: 'inherited', entries: [{ content: 'From parent', source: 'caller:brief' }] },
      ],
      findings: [],
    });
  });

  it('a missing key is a warning and the region starts empty', () => {
    const regions = [seeded('task', { type: 'task_input' }), seeded('standards', { type: 'input' }), seeded('inherited', { type: 'caller', name: 'brief' })];
    const result = resolveSeeds(blueprint(regions), regions, scenario());
    expect(result.seeds.map((s) => s.entries.length)).toEqual([0, 0, 0]);
    expect(result.findings.map((f) => [f.region, f.severity])).toEqual([['task', 'warning'], ['standards', 'warning'], ['inherited', 'warning']]);
    expect(result.findings[0]!.message).toContain('set inputs.task');
    expect(result.findings[1]!.message).toContain('inputs["standards"]');
    expect(result.findings[2]!.message).toContain('inputs.caller has no "brief"');
    expect(result.taskRefused).toBeUndefined();
  });

  it('a non-string input is an error naming the key', () => {
    const regions = [seeded('limits', { type: 'input' })];
    const result = resolveSeeds(blueprint(regions), regions, scenario({ inputs: { limits: 3 } }));
    expect(result.findings).toEqual([{ region: 'limits', severity: 'error', message: 'inputs["limits"] must be a string to seed region "limits", got a number' }]);
  });

  it('a task with no region seeded from it is refused', () => {
    const regions = [seeded('rules', { type: 'literal', text: 'Be brief.' })];
    const result = resolveSeeds(blueprint(regions), regions, scenario({ inputs: { task: 'Do it' } }));
    expect(result.taskRefused).toMatch(/^task refused: the scenario gives a task \(inputs.task\) but no region is seeded from it/);
    expect(result.taskRefused).toContain('seed = "task_input"');
  });

  it('seed = "task" and seed = "input" on a region named task both take the task', () => {
    for (const r of [seeded('goal', { type: 'key', key: 'task' }), seeded('task', { type: 'input' })]) {
      const result = resolveSeeds(blueprint([r]), [r], scenario({ inputs: { task: 'Do it' } }));
      expect(result.taskRefused).toBeUndefined();
      expect(result.seeds[0]!.entries[0]!.content).toBe('Do it');
    }
  });

  it('no task given means nothing to refuse; unseeded regions produce no seed row', () => {
    const regions = [region('scratch'), seeded('rules', { type: 'literal', text: 'Be brief.' })];
    const result = resolveSeeds(blueprint(regions), regions, scenario());
    expect(result).toEqual({ seeds: [{ region: 'rules', entries: [{ content: 'Be brief.', source: 'literal' }] }], findings: [] });
  });
});

describe('resolveSeeds: files and globs', () => {
  it('files: one entry per file keyed by normalized path, in the order given', () => {
    const regions = [seeded('readme', { type: 'files', files: ['./src/../README.md', 'src/lib.rs'] })];
    const result = resolveSeeds(blueprint(regions), regions, scenario({ workdir }));
    expect(result.seeds[0]!.entries).toEqual([
      { content: '# Demo\nA demo crate.', key: 'README.md', source: 'files:README.md' },
      { content: 'pub fn add() {}', key: 'src/lib.rs', source: 'files:src/lib.rs' },
    ]);
    expect(result.findings).toEqual([]);
  });

  it('files: a missing file is a warning, the others still load', () => {
    const regions = [seeded('readme', { type: 'files', files: ['NOPE.md', 'Cargo.toml'] })];
    const result = resolveSeeds(blueprint(regions), regions, scenario({ workdir }));
    expect(result.seeds[0]!.entries.map((e) => e.key)).toEqual(['Cargo.toml']);
    expect(result.findings).toEqual([{ region: 'readme', severity: 'warning', message: 'files seed for region "readme": "NOPE.md" is not in the working directory (scenario.workdir), so it is skipped' }]);
  });

  it('files: a path leaving the working directory refuses the whole seed before reading', () => {
    const regions = [seeded('readme', { type: 'files', files: ['README.md', 'src/../../secrets.toml', '/etc/passwd'] })];
    const result = resolveSeeds(blueprint(regions), regions, scenario({ workdir }));
    expect(result.seeds[0]!.entries).toEqual([]);
    expect(result.findings).toEqual([{
      region: 'readme', severity: 'error', code: 'seed-path-escapes',
      message: 'files seed for region "readme" refused: "src/../../secrets.toml", "/etc/passwd" leave the working directory; nothing was read. To read there on purpose, declare the path under [read_paths]',
    }]);
  });

  it('files: [read_paths] grants a path outside', () => {
    const regions = [seeded('docs', { type: 'files', files: ['../docs/guide.md'] })];
    const result = resolveSeeds(blueprint(regions, { readPaths: ['../docs'] }), regions, scenario({ workdir }));
    expect(result.seeds[0]!.entries).toEqual([{ content: 'guide', key: '../docs/guide.md', source: 'files:../docs/guide.md' }]);
    expect(result.findings).toEqual([]);
  });

  it('glob: ** spans directories, matches sorted by path', () => {
    const regions = [seeded('layout', { type: 'glob', glob: 'src/**/*.rs' })];
    const result = resolveSeeds(blueprint(regions), regions, scenario({ workdir }));
    expect(result.seeds[0]!.entries.map((e) => [e.key, e.source])).toEqual([
      ['src/lib.rs', 'glob:src/lib.rs'], ['src/main.rs', 'glob:src/main.rs'], ['src/util/mod.rs', 'glob:src/util/mod.rs'],
    ]);
  });

  it('glob: no match is a warning', () => {
    const regions = [seeded('layout', { type: 'glob', glob: '*.py' })];
    const result = resolveSeeds(blueprint(regions), regions, scenario({ workdir }));
    expect(result.seeds[0]!.entries).toEqual([]);
    expect(result.findings).toEqual([{ region: 'layout', severity: 'warning', message: 'glob seed "*.py" for region "layout" matches no file in the working directory, so the region starts empty' }]);
  });

  it('glob: checked per match, escaping matches refused, granted ones kept', () => {
    const regions = [seeded('cfg', { type: 'glob', glob: '../**/*.{toml,md}' })];
    const denied = resolveSeeds(blueprint(regions), regions, scenario({ workdir }));
    expect(denied.seeds[0]!.entries).toEqual([]);
    expect(denied.findings[0]).toMatchObject({ severity: 'error', code: 'seed-path-escapes' });
    expect(denied.findings[0]!.message).toContain('"../docs/guide.md", "../secrets.toml" leave the working directory');
    const granted = resolveSeeds(blueprint(regions, { readPaths: ['../docs'] }), regions, scenario({ workdir }));
    expect(granted.seeds[0]!.entries.map((e) => e.key)).toEqual(['../docs/guide.md']);
    expect(granted.findings[0]!.message).toContain('"../secrets.toml" leaves the working directory');
  });
});

describe('resolveSeeds: literal, command, rhai', () => {
  const command = 'git log --oneline -20';
  const commands = { [command]: 'abc123 first\n' };

  it('command: runs when covered by [safe_commands] and allowed', () => {
    const regions = [seeded('env', { type: 'command', command })];
    const result = resolveSeeds(blueprint(regions, { safeCommands: ['git log'] }), regions, scenario({ commands }));
    expect(result).toEqual({ seeds: [{ region: 'env', entries: [{ content: 'abc123 first\n', source: `command:${command}` }] }], findings: [] });
  });

  it('command: refused when not covered, when disallowed, and for one run', () => {
    const regions = [seeded('env', { type: 'command', command })];
    const cases = [
      { bp: blueprint(regions), options: {}, why: 'must be covered by [safe_commands]' },
      { bp: blueprint(regions, { safeCommands: ['git log'], security: { allowSeedCommands: false } }), options: {}, why: '[security] allow_seed_commands = false' },
      { bp: blueprint(regions, { safeCommands: ['git log'] }), options: { noSeedCommands: true }, why: '--no-seed-commands' },
    ];
    for (const { bp, options, why } of cases) {
      const result = resolveSeeds(bp, regions, scenario({ commands }), options);
      expect(result.seeds[0]!.entries).toEqual([]);
      expect(result.findings).toHaveLength(1);
      expect(result.findings[0]).toMatchObject({ region: 'env', severity: 'error', code: 'command-seed-not-safe' });
      expect(result.findings[0]!.message).toContain(`command seed "${command}" for region "env" did not run: `);
      expect(result.findings[0]!.message).toContain(why);
    }
  });

  it('command: covered but no recorded stdout is a warning', () => {
    const regions = [seeded('env', { type: 'command', command: 'ls' })];
    const result = resolveSeeds(blueprint(regions, { safeCommands: ['ls'] }), regions, scenario());
    expect(result.findings[0]!.message).toContain('add it under "commands"');
  });

  it('isCommandSafe: exact or word prefix, never across shell operators', () => {
    expect(isCommandSafe('git log --oneline -20', ['git log'])).toBe(true);
    expect(isCommandSafe('git  log', ['git log'])).toBe(true);
    expect(isCommandSafe('git logx', ['git log'])).toBe(false);
    expect(isCommandSafe('git log; rm -rf /', ['git log'])).toBe(false);
    expect(isCommandSafe('git log | head', ['git log'])).toBe(false);
    expect(isCommandSafe('git log $(whoami)', ['git log'])).toBe(false);
    expect(isCommandSafe('git log | head', ['git log | head'])).toBe(true);
    expect(isCommandSafe('ls', [''])).toBe(false);
  });

  it('rhai: runs the script from the agent map through runRhaiSeed', () => {
    const regions = [seeded('computed', { type: 'rhai', script: './seeds/plan.rhai' })];
    const sc = scenario({ agent: { 'agent.leviath': '', 'seeds/plan.rhai': '"plan: " + 1' } });
    const calls: string[] = [];
    const result = resolveSeeds(blueprint(regions), regions, sc, { runRhaiSeed: (path, source) => { calls.push(`${path}|${source}`); return 'plan: 1'; } });
    expect(calls).toEqual(['seeds/plan.rhai|"plan: " + 1']);
    expect(result).toEqual({ seeds: [{ region: 'computed', entries: [{ content: 'plan: 1', source: 'rhai:seeds/plan.rhai' }] }], findings: [] });
  });

  it('rhai: no runner, missing file, escaping path and a throwing script are findings', () => {
    const sc = scenario({ agent: { 'agent.leviath': '', 'seeds/plan.rhai': 'x' } });
    const run = (script: string, runRhaiSeed?: (p: string, s: string) => string) => {
      const regions = [seeded('computed', { type: 'rhai', script })];
      return resolveSeeds(blueprint(regions), regions, sc, runRhaiSeed ? { runRhaiSeed } : {}).findings[0]!;
    };
    expect(run('seeds/plan.rhai').message).toBe('rhai seed "seeds/plan.rhai" for region "computed" was not run: no Rhai runner is available here');
    expect(run('seeds/none.rhai', () => '')).toMatchObject({ severity: 'error', code: 'custom-script-missing' });
    expect(run('../plan.rhai', () => '')).toMatchObject({ severity: 'error', code: 'script-outside-agent-dir' });
    expect(run('seeds/plan.rhai', () => { throw new Error('line 1, column 3: boom'); }).message)
      .toBe('rhai seed "seeds/plan.rhai" for region "computed" failed: line 1, column 3: boom');
  });
});

describe('paths and globs', () => {
  it('normalizePath', () => {
    expect(normalizePath('./a/./b/../c.md')).toBe('a/c.md');
    expect(normalizePath('a/../../x')).toBe('../x');
    expect(normalizePath('..\\..\\x')).toBe('../../x');
    expect(normalizePath('/etc/../etc/passwd')).toBe('/etc/passwd');
    expect(normalizePath('/../x')).toBe('/x');
  });
});
