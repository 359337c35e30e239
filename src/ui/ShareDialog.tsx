// The whole scenario as a link: compressed into the URL fragment, with a copy button.
import { useMemo, useState } from 'react';
import { isLongLink, LONG_LINK_CHARS, scenarioUrl } from '../share/index.ts';
import { useScenario } from '../state/store.ts';
import { Modal } from './Modal.tsx';
import { fmt } from './format.ts';

export function ShareDialog({ onClose }: { onClose: () => void }) {
  const scenario = useScenario((s) => s.scenario);
  const [copied, setCopied] = useState<string | null>(null);
  const link = useMemo(() => {
    try {
      return { url: scenarioUrl(window.location.href, scenario) };
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error) };
    }
  }, [scenario]);

  const copy = async (url: string) => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied('Copied to the clipboard.');
    } catch {
      setCopied('The browser refused the clipboard: select the link and copy it by hand.');
    }
  };

  return (
    <Modal title="Share this scenario" onClose={onClose} testId="share">
      {'error' in link ? <p className="error-text">Could not make a link: {link.error}</p> : (
        <>
          <p className="muted" style={{ marginTop: 0 }}>The link holds the blueprint, its scripts, the traffic and the model. Opening it reproduces this timeline; nothing is uploaded anywhere.</p>
          <textarea className="share-url" rows={4} readOnly value={link.url} data-testid="share-url" onFocus={(e) => e.target.select()} />
          <div className="row" style={{ marginTop: 6 }}>
            <button className="primary" onClick={() => copy(link.url!)}>Copy link</button>
            <span className={isLongLink(link.url!) ? 'warning-text' : 'muted'}>
              {fmt(link.url!.length)} characters{isLongLink(link.url!) ? ` — longer than ${fmt(LONG_LINK_CHARS)}, chat apps may cut it; use a generator instead of explicit events, or export the JSON` : ''}
            </span>
            {copied && <span className="ok-text">{copied}</span>}
          </div>
        </>
      )}
    </Modal>
  );
}
