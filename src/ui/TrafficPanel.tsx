// Middle column: the task, the generator and the explicit events, plus the replay controls.
import { Fragment, useEffect, useMemo, useState } from 'react';
import { GENERATOR_PARAMS, parseGeneratorParams } from '../scenarios/generators.ts';
import { type EventType, type GeneratorSpec, GENERATOR_KINDS, MAX_TRAFFIC_EVENTS } from '../engine/page.ts';
import { EventForm } from './EventForm.tsx';
import { EVENT_TYPES, newEvent, summarize } from './events.ts';
import { fmt, humanize } from './format.ts';
import { PaneHead } from './layout/Pane.tsx';
import { ModelPicker } from './ModelPicker.tsx';
import { BudgetTable } from './BudgetTable.tsx';
import { useResults, useScenario, useUi } from './page.ts';
import { isOutOfDate } from '../state/status.ts';

/** The parameter's own description from its schema (what the generator documents it as). */
function paramHelp(kind: GeneratorSpec['kind'], name: string): string | undefined {
  const shape = GENERATOR_PARAMS[kind].shape as Record<string, { description?: string } | undefined>;
  return shape[name]?.description;
}

/** One generator parameter, edited in the shape its default has (number, flag, text, range, mix). */
function ParamField({
  id,
  name,
  value,
  onChange,
}: {
  id: string;
  name: string;
  value: unknown;
  onChange: (v: unknown) => void;
}) {
  if (typeof value === 'number') {
    return (
      <input
        id={id}
        type="number"
        value={value}
        step={Number.isInteger(value) ? 1 : 0.05}
        onChange={(e) => onChange(Number(e.target.value))}
      />
    );
  }
  if (typeof value === 'boolean') {
    return <input id={id} type="checkbox" checked={value} onChange={(e) => onChange(e.target.checked)} />;
  }
  if (Array.isArray(value) && value.every((v) => typeof v === 'number')) {
    return (
      <span className="row">
        {value.map((v, k) => (
          <input
            key={k}
            id={k === 0 ? id : undefined}
            type="number"
            aria-label={`${humanize(name)}, ${k === 0 ? 'lowest' : 'highest'}`}
            value={v}
            onChange={(e) => onChange(value.map((x, j) => (j === k ? Number(e.target.value) : x)))}
          />
        ))}
      </span>
    );
  }
  if (value && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    return (
      <span className="row">
        {Object.entries(obj).map(([k, v]) => (
          <label key={k} className="row" style={{ gap: 2 }}>
            {humanize(k)}
            <input
              type="number"
              aria-label={`${humanize(name)}: ${humanize(k)}`}
              value={Number(v)}
              style={{ width: 56 }}
              onChange={(e) => onChange({ ...obj, [k]: Number(e.target.value) })}
            />
          </label>
        ))}
      </span>
    );
  }
  return (
    <input
      id={id}
      placeholder="(none)"
      value={typeof value === 'string' ? value : ''}
      onChange={(e) => onChange(e.target.value === '' ? null : e.target.value)}
    />
  );
}

