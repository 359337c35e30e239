// The message stream assemble() builds: the message regions' messages merged by seq (as a stable
// sort of their concatenation would order them, ties keeping region order), then tool calls and
// results paired. Checked against a plain reference of both rules on random streams: regions in
// and out of seq order, shared seqs, repeated call ids, results before their calls.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AssemblyState, assemble, sameBlock } from '../../src/engine/assemble.ts';
import { resolveBudget } from '../../src/engine/budget.ts';
import { createRegion, entryMessage } from '../../src/engine/regions/index.ts';
import type { Entry, Region, RegionContext, RenderedMessage } from '../../src/engine/regions/types.ts';
import { implicitDecl } from '../../src/engine/stages.ts';
import { countTokens } from '../../src/engine/tokens.ts';

interface Spec {
  role: 'user' | 'assistant' | 'tool';
  seq: number;
  calls: string[];
  id: string | undefined;
  content: string;
}

function message(spec: Spec): RenderedMessage {
  const m: RenderedMessage = { seq: spec.seq, role: spec.role, content: spec.content, tokens: 3 + spec.calls.length };
  if (spec.role === 'assistant' && spec.calls.length) {
    m.tool_calls = spec.calls.map((id) => ({ id, name: 'grep', arguments: {} }));
    m.toolCallTokens = spec.calls.map(() => 1);
  }
  if (spec.role === 'tool' && spec.id !== undefined) m.tool_call_id = spec.id;
  return m;
}

function region(name: string, messages: RenderedMessage[]): Region {
  return { name, section: 'messages', removable: true, render: () => ({ messages }) } as unknown as Region;
}

/** The rules written plainly: a stable sort, then each result answers the earliest waiting call with its id. */
function reference(regions: { name: string; messages: RenderedMessage[] }[]) {
  const stream = regions.flatMap((r) => r.messages.map((message) => ({ message, region: r.name })));
  stream.sort((a, b) => a.message.seq - b.message.seq);
  const callKept = new Map<number, boolean[]>();
  const resultKept = new Set<number>();
  const waiting = new Map<string, { at: number; call: number }[]>();
  stream.forEach(({ message }, at) => {
    if (message.role === 'assistant' && message.tool_calls?.length) {
      callKept.set(
        at,
        message.tool_calls.map(() => false),
      );
      message.tool_calls.forEach((c, call) => {
        const q = waiting.get(c.id) ?? [];
        q.push({ at, call });
        waiting.set(c.id, q);
      });
    } else if (message.role === 'tool' && message.tool_call_id !== undefined) {
      const answered = waiting.get(message.tool_call_id)?.shift();
      if (answered) {
        callKept.get(answered.at)![answered.call] = true;
        resultKept.add(at);
      }
    }
  });
  const kept: { region: string; role: string; content: string; calls: string[] | undefined; id: string | undefined }[] =
    [];
  const toolCalls: string[] = [];
  const toolResults: string[] = [];
  const blocks: [string, string, number][] = [];
  stream.forEach(({ message, region: r }, at) => {
    const keep = callKept.get(at);
    if (keep) {
      message.tool_calls!.forEach((c, i) => {
        if (!keep[i]) {
          toolCalls.push(c.id);
          blocks.push([r, c.id, message.seq]);
        }
      });
      const calls = message.tool_calls!.filter((_, i) => keep[i]).map((c) => c.id);
      if (calls.length || message.content.length > 0)
        kept.push({
          region: r,
          role: message.role,
          content: message.content,
          calls: calls.length ? calls : undefined,
          id: undefined,
        });
      return;
    }
    if (message.role === 'tool' && !resultKept.has(at)) {
      toolResults.push(message.tool_call_id ?? '');
      blocks.push([r, message.tool_call_id ?? '', message.seq]);
      return;
    }
    kept.push({ region: r, role: message.role, content: message.content, calls: undefined, id: message.tool_call_id });
  });
  return { kept, stripped: { toolCalls, toolResults }, blocks };
}

const specArb: fc.Arbitrary<Spec> = fc.record({
  role: fc.constantFrom('user', 'assistant', 'tool') as fc.Arbitrary<Spec['role']>,
  seq: fc.integer({ min: 0, max: 12 }),
  calls: fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 3 }),
  id: fc.option(fc.constantFrom('a', 'b', 'c', 'd'), { nil: undefined }),
  content: fc.constantFrom('', 'x', 'y'),
});

describe('the message stream', () => {
  it('merges regions by seq as a stable sort would, and pairs calls with results as the plain rules say', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.array(specArb, { maxLength: 8 }), fc.boolean()), { maxLength: 4 }), (specs) => {
        const regions = specs.map(([list, sorted], i) => {
          const messages = list.map(message);
          if (sorted) messages.sort((a, b) => a.seq - b.seq);
          return { name: `r${i}`, messages };
        });
        const assembly = assemble(
          new AssemblyState(),
          regions.map((r) => region(r.name, r.messages)),
          {} as RegionContext,
        );
        const expected = reference(regions);
        const got = assembly.request.messages.map((m) => ({
          region: m.region,
          role: m.role,
          content: m.content,
          calls: m.tool_calls?.map((c) => c.id),
          id: m.tool_call_id,
        }));
        expect(got).toEqual(expected.kept);
        expect(assembly.stripped).toEqual(expected.stripped);
        expect(assembly.strippedBlocks.map((b) => [b.region, b.id, b.seq])).toEqual(expected.blocks);
      }),
      { numRuns: 500 },
    );
  });
});

