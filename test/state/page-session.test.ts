// The page's session, run whole: the real engine and edit handlers serve it in this process (over
// MessageChannels, as the workers do), a fake tab stands in for the window. What it shows is
// compared with the engine run here in Node: the timeline on screen is the engine's own.
import { describe, expect, it } from 'vitest';
import { type Scenario, Replay, replay } from '../../src/engine/index.ts';
import { DEFAULT_EXAMPLE_ID, findExample } from '../../src/scenarios/examples.ts';
import { BUILT_IN_TRAFFIC } from '../../src/scenarios/generators.ts';
import { RHAI } from '../../src/engine/custom-script.ts';
import { encodeScenario } from '../../src/share/index.ts';
import { parseViewParams, scenarioPart } from '../../src/share/view.ts';
import { AGENT_FILE, defaultScenario, exampleContent } from '../../src/state/scenario.ts';
import { createReplayGuard, REPLAY_GUARD_KEY, fingerprint } from '../../src/state/replayGuard.ts';
import { bannerOf, isOutOfDate } from '../../src/state/status.ts';
import { memoryStorage } from '../../src/state/storage.ts';
import type { PageSession } from '../../src/state/page-session.ts';
import { figureTable, stepFigures, timelineView } from '../../src/worker/timeline-view.ts';
import { FakeTab, settle, TEST_DELAYS, testSession, until } from './fakes.ts';

/** The points the worker downsamples to for the fake tab's 1,200-pixel charts (half the width). */
const POINTS = 600;

const replays = (sent: { engine: { type: string }[] }) => sent.engine.filter((m) => m.type === 'replay').length;
const status = (session: PageSession) => session.results.getState().status.kind;
const shows = (scenario: Scenario) => timelineView(replay(scenario, { ...BUILT_IN_TRAFFIC, ...RHAI }), POINTS).view;
const noticeTexts = (session: PageSession) => session.ui.getState().notices.map((n) => n.text);

async function started(tab = new FakeTab(), options: Parameters<typeof testSession>[1] = {}) {
  const made = testSession(tab, options);
  await made.session.start();
  await until(() => status(made.session) === 'current' || status(made.session) === 'held', 'the first replay');
  return { ...made, tab };
}

/** Edits the task, as the Task field does, and waits for what follows an edit to settle. */
async function editTask(session: PageSession, task: string): Promise<void> {
  const before = session.results.getState().timeline;
  session.scenario.getState().setTask(task);
  await until(
    () => status(session) === 'current' && session.results.getState().timeline !== before,
    'the edit replayed',
  );
  await until(() => session.library.getState().entryId !== null, 'the edit saved');
  await settle();
}

describe('a first visit', () => {
  it("opens the default example and replays it once: the timeline on screen is the engine's own", async () => {
    const { session, sent, tab } = await started();
    expect(replays(sent)).toBe(1);
    expect(session.results.getState().timeline).toEqual(shows(defaultScenario()));
    expect(session.results.getState().validation?.diagnostics).toEqual(
      replay(defaultScenario(), { ...BUILT_IN_TRAFFIC, ...RHAI }).diagnostics,
    );
    expect(session.library.getState()).toMatchObject({
      entryId: null,
      origin: { kind: 'example', exampleId: DEFAULT_EXAMPLE_ID },
    });
    // The address holds the example's link, in the history entry the tab came with.
    await until(() => tab.url.hash.length > 1, 'the address written');
    // The scenario's part; the view's parts follow it (test/state/addresses.test.ts).
    expect(scenarioPart(tab.url.hash)).toBe(encodeScenario(defaultScenario()));
    expect(tab.historyLength).toBe(1);
  });

  it('inspects the scrubbed step in the replay the worker kept, without replaying again', async () => {
    const { session, sent } = await started();
    session.ui.getState().setStep(57);
    await until(() => session.results.getState().detail?.index === 57, 'step 57 inspected');
    const scenario = defaultScenario();
    expect(session.results.getState().detail).toEqual(
      new Replay(scenario, { ...BUILT_IN_TRAFFIC, ...RHAI }).inspect(57),
    );
    expect(session.results.getState().figures).toEqual(
      stepFigures(figureTable(replay(scenario, { ...BUILT_IN_TRAFFIC, ...RHAI })), 57),
    );
    expect(replays(sent)).toBe(1);
  });
  it('asks for each step of play at once, and a scrubbed step once the scrubbing pauses', async () => {
    const { session, sent } = await started();
    const inspects = () => sent.engine.filter((m) => m.type === 'inspect').length;
    const before = inspects();
    session.ui.getState().setStep(12);
    expect(inspects()).toBe(before);
    await until(() => session.results.getState().detail?.index === 12, 'step 12 inspected');
    session.ui.getState().setPlaying(true);
    session.ui.getState().setStep(13);
    expect(inspects()).toBe(before + 2);
    await until(() => session.results.getState().detail?.index === 13, 'step 13 inspected');
    session.ui.getState().setPlaying(false);
  });
});

