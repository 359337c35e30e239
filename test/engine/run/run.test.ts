// run/run.ts: a Run spawns once (every region made, seeds written, first stage entered) and then
// steps one event at a time, each step handed to the module for its event type and recorded.
import { describe, expect, it } from 'vitest';
import { resolveModel } from '../../../src/engine/models.ts';
import { Run } from '../../../src/engine/run/run.ts';
import type { TrafficEvent } from '../../../src/engine/scenario.ts';
import { validateScenario } from '../../../src/engine/validate.ts';
import { scenario, held, spawn, words } from '../../builders.ts';

const AGENT = `[context.regions]
task = { kind = "pinned", seed = "task_input" }
notes = { kind = "temporary", seed = { literal = "Remember the style guide." } }
todos = { kind = "checklist" }

[stages.work]
system_prompt = "Work."
[stages.work.transitions.done]
[stages.done]
`;
const TASK = { inputs: { task: 'Fix the failing test' } };

describe('spawn', () => {
  it('makes every region, writes the seeds, charges them, and enters the first stage', () => {
    const run = spawn(AGENT, TASK);
    expect([...run.regions.keys()]).toEqual(['task', 'notes', 'todos', 'conversation', 'tool_results', 'final_output']);
    expect(held(run, 'task')).toEqual([
      ['Fix the failing test', 4],
      ['stage prompt', 2],
    ]);
    expect(held(run, 'notes')).toEqual([['Remember the style guide.', 5]]);
    expect(run.taskEntries.map((t) => [t.region, t.entry.content])).toEqual([['task', 'Fix the failing test']]);
    expect(run.ledger.byStage.work).toEqual({ task: 6, notes: 5 });
    expect([run.runWarnings, run.spawnChanges]).toEqual([[], []]);
    expect(run.stage.name).toBe('work');
    expect([run.position, run.done, run.changes, run.warnings]).toEqual([0, true, [], []]);
  });

  it('refuses a task no region is seeded from, as a diagnostic', () => {
    const s = scenario('[context.regions]\nnotes = {}\n', [], TASK);
    const resolved = resolveModel(s.model);
    if (!resolved.ok) throw new Error(resolved.error);
    const run = new Run(resolved.model, validateScenario(s).blueprint!, [], s);
    expect(run.spawn({}).map((d) => [d.code, d.severity, d.path])).toEqual([
      ['task-not-seeded', 'error', 'context.regions'],
    ]);
  });
});

describe('step', () => {
  const traffic: TrafficEvent[] = [
    { type: 'user', content: words(6) },
    { type: 'assistant', content: '', tool_calls: [{ id: 'c1', name: 'grep', arguments: {} }] },
    { type: 'tool_result', tool_call_id: 'c1', tool_name: 'grep', size_tokens: 30 },
    { type: 'context_append', region: 'notes', content: words(9), key: 'found' },
    { type: 'todo_add', region: 'todos', item: 'fix it' },
    { type: 'context_list', region: 'todos' },
    { type: 'transition', to: 'done' },
  ];

  it('hands each event to its module and records its stage, figures, changes and answer', () => {
    const run = spawn(AGENT, TASK, traffic);
    const steps = traffic.map(() => run.step());
    expect(steps.map((s) => [s.index, s.event.type, s.stage, s.result?.ok, s.request === undefined])).toEqual([
      [0, 'user', 'work', undefined, true],
      [1, 'assistant', 'work', undefined, false],
      [2, 'tool_result', 'work', true, true],
      [3, 'context_append', 'work', true, true],
      [4, 'todo_add', 'work', true, true],
      [5, 'context_list', 'work', true, true],
      [6, 'transition', 'done', true, true],
    ]);
    expect(steps[2]!.result!.message).toBe('30 tokens to tool_results');
    expect(steps[3]!.result!.message).toBe('appended 9 tokens to notes as "found"; notes now holds 14 of 5,000 tokens');
    expect(steps[4]!.result!.message).toBe('added #1 to todos');
    expect(steps[1]!.request!.inference).toBe(0);
    expect(steps[0]!.regions.conversation).toEqual({ tokens: 6, budget: 38_400, entries: 1, visible: true });
    expect(steps[3]!.regions.notes).toEqual({ tokens: 14, budget: 5000, entries: 2, visible: true });
    expect([run.position, run.done]).toEqual([7, true]);
  });

  it('each step starts with no changes or warnings of its own', () => {
    const run = spawn('[context.regions]\nnotes = { max_tokens = 10 }\n', {}, [
      { type: 'context_append', region: 'notes', content: words(8), key: 'a' },
      { type: 'context_append', region: 'notes', content: words(8), key: 'b' },
      { type: 'user', content: 'next' },
    ]);
    const steps = [run.step(), run.step(), run.step()];
    expect(steps.map((s) => s.changes.map((c) => [c.type, c.entries]))).toEqual([[], [['evict', ['a']]], []]);
  });
});

describe('preview', () => {
  it('assembles the request the state would send, changing nothing', () => {
    const run = spawn(AGENT, TASK, [{ type: 'user', content: words(6) }]);
    run.step();
    const versions = [...run.regions.values()].map((r) => r.version);
    const request = run.preview();
    expect(request.system.map((b) => [b.region, b.text])).toEqual([
      ['task', '[task]:\nFix the failing test\nWork.'],
      ['notes', '[notes]:\nRemember the style guide.'],
    ]);
    expect(request.messages.map((m) => [m.role, m.tokens])).toEqual([['user', 6]]);
    expect([...run.regions.values()].map((r) => r.version)).toEqual(versions);
    expect(run.inferences).toBe(0);
  });
});
