// The kept run answers every step from checkpoints and a short re-run; each answer must be the
// StepDetail a snapshot taken while the run passed that step gives.
import { describe, expect, it } from 'vitest';
import { prepare } from '../../../src/engine/replay.ts';
import { CHECKPOINT_EVERY, detailOf, snapshot } from '../../../src/engine/run/kept-steps.ts';
import { ScenarioSchema, type Scenario } from '../../../src/engine/scenario.ts';
import type { StepDetail, TimelineStep } from '../../../src/engine/timeline.ts';
import { Replay } from '../../../src/engine/index.ts';
import { EXAMPLES } from '../../../src/scenarios/examples.ts';
import { TRAFFIC_GENERATORS, BUILT_IN_TRAFFIC } from '../../../src/scenarios/generators.ts';
import { RHAI } from '../../../src/engine/custom-script.ts';

/** Every step, and its detail snapshotted as one run (never copied) passes it: what the inspector kept before checkpoints. */
function snapshotEveryStep(scenario: Scenario): { steps: TimelineStep[]; details: StepDetail[] } {
  const run = prepareExample(scenario);
  const steps: TimelineStep[] = [];
  const details: StepDetail[] = [];
  while (!run.done) {
    const step = run.step();
    steps.push(step);
    details.push(detailOf(snapshot(run, step)));
  }
  return { steps, details };
}

const prepareExample = (scenario: Scenario) => prepare(scenario, { generators: TRAFFIC_GENERATORS, ...RHAI }).run!;

/** Every index once, in an order that jumps back and forth across checkpoints and steps forward within one. */
function scrubOrder(count: number): number[] {
  const order: number[] = [];
  for (let i = count - 1; i >= 0; i -= 7) order.push(i);
  for (let i = 0; i < count; i++) if (!order.includes(i)) order.push(i);
  return order;
}

describe('a kept run inspects every step as a snapshot of it would show', () => {
  for (const example of EXAMPLES) {
    it(example.id, () => {
      const scenario = ScenarioSchema.parse(example.scenario);
      const { steps, details } = snapshotEveryStep(scenario);
      const kept = new Replay(scenario, { ...BUILT_IN_TRAFFIC, ...RHAI });
      // Keeping copies changes nothing in the run that is copied.
      expect(kept.timeline().steps).toEqual(steps);
      for (const index of scrubOrder(details.length))
        expect(kept.inspect(index), `step ${index}`).toEqual(details[index]);
    });
  }

  it('inspects a step the run has not reached by stepping it on, without a timeline first', () => {
    const scenario = ScenarioSchema.parse(EXAMPLES.find((e) => e.id === 'coding-agent')!.scenario);
    const { details } = snapshotEveryStep(scenario);
    expect(details.length).toBeGreaterThan(5 * CHECKPOINT_EVERY);
    const kept = new Replay(scenario, { ...BUILT_IN_TRAFFIC, ...RHAI });
    for (const index of [150, 3, 149, 151, details.length - 1, 0])
      expect(kept.inspect(index), `step ${index}`).toEqual(details[index]);
  });
});

describe('Run.fork', () => {
  for (const example of EXAMPLES) {
    it(`${example.id}: a copy taken every ${CHECKPOINT_EVERY} events steps on exactly as the run it was copied from`, () => {
      const run = prepareExample(ScenarioSchema.parse(example.scenario));
      const forks = [];
      const steps = [];
      while (!run.done) {
        if (run.position % CHECKPOINT_EVERY === 0) forks.push(run.fork());
        steps.push(run.step());
      }
      if (example.id === 'brain-custom') {
        expect(forks.every((fork) => fork === undefined)).toBe(true); // its custom region's hooks keep state
        return;
      }
      for (const fork of forks) {
        const from = fork!.position;
        const rest = [];
        while (!fork!.done) rest.push(fork!.step());
        expect(rest, `from event ${from}`).toEqual(steps.slice(from));
      }
    });
  }
});
