// "Undo" after opening an example or a shared link: the work from before comes back.
import { BACKUP_KEY, loadScenario } from '../state/persist.ts';
import { useScenario } from '../state/store.ts';
import { useUi } from '../state/ui.ts';

export function restoreBackup(): void {
  const backup = loadScenario(BACKUP_KEY);
  if (!backup.scenario) {
    useUi.getState().notify({ tone: 'error', text: 'There is no earlier work to restore.' });
    return;
  }
  useScenario.getState().load(backup.scenario);
  useUi.getState().setStep(0);
  useUi.getState().notify({ tone: 'info', text: 'Your earlier work is back.' });
}
