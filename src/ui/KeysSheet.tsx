// The `?` sheet: every shortcut of the page, from the same list the key handler reads.
import { Modal } from './Modal.tsx';
import { SHORTCUTS } from './shortcuts.ts';
import { TableScroll } from './TableScroll.tsx';

export default function KeysSheet({ onClose }: { onClose: () => void }) {
  return (
    <Modal title="Keyboard shortcuts" onClose={onClose} testId="keys-sheet">
      <TableScroll label="Shortcuts, scrolls sideways" className="wraps">
        <table className="keys">
          <thead>
            <tr>
              <th>Keys</th>
              <th>Does</th>
              <th>Where</th>
            </tr>
          </thead>
          <tbody>
            {SHORTCUTS.map((s) => (
              <tr key={s.keys}>
                <td>
                  <kbd>{s.keys}</kbd>
                </td>
                <td>{s.does}</td>
                <td className="muted">{s.where ?? 'anywhere outside a text field'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <p className="muted">
        Shortcuts do not fire while a dialog is open. In the editor, Tab indents until Ctrl + M switches it to moving
        the focus (Monaco's tab-focus mode); press Ctrl + M again to switch back.
      </p>
    </Modal>
  );
}
