// The app's stores, created once from whatever boot() decided to open.
import { boot } from './boot.ts';
import { AGENT_FILE, createScenarioStore } from './scenario.ts';
import { debounced, loadUi, saveScenario, saveUi } from './persist.ts';
import { useUi } from './ui.ts';

const opened = boot(window.location, window.history);

export const useScenario = createScenarioStore(opened.scenario);
export const bootNotices = opened.notices;

const savedUi = loadUi();
const prefersDark = window.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false;
useUi.setState({
  theme: savedUi.theme ?? (prefersDark ? 'dark' : 'light'),
  speed: savedUi.speed ?? useUi.getState().speed,
  selectedFile: savedUi.selectedFile && savedUi.selectedFile in opened.scenario.agent ? savedUi.selectedFile : AGENT_FILE,
});

const work = debounced(() => {
  const problem = saveScenario(useScenario.getState().scenario);
  if (problem) useUi.getState().notify({ tone: 'error', text: problem });
});
useScenario.subscribe((s, prev) => {
  if (s.revision !== prev.revision) work.schedule();
});

useUi.subscribe((s, prev) => {
  if (s.theme !== prev.theme || s.speed !== prev.speed || s.selectedFile !== prev.selectedFile) {
    saveUi({ theme: s.theme, speed: s.speed, selectedFile: s.selectedFile });
  }
});

window.addEventListener('pagehide', work.flush);
window.addEventListener('beforeunload', work.flush);
