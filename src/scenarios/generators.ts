// Synthetic traffic: a generator spec (kind, seed, steps, params) -> events. Seeded and
// deterministic, so a share link carries the spec and every reader replays the same events.
//
// `steps` is a target, not an exact count: a generator stops at the first turn boundary at or
// after it (an assistant turn and its tool results are never split), so the result is at most a
// few events longer; the coding agent's fixed skeleton (kick-off, todos, gate) is always present.
import type { z } from 'zod';
import type { ReplayOptions, GeneratorSpec, TrafficEvent, TrafficGenerators } from '../engine/page.ts';
import { codingAgent, CodingAgentParamsSchema } from './coding-agent.ts';
import { formatIssues } from './issues.ts';
import { longChat, LongChatParamsSchema } from './long-chat.ts';
import { createRandom, type Random } from './random.ts';
import { researchAgent, ResearchAgentParamsSchema } from './research-agent.ts';

export type GeneratorKind = GeneratorSpec['kind'];

/** Each kind's parameter schema, with defaults; the UI builds its forms from these. */
export const GENERATOR_PARAMS = {
  'coding-agent': CodingAgentParamsSchema,
  'research-agent': ResearchAgentParamsSchema,
  'long-chat': LongChatParamsSchema,
} as const satisfies Record<GeneratorKind, z.ZodType>;

export type GeneratorParams<K extends GeneratorKind> = z.infer<(typeof GENERATOR_PARAMS)[K]>;

export class GeneratorParamsError extends Error {
  constructor(readonly issues: string[]) {
    super(`invalid generator params:\n  ${issues.join('\n  ')}`);
    this.name = 'GeneratorParamsError';
  }
}

export type ParamsResult<K extends GeneratorKind> =
  { ok: true; params: GeneratorParams<K> } | { ok: false; issues: string[] };

/** Validates `params` for `kind`, filling defaults; issues read like `generator.params.fileSizes.large: ...`. */
export function parseGeneratorParams<K extends GeneratorKind>(kind: K, params: unknown): ParamsResult<K> {
  const result = GENERATOR_PARAMS[kind].safeParse(params ?? {});
  if (result.success) return { ok: true, params: result.data as GeneratorParams<K> };
  return { ok: false, issues: formatIssues(result.error, 'generator.params') };
}

const GENERATE: {
  [K in GeneratorKind]: (random: Random, steps: number, params: GeneratorParams<K>) => TrafficEvent[];
} = {
  'coding-agent': codingAgent,
  'research-agent': researchAgent,
  'long-chat': longChat,
};

/** The events a generator spec stands for. Throws GeneratorParamsError on invalid params. */
export function generateTraffic(spec: GeneratorSpec): TrafficEvent[] {
  return generate(spec.kind, spec.seed, spec.steps, spec.params);
}

/** Every built-in generator, by the kind a scenario names: what the engine is given (BUILT_IN_TRAFFIC). */
export const TRAFFIC_GENERATORS = {
  'coding-agent': generateTraffic,
  'research-agent': generateTraffic,
  'long-chat': generateTraffic,
} as const satisfies Required<TrafficGenerators>;

/**
 * The replay options that bring the built-in generators: the engine makes no traffic of its own, so
 * the CLI, the worker, bench and tests replay with `replay(scenario, BUILT_IN_TRAFFIC)`,
 * `new Replay(scenario, BUILT_IN_TRAFFIC)`, or spread it into their own options. A plain object (no
 * call), so a bundle that does not use it leaves the generators out: the page's main thread has none.
 */
export const BUILT_IN_TRAFFIC: Readonly<Pick<ReplayOptions, 'generators'>> = { generators: TRAFFIC_GENERATORS };

function generate<K extends GeneratorKind>(kind: K, seed: number, steps: number, rawParams: unknown): TrafficEvent[] {
  const parsed = parseGeneratorParams(kind, rawParams);
  if (!parsed.ok) throw new GeneratorParamsError(parsed.issues);
  return GENERATE[kind](createRandom(seed), steps, parsed.params);
}