describe('a slow replay', () => {
  it("turns auto-run off with a lasting notice beside the open's own, with Undo; the page load's replay is not judged", async () => {
    // Every replay counts as slow here.
    const { session } = await started(new FakeTab(), { delays: { ...TEST_DELAYS, slowReplay: 0 } });
    expect(session.results.getState().autoRun).toBe(true);
    await session.openExample('flat-vs-regions');
    await until(() => status(session) === 'current', 'the example replayed');
    const { autoRun, autoRunOffReason, replayMs } = session.results.getState();
    expect(autoRun).toBe(false);
    expect(autoRunOffReason).toBe(`the last replay took ${(replayMs! / 1000).toFixed(1)} s`);
    const notices = session.ui.getState().notices;
    expect(notices.map((n) => [n.text, n.sticky ?? false, n.action?.label])).toEqual([
      [`Opened the example "${findExample('flat-vs-regions')!.title}".`, false, 'Undo'],
      [
        `Auto-run is off because ${autoRunOffReason}: edits now wait for Run (Ctrl+Enter). Turn it back on beside Run.`,
        true,
        undefined,
      ],
    ]);
  });
});

describe('edits', () => {
  it('are replayed once the typing pauses and saved as a library entry named after the example; the address is rewritten, not pushed', async () => {
    const { session, sent, tab } = await started();
    await editTask(session, 'Ship the fix today.');
    const edited = session.scenario.getState().scenario;
    expect(edited.inputs.task).toBe('Ship the fix today.');
    expect(session.results.getState().timeline).toEqual(shows(edited));
    expect(replays(sent)).toBe(2);
    const { entries, entryId } = session.library.getState();
    expect(entries.map((e) => [e.id, e.name, e.origin])).toEqual([
      [entryId, DEFAULT_EXAMPLE_ID, { kind: 'example', exampleId: DEFAULT_EXAMPLE_ID }],
    ]);
    await until(() => scenarioPart(tab.url.hash) === encodeScenario(edited), 'the address rewritten');
    expect(tab.historyLength).toBe(1);
    expect(tab.historyState()).toEqual({ entryId });
  });

  it('with auto-run off, are validated and wait for Run, the charts out of date; Run replays them', async () => {
    const { session, sent } = await started();
    const before = session.results.getState().timeline;
    session.setAutoRun(false);
    session.scenario.getState().setTask('Wait for me.');
    await until(() => status(session) === 'waiting', 'the edit waiting');
    await until(() => sent.edit.some((m) => m.type === 'validate'), 'the edit validated');
    const { results } = session;
    expect([
      replays(sent),
      results.getState().timeline,
      isOutOfDate(results.getState().status, before),
      bannerOf(results.getState().status, before),
    ]).toEqual([1, before, true, 'waiting']);
    session.replayNow();
    await until(() => status(session) === 'current', 'Run replayed');
    expect(replays(sent)).toBe(2);
    expect(results.getState().timeline).toEqual(shows(session.scenario.getState().scenario));
    expect(isOutOfDate(results.getState().status, results.getState().timeline)).toBe(false);
  });

  it('with auto-run off, that break the blueprint are marked broken once validated, and a fix waits for Run again', async () => {
    const { session, sent } = await started();
    const before = session.results.getState().timeline;
    session.setAutoRun(false);
    session.scenario.getState().setFile(AGENT_FILE, '[context.regions]\nnotes = { kind = "nonsense" }\n');
    await until(() => status(session) === 'broken', 'the broken edit validated');
    const { results } = session;
    expect(results.getState().validation?.diagnostics.map((d) => d.code)).toContain('unknown-region-kind');
    expect([replays(sent), bannerOf(results.getState().status, before)]).toEqual([1, 'broken']);
    session.scenario
      .getState()
      .setFile(AGENT_FILE, '[context.regions]\nnotes = { kind = "temporary", budget = "10%" }\n');
    await until(() => status(session) === 'waiting', 'the fixed edit waiting for Run');
    expect(replays(sent)).toBe(1);
  });

  it('that break the blueprint keep the last timeline on screen, marked broken', async () => {
    const { session } = await started();
    const before = session.results.getState().timeline;
    session.scenario.getState().setFile(AGENT_FILE, '[context.regions]\nnotes = { kind = "nonsense" }\n');
    await until(() => status(session) === 'broken', 'the broken replay');
    const { timeline, replayDiagnostics, status: now } = session.results.getState();
    expect(timeline).toBe(before);
    expect(replayDiagnostics.map((d) => d.code)).toContain('unknown-region-kind');
    expect([bannerOf(now, timeline), isOutOfDate(now, timeline)]).toEqual(['broken', true]);
  });

  it('a replay cancelled on request leaves the last timeline, waiting for Run', async () => {
    const { session, sent } = await started();
    const before = session.results.getState().timeline;
    session.replayNow();
    expect(status(session)).toBe('replaying');
    session.cancelReplay();
    await until(() => sent.engine.some((m) => m.type === 'cancel'), 'the cancel sent');
    await settle();
    const { timeline, status: now } = session.results.getState();
    expect([now.kind, timeline, bannerOf(now, timeline), isOutOfDate(now, timeline)]).toEqual([
      'waiting',
      before,
      'waiting',
      true,
    ]);
  });
});

