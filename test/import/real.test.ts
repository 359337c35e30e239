// Real traces (fixtures/real/, sources in SOURCES.md): each import is checked against counts taken
// from the file itself here (the harness's own call counter, distinct response ids, the provider's
// usage records), never against what the importer printed.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importTrace } from '../../src/import/index.ts';
import type { TrafficEvent } from '../../src/engine/index.ts';

const text = (name: string) => readFileSync(new URL(`./fixtures/real/${name}`, import.meta.url), 'utf8');
const json = (name: string): Record<string, unknown> & unknown[] => JSON.parse(text(name));

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === 'object' && v !== null ? (v as Obj) : {});
const assistants = (traffic: TrafficEvent[]) =>
  traffic.filter((e): e is Extract<TrafficEvent, { type: 'assistant' }> => e.type === 'assistant');
const results = (traffic: TrafficEvent[]) => traffic.filter((e) => e.type === 'tool_result');

describe('SWE-agent trajectories', () => {
  it('with function calling: one inference per API call the run counted, every tool message answering the calls its tool_call_ids name', () => {
    const file = json('swe-agent-function-calling.traj');
    const history = file.history as Obj[];
    const apiCalls = obj(obj(file.info).model_stats).api_calls;
    const ids = history.flatMap((m) => (Array.isArray(m.tool_call_ids) ? m.tool_call_ids : []));
    const steps = file.trajectory as Obj[];
    const { scenario, report } = importTrace(text('swe-agent-function-calling.traj'));
    expect(report.format).toBe('swe-agent');
    expect(report.inferences).toBe(apiCalls);
    // The history ends before the last call (submit); the trajectory has every step.
    expect(report.inferences).toBe(steps.length);
    const inHistory = history.filter((m) => m.role === 'assistant').length;
    expect(
      results(scenario.traffic)
        .map((e) => e.type === 'tool_result' && e.tool_call_id)
        .slice(0, ids.length),
    ).toEqual(ids);
    expect(
      assistants(scenario.traffic)
        .slice(inHistory)
        .map((e) => e.tool_calls?.[0]?.arguments.command),
    ).toEqual(steps.slice(inHistory).map((s) => String(s.action).trim()));
    expect(scenario.inputs.task).toBe(history.find((m) => m.role === 'user')!.content);
    expect(scenario.inputs.harness_system_prompt).toBe(history.find((m) => m.role === 'system')!.content);
  });

  it('with commands in the text: each action is a call, the next message its output; demonstrations left out', () => {
    const file = json('swe-agent-commands.traj');
    const history = file.history as Obj[];
    const apiCalls = obj(obj(file.info).model_stats).api_calls;
    const { scenario, report } = importTrace(text('swe-agent-commands.traj'));
    expect(report.inferences).toBe(apiCalls);
    const actions = history.filter((m) => m.role === 'assistant').map((m) => String(m.action).trim());
    expect(assistants(scenario.traffic).map((e) => e.tool_calls?.[0]?.arguments.command)).toEqual(actions);
    expect(report.skipped.demonstration).toBe(history.filter((m) => m.is_demo === true).length);
    // Every output follows the action it answers; the last action's output is in the file too.
    expect(report.toolResults).toBe(
      history.filter((m, i) => m.role === 'user' && history[i - 1]?.role === 'assistant').length,
    );
  });
});

describe('mini-swe-agent trajectories', () => {
  for (const name of ['mini-swe-agent-local.traj.json', 'mini-swe-agent-github-issue.traj.json']) {
    it(`${name}: one inference per assistant message, each fenced command a call answered by the <returncode> message after it`, () => {
      const messages = json(name) as unknown as Obj[];
      const { scenario, report } = importTrace(text(name));
      expect(report.format).toBe('mini-swe-agent');
      expect(report.inferences).toBe(messages.filter((m) => m.role === 'assistant').length);
      // A command's output is the user message right after it (the last, after the submit command, is empty).
      const hasCommand = (m: Obj | undefined) =>
        m?.role === 'assistant' && /```\w*\n[\s\S]*?\n```/.test(String(m.content));
      expect(report.toolResults).toBe(
        messages.filter((m, i) => m.role === 'user' && hasCommand(messages[i - 1])).length,
      );
      expect(report.unansweredCalls).toEqual([]);
      const commands = messages
        .filter((m) => m.role === 'assistant')
        .map((m) => /```\w*\n([\s\S]*?)\n```/.exec(String(m.content))?.[1]);
      expect(assistants(scenario.traffic).map((e) => e.tool_calls?.[0]?.arguments.command)).toEqual(commands);
    });
  }
});

describe('OpenHands trajectories', () => {
  for (const name of ['openhands-basic.json', 'openhands-wrong-initial-state.json']) {
    it(`${name}: one inference per model response, its usage kept; observations answer their calls`, () => {
      const events = json(name) as unknown as Obj[];
      const responses = new Map<string, Obj>();
      for (const e of events) {
        const response = obj(obj(e.tool_call_metadata).model_response);
        if (e.action !== undefined && typeof response.id === 'string') responses.set(response.id, response);
      }
      const { scenario, report } = importTrace(text(name));
      expect(report.format).toBe('openhands');
      expect(report.inferences).toBe(responses.size);
      // The provider's own figures: LiteLLM's prompt_tokens is the whole prompt; the cache parts as Anthropic recorded them.
      expect(assistants(scenario.traffic).map((e) => e.recorded)).toEqual(
        [...responses.values()].map((r) => {
          const usage = obj(r.usage);
          return {
            promptTokens: usage.prompt_tokens,
            cacheReadTokens: usage.cache_read_input_tokens,
            cacheWriteTokens: usage.cache_creation_input_tokens,
            outputTokens: usage.completion_tokens,
            model: r.model,
          };
        }),
      );
      expect(report.toolResults).toBe(
        events.filter((e) => e.observation !== undefined && e.tool_call_metadata !== undefined).length,
      );
      expect(report.recordedCalls).toBe(responses.size);
    });
  }
});

