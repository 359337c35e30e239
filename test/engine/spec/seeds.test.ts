// Issue 10, points 1, 4, 5 and 6: validate and replay judge every seed with one function, so the
// same scenario gets the same codes from both, and the run seeds exactly what validation saw.
import { describe, expect, it } from 'vitest';
import { replay } from '../../../src/engine/index.ts';
import { BUILT_IN_TRAFFIC } from '../../../src/scenarios/generators.ts';
import { RHAI } from '../../../src/engine/custom-script.ts';
import { validateScenario } from '../../../src/engine/validate.ts';
import type { Scenario, ScenarioInput } from '../../../src/engine/scenario.ts';
import { assistant, detail, scenario } from '../../builders.ts';

const TASK = 'task = { kind = "pinned" }\n';
const inputs = { task: 'Fix the test' };

/** What `lev validate` (and the page) and `lev replay` say about one scenario. */
function both(s: Scenario) {
  const validate = validateScenario(s, RHAI).diagnostics.map((d) => `${d.code} ${d.severity} ${d.path}`);
  const timeline = replay(s, { ...BUILT_IN_TRAFFIC, ...RHAI });
  return {
    validate,
    replay: timeline.diagnostics.map((d) => `${d.code} ${d.severity} ${d.path}`),
    ran: timeline.steps.length,
    warnings: timeline.warnings,
    spawn: timeline.spawn.regions,
  };
}

function seededScenario(regions: string, extra: Partial<ScenarioInput> = {}, head = '') {
  return scenario(`${head}[context.regions]\n${TASK}${regions}`, [assistant('ok')], { inputs, ...extra });
}

describe('1. rhai seeds come from the scenario workdir, in validate and replay alike', () => {
  const toml = 'plan = { kind = "pinned", seed = { rhai = "seeds/plan.rhai" } }\n';

  it('a script in the working directory runs and fills the region; validate has nothing to say', () => {
    const s = seededScenario(toml, { workdir: { 'seeds/plan.rhai': '"step " + 1' } });
    const seen = both(s);
    expect(seen.validate).toEqual([]);
    expect(seen.replay).toEqual([]);
    expect(seen.spawn.plan).toMatchObject({ tokens: 3, entries: 1 });
    expect(
      detail(s.agent['agent.leviath']!, [assistant('ok')], 0, { inputs, workdir: s.workdir }).request.system.map(
        (b) => b.text,
      ),
    ).toEqual(['[task]:\nFix the test', '[plan]:\nstep 1']);
  });

  it('a script only in the agent directory is the same warning in both, and the run goes on with the region empty', () => {
    const s = seededScenario(toml, {
      agent: { 'agent.leviath': `[context.regions]\n${TASK}${toml}`, 'seeds/plan.rhai': '"x"' },
    });
    const seen = both(s);
    expect(seen.validate).toEqual(['seed-file-missing warning context.regions.plan.seed.rhai']);
    expect(seen.replay).toEqual(seen.validate);
    expect(seen.ran).toBe(1);
    expect(seen.spawn.plan).toMatchObject({ tokens: 0, entries: 0 });
    expect(seen.warnings).toEqual([
      'seed of plan [seed-file-missing]: Rhai seed script "seeds/plan.rhai" is not in the working directory, so region "plan" starts empty. ' +
        'Add the file there or fix the path (rhai seeds resolve against the working directory, not the agent directory).',
    ]);
  });

  it('a script that throws is the same warning in both; the region starts empty', () => {
    const s = seededScenario(toml, { workdir: { 'seeds/plan.rhai': 'throw "no plan";' } });
    const seen = both(s);
    expect(seen.validate).toEqual(['seed-script-failed warning context.regions.plan.seed.rhai']);
    expect(seen.replay).toEqual(seen.validate);
    expect(seen.spawn.plan).toMatchObject({ tokens: 0, entries: 0 });
    expect(seen.warnings[0]).toMatch(
      /^seed of plan \[seed-script-failed\]: Rhai seed script "seeds\/plan.rhai" failed \(seeds\/plan.rhai line 1, column 1: .*no plan.*\), so region "plan" starts empty\. Fix the script\.$/,
    );
  });
});

