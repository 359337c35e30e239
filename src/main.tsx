// Entry: zod without eval (the CSP forbids it), then the page in steps, each evaluated in a task of
// its own so that none is long: React (this module); zod's schema classes (scenario.ts); the share
// link's codec (fflate's tables, the generators' parameters); the page's session (start.ts, which
// makes it over the workers, opens the library and the scenario the address asks for, and asks for
// its first replay); then the page's components. vite.config.ts preloads the later steps' files
// with this one. Monaco loads with the editor. `?embed` draws the read-only embed view of the link
// instead, without the library.
import './ui/zod-no-eval.ts';
import { StrictMode, startTransition, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import './ui/styles.css';
import { isEmbed } from './ui/embed.ts';
import { nextTask } from './ui/tasks.ts';

// The first draw is a transition, so React renders it in slices between which the browser can
// paint and the engine's answer can land, instead of one long task.
function draw(page: ReactNode): void {
  const root = createRoot(document.getElementById('root')!);
  startTransition(() => root.render(<StrictMode>{page}</StrictMode>));
}

/**
 * Evaluates start.ts and what it imports a part per task: zod's schema classes (with scenario.ts,
 * whose schemas are built on first use), the share link's codec, then the rest.
 */
async function importStart(): Promise<typeof import('./start.ts')> {
  for (const part of [() => import('./engine/scenario.ts'), () => import('./share/index.ts')]) {
    await part();
    await nextTask();
  }
  return import('./start.ts');
}

async function startPlayground(): Promise<void> {
  const start = await importStart();
  await start.startPlayground();
  await nextTask();
  const { App } = await import('./ui/App.tsx');
  draw(<App />);
}

async function startEmbed(): Promise<void> {
  const start = await importStart();
  const problem = start.startEmbed();
  await nextTask();
  const { EmbedView } = await import('./ui/EmbedView.tsx');
  draw(<EmbedView problem={problem} />);
}

void (isEmbed(window.location) ? startEmbed() : startPlayground());
