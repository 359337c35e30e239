// The address holds the whole view, and every example opens at its lesson: the session run whole
// (the real engine in this process) on a fake tab. Expected steps come from the engine's own run.
import { describe, expect, it } from 'vitest';
import { replay } from '../../src/engine/index.ts';
import { EXAMPLES, findExample } from '../../src/scenarios/examples.ts';
import { BUILT_IN_TRAFFIC } from '../../src/scenarios/generators.ts';
import { RHAI } from '../../src/engine/custom-script.ts';
import { encodeScenario } from '../../src/share/index.ts';
import { parseViewParams, scenarioPart } from '../../src/share/view.ts';
import type { PageSession } from '../../src/state/page-session.ts';
import { PREFERENCES_KEY } from '../../src/state/preferences.ts';
import { exampleContent } from '../../src/state/scenario.ts';
import { FakeTab, settle, testSession, until } from './fakes.ts';

const status = (session: PageSession) => session.results.getState().status.kind;
const replays = (sent: { engine: { type: string }[] }) => sent.engine.filter((m) => m.type === 'replay').length;

async function started(tab = new FakeTab()) {
  const made = testSession(tab);
  await made.session.start();
  await until(() => status(made.session) === 'current', 'the first replay');
  return { ...made, tab };
}

/** The first step of the engine's own run where a change of `type` in `region` happens. */
function firstChange(id: string, type: string, region: string): number {
  return replay(exampleContent(id)!, { ...BUILT_IN_TRAFFIC, ...RHAI }).steps.findIndex((s) =>
    s.changes.some((c) => c.type === type && c.region === region),
  );
}

/** Puts `href` in the tab's address as a person would (a pasted link, an edited fragment). */
function navigate(tab: FakeTab, href: string): void {
  tab.host.history.pushState(null, '', href);
  tab.fire('hashchange');
}

describe('examples open at their lesson', () => {
  it('a first visit opens the default example at its lesson, with its sentence on screen, and the address says so', async () => {
    const { session, tab } = await started();
    const compactAt = firstChange('coding-agent', 'compact', 'codebase');
    expect(compactAt).toBeGreaterThan(0);
    await until(() => session.ui.getState().step === compactAt, "the lesson's step");
    expect([session.ui.getState().chartView, session.ui.getState().focusRegion]).toEqual(['window', 'codebase']);
    expect(session.ui.getState().lesson?.look).toBe(findExample('coding-agent')!.lesson.look);
    await settle(400);
    expect(scenarioPart(tab.url.hash)).toBe(encodeScenario(exampleContent('coding-agent')!));
    expect(parseViewParams(tab.url.hash).view).toEqual({ step: compactAt + 1, region: 'codebase' });
  });

  it("a reload of a first visit comes back to the step it left, not to the lesson's", async () => {
    const { session, tab } = await started();
    await until(
      () => session.ui.getState().step === firstChange('coding-agent', 'compact', 'codebase'),
      "the lesson's step",
    );
    session.ui.getState().setStep(3);
    tab.fire('pagehide');
    const again = new FakeTab('http://localhost:4173/', null);
    again.reloaded = true;
    for (const [key, value] of tab.tabStorage.map) again.tabStorage.setItem(key, value);
    const { session: next } = await started(again);
    await settle(400);
    expect(next.ui.getState().step).toBe(3);
  });

  it('flat-vs-regions opens on the flat-list chart at the inference where the flat list loses the task', async () => {
    const { session, tab } = await started();
    await session.openExample('flat-vs-regions');
    const run = replay(exampleContent('flat-vs-regions')!, { ...BUILT_IN_TRAFFIC, ...RHAI });
    const lost = run.steps.findIndex((s) => s.request?.inference === run.summary.baselineLosesTaskAt);
    await until(() => session.ui.getState().step === lost, 'the step where the task is lost');
    expect(session.ui.getState().chartView).toBe('flat');
    await settle(400);
    expect(parseViewParams(tab.url.hash).view).toEqual({ step: lost + 1, view: 'flat', region: 'task' });
  });

  it('#example/<id> opens that example at its lesson, quietly; view parts after it win; an unknown id says which exist', async () => {
    const { session } = await started(new FakeTab('http://localhost:4173/#example/sliding-bulk-cache'));
    expect(session.library.getState().origin).toEqual({ kind: 'example', exampleId: 'sliding-bulk-cache' });
    await until(
      () => session.ui.getState().step === firstChange('sliding-bulk-cache', 'evict', 'conversation'),
      'the first bulk drop',
    );
    expect(session.ui.getState().chartView).toBe('cache');
    expect(session.ui.getState().notices).toEqual([]);

    const other = await started(new FakeTab('http://localhost:4173/#example/tool-routing&step=5&view=regions'));
    await until(() => other.session.ui.getState().step === 4, 'step 5');
    expect(other.session.ui.getState().chartView).toBe('regions');

    const unknown = await started(new FakeTab('http://localhost:4173/#example/no-such-thing'));
    const text = unknown.session.ui
      .getState()
      .notices.map((n) => n.text)
      .join('\n');
    expect(text).toContain('"no-such-thing"');
    for (const e of EXAMPLES) expect(text).toContain(e.id);
  });
});