describe('opening', () => {
  it('replays the opened scenario at once, even with auto-run off; the work on screen is saved first and Undo reopens it; Back returns to it', async () => {
    const { session, sent, tab } = await started();
    await editTask(session, 'Mine.');
    const mine = session.library.getState().entryId;
    session.setAutoRun(false);
    await session.openExample('flat-vs-regions');
    await until(
      () => status(session) === 'current' && session.results.getState().timeline?.header.scenario === 'flat-vs-regions',
      'the example replayed',
    );
    expect(replays(sent)).toBe(3);
    expect(session.results.getState().timeline).toEqual(shows(exampleContent('flat-vs-regions')!));
    const notice = session.ui.getState().notices.at(-1)!;
    expect(notice.text).toBe(
      `Opened the example "${findExample('flat-vs-regions')!.title}". Your work "${DEFAULT_EXAMPLE_ID}" is saved in Scenarios.`,
    );
    await until(() => tab.historyLength === 2, 'the open pushed');

    notice.action!.run();
    await until(() => session.library.getState().entryId === mine, 'Undo reopened the work');
    expect(session.scenario.getState().scenario.inputs.task).toBe('Mine.');
    await until(
      () =>
        status(session) === 'current' && session.results.getState().timeline?.header.scenario === DEFAULT_EXAMPLE_ID,
      'the work replayed',
    );

    await session.openExample('tool-routing');
    await until(
      () => scenarioPart(tab.url.hash) === encodeScenario(exampleContent('tool-routing')!),
      'the example in the address',
    );
    tab.back();
    await until(() => session.library.getState().entryId === mine, 'Back reopened the work');
    expect(session.scenario.getState().scenario.inputs.task).toBe('Mine.');
  });

  it('a link in the address opens its scenario as a new entry, keeping the fragment byte for byte', async () => {
    const linked = { ...exampleContent('tool-routing')!, name: 'from-a-colleague' };
    const fragment = encodeScenario(linked);
    const { session, tab } = await started(new FakeTab(`http://localhost:4173/${fragment}`));
    expect(session.scenario.getState().scenario).toEqual(linked);
    expect(session.library.getState().entries.map((e) => [e.name, e.origin])).toEqual([
      ['from-a-colleague', { kind: 'link' }],
    ]);
    expect(noticeTexts(session)).toEqual(['Opened the shared scenario (saved in Scenarios as "from-a-colleague").']);
    await settle();
    expect(tab.url.hash).toBe(fragment);
  });

  it('a scenario whose last replay did not finish opens held: validated, not replayed, until Run', async () => {
    const tab = new FakeTab();
    createReplayGuard(tab.storage).failed(defaultScenario(), 'the replay took longer than 20 s');
    expect(JSON.parse(tab.storage.getItem(REPLAY_GUARD_KEY)!)[fingerprint(defaultScenario())].state).toBe('failed');
    const { session, sent } = await started(tab);
    expect(session.results.getState().status).toEqual({ kind: 'held', reason: 'the replay took longer than 20 s' });
    await until(() => session.results.getState().validation !== null, 'the validation');
    expect([replays(sent), sent.edit.some((m) => m.type === 'validate')]).toEqual([0, true]);
    session.replayNow();
    await until(() => status(session) === 'current', 'Run replayed');
    expect(createReplayGuard(tab.storage).heldReason(defaultScenario())).toBeNull();
  });

  it('moves the work an earlier version kept in localStorage into the library and opens it', async () => {
    const tab = new FakeTab();
    const earlier = { ...exampleContent('research-reject')!, name: 'kept before the library' };
    tab.storage.setItem('leviath.work.v1', JSON.stringify(earlier));
    const { session } = await started(tab);
    expect(session.scenario.getState().scenario).toEqual(earlier);
    expect(session.library.getState().entries.map((e) => [e.name, e.origin])).toEqual([
      ['kept before the library', { kind: 'earlier-work' }],
    ]);
    expect(tab.storage.getItem('leviath.work.v1')).toBeNull();
  });
});

