// Right column: each region against its budget with change markers, the prompt-cache prefix with
// the provider's view, and the flat-list baseline against the blueprint.
import { memo, useDeferredValue, useMemo } from 'react';
import {
  Area, CartesianGrid, ComposedChart, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis,
} from 'recharts';
import type { Change, ChangeType, Timeline } from '../engine/timeline.ts';
import { useResults } from '../state/results.ts';
import { useUi } from '../state/ui.ts';
import {
  chartedRegions, regionSeries, requestAt, requestSeries, stageChanges, stepOfInference,
  type RegionPoint, type RequestPoint, type StageChange,
} from './chartData.ts';
import { fmt, pct } from './format.ts';
import { WarningsBar } from './WarningsBar.tsx';
import { WhenVisible } from './Visible.tsx';
import { HeldReplayBanner } from './HeldReplayBanner.tsx';

export const CHANGE_COLORS: Record<ChangeType, string> = {
  evict: '#e5534b', compact: '#8957e5', reject: '#d4a72c', delete: '#768390', clear: '#db6d28',
  strip: '#c93c8f', cascade: '#b62324', replace: '#2f81f7', truncate: '#3fb950',
};
const REGION_COLORS = ['#2f6fdb', '#2da44e', '#bf8700', '#8250df', '#cf222e', '#1b7c83', '#bc4c00', '#6e7781'];
const axisTick = { fontSize: 10, fill: 'var(--muted)' };
const usd = (n: number) => `$${n < 0.01 ? n.toFixed(4) : n.toFixed(3)}`;
const compact = (n: number) => (n >= 1000 ? `${Math.round(n / 100) / 10}k` : String(n));

function ChangeList({ changes }: { changes: Change[] }) {
  return (
    <>
      {changes.slice(0, 6).map((c, k) => (
        <div key={k}>
          <span style={{ color: CHANGE_COLORS[c.type] }}>■</span> <b>{c.type}</b> {fmt(c.tokens)} tokens
          {c.entries.length ? <> · {c.entries.length} {c.entries.length === 1 ? 'entry' : 'entries'}: <span className="mono">{c.entries.slice(0, 3).join(', ')}{c.entries.length > 3 ? '…' : ''}</span></> : null}
          {c.reason ? <div className="muted">{c.reason}</div> : null}
        </div>
      ))}
      {changes.length > 6 && <div className="muted">and {changes.length - 6} more</div>}
    </>
  );
}

type TooltipProps = { active?: boolean; payload?: readonly { payload?: unknown }[] };

function RegionTooltip({ active, payload }: TooltipProps) {
  if (!active || !payload?.length) return null;
  const p = payload[0].payload as RegionPoint;
  return (
    <div className="tooltip">
      <div>Step {p.i + 1}: <b>{fmt(p.tokens)}</b> / {fmt(p.budget)} tokens</div>
      {p.changes && <ChangeList changes={p.changes} />}
    </div>
  );
}

function MarkerDot(props: { cx?: number; cy?: number; payload?: RegionPoint; index?: number }) {
  const { cx, cy, payload, index } = props;
  if (cx === undefined || cy === undefined || !payload?.changes) return <g key={index} />;
  const color = CHANGE_COLORS[payload.changes[0].type];
  return <path key={index} d={`M${cx},${cy - 5} L${cx + 4},${cy + 3} L${cx - 4},${cy + 3} Z`} fill={color} stroke="var(--panel)" strokeWidth={0.5} />;
}

const RegionChart = memo(function RegionChart({ data, color, steps, stages }: { data: RegionPoint[]; color: string; steps: number; stages: StageChange[] }) {
  return (
    <ResponsiveContainer width="100%" height={62}>
      <ComposedChart data={data} margin={{ top: 6, right: 6, bottom: 0, left: 0 }}>
        <XAxis dataKey="i" type="number" domain={[0, Math.max(1, steps - 1)]} hide />
        <YAxis width={38} tick={axisTick} tickFormatter={compact} tickCount={3} />
        <Area dataKey="tokens" type="stepAfter" stroke={color} fill={color} fillOpacity={0.2} isAnimationActive={false} dot={false} />
        <Line dataKey="budget" type="stepAfter" stroke="var(--muted)" strokeDasharray="4 3" dot={false} isAnimationActive={false} />
        <Line dataKey="marker" stroke="none" isAnimationActive={false} dot={(p: object) => <MarkerDot {...p} />} activeDot={false} />
        {stages.map((c) => <ReferenceLine key={c.i} x={c.i} stroke="var(--muted)" strokeDasharray="2 2" />)}
        <Tooltip content={RegionTooltip} isAnimationActive={false} />
      </ComposedChart>
    </ResponsiveContainer>
  );
});

