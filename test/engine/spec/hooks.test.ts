// Issue 32: custom-region hooks read the script's answer exactly as the spec words it, and every
// message about what a hook did (the call's result, context_append's answer, the timeline) is true.
import { describe, expect, it } from 'vitest';
import type { TrafficEvent } from '../../../src/engine/scenario.ts';
import { countTokens } from '../../../src/engine/tokens.ts';
import { append, detail, run, words } from '../../builders.ts';

const RENDER = 'fn render(ctx) { let out = []; for e in ctx.entries { out.push(e.content); } #{ system: out } }\n';

describe('6. on_overflow answers indices, which are integers', () => {
  // spec (custom-regions.md): on_overflow "Return an array of entry indices to drop."
  const toml = '[context.regions]\nbrain = { kind = "custom", script = "b.rhai", max_tokens = 6 }\n';
  const traffic: TrafficEvent[] = [
    append('brain', words(3)),
    append('brain', words(3, 'beta')),
    append('brain', words(3, 'gamma')),
  ];
  const overflow = (answer: string) =>
    run(toml, traffic, { agent: { 'agent.leviath': toml, 'b.rhai': `${RENDER}fn on_overflow(ctx) { ${answer} }\n` } })
      .steps[2]!;

  it('[1] drops entry 1', () => {
    const step = overflow('[1]');
    expect(step.changes).toEqual([
      {
        type: 'evict',
        region: 'brain',
        tokens: 3,
        entries: [words(3, 'beta')],
        reason: 'over budget 6: chosen by on_overflow',
      },
    ]);
    expect(step.warnings).toEqual([]);
  });

  it('[1.0] is a float, refused like [1.5]: oldest-first instead, with the same warning', () => {
    for (const answer of ['[1.0]', '[1.5]']) {
      const step = overflow(answer);
      expect(step.changes).toEqual([
        { type: 'evict', region: 'brain', tokens: 3, entries: [words(3)], reason: 'over budget 6' },
      ]);
      expect(step.warnings).toEqual([
        "custom region brain: on_overflow's result[0] must be an integer index, got f64 (b.rhai); evicted oldest-first instead",
      ]);
    }
  });
});

describe("on_write's answer, as the result and context_append report it", () => {
  // spec (custom-regions.md): on_write "Return a string to replace the content (tokens re-estimated,
  // kind preserved), true or () to accept unchanged, or false to drop the entry."
  const toml =
    '[context.regions]\nbrain = { kind = "custom", script = "b.rhai" }\n[stages.main.tool_routing]\ndefault_region = "brain"\n';
  const hooks = `${RENDER}fn on_write(ctx) { if ctx.entry.content.contains("DROP") { return false; } if ctx.entry.content.contains("EMPTY") { return ""; } () }\n`;
  const extra = { agent: { 'agent.leviath': toml, 'b.rhai': hooks } };
  const result = (id: string, content: string): TrafficEvent[] => [
    { type: 'assistant', content: '', tool_calls: [{ id, name: 'grep', arguments: {} }] },
    { type: 'tool_result', tool_call_id: id, tool_name: 'grep', content },
  ];

  it('false for a routed result: the stub carries the drop note custom.md promises', () => {
    const t = run(toml, result('c1', 'DROP me please'), extra);
    expect(t.steps[1]!.result).toEqual({
      ok: true,
      message: '[routed to brain: 0 tokens (on_write dropped the 3-token entry)]',
    });
    expect(t.steps[1]!.regions.brain).toMatchObject({ tokens: 0, entries: 0 });
  });

  it('"" replaces the content with nothing: the entry is kept, empty, and the answers say emptied, not dropped', () => {
    const t = run(toml, [...result('c1', 'EMPTY this one'), append('brain', 'EMPTY note here')], extra);
    expect(t.steps[1]!.result).toEqual({
      ok: true,
      message: '[routed to brain: 0 tokens (on_write emptied the 3-token entry)]',
    });
    expect(t.steps[1]!.regions.brain).toMatchObject({ tokens: 0, entries: 1 });
    expect(t.steps[2]!.result).toEqual({
      ok: true,
      message: 'appended 0 tokens (on_write emptied the 3-token entry) to brain; brain now holds 0 of 5,000 tokens',
    });
    expect(t.steps[2]!.regions.brain).toMatchObject({ tokens: 0, entries: 2 });
    expect(t.steps[2]!.changes).toEqual([]);
  });
});

