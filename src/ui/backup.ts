// A copy outside the browser: the scenario as a JSON file (the format `lev replay` reads). Offered
// wherever the browser will not keep the work (storage refused, a link too long to share).
import type { Scenario } from '../engine/page.ts';
import { exportFile } from './exportFile.ts';
import { useScenario, useUi } from './page.ts';

/** Saves `scenario` as a file Import (and `lev`) read back, or says why it cannot (exportFile.ts). */
export function downloadScenario(scenario: Scenario): void {
  const file = exportFile(scenario);
  if (!file.ok) {
    useUi.getState().notify({ tone: 'error', sticky: true, text: file.message });
    return;
  }
  const blob = new Blob([file.text], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = file.name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The Export buttons: the scenario on screen as a file. */
export function exportScenario(): void {
  downloadScenario(useScenario.getState().scenario);
}
