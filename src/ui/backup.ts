// A copy outside the browser: the scenario as a JSON file (the format `lev replay` reads). Offered
// wherever the browser will not keep the work (storage refused, a link too long to share).
import { useScenario } from '../state/store.ts';
import { useUi } from '../state/ui.ts';
import { exportFile } from './exportFile.ts';

/** Saves the scenario as a file Import (and `lev`) read back, or says why it cannot (exportFile.ts). */
export function exportScenario(): void {
  const file = exportFile(useScenario.getState().scenario);
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
