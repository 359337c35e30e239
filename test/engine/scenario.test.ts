import { describe, expect, it } from 'vitest';
import { ModelRefSchema } from '../../src/engine/scenario.ts';
import { resolveModel } from '../../src/engine/models.ts';

describe('model references', () => {
  it('keeps a custom window even when the model has an id', () => {
    const ref = ModelRefSchema.parse({ id: 'local-9k', window: 9000 });
    expect(ref).toEqual({ id: 'local-9k', window: 9000, encoding: 'o200k_base' });
    const resolved = resolveModel(ref);
    expect(resolved.ok && resolved.model.window).toBe(9000);
  });

  it('resolves a built-in id to its real window and encoding', () => {
    const resolved = resolveModel(ModelRefSchema.parse({ id: 'gpt-4-turbo' }));
    expect(resolved).toMatchObject({ ok: true, model: { window: 128_000, encoding: 'cl100k_base' } });
  });

  it('names the known models when an id is unknown', () => {
    const resolved = resolveModel({ id: 'gpt-9' });
    expect(resolved.ok).toBe(false);
    expect(!resolved.ok && resolved.error).toMatch(/unknown model "gpt-9": use one of gpt-4o, /);
  });
});
