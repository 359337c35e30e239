// The Advise panel (loaded on demand, with the diff library it uses): runs the engine's advisor in a
// worker of its own over the scenario on screen, shows its progress through both phases with
// Cancel, then the front: each proposal's three measures against the reference, one sentence per
// change, and the diff of agent.leviath. Apply makes the proposal an ordinary edit of the editor's
// text (undoable), which replays it. The panel is not modal: the page stays usable while it runs.
import { useMemo } from 'react';
import { structuredPatch } from 'diff';
import { GOAL_PEAK_SHARE, GOAL_READ_AGAIN, type Advice, type Proposal, type Reference } from '../engine/page.ts';
import { AGENT_FILE } from '../state/scenario.ts';
import { isApplicable, type AdvisorStatus } from '../state/advisor.ts';
import { fmt, pct, usd } from './format.ts';
import { page, useAdvisor, useResults, useScenario } from './page.ts';
import './advise.css';

const linesCount = (n: number): string => `${n} line${n === 1 ? '' : 's'}`;

/** The proposal's agent.leviath against the text it was made for, as unified-diff lines. */
function diffLines(before: string, after: string): { kind: 'add' | 'del' | 'ctx' | 'hunk'; text: string }[] {
  const patch = structuredPatch(AGENT_FILE, AGENT_FILE, before, after, '', '', { context: 1 });
  return patch.hunks.flatMap((h) => [
    { kind: 'hunk' as const, text: `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@` },
    ...h.lines.map((line) => ({
      kind: line.startsWith('+') ? ('add' as const) : line.startsWith('-') ? ('del' as const) : ('ctx' as const),
      text: line,
    })),
  ]);
}

const ratio = (value: number, of: number): string => (of > 0 ? ` (${(value / of).toFixed(2)}×)` : '');

function Measures({ p, reference }: { p: Proposal; reference: Reference }) {
  return (
    <div className="advise-measures" data-testid="proposal-measures">
      <span>
        <b data-testid="proposal-peak">{fmt(p.peakRequestTokens)}</b> peak request
        {ratio(p.peakRequestTokens, reference.peakRequestTokens)}
      </span>
      <span>
        <b data-testid="proposal-cost">{usd(p.inputCostUsd)}</b> of input{ratio(p.inputCostUsd, reference.inputCostUsd)}
      </span>
      <span>
        <b data-testid="proposal-read-again">{fmt(p.readAgain)}</b> read again later
      </span>
      <span className={p.taskKept ? 'ok-text' : 'error-text'}>{p.taskKept ? 'task kept' : 'task lost'}</span>
      <span className="muted">cache reads {pct(p.cacheReadShare)} of input</span>
    </div>
  );
}

function ProposalCard({
  p,
  index,
  reference,
  before,
  applicable,
  applied,
}: {
  p: Proposal;
  index: number;
  reference: Reference;
  before: string;
  applicable: boolean;
  applied: boolean;
}) {
  const lines = useMemo(() => diffLines(before, p.toml), [before, p.toml]);
  return (
    <li className="advise-proposal" data-testid="proposal" data-index={index}>
      <div className="row">
        <b>Proposal {index + 1}</b>
        {p.meetsTarget && (
          <span
            className="ok-text"
            data-testid="proposal-target"
            title={`At most ${GOAL_PEAK_SHARE}× the peak request and no more input cost than the run compared with, the task kept, at most ${GOAL_READ_AGAIN} entries read again later`}
          >
            meets the target
          </span>
        )}
        <span className="spacer" />
        <button
          className={applied ? '' : 'primary'}
          data-testid="apply-proposal"
          disabled={!applicable || applied}
          title={
            applicable
              ? 'Apply it to agent.leviath as an edit (Ctrl+Z in the editor undoes it); the page replays it'
              : 'agent.leviath changed since the search: search again'
          }
          onClick={() => page().advisor.apply(index)}
        >
          {applied ? 'Applied' : 'Apply'}
        </button>
      </div>
      <Measures p={p} reference={reference} />
      <ul className="advise-changes" data-testid="proposal-changes">
        {p.changes.map((c, k) => (
          <li key={k}>{c}</li>
        ))}
      </ul>
      <details>
        <summary>
          agent.leviath diff ({linesCount(lines.filter((l) => l.kind === 'add').length)} added,{' '}
          {lines.filter((l) => l.kind === 'del').length} removed)
        </summary>
        <pre className="advise-diff" data-testid="proposal-diff">
          {lines.map((l, k) => (
            <div key={k} className={`diff-${l.kind}`}>
              {l.text}
            </div>
          ))}
        </pre>
      </details>
    </li>
  );
}

function Progress({ status }: { status: Extract<AdvisorStatus, { kind: 'running' }> }) {
  const words =
    status.phase === 'search'
      ? `Searching: ${fmt(status.done)} of ${fmt(status.total)} candidate blueprints judged, ${fmt(status.front)} on the front so far`
      : `Simplifying the front: ${fmt(status.done)} of at most ${fmt(status.total)} changes tried without`;
  return (
    <div className="advise-progress" role="status" data-testid="advise-progress" data-phase={status.phase}>
      <div>{words}…</div>
      <progress max={Math.max(1, status.total)} value={status.done} aria-label={words} />
    </div>
  );
}

