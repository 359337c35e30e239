// The engine worker waits for the encoding its scenario's text is counted with only when it is not
// loaded yet, and loads that one alone.
import { describe, expect, it, vi } from 'vitest';
import { findExample, DEFAULT_EXAMPLE_ID } from '../../src/scenarios/examples.ts';
import { ScenarioSchema, type Scenario } from '../../src/engine/index.ts';
import type { WorkerResponse } from '../../src/worker/protocol.ts';

const withModel = (model: Scenario['model']): Scenario => ({
  ...ScenarioSchema.parse(findExample(DEFAULT_EXAMPLE_ID)!.scenario),
  model,
});

/** Fresh modules: no encoding loaded (the test setup loaded both in the shared ones). */
async function fresh() {
  vi.resetModules();
  return { ...(await import('../../src/worker/encoding.ts')), ...(await import('../../src/engine/index.ts')) };
}

describe('loadingEncodingOf', () => {
  it("loads the encoding of the scenario's model, and only that one", async () => {
    const { loadingEncodingOf, isEncodingLoaded } = await fresh();
    const loading = loadingEncodingOf(withModel({ id: 'gpt-4-turbo' }));
    expect(loading).toBeInstanceOf(Promise);
    expect(await loading).toBeGreaterThanOrEqual(0);
    expect(isEncodingLoaded('cl100k_base')).toBe(true);
    expect(isEncodingLoaded('o200k_base')).toBe(false);
  });

  it('gives nothing to wait for once loaded', async () => {
    const { loadingEncodingOf } = await fresh();
    await loadingEncodingOf(withModel({ window: 50_000, encoding: 'o200k_base' }));
    expect(loadingEncodingOf(withModel({ window: 80_000, encoding: 'o200k_base' }))).toBeUndefined();
  });

  it('loads o200k_base for a model the replay will report as unknown (the share transforms count its text with it)', async () => {
    const { loadingEncodingOf, isEncodingLoaded } = await fresh();
    const loading = loadingEncodingOf(withModel({ id: 'no-such-model' }));
    expect(loading).toBeInstanceOf(Promise);
    await loading;
    expect(isEncodingLoaded('o200k_base')).toBe(true);
    expect(isEncodingLoaded('cl100k_base')).toBe(false);
    expect(loadingEncodingOf(withModel({ id: 'no-such-model' }))).toBeUndefined();
  });
});

describe('the engine worker on a fresh start (no encoding loaded)', () => {
  const unknownModel = (): Scenario => ({
    ...withModel({ id: 'no-such-model' }),
    traffic: [
      { type: 'user', content: 'read it' },
      {
        type: 'assistant',
        content: 'reading',
        tool_calls: [{ id: 'c1', name: 'read_file', arguments: { path: 'a.ts' } }],
      },
      { type: 'tool_result', tool_call_id: 'c1', tool_name: 'read_file', content: 'export const answer = 42;\n' },
    ],
  });

  async function freshWorker() {
    const modules = await fresh();
    const { engineHandlers } = await import('../../src/worker/engine-handlers.ts');
    const handlers = engineHandlers();
    const posted: WorkerResponse[] = [];
    const context = {
      post: (m: WorkerResponse) => {
        posted.push(m);
      },
      signal: new AbortController().signal,
    };
    return { ...modules, handlers, posted, context };
  }

  it('shares a scenario whose model is unknown: the transforms count it with o200k_base, loaded first', async () => {
    const { handlers, posted, context, isEncodingLoaded, countTokens } = await freshWorker();
    await handlers.transform!(
      { id: 1, type: 'transform', transform: 'drop-tool-output', scenario: unknownModel() },
      context,
    );
    await handlers.transform!({ id: 2, type: 'transform', transform: 'shape-only', scenario: unknownModel() }, context);
    expect(posted.map((m) => m.type)).toEqual(['transform', 'transform']);
    expect(posted[0]).toMatchObject({
      result: {
        scenario: {
          traffic: [
            {},
            {},
            { type: 'tool_result', size_tokens: countTokens('export const answer = 42;\n', 'o200k_base') },
          ],
        },
      },
    });
    expect(isEncodingLoaded('o200k_base')).toBe(true);
    expect(isEncodingLoaded('cl100k_base')).toBe(false);
  });

  it('replays a scenario whose model is unknown to its diagnostic', async () => {
    const { handlers, posted, context } = await freshWorker();
    await handlers.replay!({ id: 1, type: 'replay', replayId: 1, scenario: unknownModel() }, context);
    expect(posted.at(-1)).toMatchObject({ type: 'replay', result: { diagnostics: [{ code: 'unknown-model' }] } });
    await handlers.open!({ id: 2, type: 'open', replayId: 1, scenario: unknownModel() }, context);
    expect(posted.at(-1)).toEqual({ type: 'open', id: 2, result: { ok: false } });
  });
});
