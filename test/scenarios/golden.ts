// Golden fixtures: what share links show must not drift. A link carries only a generator's
// `{ kind, seed, steps, params }` and the example it came from, so these pin, byte for byte,
//   - generator-events.json: every event each built-in generator makes for two seeds, and
//   - example-headlines.json: each built-in example's headline numbers.
// golden.test.ts holds the code to them. Regenerating is a deliberate act, reviewed in the diff:
//   npx tsx test/scenarios/golden.ts
// and a change that alters what an old link shows needs a new generator version instead (see
// docs/decisions/scenarios.md, "Golden fixtures").
import { writeFileSync } from 'node:fs';
import {
  loadEncodings,
  ScenarioSchema,
  type GeneratorSpec,
  type TrafficEvent,
  type Timeline,
  replay,
} from '../../src/engine/index.ts';
import { EXAMPLES } from '../../src/scenarios/examples.ts';
import {
  GENERATOR_PARAMS,
  generateTraffic,
  type GeneratorKind,
  BUILT_IN_TRAFFIC,
} from '../../src/scenarios/generators.ts';
import { RHAI } from '../../src/engine/custom-script.ts';

export const GENERATOR_EVENTS_FILE = new URL('./fixtures/generator-events.json', import.meta.url);
export const EXAMPLE_HEADLINES_FILE = new URL('./fixtures/example-headlines.json', import.meta.url);

/** Two seeds per kind, default params, enough steps for every kind's event types to appear. */
export const PINNED_SEEDS = [1, 2] as const;
export const PINNED_STEPS = 40;

export interface GeneratorFixture {
  spec: GeneratorSpec;
  events: TrafficEvent[];
}

export function generatorFixtures(): GeneratorFixture[] {
  return (Object.keys(GENERATOR_PARAMS) as GeneratorKind[]).flatMap((kind) =>
    PINNED_SEEDS.map((seed) => {
      const spec: GeneratorSpec = { kind, seed, steps: PINNED_STEPS };
      return { spec, events: generateTraffic(spec) };
    }),
  );
}

/** The numbers a reader of an example's link sees first. */
export interface Headline {
  example: string;
  steps: number;
  /** Tokens each region holds after the last event. */
  finalTokens: Record<string, number>;
  /** Entries the regions' own rules dropped (change type `evict`) over the run: count and tokens. */
  evictions: { count: number; tokens: number };
  /** Mean share of each request that repeats the previous one's prefix, to 4 decimals. */
  meanStablePrefix: number;
  /** First inference at which the flat oldest-first list no longer holds the task; null if never. */
  flatListLosesTaskAt: number | null;
}

export function headline(example: string, timeline: Timeline): Headline {
  const last = timeline.steps.at(-1);
  return {
    example,
    steps: timeline.steps.length,
    finalTokens: Object.fromEntries(Object.entries(last?.regions ?? {}).map(([name, r]) => [name, r.tokens])),
    evictions: timeline.summary.changes.evict,
    meanStablePrefix: Math.round(timeline.summary.meanPrefixShare * 10_000) / 10_000,
    flatListLosesTaskAt: timeline.summary.baselineLosesTaskAt,
  };
}

export function exampleHeadlines(): Headline[] {
  return EXAMPLES.map((example) =>
    headline(example.id, replay(ScenarioSchema.parse(example.scenario), { ...BUILT_IN_TRAFFIC, ...RHAI })),
  );
}

const json = (value: unknown): string => `${JSON.stringify(value, null, 1)}\n`;

if (process.argv[1]?.endsWith('test/scenarios/golden.ts')) {
  // Run by itself (not under vitest, whose setup loads them), the replays need the encodings first.
  await loadEncodings();
  writeFileSync(GENERATOR_EVENTS_FILE, json(generatorFixtures()));
  writeFileSync(EXAMPLE_HEADLINES_FILE, json(exampleHeadlines()));
  console.log(`wrote ${GENERATOR_EVENTS_FILE.pathname} and ${EXAMPLE_HEADLINES_FILE.pathname}`);
}
