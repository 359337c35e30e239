// Notices: an Undo or a warning stays until dismissed, even when later notices crowd the stack.
import { beforeEach, describe, expect, it } from 'vitest';
import { useUi } from '../../src/state/ui.ts';

const texts = () => useUi.getState().notices.map((n) => n.text);

describe('notices', () => {
  beforeEach(() => useUi.setState({ notices: [] }));

  it('keeps at most four, dropping passing information before an older Undo', () => {
    const { notify } = useUi.getState();
    notify({ tone: 'info', text: 'Opened A. Your work "mine" is saved in Scenarios.', sticky: true, action: { label: 'Undo', run: () => {} } });
    for (const n of [1, 2, 3, 4]) notify({ tone: 'info', text: `passing ${n}` });
    expect(texts()).toEqual(['Opened A. Your work "mine" is saved in Scenarios.', 'passing 2', 'passing 3', 'passing 4']);
  });

  it('drops the oldest when every notice must stay, and never the one just added', () => {
    const { notify } = useUi.getState();
    for (const n of [1, 2, 3, 4]) notify({ tone: 'error', text: `storage ${n}`, sticky: true });
    notify({ tone: 'info', text: 'passing' });
    expect(texts()).toEqual(['storage 2', 'storage 3', 'storage 4', 'passing']);
  });

  it('shows the same message once, as the newest', () => {
    const { notify } = useUi.getState();
    notify({ tone: 'info', text: 'a' });
    notify({ tone: 'info', text: 'b' });
    notify({ tone: 'info', text: 'a' });
    expect(texts()).toEqual(['b', 'a']);
  });
});
