import { describe, expect, it } from 'vitest';
import { resolveSeed, taskSeedFinding, type SeedInputs } from '../../src/engine/seeds.ts';
import { commandIsSafe as isCommandSafe } from '../../src/engine/blueprint/policy.ts';
import type { Blueprint, RegionDecl } from '../../src/engine/blueprint/types.ts';
import { blueprint, decl, seeded } from '../builders.ts';

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

/** Every region's seed, as a run resolves them. */
function resolveSeeds(bp: Blueprint, regions: readonly RegionDecl[], inputs: SeedInputs) {
  const resolved = regions.filter((r) => r.seed).map((r) => ({ region: r.name, ...resolveSeed(bp, r, inputs) }));
  return {
    seeds: resolved.map(({ region, entries }) => ({ region, entries })),
    findings: resolved.flatMap((r) => r.findings),
  };
}

describe('resolveSeed: caller inputs', () => {
  it('task_input, input, key and caller fill from inputs', () => {
    const regions = [
      seeded('task', { type: 'task_input' }, { seedImplicit: true }),
      seeded('standards', { type: 'input' }),
      seeded('style', { type: 'key', key: 'style_guide' }),
      seeded('inherited', { type: 'caller', name: 'brief' }),
    ];
    const result = resolveSeeds(blueprint(regions), regions, {
      inputs: {
        task: 'Fix the test',
        standards: 'No unwrap',
        style_guide: 'rustfmt',
        caller: { brief: 'From parent' },
      },
    });
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

  it('a missing key is a warning naming the scenario field to set (never a command this project lacks)', () => {
    const regions = [
      seeded('task', { type: 'task_input' }),
      seeded('standards', { type: 'input' }),
      seeded('inherited', { type: 'caller', name: 'brief' }),
    ];
    const result = resolveSeeds(blueprint(regions), regions, { inputs: {} });
    expect(result.seeds.map((s) => s.entries.length)).toEqual([0, 0, 0]);
    expect(result.findings).toEqual([
      {
        region: 'task',
        severity: 'warning',
        code: 'seed-input-missing',
        at: [],
        message:
          'Region "task" is seeded from the caller key "task", but the scenario gives no inputs.task, so it starts empty. Set inputs.task in the scenario.',
      },
      {
        region: 'standards',
        severity: 'warning',
        code: 'seed-input-missing',
        at: [],
        message:
          'Region "standards" is seeded from the caller key "standards", but the scenario gives no inputs["standards"], so it starts empty. Set inputs["standards"] in the scenario.',
      },
      {
        region: 'inherited',
        severity: 'warning',
        code: 'seed-input-missing',
        at: ['caller'],
        message:
          'Region "inherited" is seeded from the parent\'s value "brief", but inputs.caller has no "brief", so it starts empty. Set inputs.caller["brief"] in the scenario.',
      },
    ]);
    expect(result.findings.map((f) => f.message).join(' ')).not.toContain('lev run');
  });

  it('unknown inputs (validating a bare agent directory) are not judged', () => {
    const regions = [seeded('task', { type: 'task_input' })];
    expect(resolveSeeds(blueprint(regions), regions, {})).toEqual({
      seeds: [{ region: 'task', entries: [] }],
      findings: [],
    });
  });

  it('a non-string input is an error naming the key', () => {
    const regions = [seeded('limits', { type: 'input' })];
    const result = resolveSeeds(blueprint(regions), regions, { inputs: { limits: 3 } });
    expect(result.findings).toEqual([
      {
        region: 'limits',
        severity: 'error',
        code: 'seed-input-invalid',
        at: [],
        message: 'inputs["limits"] must be a string to seed region "limits", not a number.',
      },
    ]);
  });

  it('a task with no region seeded from it: an error when the inputs give one, a warning otherwise', () => {
    const regions = [seeded('rules', { type: 'literal', text: 'Be brief.' })];
    expect(taskSeedFinding(regions, { task: 'Do it' })).toEqual({
      severity: 'error',
      message:
        'The scenario gives a task (inputs.task) but no region is seeded from it, so the run is refused rather than run without it. Add a pinned region for it: task = { kind = "pinned", seed = "task_input" } (a region named task is seeded from the task implicitly).',
    });
    expect(taskSeedFinding(regions, {})?.severity).toBe('warning');
    expect(taskSeedFinding(regions, undefined)?.severity).toBe('warning');
  });

  it('seed = "task" and seed = "input" on a region named task both take the task', () => {
    for (const r of [seeded('goal', { type: 'key', key: 'task' }), seeded('task', { type: 'input' })]) {
      expect(taskSeedFinding([r], { task: 'Do it' })).toBeUndefined();
      expect(resolveSeed(blueprint([r]), r, { inputs: { task: 'Do it' } }).entries[0]!.content).toBe('Do it');
    }
  });

  it('unseeded regions produce no seed row', () => {
    const regions = [decl('scratch'), seeded('rules', { type: 'literal', text: 'Be brief.' })];
    const result = resolveSeeds(blueprint(regions), regions, { inputs: {} });
    expect(result).toEqual({
      seeds: [{ region: 'rules', entries: [{ content: 'Be brief.', source: 'literal' }] }],
      findings: [],
    });
  });
});

describe('resolveSeed: files and globs', () => {
  it('files: one entry per file keyed by normalized path, in the order given', () => {
    const regions = [seeded('readme', { type: 'files', files: ['./src/../README.md', 'src/lib.rs'] })];
    const result = resolveSeeds(blueprint(regions), regions, { workdir });
    expect(result.seeds[0]!.entries).toEqual([
      { content: '# Demo\nA demo crate.', key: 'README.md', source: 'files:README.md' },
      { content: 'pub fn add() {}', key: 'src/lib.rs', source: 'files:src/lib.rs' },
    ]);
    expect(result.findings).toEqual([]);
  });

  it('files: a missing file is a warning, the others still load', () => {
    const regions = [seeded('readme', { type: 'files', files: ['NOPE.md', 'Cargo.toml'] })];
    const result = resolveSeeds(blueprint(regions), regions, { workdir });
    expect(result.seeds[0]!.entries.map((e) => e.key)).toEqual(['Cargo.toml']);
    expect(result.findings).toEqual([
      {
        region: 'readme',
        severity: 'warning',
        code: 'seed-file-missing',
        at: ['files', 0],
        message:
          'Seed file "NOPE.md" is not in the working directory, so region "readme" gets nothing from it. Add the file or fix the path.',
      },
    ]);
  });

  it('files: a path leaving the working directory refuses the whole seed before reading', () => {
    const regions = [
      seeded('readme', { type: 'files', files: ['README.md', 'src/../../secrets.toml', '/etc/passwd'] }),
    ];
    const result = resolveSeeds(blueprint(regions), regions, { workdir });
    expect(result.seeds[0]!.entries).toEqual([]);
    expect(result.findings.map((f) => [f.severity, f.code, f.at])).toEqual([
      ['error', 'seed-path-escapes', ['files', 1]],
      ['error', 'seed-path-escapes', ['files', 2]],
    ]);
    expect(result.findings[0]!.message).toBe(
      'Seed path "src/../../secrets.toml" leaves the working directory, so the seed of region "readme" is refused at spawn and nothing is read. Use a path inside it, or declare the directory under [read_paths] paths = [...].',
    );
  });

  it('files: [read_paths] grants a path outside (an info says so)', () => {
    const regions = [seeded('docs', { type: 'files', files: ['../docs/guide.md'] })];
    const result = resolveSeeds(blueprint(regions, { readPaths: ['../docs'] }), regions, { workdir });
    expect(result.seeds[0]!.entries).toEqual([
      { content: 'guide', key: '../docs/guide.md', source: 'files:../docs/guide.md' },
    ]);
    expect(result.findings.map((f) => [f.severity, f.code])).toEqual([['info', 'seed-path-via-read-paths']]);
  });

  it('glob: ** spans directories, matches sorted by path', () => {
    const regions = [seeded('layout', { type: 'glob', glob: 'src/**/*.rs' })];
    const result = resolveSeeds(blueprint(regions), regions, { workdir });
    expect(result.seeds[0]!.entries.map((e) => [e.key, e.source])).toEqual([
      ['src/lib.rs', 'glob:src/lib.rs'],
      ['src/main.rs', 'glob:src/main.rs'],
      ['src/util/mod.rs', 'glob:src/util/mod.rs'],
    ]);
  });

  it('glob: no match is a warning', () => {
    const regions = [seeded('layout', { type: 'glob', glob: '*.py' })];
    const result = resolveSeeds(blueprint(regions), regions, { workdir });
    expect(result.seeds[0]!.entries).toEqual([]);
    expect(result.findings).toEqual([
      {
        region: 'layout',
        severity: 'warning',
        code: 'seed-glob-no-match',
        at: ['glob'],
        message:
          'Glob "*.py" matches no file in the working directory, so region "layout" starts empty. Check the pattern.',
      },
    ]);
  });

  it('glob: `**` never crosses `..`, so `**/*.toml` stays inside', () => {
    const regions = [seeded('cfg', { type: 'glob', glob: '**/*.toml' })];
    expect(resolveSeeds(blueprint(regions), regions, { workdir })).toEqual({
      seeds: [{ region: 'cfg', entries: [{ content: '[package]', key: 'Cargo.toml', source: 'glob:Cargo.toml' }] }],
      findings: [],
    });
  });

  it('glob: `..` inside the pattern is normalized first (`src/../*.md` is `*.md`)', () => {
    const regions = [seeded('docs', { type: 'glob', glob: 'src/../*.md' })];
    expect(resolveSeeds(blueprint(regions), regions, { workdir }).seeds[0]!.entries.map((e) => e.key)).toEqual([
      'README.md',
    ]);
  });

  it('glob: checked per match, escaping matches refuse the seed, granted ones are kept', () => {
    const regions = [seeded('cfg', { type: 'glob', glob: '../**/*.{toml,md}' })];
    const denied = resolveSeeds(blueprint(regions), regions, { workdir });
    expect(denied.seeds[0]!.entries).toEqual([]);
    expect(denied.findings.map((f) => [f.severity, f.code])).toEqual([
      ['error', 'seed-path-escapes'],
      ['error', 'seed-path-escapes'],
    ]);
    expect(denied.findings[0]!.message).toContain('matches "../docs/guide.md", which is outside the working directory');
    expect(denied.findings[1]!.message).toContain('matches "../secrets.toml", which is outside the working directory');
    const granted = resolveSeeds(blueprint(regions, { readPaths: ['../docs', '../secrets.toml'] }), regions, {
      workdir,
    });
    expect(granted.seeds[0]!.entries.map((e) => e.key)).toEqual(['../docs/guide.md', '../secrets.toml']);
    expect(granted.findings.map((f) => [f.severity, f.code])).toEqual([['info', 'seed-path-via-read-paths']]);
  });
});

describe('resolveSeed: literal, command, rhai', () => {
  const command = 'git log --oneline -20';
  const commands = { [command]: 'abc123 first\n' };
  const info = {
    region: 'env',
    severity: 'info',
    code: 'command-seed',
    at: ['command'],
    message: `Region "env" is seeded by running \`${command}\` at spawn, before the first inference and before any approval prompt.`,
  };

  it('command: runs when covered by [safe_commands] and allowed', () => {
    const regions = [seeded('env', { type: 'command', command })];
    const result = resolveSeeds(blueprint(regions, { safeCommands: ['git log'] }), regions, { commands });
    expect(result).toEqual({
      seeds: [{ region: 'env', entries: [{ content: 'abc123 first\n', source: `command:${command}` }] }],
      findings: [info],
    });
  });

  it('command: refused machine-wide or not covered, it does not run, the region starts empty, and the finding is a warning', () => {
    const regions = [seeded('env', { type: 'command', command })];
    const disabled = resolveSeeds(
      blueprint(regions, { safeCommands: ['git log'], security: { allowSeedCommands: false } }),
      regions,
      { commands },
    );
    expect(disabled).toEqual({
      seeds: [{ region: 'env', entries: [] }],
      findings: [
        info,
        {
          region: 'env',
          severity: 'warning',
          code: 'command-seed-disabled',
          at: ['command'],
          message: `[security] allow_seed_commands = false refuses command seeds, so \`${command}\` does not run and region "env" starts empty; the run goes on.`,
        },
      ],
    });
    const uncovered = resolveSeeds(blueprint(regions), regions, { commands });
    expect(uncovered.seeds).toEqual([{ region: 'env', entries: [] }]);
    expect(uncovered.findings.map((f) => [f.severity, f.code])).toEqual([
      ['info', 'command-seed'],
      ['warning', 'command-seed-not-safe'],
    ]);
  });

  it('command: covered but no recorded stdout is a warning', () => {
    const regions = [seeded('env', { type: 'command', command: 'ls' })];
    const result = resolveSeeds(blueprint(regions, { safeCommands: ['ls'] }), regions, { commands: {} });
    expect(result.findings[1]).toMatchObject({ severity: 'warning', code: 'command-seed-no-output' });
    expect(result.findings[1]!.message).toContain('Add it under "commands" in the scenario.');
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

  it('rhai: runs the script from the working directory (not the agent directory) through the runner', () => {
    const regions = [seeded('computed', { type: 'rhai', script: './seeds/plan.rhai' })];
    const calls: string[] = [];
    const runRhaiSeed = (path: string, source: string) => {
      calls.push(`${path}|${source}`);
      return 'plan: 1';
    };
    const result = resolveSeeds(blueprint(regions), regions, {
      workdir: { 'seeds/plan.rhai': '"plan: " + 1' },
      runRhaiSeed,
    });
    expect(calls).toEqual(['seeds/plan.rhai|"plan: " + 1']);
    expect(result).toEqual({
      seeds: [{ region: 'computed', entries: [{ content: 'plan: 1', source: 'rhai:seeds/plan.rhai' }] }],
      findings: [],
    });
  });

  it('rhai: missing from the working directory, escaping and throwing scripts are findings', () => {
    const find = (script: string, runRhaiSeed: (p: string, s: string) => string = () => '') => {
      const regions = [seeded('computed', { type: 'rhai', script })];
      return resolveSeeds(blueprint(regions), regions, { workdir: { 'seeds/plan.rhai': 'x' }, runRhaiSeed }).findings;
    };
    expect(find('seeds/none.rhai')).toEqual([
      {
        region: 'computed',
        severity: 'warning',
        code: 'seed-file-missing',
        at: ['rhai'],
        message:
          'Rhai seed script "seeds/none.rhai" is not in the working directory, so region "computed" starts empty. Add the file there or fix the path (rhai seeds resolve against the working directory, not the agent directory).',
      },
    ]);
    expect(find('../plan.rhai').map((f) => [f.severity, f.code])).toEqual([['error', 'seed-path-escapes']]);
    expect(
      find('seeds/plan.rhai', () => {
        throw new Error('line 1, column 3: boom');
      }),
    ).toEqual([
      {
        region: 'computed',
        severity: 'warning',
        code: 'seed-script-failed',
        at: ['rhai'],
        message:
          'Rhai seed script "seeds/plan.rhai" failed (line 1, column 3: boom), so region "computed" starts empty. Fix the script.',
      },
    ]);
  });
});
