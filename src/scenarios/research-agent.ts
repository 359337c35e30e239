// A research agent: fetches large sources into a curated `admission = "reject"` region, writes what
// matters to a keyed hashmap, and releases each source once it is spent (by key, index or oldest).
import { z } from 'zod';
import type { Random } from './random.ts';
import { positiveRange } from './ranges.ts';
import { prose } from './text.ts';
import { TrafficBuilder } from './traffic-builder.ts';

export const ResearchAgentParamsSchema = z
  .object({
    sources: z
      .string()
      .min(1)
      .default('sources')
      .describe('The region fetched sources are routed to, and released from.'),
    findings: z
      .string()
      .min(1)
      .default('findings')
      .describe('The hashmap region findings are written to, keyed by topic.'),
    fetchTokens: positiveRange.default([3_000, 14_000]).describe('Token size of each fetch result, [min, max].'),
    maxInFlight: z
      .number()
      .int()
      .min(1)
      .max(50)
      .default(4)
      .describe('The agent releases a source once this many are held.'),
    topics: z
      .number()
      .int()
      .min(1)
      .max(1_000)
      .default(24)
      .describe('Distinct finding keys; fewer topics means more rewrites of the same key.'),
  })
  .strict();
export type ResearchAgentParams = z.infer<typeof ResearchAgentParamsSchema>;

const SITES = ['rfc-editor.org', 'docs.example.dev', 'arxiv.org', 'engineering.example.com', 'wiki.example.org'];
const TOPIC_WORDS = [
  'cache',
  'latency',
  'retry',
  'quota',
  'eviction',
  'prefix',
  'window',
  'budget',
  'backoff',
  'sharding',
  'consistency',
  'compression',
  'tokenizer',
  'routing',
  'batching',
  'streaming',
];

/** What the agent believes `sources` holds, oldest first: a key for keyed excerpts, else null. */
type Held = (string | null)[];

class ResearchAgent {
  private readonly traffic = new TrafficBuilder();
  private readonly topics: string[];
  private readonly held: Held = [];
  private excerptCount = 0;

  constructor(
    private readonly random: Random,
    private readonly params: ResearchAgentParams,
  ) {
    this.topics = Array.from(
      { length: params.topics },
      (_, i) =>
        `${TOPIC_WORDS[i % TOPIC_WORDS.length]}-${random.pick(TOPIC_WORDS)}${i >= TOPIC_WORDS.length ? `-${i}` : ''}`,
    );
  }

  run(steps: number) {
    const { random, traffic } = this;
    traffic.user('Research the question in the task. Keep findings short and cite where each came from.');
    while (traffic.length < steps - 1) this.iteration();
    traffic.assistant(`Summary of findings: ${prose(random, random.int(40, 120))}`);
    return traffic.events;
  }

  private iteration(): void {
    const { random, traffic, params } = this;
    const topic = random.pick(this.topics);
    if (random.chance(0.3)) {
      traffic.toolTurn(`Searching for ${topic}.`, [
        {
          name: 'search',
          arguments: { query: topic.replace(/-/g, ' ') },
          result: { size_tokens: random.int(150, 700) },
        },
      ]);
    }
    const url = `https://${random.pick(SITES)}/${topic}/${random.int(1, 999)}`;
    const [min, max] = params.fetchTokens;
    traffic.toolTurn(`Fetching ${url}.`, [
      { name: 'fetch', arguments: { url }, result: { size_tokens: random.int(min, max) } },
    ]);
    this.held.push(null);
    if (random.chance(0.25)) this.keepExcerpt(topic);
    traffic.append(params.findings, `${prose(random, random.int(15, 50))} (source: ${url})`, topic);
    this.release();
    if (random.chance(0.1)) {
      traffic.user(`What do we know so far about ${random.pick(this.topics)}?`);
      traffic.assistant(prose(random, random.int(30, 150)));
    }
  }

  /** A keyed quote kept beside the raw sources, so it can later be released by name. */
  private keepExcerpt(topic: string): void {
    const key = `excerpt-${++this.excerptCount}-${topic}`;
    this.traffic.append(this.params.sources, prose(this.random, this.random.int(60, 200)), key);
    this.held.push(key);
  }

  /** Spent sources go as soon as the agent is done with them; a full hand forces a release. */
  private release(): void {
    const { random, traffic, held, params } = this;
    const mustRelease = held.length >= params.maxInFlight;
    if (!mustRelease && !random.chance(0.45)) return;
    const keyed = held.findIndex((key) => key !== null);
    const key = held[keyed];
    if (key != null && random.chance(0.5)) {
      traffic.delete(params.sources, { key });
      held.splice(keyed, 1);
    } else if (random.chance(0.2)) {
      traffic.delete(params.sources, { index: 0 });
      held.shift();
    } else {
      const oldest = mustRelease && held.length > 2 ? 2 : 1;
      traffic.delete(params.sources, { oldest });
      held.splice(0, oldest);
    }
  }
}

export function researchAgent(random: Random, steps: number, params: ResearchAgentParams) {
  return new ResearchAgent(random, params).run(steps);
}
