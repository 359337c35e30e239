// Messages that need the user's eye: a restarted worker, a link that could not open, an undo.
// Information fades after a few seconds (an Undo a little later); an error, or a notice marked
// sticky, stays until closed. One notice of each kind is on screen (state/ui.ts), so they never
// stack over the Traffic pane. A notice under the pointer or holding the focus does not fade.
import { useEffect, useRef, useState } from 'react';
import type { Notice } from '../state/ui.ts';
import { useUi } from './page.ts';

/** How long information stays, and information with an action (Undo) that must be reachable. */
export const INFO_LIFETIME_MS = 5000;
export const ACTION_LIFETIME_MS = 10_000;

function lifetimeOf(notice: Notice): number | null {
  if (notice.tone !== 'info' || notice.sticky) return null;
  return notice.action ? ACTION_LIFETIME_MS : INFO_LIFETIME_MS;
}

function NoticeItem({ notice }: { notice: Notice }) {
  const dismiss = useUi((s) => s.dismiss);
  const [held, setHeld] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const lifetime = lifetimeOf(notice);
  useEffect(() => {
    if (lifetime === null || held) return;
    const timer = setTimeout(() => {
      // A notice that replaces another under a pointer that has not moved gets no pointerenter, so
      // the element itself is asked whether it is being read before it goes.
      const el = box.current;
      if (el && (el.matches(':hover') || el.contains(document.activeElement))) setHeld(true);
      else dismiss(notice.id);
    }, lifetime);
    return () => clearTimeout(timer);
  }, [notice.id, lifetime, held, dismiss]);
  return (
    <div
      ref={box}
      className={`notice ${notice.tone}`}
      role={notice.tone === 'error' ? 'alert' : 'status'}
      data-testid={`notice-${notice.tone}`}
      data-lifetime={lifetime ?? 'until-closed'}
      onPointerEnter={() => setHeld(true)}
      onPointerLeave={() => setHeld(false)}
      onFocus={() => setHeld(true)}
      onBlur={() => setHeld(false)}
    >
      <span className="grow">{notice.text}</span>
      {notice.action && (
        <button
          onClick={() => {
            notice.action!.run();
            dismiss(notice.id);
          }}
        >
          {notice.action.label}
        </button>
      )}
      <button className="icon" aria-label="Dismiss" onClick={() => dismiss(notice.id)}>
        ✕
      </button>
    </div>
  );
}

export function Notices() {
  const notices = useUi((s) => s.notices);
  return (
    <div className="notices">
      {notices.map((n) => (
        <NoticeItem key={n.id} notice={n} />
      ))}
    </div>
  );
}
