// A pane of the workspace: a title bar (double-click maximises, buttons collapse and maximise) over
// a body that scrolls on its own, so the page itself never scrolls.
import { createContext, useContext, type ReactNode } from 'react';
import type { PanelImperativeHandle } from 'react-resizable-panels';
import type { PaneId } from '../../state/ui.ts';
import { useUi } from '../page.ts';

interface PaneHandle {
  id: PaneId;
  /** The resizable panel behind this pane (null when stacked or maximised). */
  panel: () => PanelImperativeHandle | null;
}

export const PaneContext = createContext<PaneHandle | null>(null);

const TITLES: Record<PaneId, string> = {
  timeline: 'Timeline',
  inspector: 'Inspector',
  editor: 'Agent',
  traffic: 'Traffic',
};

export function paneTitle(id: PaneId): string {
  return TITLES[id];
}

/** The title bar every pane starts with; `children` sit between the title and the pane buttons. */
export function PaneHead({ children }: { children?: ReactNode }) {
  const pane = useContext(PaneContext);
  const maximized = useUi((s) => s.maximized);
  if (!pane) return null;
  const isMax = maximized === pane.id;
  const toggle = () => useUi.getState().toggleMaximized(pane.id);
  const collapse = () => {
    const panel = pane.panel();
    if (!panel) return;
    if (panel.isCollapsed()) panel.expand();
    else panel.collapse();
  };
  return (
    <div
      className="panel-head pane-head"
      onDoubleClick={(e) => {
        if (!(e.target as HTMLElement).closest('button, input, select, a')) toggle();
      }}
      title="Double-click to maximise or restore (M)"
    >
      <h2 id={`pane-title-${pane.id}`}>{TITLES[pane.id]}</h2>
      {children}
      <span className="spacer" />
      {!isMax && pane.panel() && (
        <button
          className="icon pane-button"
          onClick={collapse}
          aria-label={`Collapse or expand ${TITLES[pane.id]}`}
          title="Collapse / expand"
        >
          ▁
        </button>
      )}
      <button
        className="icon pane-button"
        onClick={toggle}
        aria-label={isMax ? `Restore ${TITLES[pane.id]}` : `Maximise ${TITLES[pane.id]}`}
        aria-pressed={isMax}
        data-testid={`maximise-${pane.id}`}
        title={isMax ? 'Restore (M or Escape)' : 'Maximise (M)'}
      >
        {isMax ? '❐' : '□'}
      </button>
    </div>
  );
}
