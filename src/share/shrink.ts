// Making a long link shorter without changing what the charts show: inline tool output becomes
// `size_tokens` of the same count (the replay fills it with deterministic text of that size).
import { resolveModel, type Scenario, type Encoding } from '../engine/page.ts';

/** engine/tokens.ts countTokens, passed in: the page imports this module (inlineToolOutputs) and must not bundle the tokenizer. */
export type CountTokens = (text: string, encoding: Encoding) => number;

/** How many tool results carry their output inline (what dropToolOutput would shrink). */
export function inlineToolOutputs(scenario: Scenario): number {
  return scenario.traffic.filter((e) => e.type === 'tool_result' && e.content !== undefined).length;
}

/** The encoding the scenario's model counts with (o200k_base for a model the replay will refuse). */
export function scenarioEncoding(scenario: Scenario): Encoding {
  const resolved = resolveModel(scenario.model);
  return resolved.ok ? resolved.model.encoding : 'o200k_base';
}

/** The scenario with every inline tool result replaced by its token count on the scenario's model. */
export function dropToolOutput(scenario: Scenario, countTokens: CountTokens): Scenario {
  const encoding = scenarioEncoding(scenario);
  return {
    ...scenario,
    traffic: scenario.traffic.map((event) => {
      if (event.type !== 'tool_result' || event.content === undefined) return event;
      const { content, ...rest } = event;
      return { ...rest, size_tokens: countTokens(content, encoding) };
    }),
  };
}
