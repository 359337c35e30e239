// Bugs the fuzz suite found, each pinned down as the smallest scenario that showed it.
import { describe, expect, it } from 'vitest';
import { Replay } from '../../src/engine/index.ts';
import { BUILT_IN_TRAFFIC } from '../../src/scenarios/generators.ts';
import { RHAI } from '../../src/engine/custom-script.ts';
import { ScenarioSchema, type TrafficEvent } from '../../src/engine/scenario.ts';

const BLUEPRINT = '[context.regions]\ntask = { kind = "pinned", budget = "5%" }\n';

function scenario(traffic: TrafficEvent[], toml = BLUEPRINT) {
  return ScenarioSchema.parse({ version: 1, model: { id: 'gpt-4o' }, agent: { 'agent.leviath': toml }, traffic });
}

describe('tool call pairing', () => {
  it('strips a call whose only result arrived before it (the result is stripped too)', () => {
    const traffic: TrafficEvent[] = [
      { type: 'tool_result', tool_call_id: 'c6', tool_name: 'grep', content: 'early' },
      { type: 'assistant', content: 'a', tool_calls: [{ id: 'c6', name: 'grep', arguments: {} }] },
      { type: 'user', content: 'next' },
    ];
    const detail = new Replay(scenario(traffic), { ...BUILT_IN_TRAFFIC, ...RHAI }).inspect(2);
    expect(detail.request.stripped).toEqual({ toolCalls: ['c6'], toolResults: ['c6'] });
    expect(detail.request.messages.map((m) => [m.role, m.content, m.tool_calls?.length ?? 0])).toEqual([
      ['assistant', 'a', 0],
      ['user', 'next', 0],
    ]);
  });

  it('a second call reusing an answered id needs a result of its own', () => {
    const traffic: TrafficEvent[] = [
      { type: 'assistant', content: '', tool_calls: [{ id: 'c1', name: 'grep', arguments: {} }] },
      { type: 'tool_result', tool_call_id: 'c1', tool_name: 'grep', content: 'first' },
      { type: 'assistant', content: 'again', tool_calls: [{ id: 'c1', name: 'grep', arguments: {} }] },
      { type: 'user', content: 'next' },
    ];
    const detail = new Replay(scenario(traffic), { ...BUILT_IN_TRAFFIC, ...RHAI }).inspect(3);
    expect(detail.request.stripped).toEqual({ toolCalls: ['c1'], toolResults: [] });
    expect(detail.request.messages.map((m) => [m.role, m.tool_calls?.length ?? 0])).toEqual([
      ['assistant', 1],
      ['tool', 0],
      ['assistant', 0],
      ['user', 0],
    ]);
  });
});

describe('pinned regions', () => {
  it('refuse a keyed append that would replace pinned content', () => {
    const traffic: TrafficEvent[] = [
      { type: 'context_append', region: 'task', key: 'rfc-9110', content: 'the original' },
      { type: 'context_append', region: 'task', key: 'rfc-9110', content: 'a rewrite' },
    ];
    const detail = new Replay(scenario(traffic), { ...BUILT_IN_TRAFFIC, ...RHAI }).inspect(1);
    expect(detail.result).toEqual({
      ok: false,
      message: 'task is pinned: its entry "rfc-9110" is never replaced. Append under a new key instead.',
    });
    expect(detail.regions.find((r) => r.name === 'task')!.entries.map((e) => e.content)).toEqual(['the original']);
  });
});

describe('compacting regions', () => {
  it('fold everything when folding the oldest few grew them, instead of staying over the trigger', () => {
    const toml =
      '[context.regions]\nconversation = { kind = "compacting", compact_at = "94%", max_tokens = 59, seed = { glob = "src/*.rs" } }\n';
    const traffic: TrafficEvent[] = [
      { type: 'user', content: '!' },
      {
        type: 'assistant',
        content: 'ok',
        tool_calls: [
          { id: 'c1', name: 'read_file', arguments: { path: 'README.md' } },
          { id: 'c1', name: 'read_file', arguments: {} },
        ],
      },
      { type: 'assistant', content: 'Looking at the parser.' },
      { type: 'user', content: 'blandit sed arcu ante et est' },
      {
        type: 'assistant',
        content: 'gravida tempor non mi aliquam gravida rhoncus adipiscing',
        tool_calls: [{ id: 'c1', name: 'read_file', arguments: {} }],
      },
      { type: 'user', content: 'nunc' },
    ];
    const workdir = {
      'src/lib.rs': 'pub fn add(a: i32, b: i32) -> i32 { a + b }\n',
      'src/main.rs': 'fn main() { println!("hi"); }\n',
    };
    const run = new Replay(
      ScenarioSchema.parse({
        version: 1,
        model: { id: 'claude-sonnet-4' },
        agent: { 'agent.leviath': toml },
        workdir,
        traffic,
      }),
      { ...BUILT_IN_TRAFFIC, ...RHAI },
    );
    const region = run.inspect(5).regions.find((r) => r.name === 'conversation')!;
    expect(region.trigger).toBe(55);
    expect(region.tokens).toBeLessThanOrEqual(region.trigger);
    expect(region.entries.map((e) => e.kind)).toEqual(['summary']);
  });
});
