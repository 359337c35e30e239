// The workers' Rhai on demand (src/worker/rhai.ts): a scenario without scripts is answered in the
// same task and loads nothing; the first one with scripts waits for the interpreter, and the page
// then sees exactly what the CLI's interpreter gives (diagnostics, validation, the replay). The
// module keeps its load per worker, and vitest gives each test file a fresh one, so the tests here
// run in order: nothing loaded, then loaded.
import { describe, expect, it } from 'vitest';
import { compile, replay } from '../../src/engine/index.ts';
import { RHAI } from '../../src/engine/custom-script.ts';
import { ScenarioSchema, type Scenario } from '../../src/engine/index.ts';
import { DEFAULT_EXAMPLE_ID, findExample } from '../../src/scenarios/examples.ts';
import { BUILT_IN_TRAFFIC } from '../../src/scenarios/generators.ts';
import { engineHandlers } from '../../src/worker/engine-handlers.ts';
import { editHandlers } from '../../src/worker/edit-handlers.ts';
import type { WorkerResponse } from '../../src/worker/protocol.ts';
import { loadedRhai, withRhai } from '../../src/worker/rhai.ts';
import { validationResult } from '../../src/worker/validation.ts';

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
