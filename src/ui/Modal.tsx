// A dialog over the page; Escape or the backdrop closes it.
import { useEffect, type ReactNode } from 'react';

export function Modal({ title, onClose, children, testId }: { title: string; onClose: () => void; children: ReactNode; testId?: string }) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => { if (e.key === 'Escape') onClose(); };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <div className="modal-backdrop" onMouseDown={(e) => { if (e.target === e.currentTarget) onClose(); }}>
      <div className="modal" role="dialog" aria-modal="true" aria-label={title} data-testid={testId}>
        <div className="panel-head"><h2>{title}</h2><span className="spacer" /><button className="icon" aria-label="Close" onClick={onClose}>✕</button></div>
        <div className="panel-body">{children}</div>
      </div>
    </div>
  );
}