describe('4. a refused command seed refuses the seed, not the run', () => {
  const env = 'env = { kind = "pinned", seed = { command = "git log --oneline -3" } }\n';
  const commands = { 'git log --oneline -3': 'abc fix\n' };

  it('[security] allow_seed_commands = false: the command does not run, the region starts empty, the timeline names the seed', () => {
    const s = seededScenario(
      env,
      { commands },
      '[safe_commands]\nallow = ["git log"]\n[security]\nallow_seed_commands = false\n',
    );
    const seen = both(s);
    expect(seen.validate).toEqual([
      'command-seed info context.regions.env.seed.command',
      'command-seed-disabled warning context.regions.env.seed.command',
    ]);
    expect(seen.replay).toEqual(seen.validate);
    expect(seen.ran).toBe(1);
    expect(seen.spawn.env).toMatchObject({ tokens: 0, entries: 0 });
    expect(seen.spawn.task).toMatchObject({ entries: 1 });
    expect(seen.warnings).toEqual([
      'seed of env [command-seed-disabled]: [security] allow_seed_commands = false refuses command seeds, so `git log --oneline -3` does not run and region "env" starts empty; the run goes on.',
    ]);
  });

  it('a command not covered by [safe_commands] does not run at all; the agent still spawns', () => {
    const s = seededScenario(env, { commands });
    const seen = both(s);
    expect(seen.validate).toEqual([
      'command-seed info context.regions.env.seed.command',
      'command-seed-not-safe warning context.regions.env.seed.command',
    ]);
    expect(seen.replay).toEqual(seen.validate);
    expect(seen.ran).toBe(1);
    expect(seen.spawn.env).toMatchObject({ tokens: 0, entries: 0 });
    expect(seen.warnings).toHaveLength(1);
    expect(seen.warnings[0]).toMatch(
      /^seed of env \[command-seed-not-safe\]: Command seed `git log --oneline -3` is not covered by \[safe_commands\], so it does not run at all/,
    );
  });

  it('a covered command seeds its recorded stdout', () => {
    const seen = both(seededScenario(env, { commands }, '[safe_commands]\nallow = ["git log"]\n'));
    expect(seen.validate).toEqual(['command-seed info context.regions.env.seed.command']);
    expect(seen.warnings).toEqual([]);
    expect(seen.spawn.env).toMatchObject({ entries: 1 });
  });
});

describe('5. a glob is checked per match, after expansion', () => {
  const cfg = 'cfg = { kind = "pinned", seed = { glob = "../*.toml" } }\n';

  it('matches outside the working directory refuse the run in both, naming each match', () => {
    const s = seededScenario(cfg, { workdir: { 'Cargo.toml': '[package]', '../secrets.toml': 'token' } });
    const seen = both(s);
    expect(seen.validate).toEqual(['seed-path-escapes error context.regions.cfg.seed.glob']);
    expect(seen.replay).toEqual(seen.validate);
    expect(seen.ran).toBe(0);
    expect(validateScenario(s, RHAI).diagnostics[0]!.message).toContain('matches "../secrets.toml"');
  });

  it('granted by [read_paths], the match is read; an info says it needs the grant', () => {
    const s = seededScenario(
      cfg,
      { workdir: { '../secrets.toml': 'token' } },
      '[read_paths]\npaths = ["../secrets.toml"]\n',
    );
    const seen = both(s);
    expect(seen.validate).toEqual(['seed-path-via-read-paths info context.regions.cfg.seed.glob']);
    expect(seen.replay).toEqual(seen.validate);
    expect(seen.spawn.cfg).toMatchObject({ entries: 1 });
  });

  it('a glob matching nothing is the no-match warning in both, not an error; the run goes on', () => {
    const seen = both(seededScenario(cfg, { workdir: { 'Cargo.toml': '[package]' } }));
    expect(seen.validate).toEqual(['seed-glob-no-match warning context.regions.cfg.seed.glob']);
    expect(seen.replay).toEqual(seen.validate);
    expect(seen.ran).toBe(1);
    expect(seen.warnings).toEqual([
      'seed of cfg [seed-glob-no-match]: Glob "../*.toml" matches no file in the working directory, so region "cfg" starts empty. Check the pattern.',
    ]);
  });
});

describe('6. validate and replay agree on globs with `..` inside', () => {
  it('`src/../docs/*.md` is `docs/*.md` for both', () => {
    const s = seededScenario('docs = { kind = "pinned", seed = { glob = "src/../docs/*.md" } }\n', {
      workdir: { 'docs/a.md': 'A', 'docs/b.md': 'B', 'src/x.md': 'X' },
    });
    const seen = both(s);
    expect(seen.validate).toEqual([]);
    expect(seen.replay).toEqual([]);
    expect(seen.spawn.docs).toMatchObject({ entries: 2 });
    expect(
      detail(s.agent['agent.leviath']!, [assistant('ok')], 0, { inputs, workdir: s.workdir }).request.system[1]!.text,
    ).toBe('[docs]:\nA\nB');
  });

  it('`**` never matches across `..`: `**/*.md` seeds only files inside', () => {
    const s = seededScenario('docs = { kind = "pinned", seed = { glob = "**/*.md" } }\n', {
      workdir: { 'a.md': 'A', '../up.md': 'UP' },
    });
    const seen = both(s);
    expect(seen.validate).toEqual([]);
    expect(seen.replay).toEqual([]);
    expect(seen.spawn.docs).toMatchObject({ entries: 1 });
  });
});
