// The Advise button's session over the real engine handlers (in this process): the search's
// progress and advice, Cancel, and a proposal applied as an ordinary edit of agent.leviath (which
// the session then saves and replays like any edit), offered only over the text it was made for.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ScenarioSchema } from '../../src/engine/index.ts';
import { FakeTab, testSession, until } from './fakes.ts';

const example = ScenarioSchema.parse(
  JSON.parse(readFileSync(new URL('../../examples/imported-run.json', import.meta.url), 'utf8')),
);

async function opened() {
  const made = testSession(new FakeTab());
  await made.session.start();
  await made.session.openImported(example, 'imported-run.json');
  await until(() => made.session.results.getState().timeline?.header.scenario === example.name, 'the example replayed');
  return made;
}

describe('the advisor on the page', () => {
  it('searches, then applies a proposal as an edit that replays; another edit makes the proposals stale', async () => {
    const { session, sent } = await opened();
    const advisor = session.advisor;
    const phases = new Set<string>();
    const unsubscribe = advisor.store.subscribe((s) => {
      if (s.status.kind === 'running') phases.add(s.status.phase);
    });
    advisor.run(30);
    await until(() => advisor.store.getState().status.kind === 'done', 'the advice', 60_000);
    unsubscribe();
    expect(phases.has('search')).toBe(true);
    const { advice, adviceFor } = advisor.store.getState();
    expect(adviceFor).toBe(example.agent['agent.leviath']);
    expect(advice!.front.length).toBeGreaterThan(0);
    expect(sent.advise.filter((r) => r.type === 'advise')).toHaveLength(1);
    expect(sent.engine.some((r) => r.type === 'advise')).toBe(false);

    const edits = session.scenario.getState().edits;
    const replays = sent.engine.filter((r) => r.type === 'replay').length;
    expect(advisor.apply(0)).toBe(true);
    expect(session.scenario.getState().scenario.agent['agent.leviath']).toBe(advice!.front[0]!.toml);
    expect(session.scenario.getState().edits).toBe(edits + 1);
    expect(session.ui.getState().selectedFile).toBe('agent.leviath');
    await until(() => sent.engine.filter((r) => r.type === 'replay').length > replays, 'the applied proposal replayed');
    // Applied, the proposals still apply (one swaps for another)...
    expect(advisor.applicable()).toBe(true);
    // ...but not over an edit of the person's own.
    session.scenario.getState().setFile('agent.leviath', `${advice!.front[0]!.toml}\n# mine\n`);
    expect(advisor.applicable()).toBe(false);
    expect(advisor.apply(0)).toBe(false);
    expect(session.scenario.getState().scenario.agent['agent.leviath']).toContain('# mine');
  });

  it('Cancel stops the search and leaves the scenario as it was', async () => {
    const { session } = await opened();
    const before = session.scenario.getState().scenario;
    session.advisor.run(240);
    session.advisor.cancel();
    expect(session.advisor.store.getState()).toMatchObject({ status: { kind: 'cancelled' }, advice: null });
    expect(session.scenario.getState().scenario).toBe(before);
  });
});
