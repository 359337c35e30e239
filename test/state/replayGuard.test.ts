import { describe, expect, it } from 'vitest';
import { ScenarioSchema } from '../../src/engine/scenario.ts';
import { createReplayGuard, fingerprint, REPLAY_GUARD_KEY } from '../../src/state/replayGuard.ts';

const scenario = (task: string) => ScenarioSchema.parse({ version: 1, model: { id: 'gpt-4o' }, agent: { 'agent.leviath': '' }, inputs: { task } });

function fakeStorage() {
  const map = new Map<string, string>();
  return { map, getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => { map.set(k, v); } };
}

describe('replay guard', () => {
  it('holds a scenario whose replay failed, with the reason, until a replay finishes', () => {
    const storage = fakeStorage();
    const guard = createReplayGuard(storage);
    const a = scenario('a');
    guard.started(a);
    guard.failed(a, 'the replay took longer than 20 s');
    expect(createReplayGuard(storage).heldReason(a)).toBe('the replay took longer than 20 s');
    expect(guard.heldReason(scenario('b'))).toBeNull();
    guard.started(a);
    guard.finished(a);
    expect(guard.heldReason(a)).toBeNull();
  });

  it('holds a replay that never ended (a crash), but not one the page left normally', () => {
    const storage = fakeStorage();
    const crashed = createReplayGuard(storage);
    crashed.started(scenario('crash'));
    expect(createReplayGuard(storage).heldReason(scenario('crash'))).toBe('the page closed or crashed before it finished');

    const failed = scenario('failed');
    crashed.failed(failed, 'worker crashed');
    crashed.started(scenario('left'));
    crashed.leaving();
    const next = createReplayGuard(storage);
    expect(next.heldReason(scenario('left'))).toBeNull();
    expect(next.heldReason(scenario('crash'))).toBeNull();
    expect(next.heldReason(failed)).toBe('worker crashed');
  });

  it('remembers only the 20 most recent marks, and shrugs off broken or missing storage', () => {
    const storage = fakeStorage();
    let clock = 0;
    const guard = createReplayGuard(storage, () => ++clock);
    for (let i = 0; i < 25; i++) guard.failed(scenario(`s${i}`), `f${i}`);
    expect(Object.keys(JSON.parse(storage.map.get(REPLAY_GUARD_KEY)!))).toHaveLength(20);
    expect(guard.heldReason(scenario('s4'))).toBeNull();
    expect(guard.heldReason(scenario('s5'))).toBe('f5');

    storage.map.set(REPLAY_GUARD_KEY, '{not json');
    expect(guard.heldReason(scenario('s5'))).toBeNull();
    const refusing = createReplayGuard({ getItem: () => { throw new Error('denied'); }, setItem: () => { throw new Error('denied'); } });
    expect(() => refusing.failed(scenario('x'), 'y')).not.toThrow();
    expect(createReplayGuard(null).heldReason(scenario('x'))).toBeNull();
  });

  it('fingerprints content, not key order', () => {
    const a = scenario('same');
    const reordered = Object.fromEntries(Object.entries(a).reverse()) as typeof a;
    expect(fingerprint(reordered)).toBe(fingerprint(a));
    expect(fingerprint(scenario('other'))).not.toBe(fingerprint(a));
  });
});
