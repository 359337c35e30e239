// The workers' Rhai on demand (src/worker/rhai.ts): a scenario without scripts is answered in the
// same task and loads nothing; the first one with scripts waits for the interpreter, and the page
// then sees exactly what the CLI's interpreter gives (diagnostics, validation, the replay). The
// module keeps its load per worker, as a fresh worker starts: vitest's workers share modules between
// files (vite.config.ts), so this file imports its own after resetting them, and the tests here run
// in order: nothing loaded, then loaded.
import { describe, expect, it, vi } from 'vitest';
import type { Scenario } from '../../src/engine/index.ts';
import type { WorkerResponse } from '../../src/worker/protocol.ts';

vi.resetModules();
const { compile, loadEncodings, replay, ScenarioSchema } = await import('../../src/engine/index.ts');
// The fresh modules' encodings, as the setup file loads them for every file.
await loadEncodings();
const { RHAI } = await import('../../src/engine/custom-script.ts');
const { DEFAULT_EXAMPLE_ID, findExample } = await import('../../src/scenarios/examples.ts');
const { BUILT_IN_TRAFFIC } = await import('../../src/scenarios/generators.ts');
const { engineHandlers } = await import('../../src/worker/engine-handlers.ts');
const { editHandlers } = await import('../../src/worker/edit-handlers.ts');
const { loadedRhai, withRhai } = await import('../../src/worker/rhai.ts');
const { validationResult } = await import('../../src/worker/validation.ts');

const example = (id: string): Scenario => ScenarioSchema.parse(findExample(id)!.scenario);

function replayed(s: Scenario) {
  const posted: WorkerResponse[] = [];
  const done = engineHandlers().replay!(
    { id: 1, type: 'replay', replayId: 1, scenario: s, points: 400 },
    { post: (m) => posted.push(m), signal: new AbortController().signal, scripts: undefined },
  );
  return { posted, done };
}

describe('Rhai on demand in the workers', () => {
  it('a scenario without scripts is compiled at once and loads no interpreter', () => {
    const s = example(DEFAULT_EXAMPLE_ID);
    const answer = withRhai((rhai) => compile(s, rhai));
    expect(answer).not.toBeInstanceOf(Promise);
    expect(answer).toEqual(compile(s, RHAI));
    expect(loadedRhai()).toBeUndefined();
  });

  it('the engine worker answers a scenario without scripts in the same task, still with no interpreter', () => {
    const { posted } = replayed(example(DEFAULT_EXAMPLE_ID));
    // The default example's encoding is loaded already in Node (its ranks are a module); nothing awaited.
    expect(posted.map((m) => m.type).filter((t) => t !== 'progress')).toEqual(['validated', 'replay']);
    expect(loadedRhai()).toBeUndefined();
  });

  it('the first scenario with a custom region waits for the interpreter, then answers as lev does', async () => {
    const s = example('brain-custom');
    const { posted, done } = replayed(s);
    expect(posted).toEqual([]); // waiting for the load
    await done;
    expect(loadedRhai()).toBe(RHAI);
    const validated = posted.find((m) => m.type === 'validated');
    expect(validated).toEqual({ type: 'validated', id: 1, result: validationResult(s.model, compile(s, RHAI)) });
    const answer = posted.find((m) => m.type === 'replay');
    if (answer?.type !== 'replay' || !answer.result.view) throw new Error('expected a run view');
    const timeline = replay(s, { ...BUILT_IN_TRAFFIC, ...RHAI });
    expect(answer.result.diagnostics).toEqual(timeline.diagnostics);
    expect(answer.result.view.steps.count).toBe(timeline.steps.length);
    expect(answer.result.view.warnings.map((w) => w.text)).toEqual(timeline.warnings);
  });

  it("a broken script gets the interpreter's diagnostics from the edit worker, at the script's line", async () => {
    const s = example('brain-custom');
    const broken = { ...s, agent: { ...s.agent, 'context_hooks/brain.rhai': 'fn render(ctx) {\n  let x = ;\n}\n' } };
    const posted: WorkerResponse[] = [];
    const context = {
      post: (m: WorkerResponse) => posted.push(m),
      signal: new AbortController().signal,
      scripts: undefined,
    };
    await editHandlers().validate!({ id: 2, type: 'validate', ...broken }, context);
    expect(posted).toEqual([
      { type: 'validate', id: 2, result: validationResult(broken.model, compile(broken, RHAI)) },
    ]);
    const errors = compile(broken, RHAI).diagnostics.filter((d) => d.severity === 'error');
    expect(errors.map((d) => [d.code, d.file, d.line])).toEqual([
      ['custom-script-invalid', 'context_hooks/brain.rhai', 2],
    ]);
    await editHandlers().rhaiCheck!(
      { id: 3, type: 'rhaiCheck', file: 'context_hooks/brain.rhai', source: 'fn render(ctx) {\n  let x = ;\n}\n' },
      context,
    );
    expect(posted.at(-1)).toMatchObject({
      type: 'rhaiCheck',
      id: 3,
      result: { diagnostics: [{ code: 'custom-script-invalid', line: 2 }] },
    });
  });

  it('once loaded, a scenario with scripts is answered at once', () => {
    const s = example('brain-custom');
    const answer = withRhai((rhai) => compile(s, rhai));
    expect(answer).not.toBeInstanceOf(Promise);
    expect(answer).toEqual(compile(s, RHAI));
  });
});
