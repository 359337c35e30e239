// Below the charts: the scrubbed step in full — regions and their entries, the request exactly as
// the provider would receive it, and the stage ledger. All text is rendered as text.
import { lazy, memo, Suspense, useDeferredValue, useEffect, useRef, useState } from 'react';
import type { EntryDetail, RegionDetail, StepDetail } from '../engine/page.ts';
import { firstStepOfStage } from './chartData.ts';
import { MarkerGlyph } from './markers.tsx';
import { PaneHead } from './layout/Pane.tsx';
import { jumpTo } from './jump.ts';
import { summarize } from './events.ts';
import { firstLine, fmt } from './format.ts';
import { RequestExport } from './import/RequestExport.tsx';
// What fills the window: a chunk of its own, fetched with the first inspected step's breakdown.
const WindowBreakdown = lazy(() => import('./WindowBreakdown.tsx'));
import { useResults, useUi } from './page.ts';
import { isOutOfDate } from '../state/status.ts';
import { TableScroll } from './TableScroll.tsx';
import { revealInBox } from './revealInBox.ts';

/** Long texts are cut at this many characters until the reader asks for the rest. */
const PREVIEW_CHARS = 6000;

/**
 * A request block's text scrolls in its own box (styles.css `.block > pre`): given a `label`, the
 * box is a named tab stop, so the keyboard can scroll it (axe's scrollable-region-focusable).
 */
function LongText({ text, label }: { text: string; label?: string }) {
  const [all, setAll] = useState(false);
  const box = label ? { tabIndex: 0, role: 'group', 'aria-label': label } : {};
  if (all || text.length <= PREVIEW_CHARS) return <pre {...box}>{text}</pre>;
  return (
    <>
      <pre {...box}>{text.slice(0, PREVIEW_CHARS)}</pre>
      <button className="link" onClick={() => setAll(true)}>
        show all {fmt(text.length)} characters
      </button>
    </>
  );
}

// The token view is its own chunk, fetched the first time a reader asks for tokens.
const TokenView = lazy(() => import('./TokenView.tsx'));

/** A text, or (at the reader's asking) its tokens; `view` names the block for the worker's answers. */
function TextWithTokens({ text, view, label }: { text: string; view: string; label?: string }) {
  const [tokens, setTokens] = useState(false);
  return (
    <>
      <button
        className="link token-toggle"
        aria-pressed={tokens}
        data-testid="token-toggle"
        onClick={() => setTokens(!tokens)}
      >
        {tokens ? 'show text' : 'show tokens'}
      </button>
      {tokens ? (
        <Suspense fallback={<div className="muted">Loading the token view…</div>}>
          <TokenView text={text} view={view} />
        </Suspense>
      ) : (
        <LongText text={text} label={label} />
      )}
    </>
  );
}

function Entry({ entry, region }: { entry: EntryDetail; region: string }) {
  const state = entry.checklist ? `#${entry.checklist.id} ${entry.checklist.state}` : null;
  // The entry a link or a lesson names opens by itself (and the address names the one opened).
  const named = useUi((s) => s.focusRegion === region && s.focusEntry === entry.index);
  // The body is only rendered once opened: a region can hold hundreds of long entries.
  const [open, setOpen] = useState(named);
  const toggled = (now: boolean) => {
    setOpen(now);
    const ui = useUi.getState();
    if (now) {
      ui.setFocusRegion(region);
      ui.setFocusEntry(entry.index);
    } else if (named) ui.setFocusEntry(null);
  };
  return (
    <details
      className="entry"
      open={open || undefined}
      data-entry={entry.index}
      onToggle={(e) => toggled((e.currentTarget as HTMLDetailsElement).open)}
    >
      <summary>
        <span className="muted mono">{entry.index}</span>
        {entry.key !== undefined && (
          <span className="badge" title="key">
            {entry.key}
          </span>
        )}
        {state && (
          <span className={`badge ${entry.checklist?.state === 'open' ? 'warning-text' : 'ok-text'}`}>{state}</span>
        )}
        <span className="muted">{entry.kind}</span>
        <span className="first">{firstLine(entry.content, 120)}</span>
        <span className="mono muted">{fmt(entry.tokens)}</span>
      </summary>
      {open && (
        <>
          <TextWithTokens text={entry.content} view={`entry:${region}:${entry.index}`} />
          {entry.tool_calls?.length ? <pre className="muted">{JSON.stringify(entry.tool_calls, null, 1)}</pre> : null}
          {entry.checklist?.notes.length ? (
            <div className="muted">notes: {entry.checklist.notes.join(' · ')}</div>
          ) : null}
          {entry.folded && (
            <div className="muted">
              summarizes {entry.folded.entries} entries ({fmt(entry.folded.tokens)} tokens)
            </div>
          )}
        </>
      )}
    </details>
  );
}

