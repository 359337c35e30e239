// Decides what the page opens with: a shared link, else the saved work, else the default example.
// A link that cannot be opened never touches the saved work.
import { ScenarioSchema, type Scenario } from '../engine/scenario.ts';
import { DEFAULT_EXAMPLE_ID, EXAMPLES } from '../scenarios/examples.ts';
import { decodeFragment } from '../share/index.ts';
import { copyWorkToBackup, loadScenario, saveScenario } from './persist.ts';

export interface Boot {
  scenario: Scenario;
  /** Messages to show once the page is up. */
  notices: { tone: 'info' | 'error'; text: string; restoreBackup?: boolean }[];
}

export function defaultScenario(): Scenario {
  const example = EXAMPLES.find((e) => e.id === DEFAULT_EXAMPLE_ID) ?? EXAMPLES[0];
  return ScenarioSchema.parse(example.scenario);
}

export function boot(location: Location, history: History): Boot {
  const saved = loadScenario();
  const notices: Boot['notices'] = [];
  if ('problem' in saved && saved.problem) notices.push({ tone: 'error', text: saved.problem });
  const fallback = saved.scenario ?? defaultScenario();

  if (location.hash.length <= 1) return { scenario: fallback, notices };

  // The fragment is read once; removing it keeps a reload on the user's (possibly edited) work.
  const href = location.href;
  history.replaceState(null, '', location.pathname + location.search);
  const decoded = decodeFragment(href);
  if (!decoded.ok) {
    notices.push({
      tone: 'error',
      text: `This share link could not be opened: ${decoded.error} Your own work is unchanged.`,
    });
    return { scenario: fallback, notices };
  }
  if (saved.scenario) {
    copyWorkToBackup();
    notices.push({ tone: 'info', text: `Opened the shared scenario "${decoded.scenario.name}". Your previous work was kept aside.`, restoreBackup: true });
  } else {
    notices.push({ tone: 'info', text: `Opened the shared scenario "${decoded.scenario.name}".` });
  }
  saveScenario(decoded.scenario);
  return { scenario: decoded.scenario, notices };
}
