// The scenario store: an edit is counted (the session saves and replays it); opening another
// scenario and the editor handing back the text it was given are not edits.
import { describe, expect, it } from 'vitest';
import { AGENT_FILE, blankScenario, createScenarioStore, defaultScenario } from '../../src/state/scenario.ts';

describe('the scenario store', () => {
  it('counts a changed file as an edit, and the editor handing back the text it was given as none', () => {
    const store = createScenarioStore(defaultScenario());
    const text = store.getState().scenario.agent[AGENT_FILE]!;
    store.getState().setFile(AGENT_FILE, text);
    expect(store.getState().edits).toBe(0);
    store.getState().setFile(AGENT_FILE, `${text}\n# a note\n`);
    expect(store.getState().edits).toBe(1);
    expect(store.getState().scenario.agent[AGENT_FILE]).toBe(`${text}\n# a note\n`);
  });

  it('puts an opened scenario on screen without counting an edit', () => {
    const store = createScenarioStore(defaultScenario());
    store.getState().setTask('edited');
    const blank = blankScenario();
    store.getState().load(blank);
    expect(store.getState().scenario).toBe(blank);
    expect(store.getState().edits).toBe(1);
  });
});
