// Messages that need the user's eye: a restarted worker, a link that could not open, an undo.
// Plain information fades; a notice with an action (Undo, Export) or marked sticky stays until dismissed.
import { useEffect } from 'react';
import type { Notice } from '../state/ui.ts';
import { useUi } from './page.ts';

const INFO_LIFETIME_MS = 8000;

function NoticeItem({ notice }: { notice: Notice }) {
  const dismiss = useUi((s) => s.dismiss);
  useEffect(() => {
    if (notice.tone !== 'info' || notice.sticky || notice.action) return;
    const timer = setTimeout(() => dismiss(notice.id), INFO_LIFETIME_MS);
    return () => clearTimeout(timer);
  }, [notice, dismiss]);
  return (
    <div className={`notice ${notice.tone}`} role={notice.tone === 'error' ? 'alert' : 'status'} data-testid={`notice-${notice.tone}`}>
      <span className="grow">{notice.text}</span>
      {notice.action && <button onClick={() => { notice.action!.run(); dismiss(notice.id); }}>{notice.action.label}</button>}
      <button className="icon" aria-label="Dismiss" onClick={() => dismiss(notice.id)}>✕</button>
    </div>
  );
}

export function Notices() {
  const notices = useUi((s) => s.notices);
  return <div className="notices">{notices.map((n) => <NoticeItem key={n.id} notice={n} />)}</div>;
}
