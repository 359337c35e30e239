// run/turns.ts: a user turn joins the conversation; an inference assembles the request (shedding by
// the cascade while it is over the window), measures it against the cache and the baseline, and
// only then adds the model's reply to the conversation.
import { describe, expect, it } from 'vitest';
import { infer, messageText, userMessage } from '../../../src/engine/run/turns.ts';
import { contextAppend } from '../../../src/engine/run/agent-tools.ts';
import { countTokens } from '../../../src/engine/tokens.ts';
import { held, spawn, words } from '../../builders.ts';

const PLAIN = '[context.regions]\nnotes = { kind = "temporary" }\n';
const reply = (content: string) => ({ type: 'assistant' as const, content });

describe('a user turn', () => {
  it('lands in conversation as a user message, and the flat-list baseline counts it', () => {
    const run = spawn(PLAIN);
    const baseline = run.baseline.tokens;
    userMessage(run, { text: words(12) });
    expect(run.regions.get('conversation')!.entries.map((e) => [e.kind, e.tokens])).toEqual([['user_message', 12]]);
    expect(run.baseline.tokens).toBe(baseline + 12);
  });

  it('of size_tokens is filler of exactly that size, the same for the same event, with its first line as head', () => {
    const run = spawn(PLAIN);
    const made = messageText(run, { type: 'user', content: '', size_tokens: 25 }, 3);
    expect(countTokens(made.text, 'o200k_base')).toBe(25);
    expect(made.tokens).toBe(25); // known, so the run does not tokenize the text it made
    expect(made.head).toBe('user output');
    expect(made.text.split('\n')[0]).toBe(made.head);
    expect(messageText(run, { type: 'user', content: '', size_tokens: 25 }, 3)).toEqual(made);
    expect(messageText(run, { type: 'user', content: 'as written', size_tokens: 25 }, 3)).toEqual(made);
    expect(messageText(run, { type: 'user', content: 'as written' }, 3)).toEqual({ text: 'as written' });
  });
});

describe('an inference', () => {
  it('measures the request before the reply joins the conversation, and the next request reuses it as cache prefix', () => {
    const run = spawn(PLAIN);
    userMessage(run, { text: words(10) });
    const first = infer(run, reply(words(5)), 1);
    expect(first).toMatchObject({
      inference: 0,
      messageTokens: 10,
      prefixTokens: 0,
      prefixShare: 0,
      overWindow: false,
      strippedBlocks: 0,
    });
    expect(held(run, 'conversation').map(([, tokens]) => tokens)).toEqual([10, 5]);
    userMessage(run, { text: words(3) });
    const second = infer(run, reply('done'), 3);
    expect(second.inference).toBe(1);
    expect(second.prefixTokens).toBe(first.requestTokens);
    expect(second.requestTokens).toBe(first.requestTokens + 5 + 3); // the first reply and the new turn, not this reply
    expect(second.prefixShare).toBeCloseTo(first.requestTokens / second.requestTokens, 10);
  });

  // OpenAI and Google cache the longest token prefix wherever it ends; Anthropic reads whole blocks
  // up to a breakpoint (platform.openai.com/docs/guides/prompt-caching, "exact prefix matches";
  // docs.anthropic.com prompt caching, an edit invalidates its block).
  const NOTES = '[context.regions]\nnotes = { kind = "hashmap" }\n';
  const sharedAfter = (model: string, second: (run: ReturnType<typeof spawn>) => void) => {
    const run = spawn(NOTES, { model: { id: model } });
    contextAppend(run, 'notes', words(40), 'a');
    contextAppend(run, 'notes', words(30, 'beta'), 'b');
    const first = infer(run, reply('ok'), 2);
    second(run);
    return { first, second: infer(run, reply('ok'), 4) };
  };

  it('a system region that appended an entry keeps its old part cached where the provider matches a token prefix', () => {
    const grow = (run: ReturnType<typeof spawn>) => contextAppend(run, 'notes', words(20, 'gamma'), 'c');
    for (const model of ['gpt-5', 'gemini-2.5-pro']) {
      const { first, second } = sharedAfter(model, grow);
      // The old block whole, but its last token, which may merge with the text after it.
      expect(second.prefixTokens, model).toBe(first.systemTokens - 1);
    }
    expect(sharedAfter('claude-sonnet-4', grow).second.prefixTokens).toBe(0);
  });

  it('a replaced key moves to the end: the entries before it stay cached, under a token-prefix rule only', () => {
    const replace = (run: ReturnType<typeof spawn>) => contextAppend(run, 'notes', words(10), 'a');
    const { second } = sharedAfter('gpt-5', replace);
    // "a" was the first entry: only the region's header comes before it, a few tokens not counted.
    expect(second.prefixTokens).toBe(0);
    const keepFirst = (run: ReturnType<typeof spawn>) => contextAppend(run, 'notes', words(10), 'b');
    // A block's tokens add up its pieces (the header, each key, each value): the header and "a" stay.
    expect(sharedAfter('gpt-5', keepFirst).second.prefixTokens).toBe(
      countTokens('[notes]:\n') + countTokens('a: ') + 40 - 1,
    );
    expect(sharedAfter('claude-sonnet-4', keepFirst).second.prefixTokens).toBe(0);
  });

  it('a reply with tool calls counts each call and keeps it, so its result finds the call', () => {
    const run = spawn(PLAIN);
    const call = { id: 'c1', name: 'read_file', arguments: { path: 'src/a.ts' } };
    infer(run, { type: 'assistant', content: words(4), tool_calls: [call] }, 0);
    const [entry] = run.regions.get('conversation')!.entries;
    const callTokens = countTokens(
      JSON.stringify({ name: 'read_file', arguments: { path: 'src/a.ts' } }),
      'o200k_base',
    );
    expect(entry).toMatchObject({
      kind: 'assistant_turn',
      tokens: 4 + callTokens,
      toolCalls: [call],
      toolCallTokens: [callTokens],
    });
  });

  it('over the window, the cascade sheds the lowest tier first, and what is left over is a warning', () => {
    const run = spawn('[context.regions]\nnotes = { kind = "temporary" }\nrules = { kind = "pinned" }\n', {
      model: { id: 'tiny', window: 60 },
    });
    contextAppend(run, 'notes', words(40), 'scratch');
    contextAppend(run, 'rules', words(70), 'rule');
    run.changes = [];
    const request = infer(run, reply(''), 0);
    expect(run.changes).toEqual([
      {
        type: 'cascade',
        region: 'notes',
        tokens: 40,
        entries: ['scratch'],
        reason: 'request exceeded the model window',
      },
    ]);
    expect(held(run, 'notes')).toEqual([]);
    expect(request.overWindow).toBe(true);
    expect(run.warnings).toEqual([
      `request is ${request.requestTokens} tokens, over the 60-token window even after the cascade; still in it: rules 70 tokens (pinned: never shed)`,
    ]);
  });

  it('the task is in the window while its seeded entry is visible', () => {
    const run = spawn('[context.regions]\ntask = { kind = "pinned", seed = "task_input" }\n', {
      inputs: { task: 'Fix the failing test' },
    });
    expect(infer(run, reply(''), 0)).toMatchObject({ taskInWindow: true, taskInBaselineWindow: true });
  });
});
