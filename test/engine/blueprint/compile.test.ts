import { describe, expect, it } from 'vitest';
import { regionsForStage, DEFAULT_REQUIRED_MESSAGE } from '../../../src/engine/blueprint/index.ts';
import { blueprintOf, compile, summary } from '../../builders.ts';

describe('compileBlueprint: regions and defaults', () => {
  it('reads the spec overview blueprint with every default applied', () => {
    const bp = blueprintOf(`[context.regions]
task = { kind = "pinned", budget = "12%", seed = "task_input" }
codebase = { kind = "compacting", budget = "20%" }
conversation = { kind = "sliding_window", budget = "33%", max_items = 20 }
history = { kind = "compact_history", budget = "15%", source_region = "codebase" }
`);
    expect(bp.regions.map((r) => r.name)).toEqual(['task', 'codebase', 'conversation', 'history']);
    expect(bp.regions[0]).toEqual({
      name: 'task',
      kind: 'pinned',
      budgetShare: 0.12,
      maxTokens: 5000,
      maxTokensExplicit: false,
      seed: { type: 'task_input' },
      seedImplicit: false,
      required: false,
      requiredMessage: DEFAULT_REQUIRED_MESSAGE,
      summarizable: true,
      admission: 'evict',
      minTokens: undefined,
      loc: { file: 'agent.leviath', line: 2, column: 1 },
    });
    expect(bp.regions[2]).toMatchObject({
      kind: 'sliding_window',
      maxItems: 20,
      strategy: 'per_item',
      budgetShare: 0.33,
    });
    expect(bp.regions[3]).toMatchObject({ kind: 'compact_history', sourceRegion: 'codebase', budgetShare: 0.15 });
    expect(bp.stages).toEqual([]);
    expect(bp.safeCommands).toEqual([]);
    expect(bp.readPaths).toEqual([]);
    expect(bp.security).toEqual({ allowSeedCommands: true });
    expect(bp.fileTracking).toBeUndefined();
  });

  it('reads the table form the same as the inline form', () => {
    const inline = blueprintOf(
      '[context.regions]\nconv = { kind = "sliding_window", budget = "10%", max_items = 4, strategy = "bulk", overflow = 2 }\n',
    );
    const table = blueprintOf(
      '[context.regions.conv]\nkind = "sliding_window"\nbudget = "10%"\nmax_items = 4\nstrategy = "bulk"\noverflow = 2\n',
    );
    const strip = (bp: typeof inline) => bp.regions.map(({ loc: _loc, ...rest }) => rest);
    expect(strip(table)).toEqual(strip(inline));
    expect(table.regions[0]).toMatchObject({ strategy: 'bulk', overflow: 2, maxItems: 4 });
  });

  it('defaults: temporary kind, 10 items, per_item, generated required_message with {region}', () => {
    const bp = blueprintOf('[context.regions]\nscratch = {}\nconv = { kind = "sliding_window" }\n');
    expect(bp.regions[0]).toMatchObject({
      kind: 'temporary',
      maxTokens: 5000,
      required: false,
      summarizable: true,
      admission: 'evict',
    });
    expect(bp.regions[0]!.requiredMessage).toContain('{region}');
    expect(bp.regions[0]!.maxItems).toBeUndefined();
    expect(bp.regions[1]).toMatchObject({ maxItems: 10, strategy: 'per_item' });
  });

  it('bulk and compact strategies default their counts to half of max_items', () => {
    const bp = blueprintOf(
      '[context.regions]\na = { kind = "sliding_window", max_items = 20, strategy = "bulk" }\nb = { kind = "sliding_window", strategy = "compact" }\n',
    );
    expect(bp.regions[0]).toMatchObject({ overflow: 10 });
    expect(bp.regions[1]).toMatchObject({ compactCount: 5 });
  });

  it('reads every common key', () => {
    const bp = blueprintOf(`[context.regions.sources]
kind = "temporary"
budget = "30%"
max_tokens = 9000
min_tokens = 2000
required = true
required_message = "Fill {region} first."
summarizable = false
admission = "reject"
`);
    expect(bp.regions[0]).toMatchObject({
      budgetShare: 0.3,
      maxTokens: 9000,
      maxTokensExplicit: true,
      minTokens: 2000,
      required: true,
      requiredMessage: 'Fill {region} first.',
      summarizable: false,
      admission: 'reject',
    });
  });

  it('reads every per-kind key', () => {
    const bp = blueprintOf(
      `[context.regions]
c = { kind = "compacting", compact_at = "80%", threshold_tokens = 30000 }
h = { kind = "compact_history", source_region = "c", compact_at = "50%" }
f = { kind = "hash_map", max_entries = 50 }
b = { kind = "custom", script = "hooks/b.rhai", persistent = true }
p = { kind = "custom", script = "hooks/b.rhai" }
`,
      { 'hooks/b.rhai': 'fn render(ctx) { "" }' },
    );
    expect(bp.regions[0]).toMatchObject({ kind: 'compacting', compactAtShare: 0.8, thresholdTokens: 30000 });
    expect(bp.regions[1]).toMatchObject({ kind: 'compact_history', sourceRegion: 'c', compactAtShare: 0.5 });
    expect(bp.regions[2]).toMatchObject({ kind: 'hashmap', maxEntries: 50 });
    expect(bp.regions[3]).toMatchObject({ kind: 'custom', script: 'hooks/b.rhai', persistent: true });
    expect(bp.regions[4]).toMatchObject({ persistent: false });
  });

  it('accepts every one of the nine kinds', () => {
    const kinds = [
      'temporary',
      'pinned',
      'sliding_window',
      'compacting',
      'compact_history',
      'clearable',
      'hashmap',
      'checklist',
    ];
    const toml = `[context.regions]\ntask = { kind = "pinned" }\n${kinds.map((k) => `r_${k} = { kind = "${k}" }`).join('\n')}\nr_custom = { kind = "custom", script = "s.rhai" }\n`;
    const result = compile(toml, { 's.rhai': 'fn render(ctx) { "" }' });
    expect(result.diagnostics).toEqual([]);
    expect(result.blueprint!.regions.map((r) => r.kind)).toEqual(['pinned', ...kinds, 'custom']);
  });
});

