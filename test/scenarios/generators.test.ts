import { describe, expect, it } from 'vitest';
import { EventSchema, type GeneratorSpec, type TrafficEvent } from '../../src/engine/index.ts';
import {
  GENERATOR_PARAMS,
  generateTraffic,
  GeneratorParamsError,
  parseGeneratorParams,
} from '../../src/scenarios/generators.ts';

const KINDS = ['coding-agent', 'research-agent', 'long-chat'] as const;

function spec(
  kind: GeneratorSpec['kind'],
  seed: number,
  steps: number,
  params?: Record<string, unknown>,
): GeneratorSpec {
  return { kind, seed, steps, ...(params ? { params } : {}) };
}

/** Every call answered exactly once, right after its inference, by a result naming the same tool. */
function pairingProblems(events: readonly TrafficEvent[]): string[] {
  const problems: string[] = [];
  const pending = new Map<string, string>();
  const seen = new Set<string>();
  for (const [index, event] of events.entries()) {
    if (event.type === 'assistant') {
      if (pending.size > 0) problems.push(`event ${index}: results still owed for ${[...pending.keys()].join(', ')}`);
      for (const call of event.tool_calls ?? []) {
        if (seen.has(call.id)) problems.push(`event ${index}: duplicate call id ${call.id}`);
        seen.add(call.id);
        pending.set(call.id, call.name);
      }
    } else if (event.type === 'tool_result') {
      const name = pending.get(event.tool_call_id);
      if (name !== event.tool_name)
        problems.push(`event ${index}: result ${event.tool_call_id} (${event.tool_name}) answers no open call`);
      pending.delete(event.tool_call_id);
    }
  }
  if (pending.size > 0) problems.push(`calls never answered: ${[...pending.keys()].join(', ')}`);
  return problems;
}

function checkPairing(events: readonly TrafficEvent[]): void {
  expect(pairingProblems(events)).toEqual([]);
}

it('the pairing check catches a missing, a duplicated and an orphan result', () => {
  const call = (id: string): TrafficEvent => ({
    type: 'assistant',
    content: '',
    tool_calls: [{ id, name: 'grep', arguments: {} }],
  });
  const result = (id: string): TrafficEvent => ({
    type: 'tool_result',
    tool_call_id: id,
    tool_name: 'grep',
    size_tokens: 1,
  });
  expect(pairingProblems([call('a'), call('b'), result('b')])).toEqual([
    'event 1: results still owed for a',
    'calls never answered: a',
  ]);
  expect(pairingProblems([call('a'), result('a'), result('a')])).toHaveLength(1);
  expect(pairingProblems([result('x')])).toHaveLength(1);
});

describe('generateTraffic', () => {
  for (const kind of KINDS) {
    describe(kind, () => {
      it('is deterministic: the same seed gives identical events, another seed different ones', () => {
        const a = generateTraffic(spec(kind, 7, 400));
        expect(generateTraffic(spec(kind, 7, 400))).toEqual(a);
        expect(generateTraffic(spec(kind, 8, 400))).not.toEqual(a);
      });

      it('produces only valid events, with every tool call paired exactly once', () => {
        for (const seed of [1, 2, 3]) {
          const events = generateTraffic(spec(kind, seed, 600));
          for (const [index, event] of events.entries()) {
            const parsed = EventSchema.safeParse(event);
            expect(parsed.success, `event ${index}: ${JSON.stringify(event)}`).toBe(true);
          }
          checkPairing(events);
        }
      });

      it('reaches the requested step count, overshooting by at most one turn', () => {
        for (const steps of [50, 500, 2_000]) {
          const n = generateTraffic(spec(kind, 3, steps)).length;
          expect(n).toBeGreaterThanOrEqual(steps);
          expect(n).toBeLessThanOrEqual(steps + 5);
        }
      });
    });
  }

  it('handles 100,000 steps with valid pairing', () => {
    for (const kind of KINDS) {
      const events = generateTraffic(spec(kind, 11, 100_000));
      expect(events.length).toBeGreaterThanOrEqual(100_000);
      checkPairing(events);
    }
  });
});

