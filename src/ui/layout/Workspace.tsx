// The workspace: timeline over inspector on the left (what the eye meets first), the editor over
// the traffic on the right. Panes resize and collapse (sizes kept in this browser), any pane can
// fill the workspace, and below 900 px wide they stack in one column.
import { startTransition, useEffect, useState, type ReactNode } from 'react';
import { nextFrame } from '../tasks.ts';
import { Group, Panel, Separator, useDefaultLayout, usePanelCallbackRef } from 'react-resizable-panels';
import type { PaneId } from '../../state/ui.ts';
import { PaneContext } from './Pane.tsx';
import { useUi } from '../page.ts';

/** Below this width the panes stack and the page scrolls down (never sideways). */
export const STACK_BELOW_PX = 900;

/** The panes' sizes, kept with the other preferences (the UI store's `layouts`, persisted with it). */
const layoutStorage = {
  getItem: (key: string): string | null => useUi.getState().layouts[key] ?? null,
  setItem: (key: string, sizes: string): void => useUi.getState().setLayout(key, sizes),
};

function useNarrow(): boolean {
  const query = `(max-width: ${STACK_BELOW_PX - 1}px)`;
  const [narrow, setNarrow] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const list = window.matchMedia(query);
    const onChange = () => setNarrow(list.matches);
    list.addEventListener('change', onChange);
    return () => list.removeEventListener('change', onChange);
  }, [query]);
  return narrow;
}

type Render = (id: PaneId) => ReactNode;

/**
 * The page's first draw comes a part per frame, so that no task styles and lays out the whole page:
 * the header alone; then the panels' frames, which measure themselves as they mount (forcing a
 * layout, now of the frames only); then each pane's contents, a frame after the one before. A part
 * mounted after the first draw (a pane restored from maximised) shows at once.
 */
const firstDraw = { frames: { drawn: false }, contents: { drawn: false } };
let lastPart = Promise.resolve();

function useDrawnInTurn(part: { drawn: boolean }): boolean {
  const [shown, setShown] = useState(part.drawn);
  useEffect(() => {
    if (shown) return;
    part.drawn = true;
    lastPart = lastPart.then(nextFrame).then(() => startTransition(() => setShown(true)));
  }, [shown, part]);
  return shown;
}

function AfterFrames({ children }: { children: ReactNode }) {
  return useDrawnInTurn(firstDraw.contents) ? children : null;
}

function ResizablePane({
  id,
  render,
  defaultSize,
  minSize,
}: {
  id: PaneId;
  render: Render;
  defaultSize: string;
  minSize: string;
}) {
  const [handle, setHandle] = usePanelCallbackRef();
  return (
    <Panel
      id={`pane-${id}`}
      panelRef={setHandle}
      defaultSize={defaultSize}
      minSize={minSize}
      collapsible
      collapsedSize="31px"
      className="pane-slot"
    >
      <PaneContext.Provider value={{ id, panel: () => handle }}>
        <AfterFrames>{render(id)}</AfterFrames>
      </PaneContext.Provider>
    </Panel>
  );
}

function Column({
  id,
  top,
  bottom,
  render,
  topSize,
}: {
  id: string;
  top: PaneId;
  bottom: PaneId;
  render: Render;
  topSize: number;
}) {
  const layout = useDefaultLayout({ id, storage: layoutStorage });
  return (
    <Group id={id} orientation="vertical" defaultLayout={layout.defaultLayout} onLayoutChanged={layout.onLayoutChanged}>
      <ResizablePane id={top} render={render} defaultSize={`${topSize}%`} minSize="120px" />
      <Separator className="separator horizontal" />
      <ResizablePane id={bottom} render={render} defaultSize={`${100 - topSize}%`} minSize="90px" />
    </Group>
  );
}

export function Workspace({ render }: { render: Render }) {
  const narrow = useNarrow();
  const framesShown = useDrawnInTurn(firstDraw.frames);
  const maximized = useUi((s) => s.maximized);
  const layout = useDefaultLayout({ id: 'columns', storage: layoutStorage });

  if (maximized) {
    return (
      <main className="workspace maximized" data-layout="maximized">
        <PaneContext.Provider value={{ id: maximized, panel: () => null }}>{render(maximized)}</PaneContext.Provider>
      </main>
    );
  }
  if (narrow) {
    return (
      <main className="workspace stacked" data-layout="stacked">
        {(['timeline', 'editor', 'traffic', 'inspector'] as const).map((id) => (
          <div key={id} className={`stack-slot stack-${id}`}>
            <PaneContext.Provider value={{ id, panel: () => null }}>{render(id)}</PaneContext.Provider>
          </div>
        ))}
      </main>
    );
  }
  if (!framesShown) return <main className="workspace" data-layout="panes" />;
  return (
    <main className="workspace" data-layout="panes">
      <Group
        id="columns"
        orientation="horizontal"
        defaultLayout={layout.defaultLayout}
        onLayoutChanged={layout.onLayoutChanged}
      >
        <Panel id="col-main" defaultSize="56%" minSize="400px">
          <Column id="col-main-panes" top="timeline" bottom="inspector" render={render} topSize={60} />
        </Panel>
        <Separator className="separator vertical" />
        <Panel id="col-side" defaultSize="44%" minSize="520px">
          <Column id="col-side-panes" top="editor" bottom="traffic" render={render} topSize={62} />
        </Panel>
      </Group>
    </main>
  );
}
