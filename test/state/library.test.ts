import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Scenario } from '../../src/engine/index.ts';
import {
  contentKey,
  createLibrary,
  MAX_VERSIONS,
  sameContent,
  uniqueName,
  VERSION_INTERVAL_MS,
} from '../../src/state/library.ts';
import { memoryStorage, type KeyValueStorage } from '../../src/state/storage.ts';
import { scenario as build } from '../builders.ts';

const scenario = (name: string, task = 'do it'): Scenario =>
  build('[context.regions]\n', [], { name, inputs: { task } });

/** A library on a fresh in-memory storage, with a clock the test moves and ids e1, e2, … */
function setup() {
  let clock = 1_000_000;
  let ids = 0;
  const storage = memoryStorage();
  const library = createLibrary({ storage, now: () => clock, newId: () => `e${++ids}` });
  return {
    library,
    storage,
    tick: (ms: number) => {
      clock += ms;
    },
    now: () => clock,
  };
}

describe('library store', () => {
  it('creates entries with unique names and lists them newest change first', async () => {
    const { library, tick } = setup();
    const a = await library.create(scenario('coding-agent'), { kind: 'example', exampleId: 'coding-agent' });
    tick(10);
    const b = await library.create(scenario('coding-agent'), { kind: 'link' });
    tick(10);
    await library.create(scenario('mine'), { kind: 'blank' });
    expect(a.name).toBe('coding-agent');
    expect(b.name).toBe('coding-agent (2)');
    // The scenario carries its entry's name: the header, the menu and a link say the same (issue 30).
    expect(b.scenario.name).toBe('coding-agent (2)');
    expect((await library.list()).map((e) => e.name)).toEqual(['mine', 'coding-agent (2)', 'coding-agent']);
    tick(10);
    const saved = await library.save(a.id, scenario('coding-agent', 'edited'), a.revision);
    expect(saved.ok).toBe(true);
    expect((await library.list()).map((e) => e.id)).toEqual(['e1', 'e3', 'e2']);
  });

  it("saves only on the revision it last saw; another writer's save is reported, not overwritten", async () => {
    const { library } = setup();
    const entry = await library.create(scenario('shared'), { kind: 'link' });
    const first = await library.save(entry.id, scenario('shared', 'tab one'), entry.revision);
    if (!first.ok) throw new Error('first save should succeed');
    expect(first.entry.revision).toBe(2);
    const second = await library.save(entry.id, scenario('shared', 'tab two'), entry.revision);
    expect(second).toEqual({ ok: false, conflict: first.entry });
    expect((await library.get(entry.id))!.scenario.inputs.task).toBe('tab one');
  });

  it('keeps an automatic version at most every interval, a checkpoint on request, at most MAX_VERSIONS', async () => {
    const { library, tick } = setup();
    let entry = await library.create(scenario('v', 'v0'), { kind: 'blank' });
    const saveTask = async (task: string, checkpoint = false) => {
      const result = await library.save(entry.id, scenario('v', task), entry.revision, { checkpoint });
      if (!result.ok) throw new Error('unexpected conflict');
      entry = result.entry;
    };
    await saveTask('v1');
    tick(VERSION_INTERVAL_MS - 1);
    await saveTask('v2');
    expect(entry.versions).toEqual([]);
    tick(1);
    await saveTask('v3');
    expect(entry.versions.map((v) => v.scenario.inputs.task)).toEqual(['v2']);
    await saveTask('v4', true);
    expect(entry.versions.map((v) => v.scenario.inputs.task)).toEqual(['v4', 'v2']);
    await saveTask('v4', true);
    expect(entry.versions).toHaveLength(2);
    for (let i = 5; i < 20; i++) await saveTask(`v${i}`, true);
    expect(entry.versions).toHaveLength(MAX_VERSIONS);
    expect(entry.versions[0]?.scenario.inputs.task).toBe('v19');
    expect(entry.versions.at(-1)!.scenario.inputs.task).toBe('v10');
  });

  it('restores a version, keeping the content it replaces as a version', async () => {
    const { library, tick } = setup();
    const entry = await library.create(scenario('r', 'first'), { kind: 'blank' });
    tick(5);
    const saved = await library.save(entry.id, scenario('r', 'second'), entry.revision, { checkpoint: true });
    if (!saved.ok) throw new Error('unexpected conflict');
    tick(5);
    const later = await library.save(entry.id, scenario('r', 'third'), saved.entry.revision);
    if (!later.ok) throw new Error('unexpected conflict');
    tick(5);
    const [version] = saved.entry.versions;
    if (!version) throw new Error('the checkpoint kept no version');
    const restored = await library.restoreVersion(entry.id, version.savedAt);
    expect(restored!.scenario.inputs.task).toBe('second');
    expect(restored!.versions.map((v) => v.scenario.inputs.task)).toEqual(['third', 'second']);
    expect(restored!.revision).toBe(later.entry.revision + 1);
  });

  it('renames, duplicates, and deletes into a one-slot trash that undo empties', async () => {
    const { library } = setup();
    const a = await library.create(scenario('alpha'), { kind: 'blank' });
    const b = await library.create(scenario('beta'), { kind: 'blank' });
    const renamed = await library.rename(a.id, '  gamma  ');
    expect([renamed!.name, renamed!.scenario.name]).toEqual(['gamma', 'gamma']);
    expect((await library.rename(a.id, '   '))!.name).toBe('gamma');
    const clash = await library.rename(a.id, 'beta');
    expect([clash!.name, clash!.scenario.name]).toEqual(['beta (2)', 'beta (2)']);
    expect((await library.rename(a.id, 'beta (2)'))!.name).toBe('beta (2)');
    await library.rename(a.id, 'gamma');
    const copy = await library.duplicate(b.id);
    expect(copy!.name).toBe('beta copy');
    expect(copy!.scenario).toEqual({ ...b.scenario, name: 'beta copy' });
    expect(copy!.origin).toEqual({ kind: 'copy', of: 'beta' });

    await library.remove(a.id);
    await library.remove(b.id);
    expect((await library.trash())!.id).toBe(b.id);
    expect((await library.list()).map((e) => e.name)).toEqual(['beta copy']);
    const back = await library.undoRemove();
    expect(back!.id).toBe(b.id);
    expect(await library.trash()).toBeUndefined();
    expect(await library.undoRemove()).toBeUndefined();
    expect((await library.list()).map((e) => e.name).sort()).toEqual(['beta', 'beta copy']);
  });

  it('writes back an entry that was deleted while it was being edited', async () => {
    const { library } = setup();
    const entry = await library.create(scenario('gone'), { kind: 'blank' });
    await library.remove(entry.id);
    const saved = await library.save(entry.id, scenario('gone', 'still editing'), entry.revision);
    expect(saved.ok).toBe(true);
    expect((await library.get(entry.id))!.scenario.inputs.task).toBe('still editing');
    const restored = await library.undoRemove();
    expect(restored!.id).not.toBe(entry.id);
    expect(await library.list()).toHaveLength(2);
  });

  it('finds an entry by content whatever its name and key order', async () => {
    const { library } = setup();
    await library.create(scenario('x', 'one'), { kind: 'blank' });
    const two = await library.create(scenario('y', 'two'), { kind: 'blank' });
    const reordered = Object.fromEntries(Object.entries({ ...two.scenario, name: 'other' }).reverse()) as Scenario;
    expect((await library.findByContent(reordered))?.id).toBe(two.id);
    expect(await library.findByContent(scenario('y', 'three'))).toBeUndefined();
  });

  it('lists summaries without reading any content, and reads only contents a link could equal', async () => {
    const { library, storage } = setup();
    const small = await library.create(scenario('small', 'one'), { kind: 'blank' });
    const big = await library.create(scenario('big', 'x'.repeat(100_000)), { kind: 'import', file: 'big.jsonl' });
    const read: string[] = [];
    const watched: KeyValueStorage = {
      ...storage,
      get: (key) => {
        read.push(key);
        return storage.get(key);
      },
      getMany: (keys) => {
        read.push(...keys);
        return storage.getMany(keys);
      },
      entries: (prefix) => {
        read.push(`${prefix}*`);
        return storage.entries(prefix);
      },
      transact: (keys, change) => {
        read.push(...keys);
        return storage.transact(keys, change);
      },
    };
    const lib = createLibrary({ storage: watched });
    const listed = await lib.list();
    expect(listed.map((e) => [e.name, 'scenario' in e, e.versions])).toEqual([
      ['small', false, []],
      ['big', false, []],
    ]); // same time: by id
    expect(read.filter((k) => k.startsWith('content:'))).toEqual([]);
    expect((await lib.findByContent(scenario('other name', 'one')))?.id).toBe(small.id);
    expect(read.filter((k) => k.startsWith('content:'))).toEqual([`content:${small.id}`]);
    expect((await lib.get(big.id))!.scenario.inputs.task).toHaveLength(100_000);
  });

  it('splits entries and the trash saved whole by an earlier version of the page, losing nothing', async () => {
    const storage = memoryStorage();
    const whole = (id: string, task: string) => ({
      id,
      name: id,
      createdAt: 1,
      changedAt: Number(id.slice(1)),
      origin: { kind: 'blank' },
      scenario: scenario(id, task),
      versions: [{ savedAt: 1, scenario: scenario(id, `${task} before`) }],
      versionedAt: 1,
      revision: 3,
    });
    await storage.set('entry:e1', whole('e1', 'first'));
    await storage.set('entry:e2', whole('e2', 'second'));
    await storage.set('trash', whole('e9', 'deleted'));
    const library = createLibrary({ storage });
    expect((await library.list()).map((e) => [e.id, e.versions])).toEqual([
      ['e2', [{ savedAt: 1 }]],
      ['e1', [{ savedAt: 1 }]],
    ]);
    expect(await library.get('e1')).toEqual(whole('e1', 'first'));
    expect((await library.trash())?.name).toBe('e9');
    expect('scenario' in (await storage.get<object>('entry:e1'))!).toBe(false);
    const saved = await library.save('e2', scenario('e2', 'edited'), 3);
    // Its stored content becomes an automatic version (its last version is older than the interval).
    expect(saved.ok && saved.entry.versions.map((v) => v.scenario.inputs.task)).toEqual(['second', 'second before']);
    expect((await library.undoRemove())?.scenario.inputs.task).toBe('deleted');
    expect((await library.list()).map((e) => e.id).sort()).toEqual(['e1', 'e2', 'e9']);
  });

  it('remembers the last opened entry', async () => {
    const { library } = setup();
    expect(await library.lastOpened()).toBeUndefined();
    await library.setLastOpened('e7');
    expect(await library.lastOpened()).toBe('e7');
  });
});

