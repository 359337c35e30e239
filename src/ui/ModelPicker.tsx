// The model the blueprint is resolved against: a built-in, or a custom window.
import { MODELS } from '../engine/models.ts';
import type { ModelRef } from '../engine/scenario.ts';
import { useScenario } from '../state/store.ts';
import { useResults } from '../state/results.ts';
import { fmt } from './format.ts';

const CUSTOM = '__custom__';

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
      <select id="model" data-testid="model" value={isCustom ? CUSTOM : model.id} onChange={(e) => choose(e.target.value)}>
        {MODELS.map((m) => <option key={m.id} value={m.id}>{m.label} — {fmt(m.window)}</option>)}
        <option value={CUSTOM}>Custom window…</option>
      </select>
      {'window' in model && (
        <>
          <input
            type="number" aria-label="Custom window (tokens)" min={1} step={1000} value={model.window}
            onChange={(e) => { const n = Number(e.target.value); if (Number.isInteger(n) && n > 0) setCustom({ window: n }); }}
            style={{ width: 100 }}
          />
          <select aria-label="Tokenizer" value={model.encoding} onChange={(e) => setCustom({ encoding: e.target.value as 'o200k_base' | 'cl100k_base' })}>
            <option value="o200k_base">o200k_base</option>
            <option value="cl100k_base">cl100k_base</option>
          </select>
        </>
      )}
      {resolved && (
        <span className="muted" title={resolved.approximate ? 'No public tokenizer: counted with o200k_base' : `Counted with ${resolved.encoding}`}>
          {resolved.encoding}{resolved.approximate ? ' (approximate)' : ''}
        </span>
      )}
      {modelError && <span className="error-text">{modelError}</span>}
    </div>
  );
}