/** The usage a streamed or plain response recorded, read straight from the claude-trace line. */
function responseUsage(line: Obj): Obj {
  const response = obj(line.response);
  if (response.body) return obj(obj(response.body).usage);
  const start = String(response.body_raw)
    .split('\n')
    .find((l) => l.includes('"message_start"'))!;
  return obj(obj(JSON.parse(start.slice('data: '.length)).message).usage);
}

describe('claude-trace logs', () => {
  it("the main agent's requests are the calls (side requests declare no tools); each call's recorded prompt is its response's usage", () => {
    const lines = text('claude-trace-first-calls.jsonl')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Obj);
    const tools = (l: Obj) =>
      Array.isArray(obj(obj(l.request).body).tools) ? (obj(obj(l.request).body).tools as unknown[]).length : 0;
    const most = Math.max(...lines.map(tools));
    const main = lines.filter((l) => tools(l) === most);
    const { scenario, report } = importTrace(text('claude-trace-first-calls.jsonl'));
    expect(report.format).toBe('claude-trace');
    expect(report.inferences).toBe(main.length);
    expect(assistants(scenario.traffic).map((e) => e.recorded?.promptTokens)).toEqual(
      main.map((l) => {
        const u = responseUsage(l);
        return Number(u.input_tokens) + Number(u.cache_read_input_tokens) + Number(u.cache_creation_input_tokens);
      }),
    );
    // The conversation is the last main request's messages, then its reply.
    const last = obj(obj(main.at(-1)!.request).body);
    // The task is the first message's words without Claude Code's <system-reminder> blocks (kept aside as harness text).
    const blocks = (last.messages as Obj[])[0]!.content as Obj[];
    expect(scenario.inputs.task).toBe(
      blocks
        .filter((b) => b.type === 'text' && !String(b.text).startsWith('<system-reminder>'))
        .map((b) => b.text)
        .join('\n'),
    );
    expect(scenario.traffic.length).toBe((last.messages as unknown[]).length - 1 + 1);
  });
});

describe("Codex rollouts that write each call's token_count before its response's items (0.34, 0.63)", () => {
  const RESPONSE_ITEMS = new Set(['reasoning', 'function_call', 'custom_tool_call', 'local_shell_call']);
  const isResponseItem = (l: Obj) =>
    l.type === 'response_item' &&
    (RESPONSE_ITEMS.has(String(obj(l.payload).type)) || obj(l.payload).role === 'assistant');
  const tokenInfo = (l: Obj) =>
    l.type === 'event_msg' && obj(l.payload).type === 'token_count' && l.payload !== null
      ? obj(obj(l.payload).info)
      : undefined;

  for (const name of ['codex-0.34-first-calls.jsonl', 'codex-0.63-first-calls.jsonl']) {
    it(`${name}: one inference per token_count call, each carrying the usage written just before its items`, () => {
      const lines = text(name)
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as Obj);
      // The calls, from the file: token_count lines with usage, a repeat of the running total being the same call.
      const calls: { at: number; usage: Obj }[] = [];
      let total: unknown;
      lines.forEach((l, at) => {
        const info = tokenInfo(l);
        if (!info || !info.last_token_usage) return;
        const t = obj(info.total_token_usage).total_tokens;
        if (t !== total) calls.push({ at, usage: obj(info.last_token_usage) });
        total = t;
      });
      // The shape this test is about: every call's first item comes after its token_count, before the next one.
      calls.forEach((c, i) => {
        const next = lines.findIndex((l, j) => j > c.at && isResponseItem(l));
        expect(next).toBeGreaterThan(c.at);
        expect(next).toBeLessThan(calls[i + 1]?.at ?? lines.length);
      });
      const { scenario, report } = importTrace(text(name));
      expect(report.format).toBe('codex');
      expect(report.inferences).toBe(calls.length);
      const turns = assistants(scenario.traffic);
      expect(
        turns.map((t) => [t.recorded?.promptTokens, t.recorded?.cacheReadTokens, t.recorded?.outputTokens]),
      ).toEqual(calls.map((c) => [c.usage.input_tokens, c.usage.cached_input_tokens, c.usage.output_tokens]));
      // Each response's reasoning is encrypted: it goes back as the reasoning tokens its own call recorded.
      expect(turns.map((t) => t.reasoning)).toEqual(
        calls.map((c) => ({ size_tokens: c.usage.reasoning_output_tokens })),
      );
    });
  }

  it('a wrapped 0.34 tool output is the JSON text the model was sent, an error when its exit code is not 0', () => {
    const lines = text('codex-0.34-first-calls.jsonl')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Obj);
    const outputs = lines
      .filter((l) => obj(l.payload).type === 'function_call_output')
      .map((l) => String(obj(l.payload).output));
    const { scenario } = importTrace(text('codex-0.34-first-calls.jsonl'));
    expect(results(scenario.traffic).map((r) => r.type === 'tool_result' && [r.content, r.is_error === true])).toEqual(
      outputs.map((o) => [o, obj(obj(JSON.parse(o)).metadata).exit_code !== 0]),
    );
  });
});
