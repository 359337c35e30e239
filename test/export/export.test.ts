// The request a blueprint builds as Anthropic and OpenAI bodies: exact bodies for a small run,
// breakpoints where the runtime places them, every body of real imported runs valid against the
// providers' documented shapes, and import -> replay -> export -> import giving the same events.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  anthropicBreakpoints,
  ScenarioSchema,
  type ScenarioInput,
  type TrafficEvent,
  Replay,
  resolveModel,
} from '../../src/engine/index.ts';
import { BUILT_IN_TRAFFIC } from '../../src/scenarios/generators.ts';
import { RHAI } from '../../src/engine/custom-script.ts';
import { ANTHROPIC_LEAD_TEXT, anthropicBody, openaiChatBody } from '../../src/export/index.ts';
import { importTrace } from '../../src/import/index.ts';
import { EXAMPLES } from '../../src/scenarios/examples.ts';
import { AnthropicMessagesRequest, OpenAIChatRequest } from './schemas.ts';

const fixture = (name: string) => readFileSync(new URL(`../import/fixtures/${name}`, import.meta.url), 'utf8');
const FIXTURES = [
  'anthropic-request.json',
  'anthropic-messages.json',
  'openai-chat.json',
  'openai-responses.json',
  'claude-code-session.jsonl',
  'rollout-2026-11-30T10-01-00-0199a8f2.jsonl',
];

const SMALL: ScenarioInput = {
  version: 1,
  name: 'small',
  model: { id: 'claude-sonnet-4' },
  agent: { 'agent.leviath': '[context.regions]\ntask = { kind = "pinned", budget = "10%", seed = "task_input" }\n' },
  inputs: { task: 'Fix it.' },
  traffic: [
    {
      type: 'assistant',
      content: 'Reading.',
      tool_calls: [{ id: 'c1', name: 'read_file', arguments: { path: 'a.txt' } }],
    },
    { type: 'tool_result', tool_call_id: 'c1', tool_name: 'read_file', content: 'alpha' },
    { type: 'assistant', content: '', tool_calls: [{ id: 'c2', name: 'shell', arguments: { command: 'make' } }] },
    { type: 'tool_result', tool_call_id: 'c2', tool_name: 'shell', content: 'boom', is_error: true },
    { type: 'user', content: 'next' },
    { type: 'assistant', content: 'done' },
  ],
};

function requestAt(input: ScenarioInput, inference: number) {
  const scenario = ScenarioSchema.parse(input);
  const model = resolveModel(scenario.model);
  if (!model.ok) throw new Error(model.error);
  return {
    request: new Replay(scenario, { ...BUILT_IN_TRAFFIC, ...RHAI }).inspectInference(inference).request,
    model: model.model,
  };
}

const readSchema = { type: 'object', properties: { path: {} } };
const shellSchema = { type: 'object', properties: { command: {} } };
const DESCRIPTION = 'A tool the replayed run called (its schema lists the argument names seen).';

