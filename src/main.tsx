// Entry: zod without eval (the CSP forbids it), Monaco bundled, the library opened and the
// scenario the address asks for loaded before the first draw, then the engine started.
import './ui/zod-no-eval.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './ui/monaco/setup.ts';
import './ui/styles.css';
import { openStorage } from './state/storage.ts';
import { attachLibrary, startSession } from './state/session.ts';
import { startEngine } from './state/engine.ts';
import { exportScenario } from './ui/backup.ts';
import { App } from './ui/App.tsx';

async function start(): Promise<void> {
  attachLibrary(await openStorage(), exportScenario);
  await startSession();
  startEngine();
  createRoot(document.getElementById('root')!).render(<StrictMode><App /></StrictMode>);
}

void start();
