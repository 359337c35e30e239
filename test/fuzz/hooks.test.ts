// Custom regions with random hook scripts: whatever render / on_write / on_overflow do or return,
// the replay never throws, every failure is a timeline warning, and the request stays well formed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { replay, Replay } from '../../src/engine/index.ts';
import { BUILT_IN_TRAFFIC } from '../../src/scenarios/generators.ts';
import { RHAI } from '../../src/engine/custom-script.ts';
import { checkRequest } from './invariants.ts';
import { ScenarioSchema } from '../../src/engine/scenario.ts';
import { SEED, TOOL_NAMES } from './arbitraries.ts';
import { enoughRunsToJudge, runs, tried } from './harness.ts';
import { expr, statement } from './rhai-grammar.ts';

const CTX_VALUES = [
  'ctx.entries',
  'ctx.entries.len()',
  'ctx.region.budget',
  'ctx.region.name',
  'ctx.stage_name',
  'ctx.window',
  'ctx.entry',
  'ctx.entry.content',
  'ctx.needed_tokens',
  'ctx.entries[0].content',
  '()',
];
const ctxValue = fc.oneof(fc.constantFrom(...CTX_VALUES), expr);

/** Answers of every shape the hooks accept, and many they do not. */
const answer = fc.oneof(
  ctxValue,
  ctxValue.map((v) => `\`[brain]: \${${v}}\``),
  fc
    .tuple(ctxValue, ctxValue)
    .map(([a, b]) => `#{ system: [${a}, "fixed"], messages: [#{ role: "user", content: ${b} }] }`),
  fc
    .tuple(fc.constantFrom('"user"', '"assistant"', '"tool"', '"system"', '7'), ctxValue)
    .map(
      ([role, c]) =>
        `#{ messages: [#{ role: ${role}, content: ${c}, tool_call_id: "c1", tool_calls: [#{ id: "c1", name: "grep" }] }] }`,
    ),
  fc
    .array(fc.oneof(fc.integer({ min: -3, max: 12 }), fc.constantFrom(9223372036854775807n)), { maxLength: 5 })
    .map((ix) => `[${ix.join(', ')}]`),
  fc.constantFrom('true', 'false', '()', '"replacement"', '#{}', '[]'),
);

const hook = (name: string) =>
  fc
    .tuple(fc.array(statement, { maxLength: 3 }), answer)
    .map(
      ([body, result]) =>
        `fn ${name}(ctx) {\n  let x = 1; let y = [1, 2]; let a = []; let s = "t"; let m = #{a: 1}; let f = |v| v;\n  ${body.join('\n  ')}\n  ${result}\n}`,
    );

// Loops are left out: a runaway hook costs its full 1,000,000 operations on every call (seconds per
// scenario); test/hostile/rhai-allocation.test.ts covers that case once.
const script = fc
  .tuple(hook('render'), fc.option(hook('on_write'), { nil: '' }), fc.option(hook('on_overflow'), { nil: '' }))
  .map((hooks) => hooks.filter(Boolean).join('\n\n'))
  .filter((source) => !/\b(loop|while|for)\b/.test(source));

const traffic = fc.array(
  fc.oneof(
    fc.constantFrom(
      { type: 'user', content: 'hello there' },
      { type: 'assistant', content: 'thinking' },
      { type: 'assistant', content: '', tool_calls: [{ id: 'c1', name: 'grep', arguments: {} }] },
      { type: 'context_list', region: 'brain' },
      { type: 'context_delete', region: 'brain', oldest: 1 },
    ),
    fc
      .record({ tool: fc.constantFrom(...TOOL_NAMES), size: fc.integer({ min: 0, max: 400 }) })
      .map(({ tool, size }) => ({ type: 'tool_result', tool_call_id: 'c1', tool_name: tool, size_tokens: size })),
    fc.string({ maxLength: 30 }).map((content) => ({ type: 'context_append', region: 'brain', content })),
  ),
  { minLength: 1, maxLength: 12 },
);

describe('custom regions with random hook scripts', () => {
  it('never break a replay: failures are warnings, requests stay paired and counted', () => {
    let warned = 0;
    fc.assert(
      fc.property(script, traffic, fc.boolean(), (source, events, persistent) => {
        const toml = `[context.regions]\nbrain = { kind = "custom", script = "hooks/brain.rhai", persistent = ${persistent}, max_tokens = 300 }\n\n[stages.main.tool_routing]\ndefault_region = "brain"\n`;
        const scenario = ScenarioSchema.parse({
          version: 1,
          model: { window: 4_000 },
          agent: { 'agent.leviath': toml, 'hooks/brain.rhai': source },
          traffic: events,
        });
        const timeline = tried(
          'hooks',
          () => replay(scenario, { ...BUILT_IN_TRAFFIC, ...RHAI }),
          (t) => t.diagnostics.some((d) => d.severity === 'error'),
        );
        const errors = timeline.diagnostics.filter((d) => d.severity === 'error');
        if (errors.length) {
          // Only a script that does not compile may stop the run, and then as a located diagnostic.
          expect(errors.map((d) => d.code)).toEqual(['custom-script-invalid']);
          expect(errors[0]!.file).toBe('hooks/brain.rhai');
          return;
        }
        expect(timeline.steps).toHaveLength(events.length);
        for (const step of timeline.steps) {
          for (const w of step.warnings) expect(w.length).toBeGreaterThan(0);
          if (step.warnings.some((w) => /failed/.test(w))) warned++;
          if (step.request) expect(step.request.prefixTokens).toBeLessThanOrEqual(step.request.requestTokens);
        }
        const inspector = new Replay(scenario, { ...BUILT_IN_TRAFFIC, ...RHAI });
        for (const step of timeline.steps) {
          if (!step.request) continue;
          const { request } = inspector.inspect(step.index);
          expect(request.tokens).toBe(step.request.requestTokens);
          checkRequest(request, `step ${step.index}`);
        }
      }),
      { numRuns: runs(60), seed: SEED },
    );
    if (enoughRunsToJudge(runs(60))) expect(warned).toBeGreaterThan(0);
  });
});
