// Links keep opening as they did. Links made before view parts existed (links-2026-12-03.json, the
// `#s=1.…` the page and lev share wrote then) carry no view: they open at step 1 of the Window view.
// Links made with view parts (view-links-2026-12-06.json, written by the lev share encode command
// each row names) open at the view those flags asked for, and their scenario part is an ordinary link.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { contentKey } from '../../src/state/library.ts';
import { exampleContent } from '../../src/state/scenario.ts';
import { decodeFragment } from '../../src/share/index.ts';
import { parseRoute, parseViewParams, scenarioPart, viewParams, type ViewState } from '../../src/share/view.ts';
import type { LinkFixture } from './link-fixtures.ts';

const old = JSON.parse(readFileSync('test/share/fixtures/links-2026-12-03.json', 'utf8')) as LinkFixture[];
const made = JSON.parse(readFileSync('test/share/fixtures/view-links-2026-12-06.json', 'utf8')) as {
  links: { example: string; made: string; fragment: string }[];
};

/** The view a `lev share encode` command line asked for, read from its flags. */
function flagsOf(command: string): ViewState {
  const words = command.split(' ');
  const value = (flag: string) => {
    const at = words.indexOf(flag);
    return at < 0 ? undefined : words[at + 1];
  };
  const step = value('--step');
  return {
    ...(step ? { step: Number(step) } : {}),
    ...(value('--view') ? { view: value('--view') as ViewState['view'] } : {}),
    ...(value('--zoom') ? { zoom: value('--zoom') as ViewState['zoom'] } : {}),
    ...(value('--region') ? { region: value('--region') } : {}),
  };
}

describe('view parts of a link', () => {
  it(`the ${old.length} links made before them carry no view, no problem, and the same scenario part`, () => {
    for (const link of old) {
      expect(parseViewParams(link.fragment)).toEqual({ view: {}, problems: [] });
      expect(scenarioPart(link.fragment)).toBe(link.fragment);
      expect(parseRoute(link.fragment)).toBeNull();
      expect(decodeFragment(link.fragment).ok).toBe(true);
    }
  });

  for (const link of made.links) {
    it(`${link.made} opens at the view it asked for, on the example's own scenario`, () => {
      expect(parseViewParams(link.fragment)).toEqual({ view: flagsOf(link.made), problems: [] });
      const decoded = decodeFragment(link.fragment);
      expect(decoded.ok).toBe(true);
      if (decoded.ok) expect(contentKey(decoded.scenario)).toBe(contentKey(exampleContent(link.example)!));
      expect(scenarioPart(link.fragment) + viewParams(flagsOf(link.made))).toBe(link.fragment);
    });
  }

  it('a bad value is left out with a problem that names the part and what it takes; the rest still applies', () => {
    const { view, problems } = parseViewParams('#s=1.abc&step=0&view=chart&zoom=fit&entry=x&region=a%20b&embed');
    expect(view).toEqual({ zoom: 'fit', region: 'a b' });
    expect(problems).toEqual([
      'step=0: expected a step number from 1',
      'view=chart: expected one of window, regions, cache, flat',
      'entry=x: expected an entry index from 0',
    ]);
  });

  it('routes: #example/<id> and #guide/<section>, with view parts after them', () => {
    expect(parseRoute('https://x.dev/p/#example/coding-agent')).toEqual({ kind: 'example', id: 'coding-agent' });
    expect(parseRoute('#example/tool-routing&step=5')).toEqual({ kind: 'example', id: 'tool-routing' });
    expect(parseViewParams('#example/tool-routing&step=5').view).toEqual({ step: 5 });
    expect(parseRoute('#guide/the-region-kinds')).toEqual({ kind: 'guide', section: 'the-region-kinds' });
    expect(parseRoute('#s=1.abc')).toBeNull();
    expect(parseRoute('#example/')).toBeNull();
  });
});