describe('compileBlueprint: seeds', () => {
  it('reads every seed form from the spec', () => {
    const bp = blueprintOf(`[safe_commands]
allow = ["git log"]
[context.regions]
task = { kind = "pinned", seed = "task_input" }
standards = { kind = "pinned", seed = "input" }
brief = { kind = "pinned", seed = "brief_text" }
readme = { kind = "pinned", seed = { files = ["README.md"] } }
layout = { kind = "temporary", seed = { glob = "src/**/*.rs" } }
rules = { kind = "pinned", seed = { literal = "Never edit generated files." } }
env = { kind = "pinned", seed = { command = "git log --oneline -20" } }
computed = { kind = "temporary", seed = { rhai = "seeds/plan.rhai" } }
inherited = { kind = "pinned", seed = { caller = "brief" } }
`);
    expect(bp.regions.map((r) => r.seed)).toEqual([
      { type: 'task_input' },
      { type: 'input' },
      { type: 'key', key: 'brief_text' },
      { type: 'files', files: ['README.md'] },
      { type: 'glob', glob: 'src/**/*.rs' },
      { type: 'literal', text: 'Never edit generated files.' },
      { type: 'command', command: 'git log --oneline -20' },
      { type: 'rhai', script: 'seeds/plan.rhai' },
      { type: 'caller', name: 'brief' },
    ]);
    expect(bp.regions.every((r) => !r.seedImplicit)).toBe(true);
  });

  it('gives a region named task an implicit task_input seed, and only when it has no seed', () => {
    const bp = blueprintOf('[context.regions]\ntask = { kind = "pinned" }\n');
    expect(bp.regions[0]).toMatchObject({ seed: { type: 'task_input' }, seedImplicit: true });
    const literal = blueprintOf('[context.regions]\ntask = { kind = "pinned", seed = { literal = "x" } }\n');
    expect(literal.regions[0]).toMatchObject({ seed: { type: 'literal', text: 'x' }, seedImplicit: false });
  });
});