function Cursor({ timeline }: { timeline: Timeline }) {
  // Drawn as an overlay bar so scrubbing does not re-render every chart.
  const step = useUi((s) => s.step);
  const share = timeline.steps.length > 1 ? Math.min(step, timeline.steps.length - 1) / (timeline.steps.length - 1) : 0;
  return <div aria-hidden style={{ position: 'absolute', top: 0, bottom: 0, left: `calc(38px + (100% - 44px) * ${share})`, width: 1, background: 'var(--accent)', pointerEvents: 'none' }} />;
}

function RegionCharts({ timeline }: { timeline: Timeline }) {
  const regions = useMemo(() => chartedRegions(timeline), [timeline]);
  const series = useMemo(() => new Map(regions.map((r) => [r, regionSeries(timeline, r)])), [timeline, regions]);
  const stages = useMemo(() => stageChanges(timeline), [timeline]);
  const step = useUi((s) => s.step);
  const at = timeline.steps[Math.min(step, timeline.steps.length - 1)];
  return (
    <div>
      <div className="chart-title"><h3>Regions</h3><span className="muted">area: tokens · dashed: resolved budget · ▲ a change · dotted line: stage change</span></div>
      <table data-testid="region-readout" aria-label="Regions at this step">
        <thead><tr><th>Region</th><th className="num">Tokens</th><th className="num">Budget</th><th className="num">Entries</th><th className="num">Used</th></tr></thead>
        <tbody>
          {regions.map((name, k) => {
            const f = at?.regions[name];
            const over = f ? f.tokens > f.budget : false;
            return (
              <tr key={name} data-region={name}>
                <td><span className="legend-dot" style={{ background: REGION_COLORS[k % REGION_COLORS.length] }} /><code>{name}</code>{f && !f.visible ? <span className="muted"> (hidden)</span> : null}</td>
                <td className={`num ${over ? 'over' : ''}`} data-testid="tokens">{fmt(f?.tokens)}</td>
                <td className="num" data-testid="budget">{fmt(f?.budget)}</td>
                <td className="num" data-testid="entries">{fmt(f?.entries)}</td>
                <td className="num">{f && f.budget ? pct(f.tokens / f.budget) : '–'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {regions.map((name, k) => (
        <div key={name} className="region-chart" data-testid={`chart-${name}`}>
          <div className="muted mono" style={{ fontSize: 11 }}>{name}</div>
          <div style={{ position: 'relative' }}>
            <WhenVisible height={62}>
              <RegionChart data={series.get(name)!} color={REGION_COLORS[k % REGION_COLORS.length]} steps={timeline.steps.length} stages={stages} />
              <Cursor timeline={timeline} />
            </WhenVisible>
          </div>
        </div>
      ))}
      <div className="row" style={{ fontSize: 11, marginTop: 2 }} data-testid="change-legend">
        {stages.map((c) => (
          <button key={c.i} className="link" onClick={() => useUi.getState().setStep(c.i)} title="Go to this step">
            stage {c.from} → {c.to} at step {c.i + 1}
          </button>
        ))}
        {(Object.keys(CHANGE_COLORS) as ChangeType[]).filter((t) => timeline.summary.changes[t]?.count).map((t) => (
          <span key={t}><span style={{ color: CHANGE_COLORS[t] }}>▲</span> {t} ×{timeline.summary.changes[t].count}</span>
        ))}
      </div>
    </div>
  );
}

function RequestTooltip({ active, payload }: TooltipProps) {
  if (!active || !payload?.length) return null;
  const p = payload[0].payload as RequestPoint;
  return (
    <div className="tooltip">
      <div>Step {p.i + 1} · inference #{p.inference}</div>
      <div>Request {fmt(p.requestTokens)} · stable prefix {fmt(p.prefixTokens)} ({pct(p.prefixShare)})</div>
      <div>Cache reads {fmt(p.cacheRead)} · flat list {fmt(p.baseline)}</div>
      <div>Task in window: blueprint {p.taskInWindow ? 'yes' : 'no'}, flat list {p.taskInBaseline ? 'yes' : 'no'}</div>
    </div>
  );
}

function CacheCard({ timeline, data }: { timeline: Timeline; data: RequestPoint[] }) {
  const step = useUi((s) => s.step);
  const at = requestAt(timeline, step)?.request;
  return (
    <div data-testid="cache">
      <div className="chart-title"><h3>Prompt cache</h3><span className="muted">stable prefix vs the whole request, per inference</span></div>
      <WhenVisible height={110}><ResponsiveContainer width="100%" height={110}>
        <LineChart data={data} margin={{ top: 4, right: 6, bottom: 0, left: 0 }}>
          <CartesianGrid stroke="var(--border)" strokeDasharray="2 4" />
          <XAxis dataKey="i" type="number" domain={[0, Math.max(1, timeline.steps.length - 1)]} tick={axisTick} tickFormatter={(v: number) => String(v + 1)} />
          <YAxis width={38} tick={axisTick} tickFormatter={compact} />
          <Line dataKey="requestTokens" name="request" stroke="#6e7781" dot={false} isAnimationActive={false} />
          <Line dataKey="prefixTokens" name="stable prefix" stroke="#2da44e" dot={false} isAnimationActive={false} />
          <Line dataKey="cacheRead" name="cache reads" stroke="#2f6fdb" strokeDasharray="3 2" dot={false} isAnimationActive={false} />
          <ReferenceLine x={Math.min(step, timeline.steps.length - 1)} stroke="var(--accent)" />
          <Tooltip content={RequestTooltip} isAnimationActive={false} />
        </LineChart>
      </ResponsiveContainer></WhenVisible>
      <div className="row muted" style={{ fontSize: 11 }}>
        <span><span className="legend-dot" style={{ background: '#6e7781' }} />request</span>
        <span><span className="legend-dot" style={{ background: '#2da44e' }} />stable prefix</span>
        <span><span className="legend-dot" style={{ background: '#2f6fdb' }} />cache reads ({timeline.model.id})</span>
        <span className="spacer" />
        <span>mean prefix share {pct(timeline.summary.meanPrefixShare)}</span>
      </div>
      {at ? (
        <div className="stat-grid" data-testid="cache-at-step">
          <div className="stat"><div className="v" data-testid="prefix-tokens">{fmt(at.prefixTokens)}</div><div className="k">stable prefix tokens ({pct(at.prefixShare)})</div></div>
          <div className="stat"><div className="v" data-testid="cache-read">{fmt(at.cache.cacheReadTokens)}</div><div className="k">cache-read tokens</div></div>
          <div className="stat"><div className="v" data-testid="input-cost">{usd(at.cache.inputCostUsd)}</div><div className="k">input cost ({usd(at.cache.costWithoutCacheUsd)} uncached)</div></div>
          <div className="muted" style={{ gridColumn: '1 / -1', fontSize: 11 }} data-testid="cache-rule">{at.cache.rule}</div>
        </div>
      ) : <div className="muted">No inference yet at this step.</div>}
    </div>
  );
}

/** The run in two sentences, above the charts: what a newcomer should notice first. */
function Verdict({ timeline }: { timeline: Timeline }) {
  const { baselineLosesTaskAt, taskLostAt, meanPrefixShare } = timeline.summary;
  const lostStep = stepOfInference(timeline, baselineLosesTaskAt);
  const ownLostStep = stepOfInference(timeline, taskLostAt);
  const setStep = useUi((s) => s.setStep);
  return (
    <div className="verdict" data-testid="comparison-verdict">
      {lostStep !== null
        ? <>A flat message list loses the task at <button className="link" onClick={() => setStep(lostStep)}>step {lostStep + 1}</button> (inference #{baselineLosesTaskAt}). </>
        : <>A flat message list keeps the task in its window for the whole run. </>}
      {ownLostStep !== null
        ? <span className="error-text">This blueprint loses it too, at step {ownLostStep + 1}. </span>
        : <span className="ok-text">This blueprint keeps it at every step. </span>}
      <span className="muted">Mean stable cache prefix: {pct(meanPrefixShare)} of each request.</span>
    </div>
  );
}

function ComparisonCard({ timeline, data }: { timeline: Timeline; data: RequestPoint[] }) {
  const lostStep = stepOfInference(timeline, timeline.summary.baselineLosesTaskAt);
  return (
    <div data-testid="comparison">
      <div className="chart-title"><h3>Flat list vs blueprint</h3><span className="muted">request tokens, same traffic</span></div>
      <WhenVisible height={110}><ResponsiveContainer width="100%" height={110}>
        <LineChart data={data} margin={{ top: 4, right: 6, bottom: 0, left: 0 }}>
          <CartesianGrid stroke="var(--border)" strokeDasharray="2 4" />
          <XAxis dataKey="i" type="number" domain={[0, Math.max(1, timeline.steps.length - 1)]} tick={axisTick} tickFormatter={(v: number) => String(v + 1)} />
          <YAxis width={38} tick={axisTick} tickFormatter={compact} />
          <ReferenceLine y={timeline.model.window} stroke="var(--error)" strokeDasharray="4 3" />
          <Line dataKey="baseline" name="flat list" stroke="#cf222e" dot={false} isAnimationActive={false} />
          <Line dataKey="requestTokens" name="blueprint" stroke="#2f6fdb" dot={false} isAnimationActive={false} />
          {lostStep !== null && <ReferenceLine x={lostStep} stroke="#cf222e" label={{ value: 'task lost', fontSize: 10, fill: '#cf222e', position: 'insideTopLeft' }} />}
          <Tooltip content={RequestTooltip} isAnimationActive={false} />
        </LineChart>
      </ResponsiveContainer></WhenVisible>
      <div className="row muted" style={{ fontSize: 11 }}>
        <span><span className="legend-dot" style={{ background: '#cf222e' }} />flat list</span>
        <span><span className="legend-dot" style={{ background: '#2f6fdb' }} />blueprint</span>
        <span>dashed: the window ({fmt(timeline.model.window)})</span>
      </div>
    </div>
  );
}

export function ChartsPanel() {
  // Deferred: a new timeline is drawn in an interruptible, time-sliced render, so drawing a dozen
  // charts never blocks typing or scrubbing.
  const timeline = useDeferredValue(useResults((s) => s.timeline));
  const stale = useResults((s) => s.timelineStale);
  const replaying = useResults((s) => s.replaying);
  const replayError = useResults((s) => s.replayError);
  const requests = useMemo(() => (timeline ? requestSeries(timeline) : []), [timeline]);
  return (
    <section className="panel" aria-label="Charts">
      <div className="panel-head">
        <h2>Timeline</h2>
        {timeline && <span className="muted">{fmt(timeline.steps.length)} steps · {fmt(timeline.summary.inferences)} inferences · {timeline.model.id}{timeline.model.approximate ? ' (approximate counts)' : ''}</span>}
      </div>
      <HeldReplayBanner />
      {replayError && <div className="banner error-text" role="alert" data-testid="replay-error">The replay failed: {replayError}</div>}
      {stale && !replayError && <div className="banner" data-testid="stale-banner">Showing the last timeline that ran: the current blueprint has errors (see the problems list).</div>}
      {timeline && <Verdict timeline={timeline} />}
      {timeline && <WarningsBar timeline={timeline} />}
      <div className="panel-body" data-testid="charts" data-ready={timeline && !replaying ? 'yes' : 'no'} data-steps={timeline?.steps.length ?? 0} data-scenario={timeline?.scenario}>
        {!timeline ? <div className="muted">Waiting for the first replay…</div> : (
          <>
            <RegionCharts timeline={timeline} />
            <CacheCard timeline={timeline} data={requests} />
            <ComparisonCard timeline={timeline} data={requests} />
          </>
        )}
      </div>
    </section>
  );
}
