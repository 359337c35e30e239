// A text shown as its tokens, as tiktokenizer shows them: one coloured span per token, its id on
// hover, the encoding named, and "approximate" where the model's tokenizer is not public. The
// engine worker cuts the text (src/engine/tokens.ts, tokenPieces); this only draws what it answers,
// a page of pieces at a time, so a 100 KB tool result is a few thousand spans, not tens of
// thousands. Loaded only when a reader first asks for tokens.
import { startTransition, useEffect, useState } from 'react';
import { type TokenPage, approximateNote } from '../engine/page.ts';
import { fmt } from './format.ts';
import { page, useResults } from './page.ts';
import './tokens.css';

/** Pieces drawn at once: the spans of a page are inserted and laid out in one task, so a page stays small. */
export const TOKENS_PER_PAGE = 1_000;
/** Colours cycle through this many classes (styles.css, `.tok-0` ...). */
const COLOURS = 6;

function title(ids: readonly number[]): string {
  return ids.length === 1
    ? `token ${ids[0]}`
    : `tokens ${ids.join(', ')} (one character's bytes in ${ids.length} tokens)`;
}

export default function TokenView({ text, view }: { text: string; view: string }) {
  const model = useResults((s) => s.timeline?.header.model);
  const encoding = model?.encoding ?? 'o200k_base';
  const [from, setFrom] = useState(0);
  const [answer, setAnswer] = useState<{ page: TokenPage; text: string; encoding: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    page()
      .tokens(view, text, encoding, from, TOKENS_PER_PAGE)
      // A transition: React renders the page of spans in slices, between which the page stays responsive.
      .then((result) => {
        if (live)
          startTransition(() => {
            setAnswer({ page: result, text, encoding });
            setError(null);
          });
      })
      .catch((e: unknown) => {
        if (live && !(e instanceof Error && e.name === 'CancelledError'))
          setError(e instanceof Error ? e.message : String(e));
      });
    return () => {
      live = false;
    };
  }, [view, text, encoding, from]);

  if (error) return <div className="error-text">The token view failed: {error}</div>;
  // A page of another text (the step moved) or encoding is not shown as this one's.
  const shown = answer && answer.text === text && answer.encoding === encoding ? answer.page : null;
  if (!shown)
    return (
      <div className="muted" data-testid="tokens-loading">
        Cutting {fmt(text.length)} characters into {encoding} tokens…
      </div>
    );
  const note = model ? approximateNote(model.id, encoding, model.approximate) : undefined;
  const last = shown.from + shown.pieces.length;
  const paged = shown.totalPieces > shown.pieces.length;
  return (
    <div className="token-view" data-testid="token-view" data-encoding={encoding}>
      <div className="token-head">
        <span>
          <b className="mono" data-testid="token-count">
            {fmt(shown.totalTokens)}
          </b>{' '}
          tokens · <code data-testid="token-encoding">{encoding}</code>
        </span>
        {note && (
          <span className="warning-text" data-testid="token-approximate">
            {note}
          </span>
        )}
      </div>
      {paged && (
        <div className="token-pager" data-testid="token-pager">
          <span className="muted">
            Showing pieces {fmt(shown.from + 1)}–{fmt(last)} of {fmt(shown.totalPieces)} (from character{' '}
            {fmt(shown.fromChar + 1)} of {fmt(text.length)}), {fmt(TOKENS_PER_PAGE)} at a time so a long text does not
            hold up the page.
          </span>
          <button disabled={shown.from === 0} onClick={() => setFrom(Math.max(0, shown.from - TOKENS_PER_PAGE))}>
            Previous
          </button>
          <button disabled={last >= shown.totalPieces} onClick={() => setFrom(last)}>
            Next
          </button>
        </div>
      )}
      <pre className="tokens" data-testid="tokens" tabIndex={0} aria-label={`The text as ${encoding} tokens`}>
        {shown.pieces.map((p, k) => (
          <span key={k} className={`tok tok-${(shown.from + k) % COLOURS}`} title={title(p.ids)}>
            {p.text}
          </span>
        ))}
      </pre>
    </div>
  );
}