// A message region keeps its entries' messages in step with its entries between renders (so a
// render after a write maps only the new entry): whatever the kind did since, a render must be
// exactly its entries' own messages, the same objects entryMessage gives.
describe("a message region's render", () => {
  const kinds = [
    'temporary',
    'pinned',
    'sliding_window',
    'compacting',
    'compact_history',
    'clearable',
    'hashmap',
    'checklist',
  ] as const;
  type Op = {
    op:
      | 'write'
      | 'put'
      | 'remove-key'
      | 'remove-index'
      | 'remove-oldest'
      | 'shed'
      | 'compact'
      | 'todo-add'
      | 'todo-done'
      | 'render';
    n: number;
    key: string;
  };
  const opArb: fc.Arbitrary<Op> = fc.record({
    op: fc.constantFrom(
      'write',
      'write',
      'put',
      'remove-key',
      'remove-index',
      'remove-oldest',
      'shed',
      'compact',
      'todo-add',
      'todo-done',
      'render',
      'render',
    ),
    n: fc.integer({ min: 1, max: 40 }),
    key: fc.constantFrom('k1', 'k2', 'k3'),
  });

  it('is its entries as entryMessage makes them, after any mix of writes, deletes, folds and reorders', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...kinds),
        fc.integer({ min: 1, max: 6 }),
        fc.array(opArb, { maxLength: 30 }),
        (kind, maxItems, ops) => {
          const decl = implicitDecl('tool_results', kind, { maxTokens: 60, maxItems, sourceRegion: 'conversation' });
          const region = createRegion(decl, resolveBudget(decl, 128_000), { agent: {}, encoding: 'o200k_base' }).region;
          let seq = 0;
          const ctx: RegionContext = {
            encoding: 'o200k_base',
            nextSeq: () => seq++,
            count: (text) => countTokens(text),
            summarize: (entries, label, at) => ({
              seq: at,
              content: `[summary of ${entries.length} from ${label}]`,
              tokens: 5,
              kind: 'summary',
            }),
            stage: 's',
            stageIterations: 1,
            model: 'm',
            window: 128_000,
            warn: () => {},
          };
          const entry = (n: number, key?: string): Entry => ({
            seq: seq++,
            content: `x${n}`,
            tokens: n,
            kind: 'tool_result',
            toolCallId: `c${seq}`,
            ...(key ? { key } : {}),
          });
          for (const { op: asked, n, key } of ops) {
            // A checklist holds todo items only: its writes are todo_add, its deletes todo_done.
            const op = region.checklist
              ? asked === 'write' || asked === 'put'
                ? 'todo-add'
                : asked.startsWith('remove')
                  ? 'todo-done'
                  : asked
              : asked;
            if (op === 'write') region.write(entry(n, region.keyed ? key : undefined), ctx);
            else if (op === 'put') region.put(entry(n, key), ctx);
            else if (op === 'remove-key') region.remove({ key });
            else if (op === 'remove-index') region.remove({ index: n % 4 });
            else if (op === 'remove-oldest') region.remove({ oldest: 1 + (n % 2) });
            else if (op === 'shed') region.shed(n, ctx);
            else if (op === 'compact') region.compactAll(ctx, 'test');
            else if (op === 'todo-add') region.checklist?.add(`item ${n}`, ctx);
            else if (op === 'todo-done') region.checklist?.done(1 + (n % 3), ctx);
            const messages = region.render(ctx).messages;
            expect(messages.length).toBe(region.entries.length);
            region.entries.forEach((e, i) => expect(messages[i]).toBe(entryMessage(e)));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('sameBlock (the prompt cache compares blocks by identity, else by their text)', () => {
  // The text a message block is compared by, written out as blockText builds it.
  const text = (m: RenderedMessage) =>
    `${m.role}\u0000${m.tool_call_id ?? ''}\u0000${m.content}${m.tool_calls?.length ? `\n${JSON.stringify(m.tool_calls)}` : ''}`;
  const specArb = fc.record({
    role: fc.constantFrom('user' as const, 'assistant' as const, 'tool' as const),
    seq: fc.nat(5),
    calls: fc.array(fc.constantFrom('a', 'b', 'c\u0000'), { maxLength: 2 }),
    id: fc.option(fc.constantFrom('a', 'a\u0000', ''), { nil: undefined }),
    content: fc.constantFrom('', 'x', 'xy', '\u0000x', 'x\u0000', 'a\u0000x'),
  });

  it('agrees with comparing the texts, for any two messages and for system blocks', () => {
    fc.assert(
      fc.property(specArb, specArb, (x, y) => {
        const a = message(x);
        const b = message(y);
        expect(sameBlock(a, b)).toBe(text(a) === text(b));
        expect(sameBlock(a, a)).toBe(true);
        const system = { region: 'r', text: text(b), tokens: 1, cache: 'until-changed' as const };
        expect(sameBlock(a, system)).toBe(text(a) === text(b));
      }),
      { numRuns: 2_000 },
    );
  });
});
