// Entry: zod without eval (the CSP forbids it), Monaco bundled, stores restored, engine started.
import './ui/zod-no-eval.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './ui/monaco/setup.ts';
import './ui/styles.css';
import { bootNotices, useScenario } from './state/store.ts';
import { openSharedLink, type BootNotice } from './state/boot.ts';
import { startEngine } from './state/engine.ts';
import { useUi } from './state/ui.ts';
import { restoreBackup } from './ui/backup.ts';
import { App } from './ui/App.tsx';

function show(notice: BootNotice): void {
  useUi.getState().notify({
    tone: notice.tone, text: notice.text,
    action: notice.restoreBackup ? { label: 'Restore my work', run: restoreBackup } : undefined,
  });
}

bootNotices.forEach(show);
// A link pasted into the address bar of an open playground changes only the fragment.
window.addEventListener('hashchange', () => {
  const shared = openSharedLink(window.location, window.history);
  if (shared.scenario) {
    useScenario.getState().load(shared.scenario);
    useUi.getState().setStep(0);
  }
  if (shared.notice) show(shared.notice);
});
startEngine();
createRoot(document.getElementById('root')!).render(<StrictMode><App /></StrictMode>);
