// CustomRegion driven directly: every hook outcome and every failure path.
import { describe, expect, it } from 'vitest';
import { CustomRegion } from '../../../src/engine/regions/custom.ts';
import {
  CustomScriptError,
  checkCustomScript,
  runRhaiSeed,
  loadCustomHooks,
} from '../../../src/engine/custom-script.ts';
import { countTokens } from '../../../src/engine/tokens.ts';
import { entryLabel } from '../../../src/engine/regions/index.ts';
import { budgetOf, decl, testContext, text, toolResult } from '../../builders.ts';

const PLAIN = 'fn render(ctx) { let t = ""; for e in ctx.entries { t += e.content + ";"; } t }';

function region(source: string, extra: Parameters<typeof decl>[1] = {}, budget = 1000) {
  return new CustomRegion(decl('brain', { kind: 'custom', script: 'hooks/brain.rhai', ...extra }), budgetOf(budget), {
    agent: { 'agent.leviath': '', 'hooks/brain.rhai': source },
    encoding: 'o200k_base',
    loadCustomHooks,
  });
}

function spawnError(agent: Record<string, string>, script = 'hooks/brain.rhai'): CustomScriptError {
  try {
    new CustomRegion(decl('brain', { kind: 'custom', script }), budgetOf(100), {
      agent,
      encoding: 'o200k_base',
      loadCustomHooks,
    });
  } catch (error) {
    if (error instanceof CustomScriptError) return error;
    throw error;
  }
  throw new Error('spawn did not fail');
}

describe('spawn: the script is read and compile-checked once', () => {
  it('a missing file', () => {
    const error = spawnError({ 'agent.leviath': '' });
    expect(error.code).toBe('custom-script-missing');
    expect(error.file).toBe('hooks/brain.rhai');
    expect(error.message).toBe(
      'custom region brain: script "hooks/brain.rhai" is not in the agent directory; create it with at least fn render(ctx)',
    );
  });

  it('a script outside the agent directory', () => {
    expect(spawnError({ 'agent.leviath': '' }, '../brain.rhai').code).toBe('script-outside-agent-dir');
  });

  it('a parse error, with the script line and column', () => {
    const error = spawnError({ 'agent.leviath': '', 'hooks/brain.rhai': 'fn render(ctx) {\n  let x = ;\n}' });
    expect(error.code).toBe('custom-script-invalid');
    expect([error.line, error.column]).toEqual([2, 11]);
    expect(error.message).toMatch(/^custom region brain: hooks\/brain\.rhai does not parse: .+ \(line 2, column 11\)$/);
  });

  it('no fn render(ctx)', () => {
    const error = spawnError({ 'agent.leviath': '', 'hooks/brain.rhai': 'fn on_write(ctx) { true }' });
    expect(error.code).toBe('custom-render-missing');
    expect(error.message).toBe(
      'custom region brain: hooks/brain.rhai defines no fn render(ctx); render is the one required hook',
    );
  });

  it('checkCustomScript is the check lev validate runs', () => {
    expect(checkCustomScript(PLAIN, 'a.rhai')).toEqual([]);
    expect(checkCustomScript('// no ctx\nfn render() { "" }', 'a.rhai')).toEqual([
      {
        code: 'custom-render-missing',
        line: 2,
        column: 1,
        message:
          'a.rhai defines no fn render(ctx) (the render at line 2 takes 0 parameters; it must take exactly ctx); render is the one required hook',
      },
    ]);
    const [invalid] = checkCustomScript('\n\nfn render(ctx) { "unterminated }', 'a.rhai');
    expect(invalid).toMatchObject({ code: 'custom-script-invalid', line: 3 });
  });
});

