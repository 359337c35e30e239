// The bar across the top: examples, share, import/export, the guide and the theme.
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { invalidUtf8Warning } from '../import/utf8.ts';
import type { ScenarioFileResult } from '../worker/trace-protocol.ts';
import { exportScenario } from './backup.ts';
import { EditedMark } from './EditedMark.tsx';
import { importAnyFile, setScenarioOpener } from './import/TraceImport.tsx';
import { page, useAdvisor, useScenario, useUi } from './page.ts';

// The Advise panel (with its diff library) is fetched when it is first opened.
const AdvisePanel = lazy(() => import('./AdvisePanel.tsx'));
// So is each dialog: none is needed before the charts show, and the first load's code stays under
// its goal (e2e/page.spec.ts).
const ScenariosMenu = lazy(() => import('./ScenariosMenu.tsx'));
const ExamplesGallery = lazy(() => import('./ExamplesGallery.tsx'));
const ShareDialog = lazy(() => import('./ShareDialog.tsx'));
const SettingsDialog = lazy(() => import('./SettingsDialog.tsx'));
const KeysSheet = lazy(() => import('./KeysSheet.tsx'));

/** A scenario file the import worker read and checked (within the limit Export writes to): opened, or why not. */
async function importScenario(file: File, result: ScenarioFileResult): Promise<void> {
  const { notify } = useUi.getState();
  if (!result.ok) {
    notify({ tone: 'error', text: result.message });
    return;
  }
  await page().openImported(result.scenario, file.name);
  if (result.invalidUtf8At !== undefined) {
    notify({ tone: 'error', text: invalidUtf8Warning(file.name, result.invalidUtf8At) });
  }
}

setScenarioOpener((file, result) => void importScenario(file, result));

/** The scenario's name, renamed in place (it is what a share link and an export are called). */
function ScenarioName({ name }: { name: string }) {
  const [draft, setDraft] = useState<string | null>(null);
  const commit = () => {
    const next = draft?.trim();
    if (next && next !== name) useScenario.getState().setName(next);
    setDraft(null);
  };
  return (
    <input
      className="scenario-name mono"
      aria-label="Scenario name"
      data-testid="scenario-name"
      title="Rename this scenario"
      value={draft ?? name}
      size={Math.min(40, Math.max(8, (draft ?? name).length + 1))}
      onChange={(e) => setDraft(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter') e.currentTarget.blur();
        if (e.key === 'Escape') {
          setDraft(null);
          e.currentTarget.blur();
        }
      }}
    />
  );
}

export function Header() {
  const [dialog, setDialog] = useState<'scenarios' | 'examples' | 'share' | 'settings' | null>(null);
  const theme = useUi((s) => s.theme);
  const setSettings = useUi((s) => s.setSettings);
  const keysOpen = useUi((s) => s.keysOpen);
  const adviseOpen = useAdvisor((s) => s.open);
  const name = useScenario((s) => s.scenario.name);
  const guideOpen = useUi((s) => s.guide.open);
  const fileInput = useRef<HTMLInputElement>(null);
  const close = () => setDialog(null);
  // A `#guide/<section>` link opens the Guide panel at its section (opened afresh, so it scrolls there).
  const guideSection = useUi((s) => s.guideSection);
  useEffect(() => {
    if (guideSection === null) return;
    const ui = useUi.getState();
    ui.setGuideSection(null);
    ui.setGuide({ open: false });
    // Not cancelled when the section is cleared just above: that clearing re-runs this effect.
    requestAnimationFrame(() => useUi.getState().setGuide({ open: true, section: `guide-${guideSection}` }));
  }, [guideSection]);

  return (
    <header className="header">
      <h1>Leviath Playground</h1>
      <ScenarioName name={name} />
      <EditedMark />
      {/* The tagline shows whole, or in its short form, or not at all: never cut mid-word (styles.css). */}
      <span className="tagline-box">
        <span className="tagline" data-form="long">
          Design an agent's context window as regions; replay tool traffic through it.
        </span>
        <span className="tagline" data-form="short">
          Design an agent's context window.
        </span>
      </span>
      <span className="spacer" />
      <button onClick={() => setDialog('scenarios')} data-testid="open-scenarios">
        Scenarios
      </button>
      <button onClick={() => setDialog('examples')} data-testid="open-examples">
        Examples
      </button>
      <button onClick={() => setDialog('share')} data-testid="open-share">
        Share
      </button>
      <button
        onClick={() => page().advisor.show(!adviseOpen)}
        data-testid="open-advise"
        aria-expanded={adviseOpen}
        title="Search for blueprints that beat this one on input cost, peak request and entries read again, over this scenario's own traffic"
      >
        Advise
      </button>
      <button
        onClick={() => fileInput.current?.click()}
        title="Open a scenario JSON file, or an agent's real run in any format the import reads (Claude Code, Codex, Gemini CLI, Cline, SWE-agent (.traj), mini-swe-agent, OpenHands, claude-trace, API bodies)"
      >
        Import
      </button>
      <button onClick={exportScenario} title="Save this scenario as JSON (lev replay reads it)">
        Export
      </button>
      <button
        onClick={() => useUi.getState().setGuide({ open: !useUi.getState().guide.open })}
        data-testid="open-guide"
        aria-expanded={guideOpen}
      >
        Guide
      </button>
      <button
        onClick={() => setDialog('settings')}
        data-testid="open-settings"
        title="Editor font, word wrap, minimap, keybindings (vim, emacs), theme"
      >
        Settings
      </button>
      <button
        onClick={() => useUi.getState().setKeysOpen(true)}
        aria-label="Keyboard shortcuts"
        title="Keyboard shortcuts (?)"
      >
        ?
      </button>
      <button
        onClick={() => setSettings({ theme: theme === 'dark' ? 'light' : 'dark' })}
        aria-label="Toggle dark mode"
        title="Light / dark"
      >
        {theme === 'dark' ? '☀' : '☾'}
      </button>
      <input
        ref={fileInput}
        type="file"
        hidden
        data-testid="import-file"
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) importAnyFile(file);
        }}
      />
      {/* A boundary each: one arriving never hides another that is open. */}
      <Suspense fallback={null}>{dialog === 'scenarios' && <ScenariosMenu onClose={close} />}</Suspense>
      <Suspense fallback={null}>{dialog === 'examples' && <ExamplesGallery onClose={close} />}</Suspense>
      <Suspense fallback={null}>{dialog === 'share' && <ShareDialog onClose={close} />}</Suspense>
      <Suspense fallback={null}>{dialog === 'settings' && <SettingsDialog onClose={close} />}</Suspense>
      <Suspense fallback={null}>{adviseOpen && <AdvisePanel />}</Suspense>
      <Suspense fallback={null}>
        {keysOpen && <KeysSheet onClose={() => useUi.getState().setKeysOpen(false)} />}
      </Suspense>
    </header>
  );
}