describe('one message render cannot use is left out, not the whole answer', () => {
  // spec (custom-regions.md): render returns "a map with system (a string or an array of strings)
  // and messages (typed role/content entries ...)"; "Runtime problems never break an inference".
  it('a system-role message is dropped with a warning; the rest of the answer is the request', () => {
    const toml = '[context.regions]\nbrain = { kind = "custom", script = "b.rhai" }\n';
    const script =
      'fn render(ctx) { #{ system: "notes", messages: [#{ role: "user", content: "first" }, #{ role: "system", content: "be brief" }, #{ role: "user", content: "third" }] } }\n';
    const traffic: TrafficEvent[] = [append('brain', 'one'), { type: 'assistant', content: 'ok' }];
    const extra = { agent: { 'agent.leviath': toml, 'b.rhai': script } };
    const d = detail(toml, traffic, 1, extra);
    expect(d.request.system.map((b) => [b.region, b.text])).toEqual([['brain', 'notes']]);
    expect(d.request.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'first'],
      ['user', 'third'],
    ]);
    expect(run(toml, traffic, extra).steps[1]!.warnings).toEqual([
      'custom region brain: render\'s messages[1].role must be "user", "assistant" or "tool", got "system"; that message was left out (b.rhai)',
    ]);
  });
});

describe('a script answers a routed call with its own tool message', () => {
  // spec (custom-regions.md): render's messages are "typed role/content entries, optionally
  // carrying tool_calls or tool_results"; "Leviath strips any unpaired tool block before sending".
  // A script's answer to a call routed into its region pairs with the call; the runtime's stub
  // (DESIGN.md: it only exists "so the call stays paired") gives way instead of stripping it.
  const toml =
    '[context.regions]\nbrain = { kind = "custom", script = "b.rhai" }\n[stages.main.tool_routing]\ndefault_region = "brain"\n';
  const script =
    'fn render(ctx) { let out = []; for e in ctx.entries { if e.kind == "tool_result" { out.push(#{ role: "tool", tool_call_id: e.tool_call_id, content: `brief: ${e.content.split("\\n")[0]}` }); } } #{ messages: out } }\n';
  const extra = { agent: { 'agent.leviath': toml, 'b.rhai': script } };
  const traffic: TrafficEvent[] = [
    { type: 'user', content: 'look around' },
    { type: 'assistant', content: '', tool_calls: [{ id: 'c1', name: 'grep', arguments: {} }] },
    { type: 'tool_result', tool_call_id: 'c1', tool_name: 'grep', content: 'src/a.rs:1: fn a()\nsrc/b.rs:2: fn b()' },
    { type: 'assistant', content: 'found them' },
  ];

  it("the script's message takes the stub's place after the call, and nothing is stripped", () => {
    const request = detail(toml, traffic, 3, extra).request;
    expect(
      request.messages.map((m) => [
        m.region,
        m.role,
        m.tool_call_id ?? m.tool_calls?.map((c) => c.id).join(),
        m.content,
      ]),
    ).toEqual([
      ['conversation', 'user', undefined, 'look around'],
      ['conversation', 'assistant', 'c1', ''],
      ['brain', 'tool', 'c1', 'brief: src/a.rs:1: fn a()'],
    ]);
    expect(request.stripped).toEqual({ toolCalls: [], toolResults: [] });
    expect(run(toml, traffic, extra).steps[3]!.changes).toEqual([]);
  });

  it('a script that does not answer the call leaves the stub answering it', () => {
    const quiet = { agent: { 'agent.leviath': toml, 'b.rhai': RENDER } };
    const request = detail(toml, traffic, 3, quiet).request;
    const grep = 'src/a.rs:1: fn a()\nsrc/b.rs:2: fn b()';
    expect(request.messages.filter((m) => m.role === 'tool').map((m) => [m.region, m.content])).toEqual([
      ['tool_results', `[routed to brain: ${countTokens(grep)} tokens]`],
    ]);
  });
});
