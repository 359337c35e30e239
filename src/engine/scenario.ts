// The scenario: blueprint + scripts + working directory + traffic + model. What a share URL holds.
import { z } from 'zod';

export const SCENARIO_VERSION = 1;

const text = z.string();

/**
 * Free-form JSON (tool arguments, extra inputs) nested deeper than this is refused: serializing it
 * later (token counts, share links) would overflow the stack, and no real value comes near.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * The largest filler a `size_tokens` tool result may ask for: twice the largest model window. The
 * filler is built in memory, so an unbounded size would exhaust it (1e9 tokens crashed the replay).
 */
export const MAX_RESULT_SIZE_TOKENS = 2_000_000;

/**
 * Explicit traffic beyond this is refused, like a generator's `steps`: the timeline keeps a snapshot
 * per event, and 100,000 events already take about 0.5 GB (1,000,000 would exhaust a tab).
 */
export const MAX_TRAFFIC_EVENTS = 100_000;

/** Nesting depth of a JSON value, measured without recursion (a hostile value may be very deep). */
function jsonDepth(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    deepest = Math.max(deepest, depth);
    if (deepest > MAX_JSON_DEPTH) return deepest;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return deepest;
}

const shallow = <T extends z.ZodType>(schema: T) => schema.refine((v) => jsonDepth(v) <= MAX_JSON_DEPTH, {
  message: `nested more than ${MAX_JSON_DEPTH} levels deep; flatten it`,
});

export const ToolCallSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  arguments: shallow(z.record(z.string(), z.unknown())).default({}),
});

export const EventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('user'), content: text }),
  z.object({ type: z.literal('assistant'), content: text, tool_calls: z.array(ToolCallSchema).optional() }),
  z.object({
    type: z.literal('tool_result'),
    tool_call_id: z.string().min(1),
    tool_name: z.string().min(1),
    content: text.optional(),
    size_tokens: z.number().int().nonnegative().max(MAX_RESULT_SIZE_TOKENS, {
      message: `at most ${MAX_RESULT_SIZE_TOKENS.toLocaleString('en-US')} tokens (more than any model's window); use a smaller size_tokens`,
    }).optional(),
    is_error: z.boolean().optional(),
  }).refine((e) => (e.content === undefined) !== (e.size_tokens === undefined), {
    message: 'give exactly one of content or size_tokens',
  }),
  z.object({ type: z.literal('context_append'), region: z.string().min(1), key: z.string().optional(), content: text }),
  z.object({
    type: z.literal('context_delete'),
    region: z.string().min(1),
    key: z.string().optional(),
    index: z.number().int().nonnegative().optional(),
    oldest: z.number().int().positive().optional(),
  }).refine((e) => [e.key, e.index, e.oldest].filter((v) => v !== undefined).length === 1, {
    message: 'give exactly one of key, index or oldest',
  }),
  z.object({ type: z.literal('context_list'), region: z.string().min(1) }),
  z.object({ type: z.literal('todo_add'), region: z.string().min(1), item: text }),
  z.object({ type: z.literal('todo_done'), region: z.string().min(1), id: z.number().int() }),
  z.object({ type: z.literal('todo_note'), region: z.string().min(1), id: z.number().int(), note: text }),
  z.object({ type: z.literal('transition'), to: z.string().min(1) }),
]);
export type TrafficEvent = z.infer<typeof EventSchema>;
export type EventType = TrafficEvent['type'];

// The custom form comes first: a union takes the first match, and `{ id }` alone would strip `window`.
export const ModelRefSchema = z.union([
  z.object({
    id: z.string().optional(),
    window: z.number().int().positive(),
    encoding: z.enum(['o200k_base', 'cl100k_base']).default('o200k_base'),
  }),
  z.object({ id: z.string().min(1) }),
]);
export type ModelRef = z.infer<typeof ModelRefSchema>;

export const GeneratorSchema = z.object({
  kind: z.enum(['coding-agent', 'research-agent', 'long-chat']),
  seed: z.number().int().default(1),
  steps: z.number().int().positive().max(MAX_TRAFFIC_EVENTS, { message: `at most ${MAX_TRAFFIC_EVENTS.toLocaleString('en-US')} steps` }).default(100),
  /** Generator-specific knobs (file-size mix, ...); each generator validates its own. */
  params: z.record(z.string(), z.unknown()).optional(),
});
export type GeneratorSpec = z.infer<typeof GeneratorSchema>;

export const ScenarioSchema = z.object({
  version: z.literal(SCENARIO_VERSION),
  name: z.string().default('untitled'),
  description: z.string().optional(),
  model: ModelRefSchema,
  /** The blueprint's directory: `agent.leviath` plus scripts, paths relative to it. */
  agent: z.record(z.string(), text).refine((a) => 'agent.leviath' in a, {
    message: 'agent must contain "agent.leviath"',
  }),
  /** The run's working directory (file/glob seeds, read_file). */
  workdir: z.record(z.string(), text).default({}),
  /** stdout of `command` seeds, since a browser runs no shell. */
  commands: z.record(z.string(), text).default({}),
  inputs: shallow(z.object({
    task: text.optional(),
    caller: z.record(z.string(), text).optional(),
  }).catchall(z.unknown())).default({}),
  traffic: z.array(EventSchema).max(MAX_TRAFFIC_EVENTS, {
    message: `at most ${MAX_TRAFFIC_EVENTS.toLocaleString('en-US')} events per scenario (the timeline keeps a snapshot of every one); split it into several scenarios`,
  }).default([]),
  generator: GeneratorSchema.optional(),
});
export type Scenario = z.infer<typeof ScenarioSchema>;
export type ScenarioInput = z.input<typeof ScenarioSchema>;
