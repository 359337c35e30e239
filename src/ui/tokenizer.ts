// The page counts tokens only for two share options (drop tool output, shape only): the tokenizer
// and the one encoding the scenario's model needs are fetched when one of them is chosen.
import type { Scenario } from '../engine/scenario.ts';
import { scenarioEncoding } from '../share/shrink.ts';

export async function tokenizerFor(scenario: Scenario): Promise<typeof import('../engine/tokens.ts')> {
  const tokens = await import('../engine/tokens.ts');
  await tokens.loadEncoding(scenarioEncoding(scenario));
  return tokens;
}
