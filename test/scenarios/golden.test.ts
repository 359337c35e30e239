// Share links must replay the same traffic forever: the generators and the examples are held to
// the committed fixtures (golden.ts says how they are made). A failure here means a change would
// alter what links already pasted somewhere show: keep the old behaviour under a new generator
// version, or, if no old link can tell, regenerate the fixtures deliberately.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXAMPLES } from '../../src/scenarios/examples.ts';
import { GENERATOR_PARAMS } from '../../src/scenarios/generators.ts';
import {
  EXAMPLE_HEADLINES_FILE,
  GENERATOR_EVENTS_FILE,
  PINNED_SEEDS,
  exampleHeadlines,
  generatorFixtures,
  type GeneratorFixture,
  type Headline,
} from './golden.ts';

const pinnedEvents = JSON.parse(readFileSync(GENERATOR_EVENTS_FILE, 'utf8')) as GeneratorFixture[];
const pinnedHeadlines = JSON.parse(readFileSync(EXAMPLE_HEADLINES_FILE, 'utf8')) as Headline[];

describe('generator events are pinned', () => {
  it('for every built-in kind, two seeds each', () => {
    expect(pinnedEvents.map((f) => `${f.spec.kind}/${f.spec.seed}`)).toEqual(
      Object.keys(GENERATOR_PARAMS).flatMap((kind) => PINNED_SEEDS.map((seed) => `${kind}/${seed}`)),
    );
  });

  const now = generatorFixtures();
  for (const [i, fixture] of pinnedEvents.entries()) {
    it(`${fixture.spec.kind} seed ${fixture.spec.seed}, ${fixture.spec.steps} steps: the same ${fixture.events.length} events`, () => {
      expect(now[i]!.spec).toEqual(fixture.spec);
      expect(now[i]!.events).toEqual(fixture.events);
    });
  }

  it('the two seeds of a kind tell different stories', () => {
    for (let i = 0; i < pinnedEvents.length; i += 2)
      expect(pinnedEvents[i]!.events).not.toEqual(pinnedEvents[i + 1]!.events);
  });
});

describe('example headline numbers are pinned', () => {
  it('for every built-in example', () => {
    expect(pinnedHeadlines.map((h) => h.example)).toEqual(EXAMPLES.map((e) => e.id));
  });

  const now = exampleHeadlines();
  for (const [i, pinned] of pinnedHeadlines.entries()) {
    it(`${pinned.example}: final tokens per region, evictions, mean stable prefix, where the flat list loses the task`, () => {
      expect(now[i]).toEqual(pinned);
    });
  }

  it('include the figures the docs quote', () => {
    const byId = Object.fromEntries(pinnedHeadlines.map((h) => [h.example, h]));
    // docs/decisions/scenarios.md: the flat list loses the task at inference 127 of flat-vs-regions,
    // and bulk eviction keeps a mean prefix share of 84% on sliding-bulk-cache.
    expect(byId['flat-vs-regions']!.flatListLosesTaskAt).toBe(127);
    expect(byId['sliding-bulk-cache']!.meanStablePrefix).toBe(0.8384);
  });
});
