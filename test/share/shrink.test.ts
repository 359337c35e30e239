import { describe, expect, it } from 'vitest';
import { ScenarioSchema, countTokens, replay } from '../../src/engine/index.ts';
import { BUILT_IN_TRAFFIC } from '../../src/scenarios/generators.ts';
import { RHAI } from '../../src/engine/custom-script.ts';
import { dropToolOutput, inlineToolOutputs } from '../../src/share/shrink.ts';
import { encodeScenario } from '../../src/share/index.ts';

// Varied lines, so deflate cannot fold the output away and the link really carries it.
const output = Array.from(
  { length: 300 },
  (_, i) => `let v${i} = ${(i * 7919) % 10007} ^ ${(i * 104729) % 65521};`,
).join('\n');
const scenario = ScenarioSchema.parse({
  version: 1,
  model: { id: 'gpt-4-turbo' },
  agent: {
    'agent.leviath':
      '[context.regions]\ntask = { kind = "pinned", budget = "10%", seed = "task_input" }\nconversation = { kind = "sliding_window", budget = "50%", max_items = 6 }\n',
  },
  inputs: { task: 'Read main' },
  traffic: [
    { type: 'assistant', content: '', tool_calls: [{ id: 'c1', name: 'read_file', arguments: { path: 'main.rs' } }] },
    { type: 'tool_result', tool_call_id: 'c1', tool_name: 'read_file', content: output },
    { type: 'assistant', content: '', tool_calls: [{ id: 'c2', name: 'grep' }] },
    { type: 'tool_result', tool_call_id: 'c2', tool_name: 'grep', size_tokens: 40 },
    { type: 'assistant', content: 'done' },
  ],
});

describe('dropToolOutput', () => {
  it("replaces inline output with its token count on the model's encoding, and nothing else", () => {
    expect(inlineToolOutputs(scenario)).toBe(1);
    const shrunk = dropToolOutput(scenario, countTokens);
    expect(inlineToolOutputs(shrunk)).toBe(0);
    expect(shrunk.traffic[1]).toEqual({
      type: 'tool_result',
      tool_call_id: 'c1',
      tool_name: 'read_file',
      size_tokens: countTokens(output, 'cl100k_base'),
    });
    expect(shrunk.traffic.filter((_, i) => i !== 1)).toEqual(scenario.traffic.filter((_, i) => i !== 1));
    expect(ScenarioSchema.safeParse(shrunk).success).toBe(true);
  });

  it("keeps every region's tokens at every step and makes the link shorter", () => {
    const tokens = (s: typeof scenario) =>
      replay(s, { ...BUILT_IN_TRAFFIC, ...RHAI }).steps.map((step) => Object.values(step.regions).map((r) => r.tokens));
    const shrunk = dropToolOutput(scenario, countTokens);
    expect(tokens(shrunk)).toEqual(tokens(scenario));
    expect(encodeScenario(shrunk).length).toBeLessThan(encodeScenario(scenario).length / 2);
  });
});
