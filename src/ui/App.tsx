import { useEffect } from 'react';
import { useUi } from '../state/ui.ts';
import { EditorPanel } from './EditorPanel.tsx';
import { TrafficPanel } from './TrafficPanel.tsx';
import { ChartsPanel } from './ChartsPanel.tsx';
import { InspectorPanel } from './InspectorPanel.tsx';
import { Header } from './Header.tsx';
import { Notices } from './Notices.tsx';

export function App() {
  const theme = useUi((s) => s.theme);
  useEffect(() => { document.documentElement.dataset.theme = theme; }, [theme]);
  return (
    <div className="app">
      <Header />
      <main className="workspace">
        <EditorPanel />
        <TrafficPanel />
        <ChartsPanel />
      </main>
      <div className="bottom"><InspectorPanel /></div>
      <Notices />
    </div>
  );
}
