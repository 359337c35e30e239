// The model the blueprint is resolved against: a built-in, or a custom window.
import { MODELS, type ModelRef } from '../engine/page.ts';
import { useState } from 'react';
import { fmt } from './format.ts';
import { useResults, useScenario } from './page.ts';

const CUSTOM = '__custom__';
/** A custom window must be a whole number in this range (the largest real windows are ~2M). */
export const MIN_CUSTOM_WINDOW = 1_000;
export const MAX_CUSTOM_WINDOW = 10_000_000;

/** Why a typed window cannot be used, or null when it can. */
export function windowProblem(text: string): string | null {
  const trimmed = text.replace(/[,_\s]/g, '');
  if (trimmed === '') return 'Type the window size in tokens, e.g. 128000.';
  if (!/^\d+$/.test(trimmed)) return `"${text}" is not a whole number of tokens.`;
  const n = Number(trimmed);
  if (n < MIN_CUSTOM_WINDOW)
    return `A window of ${fmt(n)} tokens is too small to hold a request; use at least ${fmt(MIN_CUSTOM_WINDOW)}.`;
  if (n > MAX_CUSTOM_WINDOW)
    return `${fmt(n)} tokens is more than any model offers; use at most ${fmt(MAX_CUSTOM_WINDOW)}.`;
  return null;
}

/**
 * The custom window as typed: the text is the user's (nothing is appended to it), and the model
 * only changes when the text is a usable window; otherwise a message says why.
 */
function WindowField({ window, onWindow }: { window: number; onWindow: (n: number) => void }) {
  const [draft, setDraft] = useState<string | null>(null);
  const text = draft ?? String(window);
  const problem = draft === null ? null : windowProblem(draft);
  return (
    <>
      <input
        type="text"
        inputMode="numeric"
        aria-label="Custom window (tokens)"
        value={text}
        style={{ width: 100 }}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? 'window-problem' : undefined}
        data-testid="custom-window"
        onChange={(e) => {
          setDraft(e.target.value);
          if (!windowProblem(e.target.value)) onWindow(Number(e.target.value.replace(/[,_\s]/g, '')));
        }}
        onBlur={() => {
          if (!problem) setDraft(null);
        }}
      />
      {problem && (
        <span id="window-problem" className="error-text small" role="alert">
          {problem}
        </span>
      )}
    </>
  );
}

export function ModelPicker() {
  const model = useScenario((s) => s.scenario.model);
  const setModel = useScenario((s) => s.setModel);
  const resolved = useResults((s) => s.validation?.model);
  const modelError = useResults((s) => s.validation?.modelError);
  const isCustom = 'window' in model;

  const choose = (value: string) => {
    if (value === CUSTOM) setModel({ window: resolved?.window ?? 128_000, encoding: 'o200k_base' });
    else setModel({ id: value });
  };
  const setCustom = (patch: Partial<Extract<ModelRef, { window: number }>>) => {
    if (!('window' in model)) return;
    setModel({ ...model, ...patch });
  };

  return (
    <div className="row" style={{ padding: '5px 8px' }}>
      <label htmlFor="model">Model</label>
      <select
        id="model"
        data-testid="model"
        value={isCustom ? CUSTOM : model.id}
        onChange={(e) => choose(e.target.value)}
      >
        {MODELS.map((m) => (
          <option key={m.id} value={m.id}>
            {m.label} — {fmt(m.window)}
          </option>
        ))}
        <option value={CUSTOM}>Custom window…</option>
      </select>
      {'window' in model && (
        <>
          <WindowField window={model.window} onWindow={(n) => setCustom({ window: n })} />
          <select
            aria-label="Tokenizer"
            value={model.encoding}
            onChange={(e) => setCustom({ encoding: e.target.value as 'o200k_base' | 'cl100k_base' })}
          >
            <option value="o200k_base">o200k_base</option>
            <option value="cl100k_base">cl100k_base</option>
          </select>
        </>
      )}
      {resolved && (
        <span
          className="muted"
          title={
            resolved.approximate ? 'No public tokenizer: counted with o200k_base' : `Counted with ${resolved.encoding}`
          }
        >
          {resolved.encoding}
          {resolved.approximate ? ' (approximate)' : ''}
        </span>
      )}
      {modelError && <span className="error-text">{modelError}</span>}
    </div>
  );
}