function RegionBlock({ region }: { region: RegionDetail }) {
  const focused = useUi((s) => s.focusRegion === region.name);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (focused && ref.current) revealInBox(ref.current);
  }, [focused]);
  return (
    <div ref={ref} className={`region-block ${focused ? 'focused' : ''}`} data-testid={`inspect-${region.name}`}>
      <header>
        <code>
          <b>{region.name}</b>
        </code>
        <span className="muted">
          {region.kind}
          {region.admission === 'reject' ? ', admission reject' : ''}
          {!region.visible ? ', hidden in this stage' : ''}
        </span>
        <span className="spacer" />
        <span className="mono" data-testid="region-tokens">
          {fmt(region.tokens)}
        </span>
        <span className="muted">
          / {fmt(region.budget)} tokens · {region.entries.length} entries
        </span>
      </header>
      <div className="entries">
        {region.entries.length === 0 ? (
          <div className="muted">empty</div>
        ) : (
          region.entries.map((e) => <Entry key={e.index} entry={e} region={region.name} />)
        )}
      </div>
    </div>
  );
}

function StepSummary({ detail }: { detail: StepDetail }) {
  return (
    <div style={{ marginBottom: 6 }}>
      <div>
        <span className="badge">{detail.event.type}</span>
        {summarize(detail.event)}
      </div>
      {detail.result && <div className={detail.result.ok ? 'muted' : 'error-text'}>→ {detail.result.message}</div>}
      {detail.changes.length > 0 && (
        <div data-testid="step-changes">
          <b>What changed and why</b>
          {detail.changes.map((c, k) => (
            <div key={k} className="change">
              <MarkerGlyph kind={c.type} size={10} /> <b>{c.type}</b> in <code>{c.region}</code>: {fmt(c.tokens)} tokens
              {c.entries.length ? <> ({c.entries.map((e) => firstLine(e, 40)).join(', ')})</> : null}
              {c.reason ? <span className="muted"> — {c.reason}</span> : null}
            </div>
          ))}
        </div>
      )}
      {detail.warnings.map((w, k) => (
        <div key={k} className="warning-text" data-testid="step-warning">
          ▲ {w}
        </div>
      ))}
    </div>
  );
}

const RegionInspector = memo(function RegionInspector({ detail }: { detail: StepDetail }) {
  return (
    <section className="sub-panel" aria-label="Region inspector">
      <div className="sub-head">
        <h3>Regions at step {detail.index + 1}</h3>
        <span className="muted">
          stage <code>{detail.stage}</code>
        </span>
      </div>
      <div className="panel-body" tabIndex={0} aria-label="Regions and their entries">
        <StepSummary detail={detail} />
        {detail.regions.map((r) => (
          <RegionBlock key={r.name} region={r} />
        ))}
      </div>
    </section>
  );
});

const RequestPreview = memo(function RequestPreview({ detail }: { detail: StepDetail }) {
  const { request } = detail;
  const stripped = request.stripped.toolCalls.length + request.stripped.toolResults.length;
  return (
    <section className="sub-panel" aria-label="Request preview">
      <div className="sub-head">
        <h3>Request</h3>
        <span className="muted">
          {detail.inference ? 'sent at this inference' : 'preview: what the next inference would send'}
        </span>
        <span className="spacer" />
        <RequestExport request={request} step={detail.index} />
        <span className="mono" data-testid="request-tokens">
          {fmt(request.tokens)}
        </span>
        <span className="muted">tokens</span>
      </div>
      <div className="panel-body" data-testid="request" tabIndex={0} aria-label="The request">
        <StepWindowBreakdown step={detail.index} />
        <h3>system ({request.system.length} blocks)</h3>
        {request.system.map((b, k) => (
          <div key={k} className="block" data-testid="system-block">
            <header>
              <code>{b.region}</code>
              <span className="badge" title="provider cache hint">
                cache: {b.cache}
              </span>
              <span className="spacer" />
              <span className="mono">{fmt(b.tokens)}</span>
            </header>
            <TextWithTokens text={b.text} view={`system:${k}`} label={`System block ${k + 1}, from ${b.region}`} />
          </div>
        ))}
        <h3>messages ({request.messages.length})</h3>
        {request.messages.map((m, k) => (
          <div key={k} className="block" data-testid="message">
            <header>
              <b>{m.role}</b>
              <span className="muted">
                from <code>{m.region}</code>
              </span>
              {m.tool_call_id && <span className="mono muted">{m.tool_call_id}</span>}
              <span className="spacer" />
              <span className="mono">{fmt(m.tokens)}</span>
            </header>
            <TextWithTokens
              text={m.content}
              view={`message:${k}`}
              label={`Message ${k + 1}, ${m.role}, from ${m.region}`}
            />
            {m.tool_calls?.length ? (
              <pre className="muted">
                {m.tool_calls.map((c) => `${c.name}(${JSON.stringify(c.arguments)}) #${c.id}`).join('\n')}
              </pre>
            ) : null}
          </div>
        ))}
        {stripped > 0 && (
          <div className="warning-text">
            Stripped before sending (unpaired):{' '}
            {[
              ...request.stripped.toolCalls.map((id) => `call ${id}`),
              ...request.stripped.toolResults.map((id) => `result ${id}`),
            ].join(', ')}
          </div>
        )}
      </div>
    </section>
  );
});