describe('a small run, exactly', () => {
  it('Anthropic: system blocks, a lead user turn, tool_use/tool_result pairs, is_error, the breakpoint on the last block', () => {
    const { request, model } = requestAt(SMALL, 2);
    expect(anthropicBody(request, model)).toEqual({
      model: 'claude-sonnet-4-0',
      max_tokens: 8192,
      system: [{ type: 'text', text: '[task]:\nFix it.' }],
      tools: [
        { name: 'read_file', description: DESCRIPTION, input_schema: readSchema },
        { name: 'shell', description: DESCRIPTION, input_schema: shellSchema },
      ],
      messages: [
        { role: 'user', content: [{ type: 'text', text: ANTHROPIC_LEAD_TEXT }] },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Reading.' },
            { type: 'tool_use', id: 'c1', name: 'read_file', input: { path: 'a.txt' } },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c1', content: 'alpha' }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'c2', name: 'shell', input: { command: 'make' } }] },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'c2', content: 'boom', is_error: true },
            { type: 'text', text: 'next', cache_control: { type: 'ephemeral' } },
          ],
        },
      ],
    });
  });

  it('OpenAI Chat: one system message per block, tool calls with JSON arguments, tool messages paired', () => {
    const { request, model } = requestAt(SMALL, 2);
    expect(openaiChatBody(request, model)).toEqual({
      model: 'gpt-4o',
      tools: [
        { type: 'function', function: { name: 'read_file', description: DESCRIPTION, parameters: readSchema } },
        { type: 'function', function: { name: 'shell', description: DESCRIPTION, parameters: shellSchema } },
      ],
      messages: [
        { role: 'system', content: '[task]:\nFix it.' },
        {
          role: 'assistant',
          content: 'Reading.',
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.txt"}' } }],
        },
        { role: 'tool', tool_call_id: 'c1', content: 'alpha' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c2', type: 'function', function: { name: 'shell', arguments: '{"command":"make"}' } }],
        },
        { role: 'tool', tool_call_id: 'c2', content: 'boom' },
        { role: 'user', content: 'next' },
      ],
    });
  });

  it('the first inference has no messages yet: Anthropic gets only the lead turn, with the breakpoint on the system block', () => {
    const { request, model } = requestAt(SMALL, 0);
    const body = anthropicBody(request, model);
    expect([body.system, body.messages, body.tools]).toEqual([
      [{ type: 'text', text: '[task]:\nFix it.', cache_control: { type: 'ephemeral' } }],
      [{ role: 'user', content: [{ type: 'text', text: ANTHROPIC_LEAD_TEXT }] }],
      undefined,
    ]);
  });
});

describe('cache_control breakpoints', () => {
  it('on the last block and every 20 before it, at most 4', () => {
    expect(anthropicBreakpoints(1)).toEqual([0]);
    expect(anthropicBreakpoints(45)).toEqual([4, 24, 44]);
    expect(anthropicBreakpoints(200)).toEqual([139, 159, 179, 199]);
    expect(anthropicBreakpoints(0)).toEqual([]);
  });

  it('a long run puts them on the blocks at those positions (47 blocks: the 7th, 27th and 47th)', () => {
    const example = EXAMPLES.find((e) => e.id === 'coding-agent')!.scenario;
    const { request, model } = requestAt(example, 40);
    expect([request.system.length, request.messages.length]).toEqual([2, 45]);
    const body = anthropicBody(request, model);
    expect(body.system!.map((b) => b.cache_control)).toEqual([undefined, undefined]);
    const marked = body.messages.flatMap((m) => m.content).filter((b) => b.cache_control);
    // Engine blocks 6, 26 and 46 are messages 4, 24 and 44: each mark sits on that message's last block.
    const lastBlockOf = (m: (typeof request.messages)[number]) =>
      m.role === 'tool' ? m.tool_call_id : m.tool_calls?.length ? m.tool_calls.at(-1)!.id : m.content;
    const id = (b: (typeof marked)[number]) =>
      b.type === 'tool_result' ? b.tool_use_id : b.type === 'tool_use' ? b.id : b.text;
    expect(marked.map(id)).toEqual([4, 24, 44].map((i) => lastBlockOf(request.messages[i]!)));
  });
});