describe('compileBlueprint: stages', () => {
  const STAGED = `[context.regions]
task = { kind = "pinned" }
stage_instructions = { kind = "pinned", budget = "3%" }
codebase = { kind = "compacting", budget = "20%" }
scratch = { kind = "clearable" }
todos = { kind = "checklist", budget = "3%" }

[stages.analyze]
system_prompt = "Read the code."
max_attempts = 4

[stages.analyze.tool_routing]
default_region = "scratch"
max_result_tokens = 4000
[stages.analyze.tool_routing.overrides]
read_file = { region = "codebase", max_result_tokens = 20000 }
grep = "scratch"
bash = { max_result_tokens = 500 }
[stages.analyze.tool_routing.max_result_tokens_per_tool]
read_file = 20000

[stages.analyze.transitions.implement]
transform = "compact"

[stages.implement]
system_prompt = "Change the code."
[stages.implement.context.regions]
task = { kind = "pinned" }
todos = { kind = "checklist" }
[stages.implement.transitions.analyze]
gate = { require_no_open_items = "todos", message = "Finish or explicitly drop the open items first.", max_attempts = 3 }
`;

  it('reads prompts, routing, overrides in both forms, caps and transitions', () => {
    const result = compile(STAGED);
    expect(result.diagnostics).toEqual([]);
    const [analyze, implement] = result.blueprint!.stages;
    expect(analyze).toMatchObject({
      name: 'analyze',
      systemPrompt: 'Read the code.',
      maxAttempts: 4,
      loc: { line: 8, column: 9 },
      toolRouting: {
        defaultRegion: 'scratch',
        maxResultTokens: 4000,
        overrides: {
          read_file: { region: 'codebase', maxResultTokens: 20000 },
          grep: { region: 'scratch' },
          bash: { maxResultTokens: 500 },
        },
        maxResultTokensPerTool: { read_file: 20000 },
      },
      transitions: [{ to: 'implement', transform: 'compact', loc: { line: 22, column: 29 } }],
    });
    expect(analyze!.regions).toBeUndefined();
    expect(implement!.regions!.map((r) => r.name)).toEqual(['task', 'todos']);
    expect(implement!.transitions).toEqual([
      {
        to: 'analyze',
        loc: { file: 'agent.leviath', line: 30, column: 31 },
        gate: {
          requireNoOpenItems: 'todos',
          message: 'Finish or explicitly drop the open items first.',
          maxAttempts: 3,
        },
      },
    ]);
  });

  it('regionsForStage: own layout, else top level; stage_instructions is never hidden', () => {
    const bp = compile(STAGED).blueprint!;
    expect(regionsForStage(bp, undefined).map((r) => r.name)).toEqual([
      'task',
      'stage_instructions',
      'codebase',
      'scratch',
      'todos',
    ]);
    expect(regionsForStage(bp, 'analyze').map((r) => r.name)).toEqual([
      'task',
      'stage_instructions',
      'codebase',
      'scratch',
      'todos',
    ]);
    expect(regionsForStage(bp, 'implement').map((r) => r.name)).toEqual(['task', 'todos', 'stage_instructions']);
    expect(regionsForStage(bp, 'no-such-stage').map((r) => r.name)).toHaveLength(5);
  });

  it('a stage that declares its own stage_instructions keeps its own', () => {
    const bp = blueprintOf(`[context.regions]
task = { kind = "pinned" }
stage_instructions = { kind = "pinned", budget = "3%" }
[stages.a.context.regions]
stage_instructions = { kind = "pinned", budget = "5%" }
`);
    const visible = regionsForStage(bp, 'a');
    expect(visible).toHaveLength(1);
    expect(visible[0]!.budgetShare).toBe(0.05);
  });

  it('reads [safe_commands], [read_paths], [security] and [context.file_tracking]', () => {
    const bp = blueprintOf(`[safe_commands]
allow = ["git log", "ls"]
[read_paths]
paths = ["../shared"]
[security]
allow_seed_commands = false
[context.file_tracking]
enabled = true
[context.regions]
task = { kind = "pinned" }
files = { kind = "hashmap" }
`);
    expect(bp.safeCommands).toEqual(['git log', 'ls']);
    expect(bp.readPaths).toEqual(['../shared']);
    expect(bp.security).toEqual({ allowSeedCommands: false });
    expect(bp.fileTracking).toEqual({ enabled: true, region: 'files' });
  });

  it('accepts the bare array forms of safe_commands and read_paths', () => {
    const bp = blueprintOf('safe_commands = ["ls"]\nread_paths = ["/etc/hosts"]\n[context.regions]\ntask = {}\n');
    expect(bp.safeCommands).toEqual(['ls']);
    expect(bp.readPaths).toEqual(['/etc/hosts']);
  });

  it('keeps declaration order for regions and stages, even with integer-like names', () => {
    const bp = blueprintOf('[context.regions]\ntask = {}\n"10" = {}\n"2" = {}\n[stages.b]\n[stages.1]\n');
    expect(bp.regions.map((r) => r.name)).toEqual(['task', '10', '2']);
    expect(bp.stages.map((s) => s.name)).toEqual(['b', '1']);
  });

  it('keeps the order of diagnostics by position', () => {
    const result = compile('[context.regions]\nb = { kind = "x" }\na = { budget = "y" }\n');
    expect(summary(result.diagnostics)).toEqual([
      'task-not-seeded warning 1:10 context.regions',
      'unknown-region-kind error 2:14 context.regions.b.kind',
      'malformed-budget error 3:16 context.regions.a.budget',
    ]);
  });
});
