// Resolved budgets for real models, from compiled blueprints (src/engine/budget.ts, src/engine/models.ts).
import { describe, expect, it } from 'vitest';
import { resolveBudget, resolveBudgets } from '../../src/engine/budget.ts';
import { MODELS, findModel, resolveModel } from '../../src/engine/models.ts';
import { blueprintOf } from '../builders.ts';

function region(decl: string) {
  return blueprintOf(`[context.regions]\ntask = {}\nr = ${decl}\n`).regions[1]!;
}

const windowOf = (id: string) => findModel(id)!.window;

describe('resolveBudget', () => {
  it('20% of a 200k model is 40,000, and compact_at 80% of that is 32,000', () => {
    const codebase = region('{ kind = "compacting", budget = "20%", compact_at = "80%" }');
    expect(windowOf('claude-sonnet-4')).toBe(200_000);
    expect(resolveBudget(codebase, windowOf('claude-sonnet-4'))).toEqual({
      budget: 40_000,
      compactAt: 32_000,
      threshold: undefined,
      trigger: 32_000,
    });
  });

  it('the same share keeps its shape across models', () => {
    const r = region('{ budget = "20%" }');
    expect(resolveBudget(r, windowOf('gpt-4o')).budget).toBe(25_600);
    expect(resolveBudget(r, windowOf('gpt-3.5-turbo')).budget).toBe(3_277);
    expect(resolveBudget(r, windowOf('gpt-4.1')).budget).toBe(209_515);
  });

  it('max_tokens caps a percentage only when written', () => {
    expect(resolveBudget(region('{ budget = "20%", max_tokens = 10000 }'), 200_000).budget).toBe(10_000);
    expect(resolveBudget(region('{ budget = "20%", max_tokens = 90000 }'), 200_000).budget).toBe(40_000);
    // The default 5000 is not a cap: a 20% region on 200k still gets 40,000.
    expect(resolveBudget(region('{ budget = "20%" }'), 200_000).budget).toBe(40_000);
  });

  it('max_tokens alone is the budget (default 5000)', () => {
    expect(resolveBudget(region('{}'), 200_000)).toEqual({
      budget: 5000,
      compactAt: undefined,
      threshold: undefined,
      trigger: 5000,
    });
    expect(resolveBudget(region('{ max_tokens = 1234 }'), 16_385).budget).toBe(1234);
  });

  it('min_tokens floors a percentage on a small model', () => {
    const brain = region('{ budget = "40%", min_tokens = 10000 }');
    expect(resolveBudget(brain, windowOf('gpt-3.5-turbo')).budget).toBe(10_000); // 40% of 16,385 = 6,554
    expect(resolveBudget(brain, windowOf('claude-sonnet-4')).budget).toBe(80_000);
  });

  // spec: "Use `max_tokens` and `threshold_tokens` when you need a limit that really is hard."
  it('a written max_tokens is hard: it wins over a higher min_tokens', () => {
    expect(resolveBudget(region('{ budget = "5%", max_tokens = 100, min_tokens = 200 }'), 200_000).budget).toBe(100);
    // The floor still lifts a small share as far as the cap allows.
    expect(resolveBudget(region('{ budget = "1%", max_tokens = 150, min_tokens = 200 }'), 10_000).budget).toBe(150);
    expect(resolveBudget(region('{ budget = "1%", max_tokens = 900, min_tokens = 200 }'), 10_000).budget).toBe(200);
  });

  it('threshold_tokens is a second ceiling on top of compact_at', () => {
    const codebase = region('{ kind = "compacting", budget = "20%", compact_at = "80%", threshold_tokens = 30000 }');
    expect(resolveBudget(codebase, 200_000)).toEqual({
      budget: 40_000,
      compactAt: 32_000,
      threshold: 30_000,
      trigger: 30_000,
    });
    expect(resolveBudget(codebase, 128_000)).toEqual({
      budget: 25_600,
      compactAt: 20_480,
      threshold: 30_000,
      trigger: 20_480,
    });
  });

  it('percentages round down without float noise', () => {
    expect(resolveBudget(region('{ budget = "29%" }'), 100).budget).toBe(29);
    expect(resolveBudget(region('{ budget = "12.5%" }'), 1001).budget).toBe(125);
    expect(resolveBudget(region('{ budget = "33%" }'), 128_000).budget).toBe(42_240);
  });

  it('shares may add up to more than 100%', () => {
    const bp = blueprintOf('[context.regions]\ntask = { budget = "60%" }\nb = { budget = "70%" }\n');
    const budgets = resolveBudgets(bp.regions, 100_000);
    expect([...budgets.entries()].map(([name, b]) => [name, b.budget])).toEqual([
      ['task', 60_000],
      ['b', 70_000],
    ]);
  });
});

describe('models', () => {
  it('every built-in has a real window, a known encoding and a unique id', () => {
    expect(new Set(MODELS.map((m) => m.id)).size).toBe(MODELS.length);
    for (const m of MODELS) {
      expect(m.window).toBeGreaterThan(10_000);
      expect(['o200k_base', 'cl100k_base']).toContain(m.encoding);
      expect(m.approximate).toBe(m.provider !== 'openai');
    }
    expect(findModel('gpt-4o')).toMatchObject({ window: 128_000, encoding: 'o200k_base', approximate: false });
    expect(findModel('gpt-4-turbo')).toMatchObject({ encoding: 'cl100k_base' });
  });

  it('resolveModel: built-in id, custom window, unknown id', () => {
    expect(resolveModel({ id: 'o3' })).toMatchObject({ ok: true, model: { window: 200_000 } });
    expect(resolveModel({ window: 32_000, encoding: 'cl100k_base' })).toMatchObject({
      ok: true,
      model: { id: 'custom-32000', window: 32_000, encoding: 'cl100k_base', provider: 'custom' },
    });
    const unknown = resolveModel({ id: 'gpt-9' });
    expect(unknown.ok).toBe(false);
    expect(!unknown.ok && unknown.error).toContain('unknown model "gpt-9"');
  });
});