/** What fills the window at this step, once the worker answered it for this step. */
function StepWindowBreakdown({ step }: { step: number }) {
  const breakdown = useResults((s) => s.breakdown);
  return breakdown ? (
    <Suspense fallback={null}>
      <WindowBreakdown breakdown={breakdown} step={step} />
    </Suspense>
  ) : null;
}

/** The first step replayed in `stage`, where a click on its ledger column lands. */
function firstStepOf(stage: string): number | undefined {
  const timeline = useResults.getState().timeline;
  return timeline ? firstStepOfStage(timeline, stage) : undefined;
}

const StageLedger = memo(function StageLedger({ detail }: { detail: StepDetail }) {
  const stages = Object.keys(detail.ledger);
  const regions = [...new Set(stages.flatMap((s) => Object.keys(detail.ledger[s] ?? {})))];
  return (
    <section className="sub-panel" aria-label="Stage ledger">
      <div className="sub-head">
        <h3>Stage ledger</h3>
        <span className="muted">tokens charged per region</span>
      </div>
      <div className="panel-body" tabIndex={0} aria-label="Tokens charged per region and stage">
        {stages.length === 0 ? (
          <div className="muted">Nothing charged yet.</div>
        ) : (
          <TableScroll label="Stage ledger, scrolls sideways">
            <table data-testid="ledger">
              <thead>
                <tr>
                  <th>Region</th>
                  {stages.map((s) => (
                    <th key={s} className="num">
                      {s}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {regions.map((r) => (
                  <tr key={r}>
                    <td>
                      <code>{r}</code>
                    </td>
                    {stages.map((s) => (
                      <td key={s} className="num">
                        <button
                          className="cell-link"
                          title={`Go to the first step of stage ${s} and show ${r}`}
                          onClick={() => {
                            const i = firstStepOf(s);
                            if (i !== undefined) jumpTo(i, r);
                          }}
                        >
                          {fmt(detail.ledger[s]?.[r] ?? 0)}
                        </button>
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </div>
    </section>
  );
});

/** Only this line follows every step before the first answer: the panel itself re-renders on answers, not on steps. */
function Inspecting() {
  const step = useUi((s) => s.step);
  return <span className="muted">Inspecting step {step + 1}…</span>;
}

export function InspectorPanel() {
  const detail = useDeferredValue(useResults((s) => s.detail));
  const error = useResults((s) => s.detailError);
  // The detail comes from the timeline on screen: out of date when it is, or when the replay failed.
  const outOfDate = useResults(
    (s) => (s.timeline !== null || s.status.kind === 'failed') && isOutOfDate(s.status, s.timeline),
  );
  return (
    <section className="panel" aria-labelledby="pane-title-inspector" data-pane="inspector">
      <PaneHead>
        <span className="muted ellipsis">
          the scrubbed step in full{outOfDate ? ' · out of date: from the last replay that finished' : ''}
        </span>
      </PaneHead>
      {!detail ? (
        <div className="panel-body">{error ? <span className="error-text">{error}</span> : <Inspecting />}</div>
      ) : (
        <div className="inspector" data-testid="inspector" data-step={detail.index}>
          <RegionInspector detail={detail} />
          <RequestPreview detail={detail} />
          <StageLedger detail={detail} />
        </div>
      )}
    </section>
  );
}
