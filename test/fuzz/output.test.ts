// Output built from user text, on random text heavy with control characters: what `lev` prints
// holds no character a terminal obeys and its JSON still parses to the same values; Copy as
// Markdown renders a name as the text of its one link, never an image or another link.
import fc from 'fast-check';
import { marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { inert } from '../../src/cli/inert.ts';
import { scenarioMarkdown, type MarkdownFacts } from '../../src/share/markdown.ts';
import { CONTROL, controlText, SEED } from './arbitraries.ts';
import { runs, tried } from './harness.ts';

/** What a terminal would obey: C0 (but tab and newline), DEL, C1, bidi controls, line separators. */
const LIVE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const unescapeHtml = (html: string) => html.replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]!);
const hostile = fc.oneof(
  controlText,
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ maxLength: 60 }),
  fc
    .array(
      fc.constantFrom(
        ...CONTROL,
        '[',
        ']',
        '(',
        ')',
        '!',
        '<',
        '>',
        '|',
        '`',
        '\\',
        '\n',
        'https://evil.example/p.png',
        'x',
      ),
      { maxLength: 16 },
    )
    .map((p) => p.join('')),
);

describe('output from user text', () => {
  it('inert: nothing live is left, and JSON of the text parses back to the same text', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 2 }), hostile, (value, text) => {
        tried('output', () => {
          expect(inert(text)).not.toMatch(LIVE);
          const json = JSON.stringify({ text, value });
          expect(JSON.parse(inert(json))).toEqual(JSON.parse(json));
        });
      }),
      { numRuns: runs(500), seed: SEED },
    );
  });

  it('Copy as Markdown: a name is the text of the one link, and a region name stays in its cell', () => {
    const url = 'https://playground.example/#s=1.abc';
    fc.assert(
      fc.property(hostile, hostile, (name, region) => {
        const facts: MarkdownFacts = {
          steps: 2,
          inferences: 1,
          modelId: 'gpt-4o',
          meanPrefixShare: 0.5,
          lastRequest: { prefixTokens: 1, requestTokens: 2 },
          rows: [{ region, kind: 'pinned', budget: 100, finalTokens: 10, evictions: 0, evictedTokens: 0 }],
        };
        const html = tried('output', () => marked.parse(scenarioMarkdown(name, url, facts), { async: false }));
        expect(html).not.toContain('<img');
        // The first line is the one link, and its text is the name as written (line breaks and controls as spaces).
        const first = /^<p><a href="([^"]*)">(.*)<\/a> — /.exec(html);
        expect(first?.[1]).toBe(url);
        const words = (t: string) => t.replace(/[\s\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
        expect(words(unescapeHtml(first![2]!))).toBe(words(name));
        const links = [...html.matchAll(/<a href="([^"]*)">([^<]*)<\/a>/g)];
        // Any other link is a bare URL or e-mail address GitHub-flavoured Markdown links by itself, showing where it goes.
        for (const [, href, shown] of links.slice(1))
          expect(unescapeHtml(decodeURI(href!)).replace(/^mailto:/, '')).toBe(unescapeHtml(shown!));
        expect(html.match(/<tr>/g)).toHaveLength(2);
      }),
      { numRuns: runs(300), seed: SEED + 1 },
    );
  });
});
