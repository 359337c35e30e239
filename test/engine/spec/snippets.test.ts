// Every TOML snippet in the spec, copied verbatim into fixtures/, compiles without a syntax-level
// finding. Snippets are fragments, so the only findings allowed are the ones a fragment must get
// (a stage or region it names lives in another snippet, no task region); each is listed exactly.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compile, summary } from '../../builders.ts';

const FIXTURES = join(import.meta.dirname, 'fixtures');
const SCRIPTS = { 'context_hooks/brain.rhai': 'fn render(ctx) { "" }' };

const FRAGMENT_FINDINGS: Record<string, string[]> = {
  'spec-01-regions-overview.toml': [],
  'spec-02-per-kind-keys.toml': [
    'task-not-seeded warning 1:10 context.regions',
    // The spec lists both counts on one region to document them; each only acts with its strategy.
    'inert-key info 5:1 context.regions.conversation.overflow',
    'inert-key info 6:1 context.regions.conversation.compact_count',
  ],
  'spec-03-checklist.toml': ['task-not-seeded warning 1:10 context.regions'],
  'spec-04-gate.toml': [
    'task-not-seeded warning 1:1 context.regions',
    'transition-target-undeclared error 1:31 stages.implement.transitions.review',
    'gate-region-undeclared error 2:34 stages.implement.transitions.review.gate.require_no_open_items',
  ],
  'spec-05-seeds.toml': [
    'command-seed info 7:45 context.regions.env.seed.command',
    'command-seed-not-safe warning 7:45 context.regions.env.seed.command',
  ],
  'spec-06-stage-instructions.toml': ['task-not-seeded warning 1:10 context.regions'],
  'spec-07-admission-reject.toml': ['task-not-seeded warning 1:10 context.regions'],
  'spec-08-routing.toml': [
    'task-not-seeded warning 1:1 context.regions',
    'routing-target-not-visible error 2:18 stages.analyze.tool_routing.default_region',
    'routing-target-not-visible error 5:13 stages.analyze.tool_routing.overrides.read_file',
  ],
  'spec-09-routing-override-table.toml': [
    'task-not-seeded warning 1:1 context.regions',
    'routing-target-not-visible error 2:24 stages.analyze.tool_routing.overrides.read_file.region',
    'routing-target-not-visible error 3:8 stages.analyze.tool_routing.overrides.grep',
  ],
  'spec-10-custom-region.toml': ['task-not-seeded warning 1:10 context.regions'],
};

const ALLOWED_FRAGMENT_CODES = new Set([
  'task-not-seeded',
  'transition-target-undeclared',
  'gate-region-undeclared',
  'routing-target-not-visible',
  'command-seed',
  'command-seed-not-safe',
  'inert-key',
]);

describe('spec snippets', () => {
  const files = readdirSync(FIXTURES)
    .filter((f) => f.startsWith('spec-'))
    .sort();

  it('fixtures hold every snippet', () => {
    expect(files).toEqual(Object.keys(FRAGMENT_FINDINGS).sort());
  });

  it.each(files)('%s parses, with only the findings a fragment must get', (file) => {
    const result = compile(readFileSync(join(FIXTURES, file), 'utf8'), SCRIPTS);
    expect(result.blueprint).toBeDefined();
    expect(summary(result.diagnostics)).toEqual(FRAGMENT_FINDINGS[file]);
    expect(result.diagnostics.every((d) => ALLOWED_FRAGMENT_CODES.has(d.code))).toBe(true);
  });

  it('the snippets assembled into one agent are clean', () => {
    const result = compile(readFileSync(join(FIXTURES, 'full-agent.toml'), 'utf8'), SCRIPTS);
    expect(summary(result.diagnostics)).toEqual(['command-seed info 21:45 context.regions.env.seed.command']);
    const bp = result.blueprint!;
    expect(bp.regions.map((r) => `${r.name}:${r.kind}`)).toEqual([
      'task:pinned',
      'stage_instructions:pinned',
      'codebase:compacting',
      'conversation:sliding_window',
      'history:compact_history',
      'findings:hashmap',
      'brain:custom',
      'todos:checklist',
      'sources:temporary',
      'scratch:clearable',
      'standards:pinned',
      'readme:pinned',
      'rules:pinned',
      'env:pinned',
      'inherited:pinned',
    ]);
    expect(bp.stages.map((s) => s.name)).toEqual(['analyze', 'implement', 'review']);
    expect(bp.fileTracking).toEqual({ enabled: true, region: 'findings' });
  });
});
