// Skip links: the first tab stops of the page, shown when focused, each moving the focus into one
// pane, so the keyboard reaches the inspector or the editor without passing every header button,
// control and marker before it. Buttons, not `#` links: the address's fragment is the scenario's.
import type { PaneId } from '../state/ui.ts';

const TARGETS: { pane: PaneId; label: string }[] = [
  { pane: 'editor', label: 'Skip to editor' },
  { pane: 'inspector', label: 'Skip to inspector' },
  { pane: 'timeline', label: 'Skip to timeline' },
  { pane: 'traffic', label: 'Skip to traffic' },
];

/** The editor's text when Monaco is there, else the pane itself (made focusable for this). */
function focusPane(pane: PaneId): void {
  const section = document.querySelector<HTMLElement>(`[data-pane="${pane}"]`);
  if (!section) return;
  const editor = pane === 'editor' ? section.querySelector<HTMLElement>('.monaco-editor textarea') : null;
  if (editor) {
    editor.focus();
    return;
  }
  if (!section.hasAttribute('tabindex')) section.setAttribute('tabindex', '-1');
  section.scrollIntoView({ block: 'nearest' });
  section.focus();
}

export function SkipLinks() {
  return (
    <nav className="skip-links" aria-label="Skip links">
      {TARGETS.map(({ pane, label }) => (
        <button key={pane} type="button" data-testid={`skip-${pane}`} onClick={() => focusPane(pane)}>
          {label}
        </button>
      ))}
    </nav>
  );
}
