// The scenario on screen: the user's work. A PageSession owns one store of it, saves every edit to
// the library and replays it (page-session.ts).
import { createStore, type StoreApi } from 'zustand';
import {
  DEFAULT_SCENARIO_NAME,
  SCENARIO_VERSION,
  ScenarioSchema,
  type GeneratorSpec,
  type ModelRef,
  type Scenario,
  type TrafficEvent,
  DEFAULT_MODEL_ID,
  nameTable,
} from '../engine/page.ts';
import { DEFAULT_EXAMPLE_ID, findExample } from '../scenarios/examples.ts';

export const AGENT_FILE = 'agent.leviath';

export interface ScenarioStore {
  scenario: Scenario;
  /** How many edits the person has made since the page started: a change is an edit to save and replay. Opening a scenario is not an edit. */
  edits: number;
  /** Puts another scenario on screen (an open, not an edit). */
  load: (scenario: Scenario) => void;
  setFile: (path: string, text: string) => void;
  addFile: (path: string, text?: string) => string | null;
  renameFile: (from: string, to: string) => string | null;
  deleteFile: (path: string) => void;
  setModel: (model: ModelRef) => void;
  setGenerator: (generator: GeneratorSpec | undefined) => void;
  setTask: (task: string) => void;
  addEvent: (event: TrafficEvent, at?: number) => void;
  updateEvent: (index: number, event: TrafficEvent) => void;
  deleteEvent: (index: number) => void;
  moveEvent: (index: number, delta: number) => void;
  setName: (name: string) => void;
}

/** Why a path cannot be an agent file, or null when it can. */
export function checkAgentPath(path: string, existing: Record<string, string>): string | null {
  if (!path.trim()) return 'Give the file a name, e.g. context_hooks/brain.rhai.';
  if (path.startsWith('/') || path.split('/').some((p) => p === '..' || p === '.' || p === '')) {
    return 'Use a relative path inside the agent directory (no leading /, no . or .. parts).';
  }
  if (Object.hasOwn(existing, path)) return `${path} already exists.`;
  return null;
}

function edit(set: (fn: (s: ScenarioStore) => Partial<ScenarioStore>) => void, change: (s: Scenario) => Scenario) {
  set((s) => ({ scenario: change(s.scenario), edits: s.edits + 1 }));
}

export function createScenarioStore(initial: Scenario): StoreApi<ScenarioStore> {
  return createStore<ScenarioStore>()((set, get) => ({
    scenario: initial,
    edits: 0,
    load: (scenario) => set({ scenario }),
    // The editor reports the text it was given (a loaded file applied as an edit): not an edit.
    setFile: (path, text) => {
      if (get().scenario.agent[path] === text) return;
      edit(set, (s) => ({ ...s, agent: { ...s.agent, [path]: text } }));
    },
    addFile: (path, text = '') => {
      const problem = checkAgentPath(path, get().scenario.agent);
      if (problem) return problem;
      edit(set, (s) => ({ ...s, agent: { ...s.agent, [path]: text } }));
      return null;
    },
    renameFile: (from, to) => {
      if (from === AGENT_FILE) return `${AGENT_FILE} is the blueprint and keeps its name.`;
      const problem = checkAgentPath(to, get().scenario.agent);
      if (problem) return problem;
      edit(set, (s) => ({
        ...s,
        agent: Object.fromEntries(Object.entries(s.agent).map(([k, v]) => [k === from ? to : k, v])),
      }));
      return null;
    },
    deleteFile: (path) => {
      if (path === AGENT_FILE) return;
      edit(set, (s) => {
        const agent = { ...s.agent };
        delete agent[path];
        return { ...s, agent };
      });
    },
    setModel: (model) => edit(set, (s) => ({ ...s, model })),
    setGenerator: (generator) => edit(set, (s) => ({ ...s, generator })),
    setTask: (task) => edit(set, (s) => ({ ...s, inputs: { ...s.inputs, task } })),
    addEvent: (event, at) =>
      edit(set, (s) => {
        const traffic = [...s.traffic];
        traffic.splice(at ?? traffic.length, 0, event);
        return { ...s, traffic };
      }),
    updateEvent: (index, event) =>
      edit(set, (s) => ({ ...s, traffic: s.traffic.map((e, i) => (i === index ? event : e)) })),
    deleteEvent: (index) => edit(set, (s) => ({ ...s, traffic: s.traffic.filter((_, i) => i !== index) })),
    moveEvent: (index, delta) =>
      edit(set, (s) => {
        const to = index + delta;
        if (to < 0 || to >= s.traffic.length) return s;
        const traffic = [...s.traffic];
        const [moved] = traffic.splice(index, 1);
        if (moved === undefined) return s;
        traffic.splice(to, 0, moved);
        return { ...s, traffic };
      }),
    setName: (name) => edit(set, (s) => ({ ...s, name })),
  }));
}

/** A built-in example's content, as a scenario. */
export function exampleContent(id: string): Scenario | undefined {
  const example = findExample(id);
  return example && ScenarioSchema.parse(example.scenario);
}

/**
 * The scenario store's value until the page opens one, which it does before anything is drawn.
 * Written out rather than parsed: the first parse builds zod's schemas, which the page's start does
 * in a task of its own (PageSession.start), not while its modules load.
 */
export function placeholderScenario(): Scenario {
  return {
    version: SCENARIO_VERSION,
    name: DEFAULT_SCENARIO_NAME,
    model: { id: DEFAULT_MODEL_ID },
    agent: nameTable([[AGENT_FILE, '']]),
    workdir: nameTable(),
    commands: nameTable(),
    inputs: nameTable(),
    traffic: [],
  };
}

export function defaultScenario(): Scenario {
  const content = exampleContent(DEFAULT_EXAMPLE_ID);
  if (!content) throw new Error(`The default example "${DEFAULT_EXAMPLE_ID}" is not among the examples`);
  return content;
}

const BLANK_BLUEPRINT = `# A blank blueprint: a pinned task and a sliding conversation. Add regions under [context.regions].
[context.regions]
task = { kind = "pinned", budget = "10%", seed = "task_input" }
conversation = { kind = "sliding_window", budget = "60%", max_items = 30 }
`;

/** What "New blank" opens: the smallest blueprint that shows something, over a short chat. */
export function blankScenario(): Scenario {
  return ScenarioSchema.parse({
    version: 1,
    name: 'untitled',
    model: { id: 'gpt-4o' },
    agent: { [AGENT_FILE]: BLANK_BLUEPRINT },
    inputs: { task: 'Describe the task here.' },
    generator: { kind: 'long-chat', steps: 100 },
  });
}
