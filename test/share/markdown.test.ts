import { describe, expect, it } from 'vitest';
import { ScenarioSchema, replay } from '../../src/engine/index.ts';
import { BUILT_IN_TRAFFIC } from '../../src/scenarios/generators.ts';
import { RHAI } from '../../src/engine/custom-script.ts';
import { marked } from 'marked';
import { markdownText, regionRows, scenarioMarkdown } from '../../src/share/markdown.ts';
import { timelineView } from '../../src/worker/timeline-view.ts';

const scenario = ScenarioSchema.parse({
  version: 1,
  name: 'tiny | pipes',
  model: { window: 10_000 },
  agent: {
    'agent.leviath':
      '[context.regions]\ntask = { kind = "pinned", budget = "10%", seed = "task_input" }\nconversation = { kind = "sliding_window", budget = "50%", max_items = 2 }\n',
  },
  inputs: { task: 'Say hello' },
  traffic: [
    { type: 'user', content: 'one' },
    { type: 'assistant', content: 'two' },
    { type: 'user', content: 'three' },
    { type: 'assistant', content: 'four' },
  ],
});

describe('Copy as Markdown', () => {
  const timeline = replay(scenario, { ...BUILT_IN_TRAFFIC, ...RHAI });

  it("counts each region's evictions from the timeline", () => {
    const conversation = regionRows(timeline).find((r) => r.region === 'conversation')!;
    const evicted = timeline.steps
      .flatMap((s) => s.changes)
      .filter((c) => c.type === 'evict' && c.region === 'conversation');
    expect(evicted.length).toBeGreaterThan(0);
    expect(conversation).toEqual({
      region: 'conversation',
      kind: 'sliding_window',
      budget: 5_000,
      finalTokens: timeline.steps.at(-1)!.regions.conversation?.tokens,
      evictions: evicted.length,
      evictedTokens: evicted.reduce((sum, c) => sum + c.tokens, 0),
    });
  });

  it('writes the link, one table row per region and the cache prefix', () => {
    const text = scenarioMarkdown(scenario.name, 'https://x.test/#s=1.abc', timelineView(timeline).view.markdown);
    const lines = text.split('\n');
    expect(lines[0]).toBe(`[tiny \\| pipes](https://x.test/#s=1.abc) — 4 steps, 2 inferences on custom-10000`);
    expect(lines[2]).toBe('| Region | Kind | Budget | Final tokens | Evictions |');
    const task = timeline.steps.at(-1)!.regions.task?.tokens;
    expect(lines).toContain(`| task | pinned | 1,000 | ${task} | 0 |`);
    expect(lines.filter((l) => l.startsWith('| ')).length).toBe(1 + timeline.regions.length);
    const last = timeline.steps.findLast((s) => s.request)!.request!;
    expect(lines.at(-2)).toBe(
      `Cache prefix: ${Math.round(timeline.summary.meanPrefixShare * 100)}% of each request on average was identical to the previous one; last request ${last.prefixTokens} of ${last.requestTokens} tokens.`,
    );
  });

  // What a hostile name tries, each as GitHub-flavoured Markdown (marked) would render it.
  const HOSTILE = [
    'x](https://evil.example) ![pixel](https://evil.example/p.png) [y',
    'release notes\n\n![pixel](https://evil.example/p.png)\n\n[click](https://evil.example)',
    '<img src="https://evil.example/p.png"> <a href="https://evil.example">a</a>',
    '`code` \\](https://evil.example) | cell \u001b[2J\u2028next',
  ];

  it.each(HOSTILE)('a hostile scenario name stays the text of the one link: %j', (name) => {
    const url = 'https://x.test/#s=1.abc';
    const html = marked.parse(scenarioMarkdown(name, url, timelineView(timeline).view.markdown), { async: false });
    const first = html.split('\n')[0]!;
    expect([...html.matchAll(/<a /g)]).toHaveLength(1);
    expect(html).toContain(`<a href="${url}">`);
    expect(html).not.toContain('evil.example/p.png"');
    expect(html).not.toMatch(/<img|<script|href="https:\/\/evil/);
    // The name is all on the first line, inside the link, and the table still has its rows.
    expect(first.startsWith('<p><a href=')).toBe(true);
    expect(html.match(/<tr>/g)).toHaveLength(1 + timeline.regions.length);
  });

  it('the escaped name renders as the name itself, with line breaks as spaces', () => {
    const name = 'a [b] (c) !d <e> |f| `g` \\h';
    const html = marked.parseInline(markdownText(name), { async: false });
    expect(html).toBe('a [b] (c) !d &lt;e&gt; |f| `g` \\h');
    expect(markdownText('one\ntwo\r\nthree')).toBe('one two three');
  });

  it('a region named to break the table keeps to its own cell, and adds no image and no link that hides its target', () => {
    const name = 'a|b](https://evil.example) ![x](https://evil.example/p.png)';
    const tricky = ScenarioSchema.parse({
      ...scenario,
      agent: {
        'agent.leviath': `[context.regions]\n${JSON.stringify(name)} = { kind = "pinned", budget = "10%", seed = "task_input" }\n`,
      },
    });
    const html = marked.parse(
      scenarioMarkdown('ok', 'https://x.test/#s=1.abc', timelineView(replay(tricky)).view.markdown),
      { async: false },
    );
    const cell = /<tbody><tr>\n<td>(.*?)<\/td>\n<td>pinned<\/td>/.exec(html)?.[1];
    // A bare URL in a cell is autolinked by GitHub-flavoured Markdown, but shows where it goes.
    expect(cell?.replace(/<a href="[^"]*">([^<]*)<\/a>/g, '$1')).toBe(
      'a|b](https://evil.example\\) ![x](https://evil.example/p.png\\)',
    );
    for (const [, href, text] of html.matchAll(/<a href="([^"]*)">([^<]*)<\/a>/g)) {
      if (href !== 'https://x.test/#s=1.abc') expect(decodeURI(href!)).toBe(text);
    }
    expect(html).not.toContain('<img');
  });
});
