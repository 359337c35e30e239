// The engine worker waits for the scenario's encoding only when it is not loaded yet, and loads
// that one alone.
import { describe, expect, it, vi } from 'vitest';
import { findExample, DEFAULT_EXAMPLE_ID } from '../scenarios/examples.ts';
import { ScenarioSchema, type Scenario } from '../engine/scenario.ts';

const withModel = (model: Scenario['model']): Scenario =>
  ({ ...ScenarioSchema.parse(findExample(DEFAULT_EXAMPLE_ID)!.scenario), model });

/** Fresh modules: no encoding loaded (the test setup loaded both in the shared ones). */
async function fresh() {
  vi.resetModules();
  return { ...(await import('./encoding.ts')), ...(await import('../engine/tokens.ts')) };
}

describe('loadingEncodingOf', () => {
  it('loads the encoding of the scenario\'s model, and only that one', async () => {
    const { loadingEncodingOf, isEncodingLoaded } = await fresh();
    const loading = loadingEncodingOf(withModel({ id: 'gpt-4-turbo' }));
    expect(loading).toBeInstanceOf(Promise);
    expect(await loading).toBeGreaterThanOrEqual(0);
    expect(isEncodingLoaded('cl100k_base')).toBe(true);
    expect(isEncodingLoaded('o200k_base')).toBe(false);
  });

  it('gives nothing to wait for once loaded, or for a model the replay will report as unknown', async () => {
    const { loadingEncodingOf } = await fresh();
    await loadingEncodingOf(withModel({ window: 50_000, encoding: 'o200k_base' }));
    expect(loadingEncodingOf(withModel({ window: 80_000, encoding: 'o200k_base' }))).toBeUndefined();
    expect(loadingEncodingOf(withModel({ id: 'no-such-model' }))).toBeUndefined();
  });
});
