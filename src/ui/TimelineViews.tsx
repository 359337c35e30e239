// The timeline's views, one tab each: the window (the main chart, the change markers, the readout
// at the scrubbed step), each region, the prompt cache and the flat-list comparison. Its own chunk:
// fetched while the first replay runs. The recharts views are a further chunk, fetched when their
// tab is pointed at, so the first visit draws no recharts at all.
import { Suspense, lazy, useEffect, useMemo } from 'react';
import type { TimelineView, StageChange } from '../worker/timeline-view.ts';
import { IMPLICIT_REGION_WHY, regionColors } from './chartData.ts';
import { fmt, pct } from './format.ts';
import { jumpTo } from './jump.ts';
import { TableScroll } from './TableScroll.tsx';
import { WindowChart } from './WindowChart.tsx';
import { useResults, useUi } from './page.ts';
import type { ChartView } from '../share/view.ts';

const loadDetailCharts = () => import('./DetailCharts.tsx');
const DetailCharts = lazy(loadDetailCharts);

/** The figures at the scrubbed step: the legend of the main chart, and exact numbers. */
function RegionReadout({
  timeline,
  regions,
  colors,
}: {
  timeline: TimelineView;
  regions: string[];
  colors: Map<string, string>;
}) {
  const at = useResults((s) => s.figures);
  const meta = new Map(timeline.header.regions.map((r) => [r.name, r]));
  return (
    <TableScroll label="Regions at this step, scrolls sideways" className="readout">
      <table data-testid="region-readout" data-step={at?.index} aria-label="Regions at this step" className="compact">
        <thead>
          <tr>
            <th>Region</th>
            <th>Kind</th>
            <th className="num">Tokens</th>
            <th className="num">Budget</th>
            <th className="num">Entries</th>
            <th className="num">Used</th>
          </tr>
        </thead>
        <tbody>
          {[...regions].reverse().map((name) => {
            const f = at?.regions[name];
            const over = f ? f.tokens > f.budget : false;
            const implicit = meta.get(name)?.declared === false;
            return (
              <tr
                key={name}
                data-region={name}
                className="clickable"
                onClick={() => useUi.getState().setFocusRegion(name)}
                title="Show this region in the inspector"
              >
                <td>
                  <span className="legend-dot" style={{ background: colors.get(name) }} />
                  <code>{name}</code>
                  {implicit && (
                    <span
                      className="badge implicit"
                      title={IMPLICIT_REGION_WHY.get(name) ?? 'added by the runtime, not declared in the blueprint'}
                    >
                      implicit
                    </span>
                  )}
                  {f && !f.visible ? <span className="muted"> (hidden)</span> : null}
                </td>
                <td className="muted">{meta.get(name)?.kind}</td>
                <td className={`num ${over ? 'over' : ''}`} data-testid="tokens">
                  {fmt(f?.tokens)}
                </td>
                <td className="num" data-testid="budget">
                  {fmt(f?.budget)}
                </td>
                <td className="num" data-testid="entries">
                  {fmt(f?.entries)}
                </td>
                <td className="num">{f && f.budget ? pct(f.tokens / f.budget) : '–'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableScroll>
  );
}

function StageLinks({ stages }: { stages: StageChange[] }) {
  if (stages.length === 0) return null;
  return (
    <div className="row small" data-testid="change-legend">
      {stages.map((c) => (
        <button key={c.i} className="link" onClick={() => jumpTo(c.i)} title="Go to this step">
          stage {c.from} → {c.to} at step {c.i + 1}
        </button>
      ))}
    </div>
  );
}

const VIEWS: readonly { id: ChartView; label: string }[] = [
  { id: 'window', label: 'Window' },
  { id: 'regions', label: 'Each region' },
  { id: 'cache', label: 'Prompt cache' },
  { id: 'flat', label: 'Flat list vs blueprint' },
];

/** `onDrawn` hears which timeline the charts on screen show, once they are drawn. */
export default function TimelineViews({
  timeline,
  onDrawn,
}: {
  timeline: TimelineView;
  onDrawn: (timeline: TimelineView) => void;
}) {
  // In the UI store, so a lesson, a link and the verdict's links can choose it.
  const view = useUi((s) => s.chartView);
  // A detail view asked for before its tab was pointed at (a lesson, a link): fetch its chunk now.
  useEffect(() => {
    if (view !== 'window') void loadDetailCharts();
  }, [view]);
  const regions = timeline.charted;
  // Read, not subscribed: remembering the colours below must not redraw the charts.
  const colors = useMemo(() => regionColors(regions, useUi.getState().regionColours), [regions]);
  useEffect(() => useUi.getState().rememberRegionColours(colors), [colors]);
  const stages = timeline.stageChanges;
  return (
    <>
      <div className="view-tabs" role="tablist" aria-label="Timeline views">
        {VIEWS.map((v) => (
          <button
            key={v.id}
            role="tab"
            id={`view-${v.id}`}
            aria-selected={view === v.id}
            aria-controls="timeline-view"
            className={`tab ${view === v.id ? 'active' : ''}`}
            data-testid={`view-${v.id}`}
            onPointerEnter={v.id === 'window' ? undefined : loadDetailCharts}
            onFocus={v.id === 'window' ? undefined : loadDetailCharts}
            onClick={() => useUi.getState().setChartView(v.id)}
          >
            {v.label}
          </button>
        ))}
      </div>
      <div
        className={`panel-body timeline-body view-${view}`}
        id="timeline-view"
        role="tabpanel"
        aria-labelledby={`view-${view}`}
        tabIndex={0}
      >
        {view === 'window' && (
          <>
            <WindowChart timeline={timeline} regions={regions} colors={colors} stages={stages} onDrawn={onDrawn} />
            <StageLinks stages={stages} />
            <RegionReadout timeline={timeline} regions={regions} colors={colors} />
          </>
        )}
        {view !== 'window' && (
          <Suspense fallback={<div className="muted">Drawing the charts…</div>}>
            <DetailCharts
              view={view}
              timeline={timeline}
              regions={regions}
              colors={colors}
              stages={stages}
              onDrawn={onDrawn}
            />
          </Suspense>
        )}
      </div>
    </>
  );
}
