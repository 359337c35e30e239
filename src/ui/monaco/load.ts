// Monaco is built as one chunk per layer (vite.config.ts): imported at once, its ~3.5 MB would be
// evaluated in one long task. Imported lowest layer first with a task boundary after each, every
// chunk is evaluated in a task of its own and the page stays responsive while the editor arrives.
// Each step imports a file of ./layers, which only imports its layer: a dynamic import of a Monaco
// module itself would make Rolldown split its runtime helpers into a chunk the first load fetches.
import { nextTask } from '../tasks.ts';

const STEPS = [
  () => import('./layers/base-common.ts'),
  () => import('./layers/base-browser.ts'),
  () => import('./layers/platform.ts'),
  () => import('./layers/editor-common.ts'),
  () => import('./layers/editor-browser.ts'),
  () => import('./layers/contrib.ts'),
  () => import('./layers/standalone.ts'),
  // Registering the languages creates Monaco's theme service (building its CSS): a task of its own.
  () => import('./setup.ts'),
];

/** Evaluates Monaco and the page's languages in it, one task per step. */
export async function loadMonaco(): Promise<void> {
  for (const step of STEPS) {
    await step();
    await nextTask();
  }
}