describe('coding-agent', () => {
  it('uses read_file, grep and shell, and mostly size_tokens results', () => {
    const events = generateTraffic(spec('coding-agent', 5, 2_000));
    const results = events.filter((e) => e.type === 'tool_result');
    expect(new Set(results.map((r) => r.tool_name))).toEqual(new Set(['read_file', 'grep', 'shell']));
    const sized = results.filter((r) => r.size_tokens !== undefined).length;
    expect(sized / results.length).toBeGreaterThan(0.9);
    const errors = results.filter((r) => r.is_error);
    expect(errors.length).toBeGreaterThan(0);
    for (const error of errors) expect(error.content).toMatch(/^ERROR: /);
  });

  it('follows the file-size mix', () => {
    const readSizes = (fileSizes: Record<string, number>) =>
      generateTraffic(spec('coding-agent', 2, 1_500, { fileSizes })).flatMap((e) =>
        e.type === 'tool_result' && e.tool_name === 'read_file' && e.size_tokens !== undefined ? [e.size_tokens] : [],
      );
    const small = readSizes({ small: 1, medium: 0, large: 0 });
    const large = readSizes({ small: 0, medium: 0, large: 1 });
    expect(small.length).toBeGreaterThan(50);
    expect(Math.max(...small)).toBeLessThanOrEqual(1_200);
    expect(Math.min(...large)).toBeGreaterThanOrEqual(8_000);
    // Default mix 5:3:2 — every class shows up.
    const mixed = readSizes({});
    expect(
      mixed.some((n) => n <= 1_200) && mixed.some((n) => n >= 1_500 && n <= 6_000) && mixed.some((n) => n >= 8_000),
    ).toBe(true);
  });

  it('keeps a checklist with ids 1, 2, 3 ... and attempts the gated transition once while items are open', () => {
    const events = generateTraffic(spec('coding-agent', 9, 800));
    const open = new Set<number>();
    let nextId = 1;
    const transitions: { index: number; openItems: number }[] = [];
    for (const [index, event] of events.entries()) {
      if (event.type === 'todo_add') {
        expect(event.region).toBe('todos');
        open.add(nextId++);
      }
      if (event.type === 'todo_done') {
        expect(open.delete(event.id), `todo_done of unknown id ${event.id}`).toBe(true);
      }
      if (event.type === 'todo_note') expect(open.has(event.id)).toBe(true);
      if (event.type === 'transition') {
        expect(event.to).toBe('implement');
        transitions.push({ index, openItems: open.size });
      }
    }
    expect(transitions).toHaveLength(2);
    expect(transitions[0]!.openItems).toBeGreaterThan(0);
    expect(transitions[1]!.openItems).toBe(0);
    // The analyze stage takes about 35% of the events.
    expect(transitions[0]!.index / events.length).toBeCloseTo(0.35, 1);
    expect(nextId).toBeGreaterThan(7);
  });

  it('targets the region and stage names it is given, or none', () => {
    const named = generateTraffic(spec('coding-agent', 4, 300, { todos: 'plan', transitionTo: 'build' }));
    expect(named.filter((e) => e.type === 'todo_add').every((e) => e.region === 'plan')).toBe(true);
    expect(named.filter((e) => e.type === 'transition').map((e) => e.to)).toEqual(['build', 'build']);
    const bare = generateTraffic(spec('coding-agent', 4, 300, { todos: null, transitionTo: null }));
    expect(bare.some((e) => e.type.startsWith('todo_') || e.type === 'transition')).toBe(false);
    const ungated = generateTraffic(spec('coding-agent', 4, 300, { todos: null }));
    expect(ungated.filter((e) => e.type === 'transition')).toHaveLength(1);
  });

  it('writes multi-line text results when asked', () => {
    const events = generateTraffic(spec('coding-agent', 4, 200, { inlineResults: true }));
    const results = events.filter((e) => e.type === 'tool_result');
    expect(results.every((r) => r.content !== undefined && r.size_tokens === undefined)).toBe(true);
    const read = results.find((r) => r.tool_name === 'read_file' && !r.is_error)!;
    expect(read.content!.split('\n').length).toBeGreaterThan(3);
  });
});

