// The UI store: an Undo or a warning stays until dismissed, even when later notices crowd the stack.
import { describe, expect, it } from 'vitest';
import { createUiStore, MAX_NOTICES } from '../../src/state/ui.ts';

const store = () => createUiStore({ storage: null, prefersDark: false });
const texts = (ui: ReturnType<typeof store>) => ui.getState().notices.map((n) => n.text);

describe('notices', () => {
  it(`keeps at most ${MAX_NOTICES}, dropping passing information before an older Undo`, () => {
    const ui = store();
    const { notify } = ui.getState();
    notify({ tone: 'info', text: 'Opened A. Your work "mine" is saved in Scenarios.', sticky: true, action: { label: 'Undo', run: () => {} } });
    for (const n of [1, 2, 3, 4]) notify({ tone: 'info', text: `passing ${n}` });
    expect(texts(ui)).toEqual(['Opened A. Your work "mine" is saved in Scenarios.', 'passing 2', 'passing 3', 'passing 4']);
  });

  it('drops the oldest when every notice must stay, and never the one just added', () => {
    const ui = store();
    const { notify } = ui.getState();
    for (const n of [1, 2, 3, 4]) notify({ tone: 'error', text: `storage ${n}`, sticky: true });
    notify({ tone: 'info', text: 'passing' });
    expect(texts(ui)).toEqual(['storage 2', 'storage 3', 'storage 4', 'passing']);
  });

  it('shows the same message once, as the newest', () => {
    const ui = store();
    const { notify } = ui.getState();
    notify({ tone: 'info', text: 'a' });
    notify({ tone: 'info', text: 'b' });
    notify({ tone: 'info', text: 'a' });
    expect(texts(ui)).toEqual(['b', 'a']);
  });

  it('numbers each store\'s notices on their own: a second page starts at 1 again', () => {
    const first = store();
    first.getState().notify({ tone: 'info', text: 'x' });
    first.getState().notify({ tone: 'info', text: 'y' });
    const second = store();
    second.getState().notify({ tone: 'info', text: 'z' });
    expect(first.getState().notices.map((n) => n.id)).toEqual([1, 2]);
    expect(second.getState().notices.map((n) => n.id)).toEqual([1]);
  });
});
