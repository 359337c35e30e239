// The embed view: the timeline and the replay controls of a shared scenario, read-only, with a
// link to open it in the full playground. It never touches the user's library.
import { useEffect } from 'react';
import { ChartsPanel } from './ChartsPanel.tsx';
import { PanelBoundary } from './ErrorBoundary.tsx';
import { useGlobalShortcuts } from './shortcuts.ts';
import { playgroundUrl } from './embed.ts';
import { useScenario, useUi } from './page.ts';

export function EmbedView({ problem }: { problem: string | null }) {
  const theme = useUi((s) => s.theme);
  const name = useScenario((s) => s.scenario.name);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  useGlobalShortcuts({ embed: true });
  return (
    <div className="embed" data-testid="embed">
      <header className="header">
        <b className="mono">{problem ? 'Leviath Playground' : name}</b>
        <span className="spacer" />
        <a href={playgroundUrl(window.location.href)} target="_blank" rel="noopener" data-testid="open-in-playground">
          Open in the playground ↗
        </a>
      </header>
      {problem ? (
        <p className="error-text" role="alert" style={{ padding: 12 }}>
          {problem}
        </p>
      ) : (
        <PanelBoundary name="timeline">
          <ChartsPanel />
        </PanelBoundary>
      )}
    </div>
  );
}