describe('render', () => {
  it('runs on every inference, even when empty, and a string is one system block', () => {
    const r = region('fn render(ctx) { if ctx.entries.is_empty() { "scaffold" } else { "has " + ctx.entries.len() } }');
    const ctx = testContext();
    expect(r.render(ctx)).toEqual({ system: { text: 'scaffold', tokens: countTokens('scaffold') }, messages: [] });
    r.write(text('a'), ctx);
    expect(r.render(ctx).system?.text).toBe('has 1');
  });

  it('an empty string means nothing', () => {
    expect(region('fn render(ctx) { "" }').render(testContext())).toEqual({ system: undefined, messages: [] });
  });

  it('sees the whole ctx', () => {
    const script = `fn render(ctx) {
      let r = ctx.region;
      let s = \`\${r.name}|\${r.budget}|\${r.current_tokens}|\${r.entry_count}|\${ctx.stage_name}|\${ctx.stage_iterations}|\${ctx.model}|\${ctx.window.total_tokens}|\${ctx.window.max_tokens}\`;
      for e in ctx.entries {
        s += "\\n" + \`\${e.kind}:\${e.content}:\${e.tokens}:\${e.timestamp}:\${e.key}\`;
        if e.kind == "tool_result" { s += \`:\${e.tool_call_id}:\${e.tool_name}:\${e.is_error}\`; }
        if e.kind == "assistant_turn" { s += \`:\${e.tool_calls[0].name}:\${e.tool_calls[0].arguments.path}\`; }
      }
      s
    }`;
    const r = region(script, {}, 800);
    const ctx = testContext({ stage: 'plan', stageIterations: 2 });
    ctx.windowTokens = 9000;
    const a = text('hello', { key: 'greeting' });
    const b = toolResult('c7', 'ERROR: no', { isError: true });
    const c = text('reading', {
      kind: 'assistant_turn',
      toolCalls: [{ id: 'c8', name: 'read_file', arguments: { path: 'a.rs' } }],
      toolCallTokens: [5],
      tokens: countTokens('reading') + 5,
    });
    for (const e of [a, b, c]) r.write(e, ctx);
    expect(r.render(ctx).system!.text).toBe(
      [
        `brain|800|${a.tokens + b.tokens + c.tokens}|3|plan|2|claude-sonnet-4|9000|200000`,
        `text:hello:${a.tokens}:${a.seq}:greeting`,
        `tool_result:ERROR: no:${b.tokens}:${b.seq}::c7:shell:true`,
        `assistant_turn:reading:${c.tokens}:${c.seq}::read_file:a.rs`,
      ].join('\n'),
    );
  });

  it('a map with a system array and typed messages; messages keep the script order', () => {
    const script = `fn render(ctx) {
      #{ system: ["one", "two"], messages: [
        #{ role: "user", content: "intro" },
        #{ role: "user", content: ctx.entries[0].content },
        #{ role: "assistant", content: "outro" },
      ] }
    }`;
    const r = region(script);
    const ctx = testContext();
    const a = text('first', { kind: 'user_message' });
    r.write(a, ctx);
    const out = r.render(ctx);
    expect(out.system).toEqual({ text: 'one\n\ntwo', tokens: countTokens('one\n\ntwo') });
    expect(out.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'intro'],
      ['user', 'first'],
      ['assistant', 'outro'],
    ]);
    // The entry's own message keeps its position; the others sit just before and after it.
    expect(out.messages.map((m) => m.seq)).toEqual([a.seq - 0.5, a.seq, a.seq + 0.5]);
    expect(out.messages[1]!.tokens).toBe(a.tokens);
  });

  it('the cache hint follows persistent', () => {
    expect(region(PLAIN, { persistent: true }).cache).toBe('always');
    expect(region(PLAIN).cache).toBe('until-changed');
  });
});

describe('on_write', () => {
  const script = `${PLAIN}
    fn on_write(ctx) {
      let c = ctx.entry.content;
      if c == "drop" { return false; }
      if c == "yes" { return true; }
      if c.starts_with("long") { return "short"; }
      if c == "number" { return 42; }
      if c == "throw" { throw "nope"; }
      ()
    }`;

  it('a string replaces the content, re-counted, kind kept', () => {
    const r = region(script);
    const ctx = testContext();
    const entry = toolResult('c1', 'long output\nwith many lines and words');
    // `stored` is the size after the hook, which the call's result and the ledger report.
    expect(r.write(entry, ctx)).toEqual({ ok: true, changes: [], stored: countTokens('short') });
    expect(r.entries).toEqual([{ ...entry, content: 'short', tokens: countTokens('short') }]);
    expect(r.tokens).toBe(countTokens('short'));
  });

  it('a replaced generated result is labelled by its new content, not the first line it was generated with', () => {
    const r = region(script);
    const ctx = testContext();
    r.write(toolResult('c1', 'long output\nfiller words', { head: 'long output' }), ctx);
    expect(r.entries[0]!.head).toBeUndefined();
    expect(entryLabel(r.entries[0]!)).toBe('short');
  });

  it('true and () accept unchanged; false drops', () => {
    const r = region(script);
    const ctx = testContext();
    const yes = text('yes');
    const unit = text('plain');
    const drop = text('drop');
    expect(r.write(yes, ctx)).toEqual({ ok: true, changes: [] });
    expect(r.write(unit, ctx)).toEqual({ ok: true, changes: [] });
    expect(r.write(drop, ctx)).toEqual({
      ok: true,
      changes: [
        { type: 'evict', region: 'brain', tokens: drop.tokens, entries: ['drop'], reason: 'on_write returned false' },
      ],
      stored: 0,
      hookDropped: true,
    });
    expect(r.entries).toEqual([yes, unit]);
    expect(ctx.warnings).toEqual([]);
  });

  it('a wrong return type or a throw accepts unchanged and warns with the position', () => {
    const r = region(script);
    const ctx = testContext();
    const number = text('number');
    const thrown = text('throw');
    r.write(number, ctx);
    r.write(thrown, ctx);
    expect(r.entries).toEqual([number, thrown]);
    expect(ctx.warnings[0]).toBe(
      'custom region brain: on_write must return a string, true, false or (), got i64 (hooks/brain.rhai); the entry was accepted unchanged',
    );
    expect(ctx.warnings[1]).toMatch(
      /^custom region brain: on_write failed at hooks\/brain\.rhai line 8, column \d+: .*nope.*; the entry was accepted unchanged$/,
    );
  });
});