function GeneratorForm() {
  const generator = useScenario((s) => s.scenario.generator);
  const setGenerator = useScenario((s) => s.setGenerator);
  const set = (patch: Partial<GeneratorSpec>) => generator && setGenerator({ ...generator, ...patch });
  // Parsed once per generator, not on every render of the panel.
  const parsed = useMemo(
    () => (generator ? parseGeneratorParams(generator.kind, generator.params) : null),
    [generator],
  );
  const shown: Record<string, unknown> = parsed?.ok ? parsed.params : { ...(generator?.params ?? {}) };
  return (
    <div className="section">
      <div className="row" style={{ marginBottom: 4 }}>
        <h3 style={{ margin: 0 }}>Generated traffic</h3>
        <select
          aria-label="Generator"
          data-testid="generator-kind"
          value={generator?.kind ?? ''}
          onChange={(e) => {
            const kind = e.target.value as GeneratorSpec['kind'] | '';
            setGenerator(kind ? { kind, seed: generator?.seed ?? 1, steps: generator?.steps ?? 100 } : undefined);
          }}
        >
          <option value="">none (explicit events only)</option>
          {GENERATOR_KINDS.map((k) => (
            <option key={k} value={k}>
              {humanize(k)}
            </option>
          ))}
        </select>
      </div>
      {generator && (
        <div className="form-grid">
          <label htmlFor="gen-seed" title="The same seed always generates the same events">
            Random seed
          </label>
          <input
            id="gen-seed"
            type="number"
            value={generator.seed}
            onChange={(e) => set({ seed: Math.trunc(Number(e.target.value)) })}
          />
          <label
            htmlFor="gen-steps"
            title={`How many events to generate (1 to ${fmt(MAX_TRAFFIC_EVENTS)}); a turn is never split, so a few more may come`}
          >
            Events
          </label>
          <input
            id="gen-steps"
            type="number"
            min={1}
            max={MAX_TRAFFIC_EVENTS}
            value={generator.steps}
            onChange={(e) => {
              const steps = Math.trunc(Number(e.target.value));
              if (steps >= 1 && steps <= MAX_TRAFFIC_EVENTS) set({ steps });
            }}
          />
          {Object.entries(shown).map(([name, value]) => (
            <Fragment key={`${generator.kind}.${name}`}>
              <label htmlFor={`gen-${name}`} title={paramHelp(generator.kind, name)}>
                {humanize(name)}
              </label>
              <ParamField
                id={`gen-${name}`}
                name={name}
                value={value}
                onChange={(v) => set({ params: { ...generator.params, [name]: v } })}
              />
              {paramHelp(generator.kind, name) && (
                <span className="param-help muted small">{paramHelp(generator.kind, name)}</span>
              )}
            </Fragment>
          ))}
          {parsed && !parsed.ok && (
            <div className="error-text" style={{ gridColumn: '1 / -1' }}>
              {parsed.issues.join('; ')}
            </div>
          )}
        </div>
      )}
    </div>
  );
}

