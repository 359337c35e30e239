// A copy outside the browser: the scenario as a JSON file (the format `lev replay` reads). Offered
// wherever the browser will not keep the work (storage refused, a link too long to share).
import type { Scenario } from '../engine/scenario.ts';
import { useScenario } from './page.ts';

/** Downloads `scenario` as `<name>.json`. */
export function downloadScenario(scenario: Scenario): void {
  const blob = new Blob([`${JSON.stringify(scenario, null, 2)}\n`], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = `${(scenario.name || 'scenario').replace(/[^\w.-]+/g, '-')}.json`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The Export buttons: the scenario on screen as a file. */
export function exportScenario(): void {
  downloadScenario(useScenario.getState().scenario);
}