describe('ctx is passed by value', () => {
  it('mutating ctx in a hook changes nothing stored', () => {
    const r = region(`fn render(ctx) { ctx.entries[0].content = "changed"; "" }
      fn on_write(ctx) { ctx.entry.content = "changed"; () }`);
    const ctx = testContext();
    const entry = text('original');
    r.write(entry, ctx);
    r.render(ctx);
    expect(r.entries).toEqual([entry]);
    expect(ctx.warnings).toEqual([]);
  });
});

describe('on_overflow and persistence', () => {
  const entries = () => [text('keep ERROR 1'), text('noise 2'), text('keep ERROR 3'), text('noise 4')];
  const size = (es: { tokens: number }[]) => es.reduce((s, e) => s + e.tokens, 0);

  it('drops the indices it returns', () => {
    const es = entries();
    const r = region(
      `${PLAIN} fn on_overflow(ctx) { let d = []; for (e, i) in ctx.entries { if !e.content.contains("ERROR") { d.push(i); } } d }`,
      {},
      size(es) - 1,
    );
    const ctx = testContext();
    const changes = es.flatMap((e) => (r.write(e, ctx) as { changes: unknown[] }).changes);
    expect(r.entries).toEqual([es[0], es[2]]);
    expect(changes).toEqual([
      {
        type: 'evict',
        region: 'brain',
        tokens: es[1]!.tokens + es[3]!.tokens,
        entries: ['noise 2', 'noise 4'],
        reason: 'over budget ' + (size(es) - 1) + ': chosen by on_overflow',
      },
    ]);
  });

  it('oldest-first makes up what the picks leave short; absent hook means oldest-first', () => {
    const es = entries();
    expect(es[0]!.tokens).toBeGreaterThan(es[3]!.tokens); // so dropping e1 alone is not enough at e2
    const budget = es[2]!.tokens + es[3]!.tokens;
    const picky = region(`${PLAIN} fn on_overflow(ctx) { [ctx.entries.len() - 2] }`, {}, budget);
    const ctx = testContext();
    const changes = es.flatMap((e) => (picky.write(e, ctx) as { changes: unknown[] }).changes);
    expect(picky.entries).toEqual([es[2], es[3]]);
    expect(changes).toEqual([
      {
        type: 'evict',
        region: 'brain',
        tokens: es[1]!.tokens,
        entries: ['noise 2'],
        reason: `over budget ${budget}: chosen by on_overflow`,
      },
      {
        type: 'evict',
        region: 'brain',
        tokens: es[0]!.tokens,
        entries: ['keep ERROR 1'],
        reason: `over budget ${budget}: oldest-first made up the difference`,
      },
    ]);
    const plain = region(PLAIN, {}, budget);
    for (const e of es) plain.write(e, ctx);
    expect(plain.entries).toEqual([es[2], es[3]]);
  });

  it('on_overflow that throws or returns nonsense falls back to oldest-first with a warning', () => {
    for (const [body, warning] of [
      [
        'throw "bad";',
        /^custom region brain: on_overflow failed at hooks\/brain\.rhai line 1, column \d+: .*bad.*; evicted oldest-first instead$/,
      ],
      [
        '"x"',
        /^custom region brain: on_overflow must return an array of entry indices, got string \(hooks\/brain\.rhai\); evicted oldest-first instead$/,
      ],
      ['[99]', /on_overflow's result\[0\] is 99, outside 0\.\.\d/],
    ] as const) {
      const es = entries();
      const r = region(`fn on_overflow(ctx) { ${body} } ${PLAIN}`, {}, es[3]!.tokens);
      const ctx = testContext();
      for (const e of es) r.write(e, ctx);
      expect(r.entries).toEqual([es[3]]);
      expect(ctx.warnings[0]).toMatch(warning);
    }
  });

  it('persistent = true never evicts and is exempt from the cascade', () => {
    const es = entries();
    const r = region(`${PLAIN} fn on_overflow(ctx) { [0] }`, { persistent: true }, 1);
    const ctx = testContext();
    for (const e of es) r.write(e, ctx);
    expect(r.entries).toEqual(es);
    expect(r.cascadeTier).toBeUndefined();
    expect(r.shed(1000, ctx)).toEqual([]);
    expect(region(PLAIN).cascadeTier).toBe(1);
  });

  it('the cascade asks on_overflow first, with the tokens it needs', () => {
    const es = entries();
    const r = region(
      `${PLAIN} fn on_overflow(ctx) { if ctx.needed_tokens == ${es[1]!.tokens} { [1] } else { [] } }`,
      {},
      10_000,
    );
    const ctx = testContext();
    for (const e of es) r.write(e, ctx);
    expect(r.shed(es[1]!.tokens, ctx)).toEqual([
      {
        type: 'cascade',
        region: 'brain',
        tokens: es[1]!.tokens,
        entries: ['noise 2'],
        reason: 'request exceeded the model window: chosen by on_overflow',
      },
    ]);
  });
});

describe('render failures fall back to the plain [name]: rendering', () => {
  const cases: [string, RegExp][] = [
    [
      'fn render(ctx) { throw "broken"; }',
      /^custom region brain: render failed at hooks\/brain\.rhai line 1, column \d+: .*broken.*; rendered its entries plainly as \[brain\]: instead$/,
    ],
    [
      'fn render(ctx) { 42 }',
      /^custom region brain: render must return a string or a map with system \/ messages, got i64 \(hooks\/brain\.rhai\); rendered/,
    ],
    [
      'fn render(ctx) { #{ messages: #{ role: "user", content: "x" } } }',
      /render's messages must be an array of maps, got map/,
    ],
    [
      'fn render(ctx) {\n  let n = 0;\n  loop { n += 1; }\n}',
      /^custom region brain: render failed at hooks\/brain\.rhai line 3, column \d+: .*; rendered/,
    ],
  ];
  for (const [script, warning] of cases) {
    it(script.split('\n')[0]!, () => {
      const r = region(script);
      const ctx = testContext();
      r.write(text('alpha'), ctx);
      r.write(text('beta'), ctx);
      const out = r.render(ctx);
      expect(out.system!.text).toBe('[brain]:\nalpha\nbeta');
      expect(out.messages).toEqual([]);
      expect(ctx.warnings).toHaveLength(1);
      expect(ctx.warnings[0]).toMatch(warning);
    });
  }
});

describe('rhai seeds', () => {
  it('a string, an array of lines, and an error with its position', () => {
    expect(runRhaiSeed('seeds/plan.rhai', 'let steps = ["read", "fix"]; `plan: ${steps.len()} steps`')).toBe(
      'plan: 2 steps',
    );
    expect(runRhaiSeed('seeds/plan.rhai', '["a", "b", 3]')).toBe('a\nb\n3');
    expect(() => runRhaiSeed('seeds/plan.rhai', '\nthrow "no plan";')).toThrow(
      /^seeds\/plan\.rhai line 2, column \d+: .*no plan/,
    );
  });

  it('a value nested too deeply to turn into text is an error naming the seed, not a RangeError', () => {
    // [a] with a 1,500 levels deep prints as 1,501 brackets either side of "x"
    expect(runRhaiSeed('seeds/deep.rhai', 'let a = "x"; for i in 0..1500 { a = [a]; } [a]')).toBe(
      `${'['.repeat(1500)}"x"${']'.repeat(1500)}`,
    );
    expect(() => runRhaiSeed('seeds/deep.rhai', 'let a = "x"; for i in 0..5000 { a = [a]; } [a]')).toThrow(
      /^seeds\/deep\.rhai: the script's value is nested too deeply to turn into text$/,
    );
  });
});