describe('keeping work', () => {
  it('Ctrl+S saves, keeps this content as a version and copies the link', async () => {
    const { session, tab } = await started();
    await session.saveAndCopyLink();
    expect(tab.copied).toEqual([tab.url.href]);
    expect(scenarioPart(tab.url.hash)).toBe(encodeScenario(defaultScenario()));
    const [entry] = session.library.getState().entries;
    expect([entry!.name, entry!.versions.length]).toEqual([DEFAULT_EXAMPLE_ID, 1]);
    expect(noticeTexts(session).at(-1)).toBe(`Saved "${DEFAULT_EXAMPLE_ID}" in Scenarios; its link is copied.`);
  });

  it('when the browser refuses storage, says so once with Export, and keeps the work for the tab', async () => {
    const { session } = await started(new FakeTab(), {
      storage: { storage: memoryStorage(), persistent: false, problem: 'private mode' },
    });
    expect(noticeTexts(session)).toEqual([
      'Your work cannot be stored in this browser (private mode). The page keeps working, but nothing will survive a reload: use Export to keep a copy.',
    ]);
    expect(session.library.getState()).toMatchObject({ persistent: false, storageProblem: 'private mode' });
    await editTask(session, 'Kept for the tab.');
    expect(session.library.getState().entries.map((e) => e.name)).toEqual([DEFAULT_EXAMPLE_ID]);
  });

  it('two tabs that edit the same entry each keep their own: the second save becomes a copy, and says so', async () => {
    const library = memoryStorage();
    const one = await started(new FakeTab(), { library });
    await editTask(one.session, 'tab one');
    const two = await started(new FakeTab(), { library });
    expect(two.session.library.getState().entryId).toBe(one.session.library.getState().entryId);
    await editTask(one.session, 'tab one, again');
    two.session.scenario.getState().setTask('tab two');
    await until(
      () => two.session.library.getState().entryId !== one.session.library.getState().entryId,
      'the second tab forked',
    );
    await settle();
    const names = Object.fromEntries((await two.session.library.getState().entries).map((e) => [e.name, e.id]));
    expect(Object.keys(names).sort()).toEqual([DEFAULT_EXAMPLE_ID, `${DEFAULT_EXAMPLE_ID} (2)`]);
    expect(noticeTexts(two.session).at(-1)).toBe(
      `"${DEFAULT_EXAMPLE_ID}" was also changed in another tab. Both are kept: this tab's version is now "${DEFAULT_EXAMPLE_ID} (2)" in Scenarios, the other tab's stays "${DEFAULT_EXAMPLE_ID}".`,
    );
  });
});