describe('helpers', () => {
  it('uniqueName counts up from 2', () => {
    expect(uniqueName('a', new Set())).toBe('a');
    expect(uniqueName('a', new Set(['a', 'a (2)']))).toBe('a (3)');
  });
  it('contentKey ignores key order and keeps array order', () => {
    expect(contentKey({ b: 1, a: [2, 1] })).toBe(contentKey({ a: [2, 1], b: 1 }));
    expect(contentKey({ a: [1, 2] })).not.toBe(contentKey({ a: [2, 1] }));
  });
  it('sameContent says what comparing contentKeys says', () => {
    expect(sameContent({ b: 1, a: [2, 1] }, { a: [2, 1], b: 1 })).toBe(true);
    expect(sameContent({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
    expect(sameContent({ a: 1, gone: undefined }, { a: 1 })).toBe(true);
    expect(sameContent([undefined, NaN], [null, null])).toBe(true);
    expect(sameContent({ a: Infinity }, { a: null })).toBe(true);
    expect(sameContent({ a: '1' }, { a: 1 })).toBe(false);
    expect(sameContent({ a: {} }, { a: [] })).toBe(false);
    // Values close to each other: one drawn, the other a copy with a few leaves changed or dropped.
    const leaf = fc.oneof(
      fc.constantFrom(null, undefined, NaN, Infinity, 0, -0, 1, '', 'a', true, false),
      fc.string({ maxLength: 3 }),
      fc.integer(),
    );
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ maxDepth: 4 }, leaf, tie('array'), tie('object')),
      array: fc.array(tie('node'), { maxLength: 4 }),
      object: fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), tie('node'), { maxKeys: 4 }),
    })).node;
    const mutate = (v: unknown, pick: number): unknown => {
      if (Array.isArray(v)) return v.map((x, i) => ((pick + i) % 5 === 0 ? mutate(x, pick + 1) : x));
      if (v && typeof v === 'object') {
        return Object.fromEntries(
          Object.entries(v)
            .reverse()
            .filter((_, i) => (pick + i) % 7 !== 0)
            .map(([k, x], i) => [k, (pick + i) % 3 === 0 ? mutate(x, pick + 2) : x]),
        );
      }
      return pick % 4 === 0 ? (v === null ? undefined : v === undefined ? null : v) : pick % 4 === 1 ? String(v) : v;
    };
    fc.assert(
      fc.property(value, fc.nat(20), (a, pick) => {
        const b = mutate(a, pick);
        expect(sameContent(a, b)).toBe(contentKey(a) === contentKey(b));
        expect(sameContent(a, structuredClone(a))).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });
});
