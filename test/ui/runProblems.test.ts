import { describe, expect, it } from 'vitest';
import { runProblems } from '../../src/ui/runProblems.ts';
import { groupWarnings } from '../../src/worker/timeline-view.ts';
import type { Timeline } from '../../src/engine/index.ts';

const agent = {
  'agent.leviath':
    '[context.regions]\ntask = { kind = "pinned" }\n\n[context.regions.brain]\nkind = "custom"\nscript = "context_hooks/brain.rhai"\n',
  'context_hooks/brain.rhai': 'fn render(ctx) {\n    ctx.nope.x\n}\n',
};

function timeline(warnings: string[], steps: string[][]): Timeline {
  return {
    warnings,
    regions: [{ name: 'task' }, { name: 'brain' }],
    steps: steps.map((w, index) => ({ index, warnings: w })),
  } as unknown as Timeline;
}

describe('run-time warnings in the problems list', () => {
  it('puts a hook failure at its script position, once, with its first step and count', () => {
    const failure =
      'custom region brain: render failed at context_hooks/brain.rhai line 2, column 9: no field nope; rendered nothing';
    expect(
      runProblems(groupWarnings(timeline([], [[], [failure], [failure], [failure]])), ['task', 'brain'], agent),
    ).toEqual([
      {
        code: 'run-warning',
        severity: 'warning',
        path: '',
        file: 'context_hooks/brain.rhai',
        line: 2,
        column: 9,
        message: `Replay at step 2 and 2 more: ${failure}`,
      },
    ]);
  });

  it('puts a warning naming a region at its declaration, and others at the top of the blueprint', () => {
    const problems = runProblems(
      groupWarnings(timeline(['seed of brain refused: no such file'], [['request is 9,000 tokens, over the window']])),
      ['task', 'brain'],
      agent,
    );
    expect(problems.map((p) => [p.file, p.line, p.column, p.message])).toEqual([
      ['agent.leviath', 4, 1, 'Replay before the first step: seed of brain refused: no such file'],
      ['agent.leviath', 1, 1, 'Replay at step 1: request is 9,000 tokens, over the window'],
    ]);
  });
});