describe('the address holds the whole view', () => {
  it('a link with a step, a view, a zoom, a region and an entry opens there; the same link without them opens at step 1 of Window', async () => {
    const link = encodeScenario(exampleContent('research-reject')!);
    const { session } = await started(
      new FakeTab(`http://localhost:4173/${link}&step=120&view=cache&zoom=window&region=sources&entry=2`),
    );
    await until(() => session.ui.getState().step === 119, 'step 120');
    const ui = session.ui.getState();
    expect([ui.chartView, ui.zoom, ui.focusRegion, ui.focusEntry]).toEqual(['cache', 'window', 'sources', 2]);

    const old = await started(new FakeTab(`http://localhost:4173/${link}`));
    await settle(100);
    const before = old.session.ui.getState();
    expect([before.step, before.chartView, before.focusRegion, before.focusEntry]).toEqual([0, 'window', null, null]);
    // The example's lesson is one click away rather than forced on an old link.
    expect(before.lesson?.exampleId).toBe('research-reject');
  });

  it('scrubbing, a tab and the zoom follow into the address in place; a reload of it lands on the same step', async () => {
    const { session, tab } = await started();
    await settle(400);
    const entries = tab.historyLength;
    session.ui.getState().setStep(41);
    session.ui.getState().setChartView('regions');
    session.ui.getState().chooseZoom('fit');
    session.ui.getState().setFocusRegion(null);
    await settle(400);
    expect(tab.historyLength).toBe(entries);
    expect(parseViewParams(tab.url.hash).view).toEqual({ step: 42, view: 'regions', zoom: 'fit' });

    const reloaded = await started(new FakeTab(tab.url.href, tab.historyState()));
    await until(() => reloaded.session.ui.getState().step === 41, 'step 42 after the reload');
    expect(reloaded.session.ui.getState().chartView).toBe('regions');
  });

  it('editing only the view parts of the address applies them without replaying', async () => {
    const { session, sent, tab } = await started();
    await settle(400);
    const before = replays(sent);
    navigate(tab, `${scenarioPart(tab.url.hash)}&step=30&view=flat`);
    await until(() => session.ui.getState().step === 29, 'step 30');
    expect(session.ui.getState().chartView).toBe('flat');
    await settle(100);
    expect(replays(sent)).toBe(before);
  });

  it('#guide/<section> asks for the Guide at that section and leaves the scenario on screen in the address', async () => {
    const { session, tab } = await started();
    await settle(400);
    const onScreen = scenarioPart(tab.url.hash);
    navigate(tab, '#guide/stages-and-the-prompt-cache');
    await until(
      () => session.ui.getState().guideSection === 'stages-and-the-prompt-cache',
      'the guide section asked for',
    );
    expect(scenarioPart(tab.url.hash)).toBe(onScreen);
  });
});

describe('the zoom', () => {
  it('is auto until chosen; a choice survives switching examples and is kept with the preferences', async () => {
    const { session, tab } = await started();
    expect(session.ui.getState().zoom).toBe('auto');
    session.ui.getState().chooseZoom('window');
    await session.openExample('brain-custom');
    expect(session.ui.getState().zoom).toBe('window');
    await session.openExample('sliding-bulk-cache');
    expect(session.ui.getState().zoom).toBe('window');
    expect(JSON.parse(tab.storage.getItem(PREFERENCES_KEY)!).state.zoom).toBe('window');
    // A link's zoom is shown for that link only: the choice kept is unchanged.
    const link = `${encodeScenario(exampleContent('imported-run')!)}&zoom=fit`;
    navigate(tab, link);
    await until(
      () => session.library.getState().origin.kind === 'example' && session.ui.getState().zoom === 'fit',
      'the link opened',
    );
    expect(session.ui.getState().zoomPreference).toBe('window');
  });
});