/** A library whose writes stop landing once `cut()` is called: the page went away before they finished. */
function cuttableLibrary() {
  const inner = memoryStorage();
  let cut = false;
  const never = new Promise<void>(() => {});
  const library = {
    ...inner,
    set: (key: string, value: unknown) => (cut ? never : inner.set(key, value)),
    transact: (keys: readonly string[], change: Parameters<typeof inner.transact>[1]) =>
      cut ? never : inner.transact(keys, change),
    del: (key: string) => (cut ? never : inner.del(key)),
  };
  return {
    library,
    inner,
    cut: () => {
      cut = true;
    },
  };
}

/**
 * The same tab reloaded: its address, history state and sessionStorage; the library as the page left it.
 * `as` is what Chromium may give instead when an address rewrite and the reload cross: the address
 * from before the rewrite and no history state (seen in e2e/polish.spec.ts's 300 ms reload).
 */
function reloaded(tab: FakeTab, as?: { href: string; state: null }): FakeTab {
  const again = new FakeTab(as?.href ?? tab.url.href, as ? as.state : tab.historyState());
  again.reloaded = true;
  for (let k = 0; k < tab.tabStorage.length; k++) {
    const key = tab.tabStorage.key(k)!;
    again.tabStorage.setItem(key, tab.tabStorage.getItem(key)!);
  }
  return again;
}

