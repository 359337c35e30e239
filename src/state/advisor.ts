// The Advise button's session: the engine's advisor (advise()) run in a worker over the scenario on
// screen, its progress through both phases (the search, then simplifying the front), Cancel, and
// applying a chosen proposal. A proposal is applied as an ordinary edit of agent.leviath: the same
// setFile that typing calls, so it is saved, written to the address and replayed as every edit is,
// and the editor takes the new text as one undoable edit (Ctrl+Z brings the old text back).
import { createStore, type StoreApi } from 'zustand';
import type { Advice, Scenario } from '../engine/page.ts';
import { CancelledError, type WorkerClient } from '../worker/client.ts';
import { AGENT_FILE, type ScenarioStore } from './scenario.ts';
import type { UiStore } from './ui.ts';

/** The advisor's search may run longer than a replay: on the 500-call session, 10 s of CPU. */
export const ADVISE_TIME_LIMIT_MS = 120_000;

export type AdvisorStatus =
  | { kind: 'idle' }
  | { kind: 'running'; phase: 'search' | 'front'; done: number; total: number; front: number }
  | { kind: 'done' }
  | { kind: 'cancelled' }
  | { kind: 'failed'; message: string };

export interface AdvisorStore {
  /** Whether the panel is open. */
  open: boolean;
  status: AdvisorStatus;
  advice: Advice | null;
  /** The agent.leviath the advice was made for: applying is offered only while it (or one of the proposals) is the one on screen. */
  adviceFor: string | null;
}

export interface AdvisorOptions {
  /** A worker running the engine's handlers (its own lane, so a replay never waits behind the search). */
  client: WorkerClient;
  scenario: StoreApi<ScenarioStore>;
  ui: StoreApi<UiStore>;
}

const KEY = 'advise';

/** See Advisor.applicable: the panel asks the same of the text it renders. */
export function isApplicable(
  { advice, adviceFor }: Pick<AdvisorStore, 'advice' | 'adviceFor'>,
  text: string | undefined,
): boolean {
  if (advice === null || adviceFor === null || text === undefined) return false;
  return text === adviceFor || advice.front.some((p) => p.toml === text);
}

export class Advisor {
  readonly store: StoreApi<AdvisorStore> = createStore<AdvisorStore>()(() => ({
    open: false,
    status: { kind: 'idle' },
    advice: null,
    adviceFor: null,
  }));

  constructor(private readonly options: AdvisorOptions) {}

  show(open: boolean): void {
    this.store.setState({ open });
  }

  /** Runs the advisor on the scenario on screen; a run already going is cancelled first. */
  run(candidates?: number): void {
    const scenario: Scenario = this.options.scenario.getState().scenario;
    const text = scenario.agent[AGENT_FILE] ?? null;
    this.store.setState({
      open: true,
      status: { kind: 'running', phase: 'search', done: 0, total: candidates ?? 0, front: 0 },
      advice: null,
      adviceFor: text,
    });
    this.options.client
      .request(
        'advise',
        { scenario, ...(candidates ? { candidates } : {}) },
        {
          key: KEY,
          timeLimitMs: ADVISE_TIME_LIMIT_MS,
          onProgress: (done, total, phase) =>
            this.store.setState((s) =>
              s.status.kind === 'running'
                ? {
                    status: {
                      kind: 'running',
                      phase: phase?.phase ?? s.status.phase,
                      done,
                      total,
                      front: phase?.front ?? s.status.front,
                    },
                  }
                : s,
            ),
        },
      )
      .then((advice) => this.store.setState({ advice, status: { kind: 'done' } }))
      .catch((error: unknown) => {
        if (error instanceof CancelledError) return;
        this.store.setState({
          status: { kind: 'failed', message: error instanceof Error ? error.message : String(error) },
        });
      });
  }

  /** Stops the search; the page keeps what it had before it started. */
  cancel(): void {
    if (this.store.getState().status.kind !== 'running') return;
    this.options.client.cancel(KEY);
    this.store.setState({ status: { kind: 'cancelled' } });
  }

  /**
   * Whether the proposals can be applied to the text on screen: it is the text the advice was made
   * for, or one of the proposals (applying another swaps one for the other). Each proposal is that
   * text plus its edits, so applying it over other edits would undo them.
   */
  applicable(): boolean {
    return isApplicable(this.store.getState(), this.options.scenario.getState().scenario.agent[AGENT_FILE]);
  }

  /** Applies proposal `index` as an edit of agent.leviath (undoable in the editor), which replays it. */
  apply(index: number): boolean {
    const proposal = this.store.getState().advice?.front[index];
    if (!proposal || !this.applicable()) return false;
    this.options.ui.getState().selectFile(AGENT_FILE);
    this.options.scenario.getState().setFile(AGENT_FILE, proposal.toml);
    return true;
  }
}
