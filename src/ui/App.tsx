import { useEffect } from 'react';
import { useUi } from '../state/ui.ts';
import { EditorPanel } from './EditorPanel.tsx';
import { TrafficPanel } from './TrafficPanel.tsx';
import { ChartsPanel } from './ChartsPanel.tsx';
import { InspectorPanel } from './InspectorPanel.tsx';
import { Header } from './Header.tsx';
import { Notices } from './Notices.tsx';
import { TraceImport } from './import/TraceImport.tsx';
import { PanelBoundary } from './ErrorBoundary.tsx';
import { useScenario } from '../state/store.ts';
import { useResults } from '../state/results.ts';

// Each boundary resets when its data changes; the subscriptions live here, not in App, so a new
// step does not re-render the editor.
function Traffic() {
  const revision = useScenario((s) => s.revision);
  return <PanelBoundary name="traffic panel" resetKey={revision}><TrafficPanel /></PanelBoundary>;
}
function Charts() {
  const timeline = useResults((s) => s.timeline);
  return <PanelBoundary name="timeline" resetKey={timeline}><ChartsPanel /></PanelBoundary>;
}
function Inspector() {
  const detail = useResults((s) => s.detail);
  return <PanelBoundary name="inspector" resetKey={detail}><InspectorPanel /></PanelBoundary>;
}

export function App() {
  const theme = useUi((s) => s.theme);

  useEffect(() => { document.documentElement.dataset.theme = theme; }, [theme]);
  return (
    <div className="app">
      <Header />
      <main className="workspace">
        <PanelBoundary name="editor"><EditorPanel /></PanelBoundary>
        <Traffic />
        <Charts />
      </main>
      <div className="bottom"><Inspector /></div>
      <Notices />
      <TraceImport />
    </div>
  );
}
