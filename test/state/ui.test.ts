// The UI store's notices: one of each kind, a new one replacing its kind's; those about a scenario go when another opens.
import { describe, expect, it } from 'vitest';
import { createUiStore, MAX_NOTICES, noticeKind } from '../../src/state/ui.ts';

const store = () => createUiStore({ storage: null, prefersDark: false });
const texts = (ui: ReturnType<typeof store>) => ui.getState().notices.map((n) => n.text);

describe('notices', () => {
  it(`keeps one notice of each kind (${MAX_NOTICES} at most): a new one replaces its kind's`, () => {
    const ui = store();
    const { notify } = ui.getState();
    notify({ tone: 'error', text: 'storage refused', sticky: true });
    notify({ tone: 'info', text: 'two tabs changed it', sticky: true });
    notify({
      tone: 'info',
      text: 'Opened A. Your work "mine" is saved in Scenarios.',
      action: { label: 'Undo', run: () => {} },
    });
    for (const n of [1, 2, 3, 4]) notify({ tone: 'info', text: `Opened the example ${n}.` });
    expect(texts(ui)).toEqual(['storage refused', 'two tabs changed it', 'Opened the example 4.']);
    notify({ tone: 'error', text: 'link broken' });
    expect(texts(ui)).toEqual(['two tabs changed it', 'Opened the example 4.', 'link broken']);
    expect(ui.getState().notices.map((n) => noticeKind(n))).toEqual(['lasting', 'info', 'error']);
  });

  it('drops the notices about the scenario on screen when another opens, and only those', () => {
    const ui = store();
    const { notify } = ui.getState();
    notify({ tone: 'error', text: 'storage refused', sticky: true });
    notify({ tone: 'info', text: 'Copied the Anthropic body.', about: 'scenario' });
    const before = ui.getState().notices;
    ui.getState().dropScenarioNotices();
    expect(texts(ui)).toEqual(['storage refused']);
    // With none left to drop, the store is not changed (no render).
    const after = ui.getState().notices;
    ui.getState().dropScenarioNotices();
    expect(ui.getState().notices).toBe(after);
    expect(before).toHaveLength(2);
  });

  it("numbers each store's notices on their own: a second page starts at 1 again", () => {
    const first = store();
    first.getState().notify({ tone: 'info', text: 'x' });
    first.getState().notify({ tone: 'error', text: 'y' });
    const second = store();
    second.getState().notify({ tone: 'info', text: 'z' });
    expect(first.getState().notices.map((n) => n.id)).toEqual([1, 2]);
    expect(second.getState().notices.map((n) => n.id)).toEqual([1]);
  });
});