function Front({
  advice,
  before,
  applicable,
  text,
}: {
  advice: Advice;
  before: string;
  applicable: boolean;
  text: string | undefined;
}) {
  const r = advice.asRecorded;
  // The provider's figures for the same calls, as the verdict words them (recorded-view.ts).
  const records = useResults((s) => s.timeline?.recorded?.recorded);
  if (advice.diagnostics.length > 0) {
    return (
      <div className="error-text" data-testid="advise-error">
        The advisor cannot search this scenario: {advice.diagnostics.map((d) => d.message).join('; ')}
      </div>
    );
  }
  const s = advice.search;
  return (
    <>
      <div className="advise-reference" data-testid="advise-reference" data-reference={r.of}>
        Compared with {r.of === 'asSent' ? r.source : `the starting layout (${r.source})`}: peak request{' '}
        <b>{fmt(r.peakRequestTokens)}</b>, <b>{usd(r.inputCostUsd)}</b> of input, {fmt(r.readAgain)} read again later,{' '}
        {r.taskKept ? 'task kept' : 'task lost'}.
        {r.of === 'asSent' && records && applicable ? (
          <span className="muted" data-testid="advise-reference-records">
            {' '}
            The provider&apos;s own records, the verdict&apos;s &ldquo;As recorded&rdquo;, say peak{' '}
            {fmt(records.peakPromptTokens)}
            {records.inputCostUsd === null ? '' : `, ${usd(records.inputCostUsd)}`}: the replay counts the run the way
            it counts each proposal, so that these compare like for like.
          </span>
        ) : null}
        {r.harnessTokens ? (
          <span className="muted" data-testid="advise-reference-overhead">
            {' '}
            Its requests carry the harness&apos;s {fmt(r.harnessTokens)}-token system prompt and tool definitions; a
            blueprint&apos;s do not.
          </span>
        ) : null}
      </div>
      <div className="muted small">
        {fmt(s.judged)} candidates judged ({fmt(s.replayed)} replayed to the end, {fmt(s.stoppedEarly)} stopped once
        they could not win, {fmt(s.infeasible)} broke a hard constraint, {fmt(s.invalid)} refused by validation) over{' '}
        {fmt(s.knobs)} settings{s.cancelled ? '; cancelled: the front found so far' : ''}. A proposal that meets the
        target (at most {GOAL_PEAK_SHARE}× the peak, no more input cost, the task kept, at most {GOAL_READ_AGAIN} read
        again later) comes first.
        {advice.prices
          ? ` Input priced as ${advice.prices.model} (${advice.prices.provider}), price table checked ${advice.prices.checked}.`
          : ' This model has no price on record: costs are 0 and the front is over peak and read again.'}
      </div>
      {advice.front.length === 0 ? (
        <div data-testid="advise-empty">
          No blueprint the search found beats this one on any of the three measures without breaking a constraint.
        </div>
      ) : (
        <ol className="advise-front" data-testid="advise-front">
          {advice.front.map((p, k) => (
            <ProposalCard
              key={k}
              p={p}
              index={k}
              reference={r}
              before={before}
              applicable={applicable}
              applied={p.toml === text}
            />
          ))}
        </ol>
      )}
      {!applicable && advice.front.length > 0 && (
        <div className="warning-text" data-testid="advise-stale">
          agent.leviath changed since this search: search again to apply a proposal to the text on screen.
        </div>
      )}
    </>
  );
}

export default function AdvisePanel() {
  const { status, advice, adviceFor } = useAdvisor();
  const text = useScenario((s) => s.scenario.agent[AGENT_FILE]);
  const advisor = page().advisor;
  const running = status.kind === 'running';
  // The proposals were made for `adviceFor`: applying one over later edits would undo them.
  const applicable = isApplicable({ advice, adviceFor }, text);
  return (
    <aside
      className="advise-panel"
      role="dialog"
      aria-modal="false"
      aria-labelledby="advise-title"
      data-testid="advise-panel"
      data-status={status.kind}
    >
      <div className="sub-head">
        <h2 id="advise-title">Advise</h2>
        <span className="muted small">a better blueprint for this scenario's own traffic</span>
        <span className="spacer" />
        <button onClick={() => advisor.show(false)} aria-label="Close the Advise panel">
          ×
        </button>
      </div>
      <div className="panel-body">
        <p className="muted small">
          Searches region budgets, kinds, <code>max_items</code>, sliding strategies and chunk sizes,{' '}
          <code>compact_at</code>, routing and per-tool caps, replaying this traffic through each candidate. It keeps
          the task in the window, no request over the window and required regions filled, and returns the blueprints no
          other beats on input cost, peak request and entries read again later.
        </p>
        <div className="row">
          {running ? (
            <button data-testid="advise-cancel" onClick={() => advisor.cancel()}>
              Cancel
            </button>
          ) : (
            <button className="primary" data-testid="advise-run" onClick={() => advisor.run()}>
              {advice ? 'Search again' : 'Search'}
            </button>
          )}
        </div>
        {running && <Progress status={status} />}
        {status.kind === 'cancelled' && (
          <div className="muted" data-testid="advise-cancelled">
            Cancelled. Nothing was changed.
          </div>
        )}
        {status.kind === 'failed' && (
          <div className="error-text" data-testid="advise-error">
            The search failed: {status.message}
          </div>
        )}
        {advice && adviceFor !== null && (
          <Front advice={advice} before={adviceFor} applicable={applicable} text={text} />
        )}
      </div>
    </aside>
  );
}
