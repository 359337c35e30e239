import { lazy, Suspense, useEffect } from 'react';
import type { PaneId } from '../state/ui.ts';
import { EditorPanel } from './EditorPanel.tsx';
import { TrafficPanel } from './TrafficPanel.tsx';
import { ChartsPanel } from './ChartsPanel.tsx';
import { InspectorPanel } from './InspectorPanel.tsx';
import { Header } from './Header.tsx';
import { Notices } from './Notices.tsx';
import { SkipLinks } from './SkipLinks.tsx';
import { TraceImport } from './import/TraceImport.tsx';
import { PanelBoundary } from './ErrorBoundary.tsx';
import { Workspace } from './layout/Workspace.tsx';
import { useGlobalShortcuts } from './shortcuts.ts';
import { useResults, useScenario, useUi } from './page.ts';

// Each boundary resets when its data changes; the subscriptions live here, not in App, so a new
// step does not re-render the editor.
function Traffic() {
  const scenario = useScenario((s) => s.scenario);
  return (
    <PanelBoundary name="traffic panel" resetKey={scenario}>
      <TrafficPanel />
    </PanelBoundary>
  );
}
function Charts() {
  const timeline = useResults((s) => s.timeline);
  return (
    <PanelBoundary name="timeline" resetKey={timeline}>
      <ChartsPanel />
    </PanelBoundary>
  );
}
function Inspector() {
  const detail = useResults((s) => s.detail);
  return (
    <PanelBoundary name="inspector" resetKey={detail}>
      <InspectorPanel />
    </PanelBoundary>
  );
}

// The guide is its own chunk (the guide's text with it), fetched when it is first opened.
const GuidePanel = lazy(async () => ({ default: (await import('./Guide.tsx')).GuidePanel }));
function Guide() {
  const open = useUi((s) => s.guide.open);
  return open ? (
    <PanelBoundary name="guide">
      <Suspense fallback={null}>
        <GuidePanel />
      </Suspense>
    </PanelBoundary>
  ) : null;
}

function renderPane(id: PaneId) {
  switch (id) {
    case 'timeline':
      return <Charts />;
    case 'inspector':
      return <Inspector />;
    case 'editor':
      return (
        <PanelBoundary name="editor">
          <EditorPanel />
        </PanelBoundary>
      );
    case 'traffic':
      return <Traffic />;
  }
}

/** Settings' theme choice, with "system" following the browser as it changes. */
function useThemeChoice(): void {
  const choice = useUi((s) => s.settings.theme);
  const theme = useUi((s) => s.theme);
  useEffect(() => {
    const media = window.matchMedia('(prefers-color-scheme: dark)');
    const apply = () => useUi.getState().setTheme(choice === 'system' ? (media.matches ? 'dark' : 'light') : choice);
    apply();
    media.addEventListener('change', apply);
    return () => media.removeEventListener('change', apply);
  }, [choice]);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
}

export function App() {
  useThemeChoice();
  useGlobalShortcuts();
  return (
    <div className="app">
      <SkipLinks />
      <Header />
      <div className="app-body">
        <Workspace render={renderPane} />
        <Guide />
      </div>
      <Notices />
      <TraceImport />
    </div>
  );
}
