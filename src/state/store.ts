// The app's stores. The scenario store starts on a placeholder; startSession (session.ts) then
// opens what the page was asked for before anything is drawn.
import { AGENT_FILE, createScenarioStore, placeholderScenario } from './scenario.ts';
import { loadUi, saveUi } from './persist.ts';
import { useUi } from './ui.ts';

export const useScenario = createScenarioStore(placeholderScenario());

const savedUi = loadUi();
const prefersDark = window.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false;
useUi.setState({
  theme: savedUi.theme ?? (prefersDark ? 'dark' : 'light'),
  speed: savedUi.speed ?? useUi.getState().speed,
  selectedFile: savedUi.selectedFile ?? AGENT_FILE,
});

useUi.subscribe((s, prev) => {
  if (s.theme !== prev.theme || s.speed !== prev.speed || s.selectedFile !== prev.selectedFile) {
    saveUi({ theme: s.theme, speed: s.speed, selectedFile: s.selectedFile });
  }
});