describe('research-agent', () => {
  const events = generateTraffic(spec('research-agent', 3, 1_500));

  it('fetches large sources and writes keyed findings that reuse keys', () => {
    const fetches = events.filter((e) => e.type === 'tool_result' && e.tool_name === 'fetch');
    expect(fetches.length).toBeGreaterThan(100);
    for (const f of fetches) if (f.type === 'tool_result') expect(f.size_tokens).toBeGreaterThanOrEqual(3_000);
    const findings = events.filter((e) => e.type === 'context_append' && e.region === 'findings');
    const keys = findings.map((e) => (e.type === 'context_append' ? e.key : undefined));
    expect(keys.every((k) => typeof k === 'string')).toBe(true);
    expect(new Set(keys).size).toBeLessThan(keys.length);
  });

  it('releases sources by key, index and oldest, deleting only keys it wrote', () => {
    const live = new Set<string>();
    const forms = new Set<string>();
    for (const e of events) {
      if (e.type === 'context_append' && e.region === 'sources') live.add(e.key!);
      if (e.type === 'context_delete') {
        expect(e.region).toBe('sources');
        if (e.key !== undefined) {
          expect(live.delete(e.key)).toBe(true);
          forms.add('key');
        }
        if (e.index !== undefined) forms.add('index');
        if (e.oldest !== undefined) forms.add('oldest');
      }
    }
    expect(forms).toEqual(new Set(['key', 'index', 'oldest']));
  });

  it('targets the region names it is given', () => {
    const named = generateTraffic(spec('research-agent', 3, 300, { sources: 'raw', findings: 'notes' }));
    const regions = new Set(named.flatMap((e) => ('region' in e ? [e.region] : [])));
    expect(regions).toEqual(new Set(['raw', 'notes']));
  });
});

describe('long-chat', () => {
  it('alternates user and assistant turns of varied length within the word ranges', () => {
    const events = generateTraffic(
      spec('long-chat', 2, 400, { pasteShare: 0, userWords: [5, 10], assistantWords: [50, 60] }),
    );
    events.forEach((e, i) => expect(e.type).toBe(i % 2 === 0 ? 'user' : 'assistant'));
    const words = (e: TrafficEvent) => ('content' in e && e.content ? e.content.split(/\s+/).length : 0);
    const users = events
      .slice(2)
      .filter((e) => e.type === 'user')
      .map(words);
    const replies = events
      .slice(2)
      .filter((e) => e.type === 'assistant')
      .map(words);
    expect(Math.min(...users)).toBeGreaterThanOrEqual(5);
    expect(Math.max(...users)).toBeLessThanOrEqual(10);
    expect(Math.min(...replies)).toBeGreaterThanOrEqual(50);
    expect(Math.max(...replies)).toBeLessThanOrEqual(60);
    expect(new Set(users).size).toBeGreaterThan(3);
  });

  it('pastes long documents at the requested share', () => {
    const events = generateTraffic(spec('long-chat', 2, 2_000, { pasteShare: 0.5 }));
    const pastes = events.filter((e) => e.type === 'user' && e.content.startsWith('Here is the document:')).length;
    expect(pastes / 1_000).toBeGreaterThan(0.4);
    expect(pastes / 1_000).toBeLessThan(0.6);
  });
});

describe('params validation', () => {
  const cases: [GeneratorSpec['kind'], Record<string, unknown>, string][] = [
    ['coding-agent', { fileSizes: { small: -1 } }, 'generator.params.fileSizes.small: Too small'],
    [
      'coding-agent',
      { fileSizes: { small: 0, medium: 0, large: 0 } },
      'generator.params.fileSizes: at least one of small, medium or large must be above 0',
    ],
    ['coding-agent', { fileSize: {} }, 'generator.params: Unrecognized key: "fileSize"'],
    ['coding-agent', { todos: '' }, 'generator.params.todos: Too small'],
    ['research-agent', { fetchTokens: [9_000, 10] }, 'generator.params.fetchTokens: give [min, max] with min <= max'],
    ['research-agent', { maxInFlight: 0 }, 'generator.params.maxInFlight: Too small'],
    ['long-chat', { pasteShare: 2 }, 'generator.params.pasteShare: Too big'],
    ['long-chat', { userWords: 'many' }, 'generator.params.userWords: expected tuple, received string'],
  ];
  for (const [kind, params, message] of cases) {
    it(`${kind} ${JSON.stringify(params)} -> ${message}`, () => {
      const parsed = parseGeneratorParams(kind, params);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.issues[0]).toContain(message);
      expect(() => generateTraffic(spec(kind, 1, 10, params))).toThrow(GeneratorParamsError);
    });
  }

  it('describes every parameter, so the page can label its form', () => {
    for (const schema of Object.values(GENERATOR_PARAMS)) {
      for (const [key, field] of Object.entries(schema.shape)) expect(field.description, key).toMatch(/\w{3,}/);
    }
  });

  it('fills defaults for missing params', () => {
    const parsed = parseGeneratorParams('coding-agent', undefined);
    expect(parsed).toEqual({
      ok: true,
      params: {
        fileSizes: { small: 5, medium: 3, large: 2 },
        todos: 'todos',
        transitionTo: 'implement',
        analyzeShare: 0.35,
        inlineResults: false,
      },
    });
  });
});
