// What the page does before its first draw, in the order main.tsx needs it: the library opened and
// the scenario the address asks for loaded, then the engine started. main.tsx imports this module
// on its own so that evaluating it (zod's schemas, the state, the engine client) is a task of its
// own, apart from React's and the page's components'.
import { decodeFragment } from './share/index.ts';
import { openStorage } from './state/storage.ts';
import { attachLibrary, startSession } from './state/session.ts';
import { startEngine } from './state/engine.ts';
import { useScenario } from './state/store.ts';
import { exportScenario } from './ui/backup.ts';

export async function startPlayground(): Promise<void> {
  attachLibrary(await openStorage(), exportScenario);
  await startSession();
  startEngine();
}

/** Loads the link of an embed view; its problem, when it is not a scenario, is what the view shows. */
export function startEmbed(): string | null {
  const decoded = decodeFragment(window.location.href);
  if (!decoded.ok) return decoded.error;
  useScenario.getState().load(decoded.scenario);
  startEngine();
  return null;
}