describe("the providers' documented shapes", () => {
  const imported = FIXTURES.map((f) => importTrace(fixture(f), { name: f }).scenario);
  const cases: [string, ScenarioInput][] = [
    ...imported.map((s) => [s.name, s] as [string, ScenarioInput]),
    ['coding-agent example', EXAMPLES.find((e) => e.id === 'coding-agent')!.scenario],
  ];

  it.each(cases)('every inference of %s gives valid Anthropic and OpenAI bodies', (_, input) => {
    const scenario = ScenarioSchema.parse(input);
    const model = resolveModel(scenario.model);
    if (!model.ok) throw new Error(model.error);
    const replay = new Replay(scenario, { ...BUILT_IN_TRAFFIC, ...RHAI });
    const inferences = Math.min(60, scenario.traffic.filter((e) => e.type === 'assistant').length || 60);
    for (let n = 0; n < inferences; n++) {
      const { request } = replay.inspectInference(n);
      const anthropic = AnthropicMessagesRequest.safeParse(anthropicBody(request, model.model));
      expect(anthropic.success ? [] : anthropic.error.issues, `anthropic, inference ${n}`).toEqual([]);
      const openai = OpenAIChatRequest.safeParse(openaiChatBody(request, model.model));
      expect(openai.success ? [] : openai.error.issues, `openai, inference ${n}`).toEqual([]);
    }
  });

  it('the schemas refuse what the APIs refuse', () => {
    const base = {
      model: 'claude-sonnet-4-0',
      max_tokens: 10,
      tools: [{ name: 'ls', input_schema: { type: 'object' } }],
    };
    const messages = (s: unknown) => AnthropicMessagesRequest.safeParse({ ...base, messages: s }).success;
    expect(messages([{ role: 'user', content: 'hi' }])).toBe(true);
    expect(messages([{ role: 'assistant', content: 'hi' }])).toBe(false);
    expect(messages([{ role: 'user', content: [{ type: 'text', text: '' }] }])).toBe(false);
    expect(
      messages([
        { role: 'user', content: 'hi' },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'x' }] },
      ]),
    ).toBe(false);
    expect(
      messages([
        { role: 'user', content: 'a' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'x', name: 'ls', input: {} }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'b' },
            { type: 'tool_result', tool_use_id: 'x' },
          ],
        },
      ]),
    ).toBe(false);
    const five = Array.from({ length: 5 }, () => ({ type: 'text', text: 'a', cache_control: { type: 'ephemeral' } }));
    expect(messages([{ role: 'user', content: five }])).toBe(false);
    expect(
      OpenAIChatRequest.safeParse({
        model: 'gpt-4o',
        messages: [
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }],
          },
          { role: 'user', content: 'x' },
        ],
      }).success,
    ).toBe(false);
    expect(
      OpenAIChatRequest.safeParse({ model: 'gpt-4o', messages: [{ role: 'tool', tool_call_id: 'c', content: 'x' }] })
        .success,
    ).toBe(false);
  });
});

describe('round trip: import -> replay -> export -> import', () => {
  /**
   * The events before inference `n`, as a request body can hold them: the provider's record of each
   * call, when it was made and its reasoning are not part of a request (a body carries the conversation).
   */
  function before(traffic: readonly TrafficEvent[], n: number): TrafficEvent[] {
    let seen = -1;
    const index = traffic.findIndex((e) => e.type === 'assistant' && ++seen === n);
    return traffic.slice(0, index).map((e) => {
      if (e.type !== 'assistant') return e;
      const { recorded: _recorded, reasoning: _reasoning, at: _at, ...rest } = e;
      return rest;
    });
  }
  const withoutErrorFlag = (events: TrafficEvent[]) =>
    events.map((e) => {
      if (e.type !== 'tool_result' || !e.is_error) return e;
      const { is_error: _, ...rest } = e;
      return rest;
    });

  it.each(FIXTURES)('%s gives the same events back, through both bodies', (file) => {
    const { scenario } = importTrace(fixture(file));
    const last = scenario.traffic.filter((e) => e.type === 'assistant').length - 1;
    const { request, model } = requestAt(scenario, last);
    const expected = before(scenario.traffic, last);
    expect(expected.length).toBeGreaterThan(8);

    const viaAnthropic = importTrace(JSON.stringify(anthropicBody(request, model)));
    expect(viaAnthropic.report.format).toBe('anthropic');
    expect(viaAnthropic.scenario.traffic).toEqual(expected);
    expect(viaAnthropic.scenario.inputs.task).toBe(ANTHROPIC_LEAD_TEXT);
    expect(String(viaAnthropic.scenario.inputs.harness_system_prompt)).toContain(scenario.inputs.task);

    const viaOpenAI = importTrace(JSON.stringify(openaiChatBody(request, model)));
    expect(viaOpenAI.report.format).toBe('openai-chat');
    // Chat Completions has no error flag for a tool message, so only that is lost.
    expect(viaOpenAI.scenario.traffic).toEqual(withoutErrorFlag(expected));
  });
});
