// The verdict's sentences about a run the scenario records (an imported trace): the run as the
// provider recorded it, beside the blueprint's replay of the same traffic, in plain words. Every
// figure is the engine worker's (recorded-view.ts); this only words them.
import type { RecordedComparison } from '../worker/recorded-view.ts';
import { lostInWords } from '../engine/page.ts';
import { fmt, pct, usd } from './format.ts';

const cost = (n: number | null): string => (n === null ? 'no price on record' : usd(n));

export default function RecordedVerdict({ c, model }: { c: RecordedComparison; model: string }) {
  const { recorded, asSent, blueprint, prices } = c;
  const approx = c.approximate ? ' (approximate)' : '';
  return (
    <div className="recorded-verdict" data-testid="recorded-verdict">
      <span data-testid="as-recorded-sentence">
        As recorded: {fmt(recorded.calls)} call{recorded.calls === 1 ? '' : 's'}, peak {fmt(recorded.peakPromptTokens)}{' '}
        tokens, {cost(recorded.inputCostUsd)} of input.{' '}
      </span>
      <span data-testid="blueprint-sentence">
        Through this blueprint: peak {fmt(blueprint.peakRequestTokens)}
        {approx}, {cost(blueprint.inputCostUsd)}
        {approx},{' '}
        {blueprint.taskKept ? 'the task kept at every step' : <span className="error-text">the task lost</span>},{' '}
        {lostInWords(blueprint.lost)}
        {blueprint.readAgain > blueprint.lost.toolResultsReadAgain
          ? `; ${fmt(blueprint.readAgain)} entries read again later in all`
          : ''}
        .{' '}
      </span>
      <details className="recorded-more">
        <summary className="muted">How these were counted</summary>
        <span className="muted" data-testid="as-sent-sentence">
          Replayed as it was sent: peak {fmt(asSent.peakRequestTokens)}, {cost(asSent.inputCostUsd)}
          {asSent.medianError !== null
            ? `, a median ${pct(asSent.medianError, 1)} from the recorded prompt over ${fmt(asSent.compared)} calls`
            : ''}
          .{' '}
          {prices
            ? `Input priced as ${prices.model} (price table checked ${prices.checked}).`
            : `${model} has no price on record.`}
          {c.approximate
            ? " Approximate: this project's tokenizer stands in for the provider's; the recorded figures are the provider's own."
            : ''}
        </span>
      </details>
    </div>
  );
}
