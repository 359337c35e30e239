// "Copy the request as an Anthropic / OpenAI body", and download it: the inspected step's request
// in the shape the provider's API takes (src/export, the same code as `lev test --format`).
import { resolveModel, type AssembledRequest } from '../../engine/page.ts';
import { EXPORT_FORMATS, requestBody, type ExportFormat } from '../../export/index.ts';
import { useScenario, useUi } from '../page.ts';

const LABEL: Record<ExportFormat, string> = { anthropic: 'Anthropic', openai: 'OpenAI' };

export function RequestExport({ request, step }: { request: AssembledRequest; step: number }) {
  const modelRef = useScenario((s) => s.scenario.model);
  const notify = useUi((s) => s.notify);
  // What a copy did is a notice about this scenario: it fades, and goes when another opens.
  const say = (text: string, tone: 'info' | 'error' = 'info') => notify({ tone, text, about: 'scenario' });
  const body = (format: ExportFormat): string | null => {
    const model = resolveModel(modelRef);
    return model.ok ? JSON.stringify(requestBody(format, request, model.model), null, 2) : null;
  };
  const copy = async (format: ExportFormat) => {
    const text = body(format);
    if (text === null) {
      say('The model is not known: pick one first.', 'error');
      return;
    }
    try {
      await navigator.clipboard.writeText(text);
      say(`Copied the ${LABEL[format]} body.`);
    } catch {
      say('The browser refused the clipboard: use Download.', 'error');
    }
  };
  const download = (format: ExportFormat) => {
    const text = body(format);
    if (text === null) return;
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
    link.download = `request-step-${step + 1}-${format}.json`;
    link.click();
    URL.revokeObjectURL(link.href);
  };
  return (
    <span className="row" data-testid="request-export">
      {EXPORT_FORMATS.map((f) => (
        <span key={f}>
          <button
            onClick={() => void copy(f)}
            data-testid={`copy-${f}`}
            title={`Copy this request as an ${LABEL[f]} API body`}
          >
            Copy as {LABEL[f]}
          </button>
          <button
            className="icon"
            onClick={() => download(f)}
            aria-label={`Download the ${LABEL[f]} body`}
            title={`Download the ${LABEL[f]} body`}
          >
            ⤓
          </button>
        </span>
      ))}
    </span>
  );
}
