// The lessons hold when a person tries the variation the guide suggests: each variation is replayed
// here and the numbers the guide (docs/guide.md) and the example's lesson state are read out of their
// own sentences and compared with the replay.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type Scenario, type Timeline, replay } from '../../src/engine/index.ts';
import { findExample } from '../../src/scenarios/examples.ts';
import { BUILT_IN_TRAFFIC } from '../../src/scenarios/generators.ts';
import { RHAI } from '../../src/engine/custom-script.ts';
import { exampleContent } from '../../src/state/scenario.ts';

const GUIDE = readFileSync('docs/guide.md', 'utf8').replace(/\s+/g, ' ');
const number = (text: string) => Number(text.replace(/,/g, ''));

/** The guide's bullet that starts with `start`, whitespace folded. */
function guideSentence(start: string): string {
  const at = GUIDE.indexOf(start);
  expect(at, `the guide says "${start}"`).toBeGreaterThanOrEqual(0);
  return GUIDE.slice(at, GUIDE.indexOf(' - ', at + 1));
}

describe('flat-vs-regions: raising the window only moves the failure', () => {
  const base = exampleContent('flat-vs-regions')!;
  const run = (window: number, steps: number): Timeline =>
    replay(
      { ...base, model: { ...base.model, window }, generator: { ...base.generator!, steps } },
      { ...BUILT_IN_TRAFFIC, ...RHAI },
    );

  it("the guide's numbers are the replay's, at 32,000, 48,000 and 64,000 tokens and with 1,000 events", () => {
    const sentence = guideSentence('**Try** raising the window');
    const [, at48, was32] =
      /at 48,000 tokens the flat list loses the task later, at inference (\d+) instead of (\d+)/.exec(sentence)!;
    const [, events, again] =
      /raise Events to ([\d,]+) and the flat list loses the task again, at inference (\d+)/.exec(sentence)!;
    expect(sentence).toContain(
      'at 64,000 this 500-event chat never fills the window, so the flat list keeps the task to the end',
    );
    expect(base.model).toMatchObject({ window: 32_000 });
    expect(base.generator!.steps).toBe(500);

    expect(run(32_000, 500).summary.baselineLosesTaskAt).toBe(number(was32!));
    expect(run(48_000, 500).summary.baselineLosesTaskAt).toBe(number(at48!));
    const wide = run(64_000, 500);
    expect(wide.summary.baselineLosesTaskAt).toBeNull();
    expect(wide.steps).toHaveLength(500);
    const longer = run(64_000, number(events!));
    expect(longer.summary.baselineLosesTaskAt).toBe(number(again!));
    // "while the blueprint keeps it at every step"
    expect(longer.summary.taskLostAt).toBeNull();
  });
});

