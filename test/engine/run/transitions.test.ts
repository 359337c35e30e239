// run/transitions.ts: a transition passes its gates or spends an attempt (nudging the model), moves
// on when the attempts are spent, hands the ending stage's history on, and enters the next stage
// with its layout and its prompt.
import { describe, expect, it } from 'vitest';
import { contextAppend, todo } from '../../../src/engine/run/agent-tools.ts';
import { enterStage, transition } from '../../../src/engine/run/transitions.ts';
import { held, spawn, words, COMPACT_EDGE } from '../../builders.ts';

const GATED = `[context.regions]
todos = { kind = "checklist" }
plan = { kind = "temporary", required = true, required_message = "Write the plan into {region} first." }

[stages.implement]
system_prompt = "Implement."
max_attempts = 2
[stages.implement.transitions.review]
gate = { require_no_open_items = "todos", message = "Close the todos first." }

[stages.review]
system_prompt = "Review."
[stages.review.context.regions]
notes = { kind = "temporary" }
`;

describe('a transition', () => {
  it('refused by its gates: the nudge names every reason and the attempt, reaches the model, and the stage stays', () => {
    const run = spawn(GATED);
    todo(run, 'todos', (c) => c.add('write the tests', run.ctx));
    const nudge =
      'Write the plan into plan first. Close the todos first. Open in todos: #1 write the tests. (attempt 1 of 2)';
    expect(transition(run, 'review')).toEqual({ ok: false, message: nudge });
    expect(run.stage.name).toBe('implement');
    expect(run.regions.get('conversation')!.entries.map((e) => [e.kind, e.content])).toEqual([['user_message', nudge]]);
  });

  it('passes once its gates are met, and the entering stage gets its layout and its prompt in place of the last', () => {
    const run = spawn(GATED);
    const prompts = () => run.regions.get('stage_instructions')!.entries.map((e) => [e.key, e.content]);
    expect(prompts()).toEqual([['stage prompt', 'Implement.']]);
    contextAppend(run, 'plan', 'step one', undefined);
    expect(transition(run, 'review')).toEqual({ ok: true, message: 'moved from implement to review' });
    expect(run.stage.name).toBe('review');
    expect(run.stagesEntered).toEqual(['implement', 'review']);
    expect(run.layout.map((r) => r.name)).toEqual([
      'notes',
      'conversation',
      'tool_results',
      'final_output',
      'stage_instructions',
    ]);
    expect(prompts()).toEqual([['stage prompt', 'Review.']]);
    expect(run.ledger.byStage.review).toEqual({ stage_instructions: 2 });
  });

  it('moves on when the shared attempts are spent, and says so', () => {
    const run = spawn(GATED);
    transition(run, 'review');
    expect(transition(run, 'review')).toEqual({
      ok: true,
      message: 'moved from implement to review (gate not satisfied; max_attempts reached)',
    });
    expect(run.warnings).toEqual([
      'stage implement: gate still refused after 2 attempts; moving on to review anyway (Write the plan into plan first.)',
    ]);
    expect(run.stage.name).toBe('review');
  });

  it('to a stage the current one does not declare is refused, and warned about', () => {
    const run = spawn(GATED);
    expect(transition(run, 'ship')).toEqual({
      ok: false,
      message: 'stage implement has no transition to "ship" (declared: review)',
    });
    expect(run.warnings).toEqual(['transition to "ship" ignored: stage implement declares no such transition']);
  });
});

describe('crossing an edge', () => {
  const EDGE = COMPACT_EDGE;

  it('transform = "compact" folds each summarizable region into one summary; history takes one summary of its source', () => {
    const run = spawn(EDGE);
    contextAppend(run, 'codebase', words(50), 'src/a.rs');
    contextAppend(run, 'codebase', words(50), 'src/b.rs');
    contextAppend(run, 'keep', words(20), 'k');
    run.changes = [];
    expect(transition(run, 'build')).toEqual({ ok: true, message: 'moved from explore to build' });
    expect(run.changes.filter((c) => c.type === 'compact').map((c) => [c.region, c.entries])).toEqual([
      ['codebase', ['src/a.rs', 'src/b.rs']],
    ]);
    expect(held(run, 'keep')).toEqual([['k', 20]]);
    const [carried] = run.regions.get('history')!.entries;
    expect(carried).toMatchObject({
      key: 'explore: codebase',
      kind: 'summary',
      folded: { entries: 2, tokens: 100 },
      content: '[summary of 2 entries from codebase in stage explore] src/a.rs; src/b.rs',
    });
  });
});

describe('crossing an edge with little to fold', () => {
  it('a region whose summary would be no smaller than its entries keeps them (a temporary never ends over its bound)', () => {
    const run = spawn(`[context.regions]
notes = { kind = "temporary", max_tokens = 51 }

[stages.explore.transitions.build]
transform = "compact"
[stages.build]
`);
    for (const key of ['a', 'b', 'c', 'd']) contextAppend(run, 'notes', 'ok', key);
    const before = held(run, 'notes');
    const tokens = run.regions.get('notes')!.tokens;
    // The summary these four entries would fold to, as the region's fold would make it.
    const summary = run.ctx.summarize(run.regions.get('notes')!.entries, 'notes', 0);
    expect(summary.tokens).toBeGreaterThanOrEqual(tokens);
    run.changes = [];
    expect(transition(run, 'build')).toEqual({ ok: true, message: 'moved from explore to build' });
    expect(run.changes.filter((c) => c.type === 'compact')).toEqual([]);
    expect(held(run, 'notes')).toEqual(before);
  });
});

describe('entering a stage', () => {
  it("counts the stage's iterations and tells the regions which stage runs", () => {
    const run = spawn(GATED);
    const implement = run.stages.find((s) => s.name === 'implement')!;
    enterStage(run, implement);
    expect(run.iterations.get('implement')).toBe(2);
    expect(run.ctx).toMatchObject({ stage: 'implement', stageIterations: 2 });
    // Re-entering swaps the prompt rather than stacking a second one.
    expect(run.regions.get('stage_instructions')!.entries.map((e) => e.content)).toEqual(['Implement.']);
  });
});
