// The scenario: blueprint + scripts + working directory + traffic + model. What a share URL holds.
import { z } from 'zod';
import { nameTable } from './names.ts';
import { fmt } from './format.ts';
import { MAX_AGENT_FILES, MAX_JSON_DEPTH, MAX_RESULT_SIZE_TOKENS, MAX_TRAFFIC_EVENTS } from './limits.ts';

export const SCENARIO_VERSION = 1;

const text = () => z.string();

// The limits live in limits.ts (one table for the page and `lev`); these are re-exported beside
// the schema that enforces them.
export { MAX_JSON_DEPTH, MAX_RESULT_SIZE_TOKENS, MAX_TRAFFIC_EVENTS } from './limits.ts';

/** Keys where a scenario holds free-form JSON; their depth is counted from there. */
const FREE_FORM: ReadonlySet<string> = new Set(['arguments', 'inputs', 'params']);
/** Outside free-form fields the schema itself nests at most a few levels; this is generous. */
const MAX_STRUCTURE_DEPTH = 8;

interface Node {
  value: unknown;
  key: string | number | undefined;
  parent: Node | undefined;
  depth: number;
  inField: boolean;
}

function pathOf(node: Node): (string | number)[] {
  const path: (string | number)[] = [];
  for (let n: Node | undefined = node; n?.key !== undefined; n = n.parent) path.push(n.key);
  return path.reverse();
}

/**
 * The one depth check of a scenario, on the raw JSON before anything else reads it (zod, share
 * encoding, token counting): a value nested 100,000 deep anywhere (`generator.params`, tool
 * arguments, inputs, or a field the schema types) is refused here with its path, instead of
 * overflowing the stack later. Iterative, so the check itself cannot overflow.
 */
export function tooDeep(root: unknown): { path: (string | number)[]; limit: number }[] {
  const found: { path: (string | number)[]; limit: number }[] = [];
  const stack: Node[] = [{ value: root, key: undefined, parent: undefined, depth: 0, inField: false }];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (typeof node.value !== 'object' || node.value === null) continue;
    const limit = node.inField ? MAX_JSON_DEPTH : MAX_STRUCTURE_DEPTH;
    if (node.depth >= limit) {
      let field: Node = node;
      while (node.inField && field.parent && !(FREE_FORM.has(String(field.key)) && !field.parent.inField))
        field = field.parent;
      found.push({ path: pathOf(field), limit: MAX_JSON_DEPTH });
      continue;
    }
    // Pushed last to first, so the fields are visited (and reported) in document order.
    for (const [key, child] of Object.entries(node.value).reverse()) {
      const startsField = !node.inField && FREE_FORM.has(key);
      const childKey = Array.isArray(node.value) ? Number(key) : key;
      stack.push({
        value: child,
        key: childKey,
        parent: node,
        depth: startsField ? 0 : node.depth + 1,
        inField: node.inField || startsField,
      });
    }
  }
  return found;
}

/** `__proto__` cannot be a key of a JavaScript object without changing what the object is. */
const RESERVED_KEY = '__proto__';

/** The name tables a scenario holds: objects whose keys are the user's names. */
const NAME_TABLES: (readonly string[])[] = [['agent'], ['workdir'], ['commands'], ['inputs'], ['inputs', 'caller']];

function reservedKeys(root: unknown): (string | number)[][] {
  const found: (string | number)[][] = [];
  for (const path of NAME_TABLES) {
    let value: unknown = root;
    for (const key of path)
      value =
        typeof value === 'object' && value !== null && Object.hasOwn(value, key)
          ? (value as Record<string, unknown>)[key]
          : undefined;
    if (typeof value === 'object' && value !== null && Object.hasOwn(value, RESERVED_KEY))
      found.push([...path, RESERVED_KEY]);
  }
  return found;
}

/** How many files the raw scenario's agent directory holds (counted before zod copies them). */
function agentFileCount(root: unknown): number {
  const agent =
    typeof root === 'object' && root !== null && Object.hasOwn(root, 'agent')
      ? (root as { agent: unknown }).agent
      : undefined;
  if (typeof agent !== 'object' || agent === null || Array.isArray(agent)) return 0;
  let count = 0;
  for (const key in agent) if (Object.hasOwn(agent, key)) count++;
  return count;
}

/** Checks the raw scenario once at the boundary, so no later step meets a hostile shape. */
function checkBoundary(raw: unknown, ctx: z.RefinementCtx): unknown {
  for (const { path } of tooDeep(raw))
    ctx.addIssue({ code: 'custom', path, message: `nested more than ${MAX_JSON_DEPTH} levels deep; flatten it` });
  const files = agentFileCount(raw);
  if (files > MAX_AGENT_FILES) {
    ctx.addIssue({
      code: 'custom',
      path: ['agent'],
      message: `${fmt(files)} files; an agent directory holds at most ${fmt(MAX_AGENT_FILES)} (agent.leviath and the scripts it names)`,
    });
  }
  for (const path of reservedKeys(raw)) {
    ctx.addIssue({
      code: 'custom',
      path,
      message: `"${RESERVED_KEY}" is reserved here (JavaScript gives that key a special meaning, so it would be lost); rename it`,
    });
  }
  return raw;
}