describe("stage-instructions-cache: deleting stage_instructions changes the transition's prefix and cost", () => {
  const withLine = exampleContent('stage-instructions-cache')!;
  const blueprint = withLine.agent['agent.leviath']!;
  const line = 'stage_instructions = { kind = "pinned", budget = "3%" }\n';
  const without: Scenario = { ...withLine, agent: { ...withLine.agent, 'agent.leviath': blueprint.replace(line, '') } };
  /** The first request sent in the implement stage. */
  const transitionRequest = (timeline: Timeline) =>
    timeline.steps.find((s) => s.stage === 'implement' && s.request)!.request!;

  it('the blueprint declares the line the guide says to delete', () => {
    expect(blueprint).toContain(line);
    expect(without.agent['agent.leviath']).not.toContain('stage_instructions =');
  });

  it('with it, the pinned prefix in front of the instructions is over the 1,024-token minimum and read from the cache; without it, nothing is', () => {
    const kept = transitionRequest(replay(withLine, { ...BUILT_IN_TRAFFIC, ...RHAI }));
    const lost = transitionRequest(replay(without, { ...BUILT_IN_TRAFFIC, ...RHAI }));
    const sentence = guideSentence('**Watch** the cache-prefix line at the first inference after the transition');
    const [, prefix] = /commits \(([\d,]+) tokens, over the model's 1,024-token minimum/.exec(sentence)!;
    const [, costWithout, costWith] = /that request's input cost rises from \$([\d.]+) to \$([\d.]+)/
      .exec(sentence)!
      .map(String);

    expect(kept.prefixTokens).toBe(number(prefix!));
    expect(kept.prefixTokens).toBeGreaterThan(1024);
    expect(kept.cache.cacheReadTokens).toBe(kept.prefixTokens);
    expect(lost.prefixTokens).toBe(0);
    expect(lost.cache.cacheReadTokens).toBe(0);
    expect(kept.cache.inputCostUsd.toFixed(3)).toBe(costWithout);
    expect(lost.cache.inputCostUsd.toFixed(3)).toBe(costWith);
    // The example's own lesson quotes the same figures.
    const { look } = findExample('stage-instructions-cache')!.lesson;
    expect(look).toContain(`${prefix} pinned tokens`);
    expect(look).toContain(`$${costWithout} for this request`);
    expect(look).toContain(`rise to $${costWith}`);
  });

  it('only that one request changes: the mean prefix moves by less than a tenth of a point, as the guide says', () => {
    const a = replay(withLine, { ...BUILT_IN_TRAFFIC, ...RHAI }).summary;
    const b = replay(without, { ...BUILT_IN_TRAFFIC, ...RHAI }).summary;
    expect(a.inferences).toBe(81);
    expect(guideSentence('**Watch** the cache-prefix line at the first inference after the transition')).toContain(
      `Only that one request of the run's ${a.inferences} changes`,
    );
    expect(a.meanPrefixShare).toBeGreaterThan(b.meanPrefixShare);
    expect(a.meanPrefixShare - b.meanPrefixShare).toBeLessThan(0.001);
  });
});

describe('three-stage-history: compact_history across three stages, and a stage with its own layout', () => {
  const timeline = replay(exampleContent('three-stage-history')!, { ...BUILT_IN_TRAFFIC, ...RHAI });
  const firstIn = (stage: string) => timeline.steps.find((s) => s.stage === stage && s.request)!;
  const lastIn = (stage: string) => [...timeline.steps].reverse().find((s) => s.stage === stage && s.request)!;

  it('enters all three stages; history carries one summary per transition', () => {
    expect(timeline.summary.stagesEntered).toEqual(['analyze', 'implement', 'verify']);
    expect(firstIn('implement').regions.history!.entries).toBe(1);
    expect(firstIn('verify').regions.history!.entries).toBe(2);
  });

  it("verify's own layout hides the codebase and routes shell output to test_log: its first request is about 15,000 tokens, implement's last over 60,000", () => {
    const verify = firstIn('verify');
    expect(verify.regions.codebase!.visible).toBe(false);
    expect(verify.regions.codebase!.tokens).toBeGreaterThan(0);
    expect(verify.request!.requestTokens).toBeGreaterThan(13_000);
    expect(verify.request!.requestTokens).toBeLessThan(17_000);
    expect(lastIn('implement').request!.requestTokens).toBeGreaterThan(55_000);
    expect(timeline.steps.at(-1)!.regions.test_log!.tokens).toBe(6000 + 2500);
    const { summary } = findExample('three-stage-history')!;
    expect(summary).toContain("about 15,000 tokens where implement's last was over 55,000");
  });
});

describe('cascade: budgets over the window, shed by kind', () => {
  const base = exampleContent('cascade')!;
  const blueprint = base.agent['agent.leviath']!;
  const timeline = replay(base, BUILT_IN_TRAFFIC);
  const at = timeline.steps.findIndex((s) => s.changes.some((c) => c.type === 'cascade'));
  const step = timeline.steps[at]!;
  const before = timeline.steps[at - 1]!;
  /** The size_tokens of the example's own call `id`. */
  const resultOf = (id: string) =>
    base.traffic.find((e) => e.type === 'tool_result' && e.tool_call_id === id) as { size_tokens: number };

  it('the budgets add up to the 135% the blueprint says', () => {
    const budgets = [...blueprint.matchAll(/budget = "(\d+)%"/g)].map((m) => Number(m[1]));
    expect(budgets.reduce((a, b) => a + b, 0)).toBe(135);
    expect(blueprint).toContain('= 135% of\n# 32,000 tokens');
    expect(timeline.model.window).toBe(32_000);
  });

  it("the lesson's request sheds notes, then scratch, then folds codebase; the later tiers and the task keep everything", () => {
    const { look } = findExample('cascade')!.lesson;
    const [, notesTokens, scratchTokens] =
      /notes \(temporary\) lost all of its ([\d,]+) tokens, then scratch \(clearable\) its ([\d,]+)/.exec(look)!;
    const shed = step.changes.filter((c) => c.type === 'cascade');
    expect(shed.map((c) => c.region)).toEqual(['notes', 'scratch', 'codebase']);
    // What notes and scratch held is what the fetch and the grep returned.
    expect(number(notesTokens!)).toBe(resultOf('f1').size_tokens);
    expect(number(scratchTokens!)).toBe(resultOf('g1').size_tokens);
    expect(before.regions.notes!.tokens).toBe(number(notesTokens!));
    expect(before.regions.scratch!.tokens).toBe(number(scratchTokens!));
    expect(step.regions.notes!.tokens).toBe(0);
    expect(step.regions.scratch!.tokens).toBe(0);
    // The oldest read (header.rs) folded into a summary: codebase keeps fewer tokens and one summary.
    expect(step.regions.codebase!.tokens).toBeLessThan(before.regions.codebase!.tokens);
    for (const kept of ['conversation', 'files', 'task']) {
      expect(shed.some((c) => c.region === kept)).toBe(false);
    }
    // The sum was over the window before it; the request that went out is within it.
    expect(step.request!.overWindow).toBe(false);
    expect(step.request!.requestTokens).toBeLessThanOrEqual(32_000);
    expect(step.warnings.filter((w) => /window/.test(w))).toEqual([]);
  });

  it("the guide's variation: codebase at 40% compacts on its own budget and the cascade never runs", () => {
    const sentence = guideSentence("**Try** lowering codebase's budget");
    const [, ceiling, none, was] =
      /own budget \(([\d,]+) tokens\) .* ([\d,]+) cascade changes in the run instead of ([\d,]+)/.exec(sentence)!;
    expect(timeline.summary.changes.cascade.count).toBe(number(was!));
    const line = 'codebase = { kind = "compacting", budget = "60%" }';
    expect(blueprint).toContain(line);
    const lowered = replay(
      { ...base, agent: { 'agent.leviath': blueprint.replace(line, line.replace('60%', '40%')) } },
      BUILT_IN_TRAFFIC,
    );
    expect(lowered.regions.find((r) => r.name === 'codebase')!.budget).toBe(number(ceiling!));
    expect(lowered.summary.changes.cascade.count).toBe(number(none!));
    expect(lowered.summary.changes.compact.count).toBeGreaterThan(timeline.summary.changes.compact.count);
  });
});