function TaskInput() {
  const task = useScenario((s) => s.scenario.inputs.task);
  const setTask = useScenario((s) => s.setTask);
  return (
    <div className="section">
      <h3>
        Task{' '}
        <span className="muted" style={{ fontWeight: 400 }}>
          (the caller's <code>task</code> input)
        </span>
      </h3>
      <textarea rows={2} aria-label="Task" value={task ?? ''} onChange={(e) => setTask(e.target.value)} />
    </div>
  );
}

/**
 * Events drawn at once. An imported trace can hold tens of thousands, and a row is DOM work for each,
 * so the list shows one page and follows the replay's step from page to page.
 */
const EVENTS_PER_PAGE = 200;
/** The first event of the page that holds event `index`. */
const pageOf = (index: number): number => Math.floor(index / EVENTS_PER_PAGE) * EVENTS_PER_PAGE;

function EventList() {
  const traffic = useScenario((s) => s.scenario.traffic);
  const hasGenerator = useScenario((s) => s.scenario.generator !== undefined);
  const { addEvent, updateEvent, deleteEvent, moveEvent } = useScenario.getState();
  const steps = useResults((s) => s.timeline?.steps.count ?? null);
  const stale = useResults((s) => s.timeline !== null && isOutOfDate(s.status, s.timeline));
  const step = useUi((s) => s.step);
  const setStep = useUi((s) => s.setStep);
  const [open, setOpen] = useState<number | null>(null);
  const [addType, setAddType] = useState<EventType>('tool_result');
  const generated = steps !== null && !stale ? Math.max(0, steps - traffic.length) : null;
  const [pageStart, setPageStart] = useState(0);
  const currentEvent = generated !== null ? step - generated : -1;
  useEffect(() => {
    if (currentEvent >= 0 && currentEvent < traffic.length) setPageStart(pageOf(currentEvent));
  }, [currentEvent, traffic.length]);
  const lastPage = pageOf(Math.max(0, traffic.length - 1));
  const first = Math.min(pageStart, lastPage);
  const shown = traffic.slice(first, first + EVENTS_PER_PAGE);

  const add = () => {
    const at = open !== null ? open + 1 : traffic.length;
    addEvent(newEvent(addType, traffic, at), at);
    setOpen(at);
    setPageStart(pageOf(at));
  };

  return (
    <div className="section">
      <div className="row" style={{ marginBottom: 4 }}>
        <h3 style={{ margin: 0 }}>Events</h3>
        <span className="muted">
          {traffic.length}
          {generated ? `, after ${fmt(generated)} generated` : ''}
        </span>
        <span className="spacer" />
        <select aria-label="New event type" value={addType} onChange={(e) => setAddType(e.target.value as EventType)}>
          {EVENT_TYPES.map((t) => (
            <option key={t.type} value={t.type}>
              {t.label}
            </option>
          ))}
        </select>
        <button onClick={add} data-testid="add-event">
          Add
        </button>
      </div>
      {traffic.length > EVENTS_PER_PAGE && (
        <div className="row" data-testid="events-pager">
          <button onClick={() => setPageStart(Math.max(0, first - EVENTS_PER_PAGE))} disabled={first === 0}>
            Previous
          </button>
          <span className="muted">
            events {fmt(first + 1)}–{fmt(first + shown.length)} of {fmt(traffic.length)}
          </span>
          <button onClick={() => setPageStart(first + EVENTS_PER_PAGE)} disabled={first >= lastPage}>
            Next
          </button>
        </div>
      )}
      <ol className="event-list" data-testid="events" start={first + 1}>
        {shown.map((event, shownIndex) => {
          const i = first + shownIndex;
          const stepIndex = generated !== null ? generated + i : null;
          return (
            <li key={i}>
              <div
                className={`event ${stepIndex === step ? 'current' : ''}`}
                onClick={() => stepIndex !== null && setStep(stepIndex)}
                title={stepIndex !== null ? `Step ${stepIndex + 1}: click to inspect` : undefined}
              >
                <span className="muted mono">{i + 1}</span>
                <span className="summary">
                  <span className="badge">{event.type}</span>
                  {summarize(event)}
                </span>
                <span className="actions" onClick={(e) => e.stopPropagation()}>
                  <button
                    className="icon"
                    title="Edit"
                    aria-label={`Edit event ${i + 1}`}
                    onClick={() => setOpen(open === i ? null : i)}
                  >
                    ✎
                  </button>
                  <button
                    className="icon"
                    title="Move up"
                    aria-label={`Move event ${i + 1} up`}
                    disabled={i === 0}
                    onClick={() => {
                      moveEvent(i, -1);
                      setOpen(null);
                    }}
                  >
                    ↑
                  </button>
                  <button
                    className="icon"
                    title="Move down"
                    aria-label={`Move event ${i + 1} down`}
                    disabled={i === traffic.length - 1}
                    onClick={() => {
                      moveEvent(i, 1);
                      setOpen(null);
                    }}
                  >
                    ↓
                  </button>
                  <button
                    className="icon"
                    title="Delete"
                    aria-label={`Delete event ${i + 1}`}
                    onClick={() => {
                      deleteEvent(i);
                      setOpen(null);
                    }}
                  >
                    ✕
                  </button>
                </span>
              </div>
              {open === i && <EventForm key={`${i}:${event.type}`} event={event} onChange={(e) => updateEvent(i, e)} />}
            </li>
          );
        })}
      </ol>
      {traffic.length === 0 && (
        <div className="muted">
          No explicit events
          {hasGenerator ? '; the generator above makes the traffic.' : '. Add one, or pick a generator above.'}
        </div>
      )}
    </div>
  );
}

export function TrafficPanel() {
  return (
    <section className="panel" aria-labelledby="pane-title-traffic" data-pane="traffic">
      <PaneHead>
        <span className="muted ellipsis">the model, the task, and what happens event by event</span>
      </PaneHead>
      <div className="scroll" tabIndex={0} aria-label="Model, task and events">
        <div className="section budgets">
          <ModelPicker />
          <BudgetTable />
        </div>
        <TaskInput />
        <GeneratorForm />
        <EventList />
      </div>
    </section>
  );
}
