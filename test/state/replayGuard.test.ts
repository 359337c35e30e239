import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentKey } from '../../src/state/library.ts';
import { createReplayGuard, fingerprint, hashContent, REPLAY_GUARD_KEY } from '../../src/state/replayGuard.ts';
import { scenario as build } from '../builders.ts';

const scenario = (task: string) => build('', [], { inputs: { task } });

function fakeStorage() {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => {
      map.set(k, v);
    },
  };
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
    expect(createReplayGuard(storage).heldReason(scenario('crash'))).toBe(
      'the page closed or crashed before it finished',
    );

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
    const refusing = createReplayGuard({
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
    });
    expect(() => refusing.failed(scenario('x'), 'y')).not.toThrow();
    expect(createReplayGuard(null).heldReason(scenario('x'))).toBeNull();
  });

  it('fingerprints content, not key order', () => {
    const a = scenario('same');
    const reordered = Object.fromEntries(Object.entries(a).reverse()) as typeof a;
    expect(fingerprint(reordered)).toBe(fingerprint(a));
    expect(fingerprint(scenario('other'))).not.toBe(fingerprint(a));
  });

  it('hashes exactly the text of contentKey (sorted-key JSON) without building it', () => {
    const fnvOfContentKey = (value: unknown) => {
      const text = contentKey(value);
      let hash = 0x811c9dc5;
      for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
      return `${(hash >>> 0).toString(16).padStart(8, '0')}-${text.length.toString(36)}`;
    };
    // Fixed cases: escapes, key order, what JSON leaves out or writes as null.
    const fixed = [
      scenario('a "quoted"\ttab\n\u2028 \ud83d\ude00 and a lone \ud800'),
      { b: 1, a: [undefined, () => 1, NaN, -0, 1e21], c: undefined, d: { z: null, y: true } },
      ['x', [], {}],
      { '': 0, 10: 'ten', 9: 'nine', 4294967295: 'not an index', a: 1 },
    ];
    for (const value of fixed) expect(hashContent(value)).toBe(fnvOfContentKey(value));
    fc.assert(
      fc.property(fc.jsonValue(), (value) => hashContent(value) === fnvOfContentKey(value)),
      { numRuns: 500 },
    );
    // The fingerprints stored before this hash stay valid: a different scenario hashes differently.
    expect(fingerprint(scenario('a'))).not.toBe(fingerprint(scenario('b')));
  });
});
