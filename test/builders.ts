// The tests' one way to write a scenario and its traffic in a few lines: a blueprint (its TOML, or
// the agent's files), events, and whatever else the test sets. The rest is the smallest valid
// scenario on gpt-4o (128,000 tokens, o200k_base), parsed as the page and the CLI parse it.
import { ScenarioSchema, type Scenario, type ScenarioInput, type TrafficEvent } from '../src/engine/scenario.ts';

/** `agent` is `agent.leviath`'s text, or every file of the agent directory. */
export function scenario(
  agent: string | Record<string, string> = '',
  traffic: TrafficEvent[] = [],
  extra: Partial<ScenarioInput> = {},
): Scenario {
  return ScenarioSchema.parse({
    version: 1,
    name: 'test',
    model: { id: 'gpt-4o' },
    agent: typeof agent === 'string' ? { 'agent.leviath': agent } : agent,
    traffic,
    ...extra,
  });
}

export const user = (content: string): TrafficEvent => ({ type: 'user', content });
export const assistant = (
  content: string,
  ...calls: [id: string, name: string, args?: Record<string, unknown>][]
): TrafficEvent =>
  calls.length
    ? { type: 'assistant', content, tool_calls: calls.map(([id, name, args]) => ({ id, name, arguments: args ?? {} })) }
    : { type: 'assistant', content };
export const result = (id: string, name: string, size: number): TrafficEvent => ({
  type: 'tool_result',
  tool_call_id: id,
  tool_name: name,
  size_tokens: size,
});
export const append = (region: string, content: string, key?: string): TrafficEvent =>
  key === undefined ? { type: 'context_append', region, content } : { type: 'context_append', region, content, key };
/** An assistant turn calling `name`, then its result of `size` tokens. */
export const call = (id: string, name: string, size: number, args: Record<string, unknown> = {}): TrafficEvent[] => [
  assistant('', [id, name, args]),
  result(id, name, size),
];