/** A name table parsed to an object with no prototype (`src/engine/names.ts` says why). */
const names = <T extends z.ZodType>(value: T) =>
  z.record(z.string(), value).transform((table) => nameTable(Object.entries(table)));

// zod builds each schema's machinery where it is declared: tens of milliseconds for these on a
// cold page, in the task that loads this module. So the schemas exported here are z.lazy, built on
// their first parse instead, in the task that needs them.

const toolCallSchema = () =>
  z.object({
    id: z.string().min(1),
    name: z.string().min(1),
    arguments: z.record(z.string(), z.unknown()).default({}),
  });

const sizeTokens = () =>
  z
    .number()
    .int()
    .nonnegative()
    .max(MAX_RESULT_SIZE_TOKENS, {
      message: `at most ${fmt(MAX_RESULT_SIZE_TOKENS)} tokens (more than any model's window); use a smaller size_tokens`,
    });

/**
 * A message given as its size only (a shape-only share link): `content` is "" and the replay puts
 * deterministic filler of `size_tokens` tokens in its place, as it does for a tool result.
 */
const sizedMessage = { message: 'give content, or size_tokens with content ""' };
const isSized = (e: { content: string; size_tokens?: number }) => e.size_tokens === undefined || e.content === '';

const tokenCount = () => z.number().int().nonnegative();

/**
 * What the provider recorded for one real API call (an imported trace), normalized across formats:
 * `promptTokens` is all input, cached or not; the cache figures are parts of it. Optional on every
 * event, so scenarios and share links written before it keep opening.
 */
const recordedSchema = () =>
  z.object({
    promptTokens: tokenCount(),
    cacheReadTokens: tokenCount().optional(),
    cacheWriteTokens: tokenCount().optional(),
    outputTokens: tokenCount().optional(),
    reasoningTokens: tokenCount().optional(),
    /**
     * The lifetime of the cache entries this call wrote, when the record says it (Anthropic's
     * `cache_creation.ephemeral_5m_input_tokens` / `ephemeral_1h_input_tokens`): 300 or 3,600 s.
     */
    cacheTtlSeconds: z.number().int().positive().optional(),
    /** The model id as the trace named it, and the window in force when the trace recorded one. */
    model: z.string().optional(),
    window: z.number().int().positive().optional(),
  });

/**
 * Reasoning the model produced in this turn that the harness sends back within the turn (OpenAI
 * reasoning items): its text, or only its size when the trace holds it encrypted. `encrypted: true`
 * says the trace held it encrypted without recording its size: the content or size given (its
 * summary) is less than what was sent, or there is neither.
 */
const reasoningSchema = () =>
  z
    .object({
      content: text().optional(),
      size_tokens: sizeTokens().optional(),
      encrypted: z.literal(true).optional(),
    })
    .refine(
      (r) =>
        (r.content === undefined || r.size_tokens === undefined) &&
        (r.encrypted || r.content !== undefined || r.size_tokens !== undefined),
      { message: 'give exactly one of content or size_tokens (or neither, with encrypted = true)' },
    );

export const EventSchema = z.lazy(() =>
  z.discriminatedUnion('type', [
    z
      .object({ type: z.literal('user'), content: text(), size_tokens: sizeTokens().optional() })
      .refine(isSized, sizedMessage),
    z
      .object({
        type: z.literal('assistant'),
        content: text(),
        size_tokens: sizeTokens().optional(),
        tool_calls: z.array(toolCallSchema()).optional(),
        recorded: recordedSchema().optional(),
        reasoning: reasoningSchema().optional(),
        /**
         * When the call was made, as the trace recorded it (an ISO 8601 instant in UTC): the as-sent
         * replay expires cached prefixes older than the provider's lifetime between two calls.
         */
        at: z.iso.datetime().optional(),
      })
      .refine(isSized, sizedMessage),
    z
      .object({
        type: z.literal('tool_result'),
        tool_call_id: z.string().min(1),
        tool_name: z.string().min(1),
        content: text().optional(),
        size_tokens: sizeTokens().optional(),
        is_error: z.boolean().optional(),
      })
      .refine((e) => (e.content === undefined) !== (e.size_tokens === undefined), {
        message: 'give exactly one of content or size_tokens',
      }),
    z.object({
      type: z.literal('context_append'),
      region: z.string().min(1),
      key: z.string().optional(),
      content: text(),
    }),
    z
      .object({
        type: z.literal('context_delete'),
        region: z.string().min(1),
        key: z.string().optional(),
        index: z.number().int().nonnegative().optional(),
        oldest: z.number().int().positive().optional(),
      })
      .refine((e) => [e.key, e.index, e.oldest].filter((v) => v !== undefined).length === 1, {
        message: 'give exactly one of key, index or oldest',
      }),
    z.object({ type: z.literal('context_list'), region: z.string().min(1) }),
    z.object({ type: z.literal('todo_add'), region: z.string().min(1), item: text() }),
    z.object({ type: z.literal('todo_done'), region: z.string().min(1), id: z.number().int() }),
    z.object({ type: z.literal('todo_note'), region: z.string().min(1), id: z.number().int(), note: text() }),
    z.object({ type: z.literal('transition'), to: z.string().min(1) }),
    /**
     * The harness compacted its context (an imported run): what it sent before is gone and `summary`
     * starts the new context. `pre_tokens` is the prompt size the harness recorded just before.
     * The as-sent replay applies it; a blueprint replay leaves it to the blueprint's own regions.
     */
    z
      .object({
        type: z.literal('compaction'),
        summary: text(),
        size_tokens: sizeTokens().optional(),
        pre_tokens: tokenCount().optional(),
        trigger: z.string().optional(),
      })
      .refine((e) => e.size_tokens === undefined || e.summary === '', {
        message: 'give summary, or size_tokens with summary ""',
      }),
  ]),
);
export type RecordedUsage = NonNullable<Extract<TrafficEvent, { type: 'assistant' }>['recorded']>;
export type TrafficEvent = z.infer<typeof EventSchema>;
export type EventType = TrafficEvent['type'];

