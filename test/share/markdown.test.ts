import { describe, expect, it } from 'vitest';
import { replay } from '../../src/engine/index.ts';
import { BUILT_IN_TRAFFIC } from '../../src/scenarios/generators.ts';
import { ScenarioSchema } from '../../src/engine/scenario.ts';
import { regionRows, scenarioMarkdown } from '../../src/share/markdown.ts';
import { timelineView } from '../../src/worker/timeline-view.ts';

const scenario = ScenarioSchema.parse({
  version: 1, name: 'tiny | pipes', model: { window: 10_000 },
  agent: { 'agent.leviath': '[context.regions]\ntask = { kind = "pinned", budget = "10%", seed = "task_input" }\nconversation = { kind = "sliding_window", budget = "50%", max_items = 2 }\n' },
  inputs: { task: 'Say hello' },
  traffic: [
    { type: 'user', content: 'one' }, { type: 'assistant', content: 'two' },
    { type: 'user', content: 'three' }, { type: 'assistant', content: 'four' },
  ],
});

describe('Copy as Markdown', () => {
  const timeline = replay(scenario, BUILT_IN_TRAFFIC);

  it('counts each region\'s evictions from the timeline', () => {
    const conversation = regionRows(timeline).find((r) => r.region === 'conversation')!;
    const evicted = timeline.steps.flatMap((s) => s.changes).filter((c) => c.type === 'evict' && c.region === 'conversation');
    expect(evicted.length).toBeGreaterThan(0);
    expect(conversation).toEqual({
      region: 'conversation', kind: 'sliding_window', budget: 5_000,
      finalTokens: timeline.steps.at(-1)!.regions.conversation.tokens,
      evictions: evicted.length, evictedTokens: evicted.reduce((sum, c) => sum + c.tokens, 0),
    });
  });

  it('writes the link, one table row per region and the cache prefix', () => {
    const text = scenarioMarkdown(scenario.name, 'https://x.test/#s=1.abc', timelineView(timeline).view.markdown);
    const lines = text.split('\n');
    expect(lines[0]).toBe(`[tiny \\| pipes](https://x.test/#s=1.abc) — 4 steps, 2 inferences on custom-10000`);
    expect(lines[2]).toBe('| Region | Kind | Budget | Final tokens | Evictions |');
    const task = timeline.steps.at(-1)!.regions.task.tokens;
    expect(lines).toContain(`| task | pinned | 1,000 | ${task} | 0 |`);
    expect(lines.filter((l) => l.startsWith('| ')).length).toBe(1 + timeline.regions.length);
    const last = timeline.steps.findLast((s) => s.request)!.request!;
    expect(lines.at(-2)).toBe(`Cache prefix: ${Math.round(timeline.summary.meanPrefixShare * 100)}% of each request on average was identical to the previous one; last request ${last.prefixTokens} of ${last.requestTokens} tokens.`);
  });
});
