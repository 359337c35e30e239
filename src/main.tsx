// Entry: zod without eval (the CSP forbids it), the library opened and the scenario the address
// asks for loaded before the first draw, then the engine started. Monaco loads with the editor.
// `?embed` draws the read-only embed view of the link instead, without the library.
import './ui/zod-no-eval.ts';
import { StrictMode, startTransition, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import './ui/styles.css';
import { decodeFragment } from './share/index.ts';
import { openStorage } from './state/storage.ts';
import { attachLibrary, startSession } from './state/session.ts';
import { startEngine } from './state/engine.ts';
import { useScenario } from './state/store.ts';
import { exportScenario } from './ui/backup.ts';
import { isEmbed } from './ui/embed.ts';
import { EmbedView } from './ui/EmbedView.tsx';
import { App } from './ui/App.tsx';

// The first draw is a transition, so React renders it in slices between which the browser can
// paint and the engine's answer can land, instead of one long task.
function draw(page: ReactNode): void {
  const root = createRoot(document.getElementById('root')!);
  startTransition(() => root.render(<StrictMode>{page}</StrictMode>));
}

async function startPlayground(): Promise<void> {
  attachLibrary(await openStorage(), exportScenario);
  await startSession();
  startEngine();
  draw(<App />);
}

function startEmbed(): void {
  const decoded = decodeFragment(window.location.href);
  if (!decoded.ok) {
    draw(<EmbedView problem={decoded.error} />);
    return;
  }
  useScenario.getState().load(decoded.scenario);
  startEngine();
  draw(<EmbedView problem={null} />);
}

if (isEmbed(window.location)) startEmbed();
else void startPlayground();