// The custom form comes first: a union takes the first match, and `{ id }` alone would strip `window`.
export const ModelRefSchema = z.lazy(() =>
  z.union([
    z.object({
      id: z.string().optional(),
      window: z.number().int().positive(),
      encoding: z.enum(['o200k_base', 'cl100k_base']).default('o200k_base'),
    }),
    z.object({ id: z.string().min(1) }),
  ]),
);
export type ModelRef = z.infer<typeof ModelRefSchema>;

export const GENERATOR_KINDS = ['coding-agent', 'research-agent', 'long-chat'] as const;

export const GeneratorSchema = z.lazy(() =>
  z.object({
    kind: z.enum(GENERATOR_KINDS),
    seed: z.number().int().default(1),
    steps: z
      .number()
      .int()
      .positive()
      .max(MAX_TRAFFIC_EVENTS, { message: `at most ${fmt(MAX_TRAFFIC_EVENTS)} steps` })
      .default(100),
    /** Generator-specific knobs (file-size mix, ...); each generator validates its own. */
    params: z.record(z.string(), z.unknown()).optional(),
  }),
);
export type GeneratorSpec = z.infer<typeof GeneratorSchema>;
/** Makes a generator spec's events; throws on params it refuses. The engine has none of its own. */
export type TrafficGenerator = (spec: GeneratorSpec) => TrafficEvent[];
/** The generators a caller brings, by the kind a scenario names (src/scenarios brings the built-in ones). */
export type TrafficGenerators = Partial<Record<GeneratorSpec['kind'], TrafficGenerator>>;

/** The inputs of a run: the task and the caller's names (and whatever else a script reads). */
export const InputsSchema = z.lazy(() =>
  z
    .object({
      task: text().optional(),
      caller: names(text()).optional(),
    })
    .catchall(z.unknown())
    .transform((inputs) => nameTable(Object.entries(inputs)) as typeof inputs)
    .prefault({}),
);

/** The name a scenario gets when it gives none. */
export const DEFAULT_SCENARIO_NAME = 'untitled';

/** The scenario's fields, without the boundary check (`ScenarioSchema` is what parses input). */
export const ScenarioFields = z.lazy(() =>
  z.object({
    version: z.literal(SCENARIO_VERSION),
    name: z.string().default(DEFAULT_SCENARIO_NAME),
    description: z.string().optional(),
    model: ModelRefSchema,
    /** The blueprint's directory: `agent.leviath` plus scripts, paths relative to it. */
    agent: names(text()).refine((a) => Object.hasOwn(a, 'agent.leviath'), {
      message: 'agent must contain "agent.leviath"',
    }),
    /** The run's working directory (file/glob seeds, read_file). */
    workdir: names(text()).prefault({}),
    /** stdout of `command` seeds, since a browser runs no shell. */
    commands: names(text()).prefault({}),
    inputs: InputsSchema,
    traffic: z
      .array(EventSchema)
      .max(MAX_TRAFFIC_EVENTS, {
        message: `at most ${fmt(MAX_TRAFFIC_EVENTS)} events per scenario (the timeline keeps a snapshot of every one); split it into several scenarios`,
      })
      .default([]),
    generator: GeneratorSchema.optional(),
  }),
);
export const ScenarioSchema = z.preprocess(checkBoundary, ScenarioFields);
export type Scenario = z.infer<typeof ScenarioSchema>;
export type ScenarioInput = z.input<typeof ScenarioFields>;
