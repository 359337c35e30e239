// The scenario store: an edit bumps the revision (which the library saves and the engine replays).
import { describe, expect, it } from 'vitest';
import { AGENT_FILE, createScenarioStore, defaultScenario } from '../../src/state/scenario.ts';

describe('the scenario store', () => {
  it('counts a changed file as an edit, and the editor handing back the text it was given as none', () => {
    const store = createScenarioStore(defaultScenario());
    const text = store.getState().scenario.agent[AGENT_FILE]!;
    store.getState().setFile(AGENT_FILE, text);
    expect(store.getState().revision).toBe(0);
    store.getState().setFile(AGENT_FILE, `${text}\n# a note\n`);
    expect(store.getState().revision).toBe(1);
    expect(store.getState().scenario.agent[AGENT_FILE]).toBe(`${text}\n# a note\n`);
  });
});
