// Decides what the page opens with: a shared link, else the saved work, else the default example.
// A link that cannot be opened never touches the saved work.
import { ScenarioSchema, type Scenario } from '../engine/scenario.ts';
import { DEFAULT_EXAMPLE_ID, EXAMPLES, findExample } from '../scenarios/examples.ts';
import { decodeFragment } from '../share/index.ts';
import { copyWorkToBackup, loadScenario, saveScenario } from './persist.ts';

export interface BootNotice { tone: 'info' | 'error'; text: string; restoreBackup?: boolean }

export interface Boot {
  scenario: Scenario;
  /** Messages to show once the page is up. */
  notices: BootNotice[];
}

export function defaultScenario(): Scenario {
  const example = findExample(DEFAULT_EXAMPLE_ID) ?? EXAMPLES[0];
  return ScenarioSchema.parse(example.scenario);
}

/**
 * Reads a share link from the address bar (once: the fragment is removed, so a reload stays on
 * the user's possibly edited work). Opening it keeps the earlier work aside for "restore".
 */
export function openSharedLink(location: Location, history: History): { scenario?: Scenario; notice?: BootNotice } {
  if (location.hash.length <= 1) return {};
  const href = location.href;
  history.replaceState(null, '', location.pathname + location.search);
  const decoded = decodeFragment(href);
  if (!decoded.ok) return { notice: { tone: 'error', text: `${decoded.error} Your own work is unchanged.` } };
  const hadWork = loadScenario().scenario !== null;
  if (hadWork) copyWorkToBackup();
  saveScenario(decoded.scenario);
  return {
    scenario: decoded.scenario,
    notice: hadWork
      ? { tone: 'info', text: `Opened the shared scenario "${decoded.scenario.name}". Your previous work was kept aside.`, restoreBackup: true }
      : { tone: 'info', text: `Opened the shared scenario "${decoded.scenario.name}".` },
  };
}

export function boot(location: Location, history: History): Boot {
  const saved = loadScenario();
  const notices: BootNotice[] = [];
  if ('problem' in saved && saved.problem) notices.push({ tone: 'error', text: saved.problem });
  const shared = openSharedLink(location, history);
  if (shared.notice) notices.push(shared.notice);
  return { scenario: shared.scenario ?? saved.scenario ?? defaultScenario(), notices };
}