describe('a reload', () => {
  it('keeps an edit made a moment before it, in the entry it was made in, and comes back to the step', async () => {
    const { library, inner, cut } = cuttableLibrary();
    const { session, tab } = await started(new FakeTab(), { library });
    // (Not editTask: on a loaded machine a slow first replay turns auto-run off, and this needs the save only.)
    session.scenario.getState().setTask('First, saved.');
    await until(() => session.library.getState().entryId !== null, 'the edit saved');
    await settle();
    const entryId = session.library.getState().entryId!;
    session.ui.getState().setStep(57);
    // An edit, and the page goes at once: no save timer, no address timer, and no write after pagehide lands.
    session.scenario.getState().setTask('Second, 0 ms before the reload.');
    cut();
    tab.fire('pagehide');

    const again = reloaded(tab);
    const { session: next } = await started(again, { library: inner });
    expect(next.scenario.getState().scenario.inputs.task).toBe('Second, 0 ms before the reload.');
    expect(next.library.getState().entryId).toBe(entryId);
    // Saved into its own entry, not made a new one from the link.
    const entries = await inner.entries<{ name: string }>('entry:');
    expect(entries.map(([, e]) => e.name)).toEqual([DEFAULT_EXAMPLE_ID]);
    const saved = await inner.get<{ scenario: Scenario }>(`content:${entryId}`);
    expect(saved?.scenario.inputs.task).toBe('Second, 0 ms before the reload.');
    expect(next.ui.getState().step).toBe(57);
    expect(noticeTexts(next)).toEqual([]);
  });

  // The order of e2e/polish.spec.ts's 300 ms reload: a first edit saved and in the address, a step,
  // a second edit, and a reload that comes back with the address from before it and no history state.
  async function secondEditThenReload(saveLands: boolean) {
    const { library, inner, cut } = cuttableLibrary();
    const { session, tab } = await started(new FakeTab(), { library });
    session.scenario.getState().setTask('First, saved.');
    await until(() => session.library.getState().entryId !== null, 'the first edit saved');
    const entryId = session.library.getState().entryId!;
    await until(() => (tab.historyState() as { entryId?: string }).entryId === entryId, 'the address names the entry');
    session.ui.getState().setStep(57);
    await until(() => parseViewParams(tab.url.hash).view.step === 58, 'the step in the address');
    const before = tab.url.href;
    session.scenario.getState().setTask('Second, 300 ms before the reload.');
    if (saveLands) await session.flushSave();
    cut();
    tab.fire('pagehide');
    const { session: next } = await started(reloaded(tab, { href: before, state: null }), { library: inner });
    return { next, inner, entryId };
  }

  for (const saveLands of [false, true])
    it(`keeps an edit made 300 ms before it when the browser reloads the address from before it, its save ${saveLands ? 'landed' : 'not landed'}`, async () => {
      const { next, inner, entryId } = await secondEditThenReload(saveLands);
      expect(next.scenario.getState().scenario.inputs.task).toBe('Second, 300 ms before the reload.');
      expect(next.library.getState().entryId).toBe(entryId);
      const entries = await inner.entries<{ name: string }>('entry:');
      expect(entries.map(([, e]) => e.name)).toEqual([DEFAULT_EXAMPLE_ID]);
      const saved = await inner.get<{ scenario: Scenario }>(`content:${entryId}`);
      expect(saved?.scenario.inputs.task).toBe('Second, 300 ms before the reload.');
      expect(next.ui.getState().step).toBe(57);
      expect(noticeTexts(next)).toEqual([]);
    });

  it('keeps the chart view, zoom and inspected region it left', async () => {
    const { session, tab } = await started();
    session.ui.getState().setChartView('cache');
    session.ui.getState().setZoom('fit');
    session.ui.getState().setFocusRegion('codebase');
    session.ui.getState().setStep(12);
    tab.fire('pagehide');
    const { session: next } = await started(reloaded(tab, { href: 'http://localhost:4173/', state: null }));
    expect(next.ui.getState()).toMatchObject({ chartView: 'cache', zoom: 'fit', focusRegion: 'codebase', step: 12 });
  });

  it('is not taken for a link opened in the tab: what the tab left stays unread', async () => {
    const { session, tab } = await started();
    session.scenario.getState().setTask('Left in the tab.');
    tab.fire('pagehide');
    const fresh = reloaded(tab, { href: 'http://localhost:4173/', state: null });
    fresh.reloaded = false;
    const { session: next } = await started(fresh);
    expect(next.scenario.getState().scenario.inputs.task).toBe(defaultScenario().inputs.task);
  });

  it("keeps an example's first edit made a moment before it, as the entry its first save would have made", async () => {
    const { library, inner, cut } = cuttableLibrary();
    const { session, tab } = await started(new FakeTab(), { library });
    session.scenario.getState().setTask('Edited, then reloaded at once.');
    cut();
    tab.fire('pagehide');

    const { session: next } = await started(reloaded(tab), { library: inner });
    expect(next.scenario.getState().scenario.inputs.task).toBe('Edited, then reloaded at once.');
    expect(next.library.getState().origin).toEqual({ kind: 'example', exampleId: DEFAULT_EXAMPLE_ID });
    const entries = await inner.entries<{ name: string; origin: unknown }>('entry:');
    expect(entries.map(([, e]) => [e.name, e.origin])).toEqual([
      [DEFAULT_EXAMPLE_ID, { kind: 'example', exampleId: DEFAULT_EXAMPLE_ID }],
    ]);
    expect(next.library.getState().entryId).toBe(entries[0]![0].replace('entry:', ''));
    expect(noticeTexts(next)).toEqual([]);
  });
});

describe('one name', () => {
  it('a second copy of an example is "coding-agent (2)" on screen, in the library and in Copy as Markdown alike', async () => {
    const { session } = await started();
    session.scenario.getState().setTask('First copy.');
    await until(() => session.library.getState().entryId !== null, 'the first copy saved');
    await session.openExample(DEFAULT_EXAMPLE_ID);
    session.scenario.getState().setTask('Second copy.');
    await until(() => session.library.getState().entryId !== null, 'the second copy saved');
    await settle();
    const second = `${DEFAULT_EXAMPLE_ID} (2)`;
    expect(session.scenario.getState().scenario.name).toBe(second);
    expect(session.openName()).toBe(second);
    expect(
      session.library
        .getState()
        .entries.map((e) => e.name)
        .sort(),
    ).toEqual([DEFAULT_EXAMPLE_ID, second]);
  });
});
