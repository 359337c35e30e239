// The whole scenario as a link: compressed into the URL fragment, with a copy button, options
// that change what the link carries (offered when the link is long), Markdown, and the embed link.
import { useEffect, useState } from 'react';
import type { Scenario } from '../engine/page.ts';
import { isLongLink, LONG_LINK_CHARS, scenarioUrl } from '../share/index.ts';
import { scenarioMarkdown } from '../share/markdown.ts';
import { inlineToolOutputs } from '../share/shrink.ts';
import { isOutOfDate } from '../state/status.ts';
import { embedUrl } from './embed.ts';
import { exportScenario } from './backup.ts';
import { Modal } from './Modal.tsx';
import { fmt } from './format.ts';
import { defaultShareOptions, MAX_FULL_LINK_CHARS, SHAPE_OPTIONS } from './import/shareOptions.ts';
import { page, transformScenario, useLibrary, useResults, useScenario } from './page.ts';

/** A change to what the link carries; each is offered only when it applies to the scenario. */
interface LinkOption {
  id: string;
  label: string;
  explain: string;
  applies: (scenario: Scenario) => boolean;
  apply: (scenario: Scenario) => Promise<Scenario>;
}

const LINK_OPTIONS: LinkOption[] = [
  {
    id: 'drop-tool-output',
    label: 'Drop inline tool output',
    explain:
      'Each tool result keeps its size (size_tokens), so the charts stay the same; the text itself is left out (scripts that read it see filler text).',
    applies: (s) => inlineToolOutputs(s) > 0,
    apply: (s) => transformScenario(s, 'drop-tool-output'),
  },
  ...SHAPE_OPTIONS,
];

type Link = { url: string } | { error: string };

function makeLink(scenario: Scenario): Link {
  try {
    const url = scenarioUrl(window.location.href, scenario);
    if (url.length > MAX_FULL_LINK_CHARS)
      return {
        error: `the link would be ${fmt(url.length)} characters, more than a browser's address bar takes (${fmt(MAX_FULL_LINK_CHARS)}); choose Shape only, or export the JSON`,
      };
    return { url };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * The link of the scenario with the chosen options applied. Options may load code (the tokenizer
 * takes seconds), so until the new link is ready the previous one stays, marked pending.
 */
function useLink(scenario: Scenario, chosen: ReadonlySet<string>): { link: Link | null; pending: boolean } {
  const [made, setMade] = useState<{ link: Link; from: Scenario; chosen: ReadonlySet<string> } | null>(null);
  useEffect(() => {
    let current = true;
    void (async () => {
      let shared = scenario;
      for (const option of LINK_OPTIONS)
        if (chosen.has(option.id) && option.applies(shared)) shared = await option.apply(shared);
      if (current) setMade({ link: makeLink(shared), from: scenario, chosen });
    })();
    return () => {
      current = false;
    };
  }, [scenario, chosen]);
  return { link: made?.link ?? null, pending: made === null || made.from !== scenario || made.chosen !== chosen };
}

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

export default function ShareDialog({ onClose }: { onClose: () => void }) {
  const scenario = useScenario((s) => s.scenario);
  const timeline = useResults((s) => s.timeline);
  // Markdown describes the timeline on screen: only once it is the scenario's own.
  const stale = useResults(
    (s) => s.status.kind === 'replaying' || (s.timeline !== null && isOutOfDate(s.status, s.timeline)),
  );
  const origin = useLibrary((s) => s.origin);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(() => defaultShareOptions(scenario, origin));
  const [copied, setCopied] = useState<string | null>(null);
  const { link, pending } = useLink(scenario, chosen);
  const options = LINK_OPTIONS.filter((o) => o.applies(scenario) || chosen.has(o.id));

  const copy = async (text: string, what: string) => {
    setCopied(
      (await copyText(text))
        ? `${what} copied to the clipboard.`
        : 'The browser refused the clipboard: select the text and copy it by hand.',
    );
  };
  const toggle = (id: string) => {
    const next = new Set(chosen);
    if (!next.delete(id)) next.add(id);
    setChosen(next);
  };

  const optionList = options.length > 0 && (
    <fieldset className="share-options">
      <legend>What the link carries</legend>
      {options.map((o) => (
        <label key={o.id} className="row" style={{ alignItems: 'flex-start' }}>
          <input
            type="checkbox"
            checked={chosen.has(o.id)}
            onChange={() => toggle(o.id)}
            data-testid={`link-option-${o.id}`}
          />
          <span>
            <b>{o.label}</b> <span className="muted">{o.explain}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
  if (!link)
    return (
      <Modal title="Share this scenario" onClose={onClose} testId="share">
        <p className="muted">Making the link…</p>
      </Modal>
    );
  if ('error' in link)
    return (
      <Modal title="Share this scenario" onClose={onClose} testId="share">
        <p className="error-text">Could not make a link: {link.error}</p>
        {optionList}
      </Modal>
    );
  const long = isLongLink(link.url);
  return (
    <Modal title="Share this scenario" onClose={onClose} testId="share">
      <p className="muted" style={{ marginTop: 0 }}>
        The link holds the blueprint, its scripts, the traffic and the model. Opening it reproduces this timeline;
        nothing is uploaded anywhere.
      </p>
      <textarea
        className="share-url"
        aria-label="Share link"
        rows={4}
        readOnly
        value={pending ? '' : link.url}
        data-testid="share-url"
        onFocus={(e) => e.target.select()}
      />
      <div className="row" style={{ marginTop: 6 }}>
        <button className="primary" disabled={pending} onClick={() => void copy(link.url, 'Link')}>
          Copy link
        </button>
        <button
          disabled={pending || !timeline || stale}
          title={
            timeline && !stale
              ? 'The link and a table of regions, budgets, final tokens, evictions and the cache prefix'
              : 'Wait for the replay to finish'
          }
          onClick={() =>
            timeline && void copy(scenarioMarkdown(page().openName(), link.url, timeline.markdown), 'Markdown')
          }
          data-testid="copy-markdown"
        >
          Copy as Markdown
        </button>
        <button
          disabled={pending}
          onClick={() => void copy(embedUrl(link.url), 'Embed link')}
          title="Chart and replay controls only, read-only, for docs and teaching pages"
        >
          Copy embed link
        </button>
        <span className={long ? 'warning-text' : 'muted'} data-testid="share-length">
          {pending ? 'Updating the link…' : `${fmt(link.url.length)} characters`}
        </span>
        {copied && <span className="ok-text">{copied}</span>}
      </div>
      {long && !pending && (
        <p className="warning-text" data-testid="long-link">
          This link is longer than {fmt(LONG_LINK_CHARS)} characters: chat apps may cut it.{' '}
          {options.length > 0 ? 'The options below shorten it, or share a file instead: ' : 'Share a file instead: '}
          <button onClick={exportScenario}>Export JSON</button>
        </p>
      )}
      {optionList}
    </Modal>
  );
}
