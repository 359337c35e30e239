// Entry: zod without eval (the CSP forbids it), Monaco bundled, stores restored, engine started.
import './ui/zod-no-eval.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './ui/monaco/setup.ts';
import './ui/styles.css';
import { bootNotices } from './state/store.ts';
import { startEngine } from './state/engine.ts';
import { useUi } from './state/ui.ts';
import { restoreBackup } from './ui/backup.ts';
import { App } from './ui/App.tsx';

for (const notice of bootNotices) {
  useUi.getState().notify({
    tone: notice.tone, text: notice.text,
    action: notice.restoreBackup ? { label: 'Restore my work', run: restoreBackup } : undefined,
  });
}
startEngine();
createRoot(document.getElementById('root')!).render(<StrictMode><App /></StrictMode>);
