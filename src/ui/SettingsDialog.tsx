// Editor and page preferences, kept in this browser.
import { Modal } from './Modal.tsx';
import { useUi } from './page.ts';
import { FONT_SIZES, type Keybindings, type ThemeChoice } from '../state/preferences.ts';

export default function SettingsDialog({ onClose }: { onClose: () => void }) {
  const settings = useUi((s) => s.settings);
  const setSettings = useUi((s) => s.setSettings);
  return (
    <Modal title="Settings" onClose={onClose} testId="settings">
      <div className="form-grid settings">
        <label htmlFor="set-theme">Theme</label>
        <select
          id="set-theme"
          data-autofocus
          value={settings.theme}
          onChange={(e) => setSettings({ theme: e.target.value as ThemeChoice })}
        >
          <option value="system">System (follow the browser)</option>
          <option value="light">Light</option>
          <option value="dark">Dark</option>
        </select>
        <label htmlFor="set-font">Editor font size</label>
        <select
          id="set-font"
          value={settings.fontSize}
          onChange={(e) => setSettings({ fontSize: Number(e.target.value) })}
        >
          {FONT_SIZES.map((n) => (
            <option key={n} value={n}>
              {n} px
            </option>
          ))}
        </select>
        <label htmlFor="set-wrap">Word wrap</label>
        <input
          id="set-wrap"
          type="checkbox"
          checked={settings.wordWrap}
          onChange={(e) => setSettings({ wordWrap: e.target.checked })}
        />
        <label htmlFor="set-keys">Keybindings</label>
        <select
          id="set-keys"
          value={settings.keybindings}
          onChange={(e) => setSettings({ keybindings: e.target.value as Keybindings })}
        >
          <option value="standard">Standard</option>
          <option value="vim">Vim</option>
          <option value="emacs">Emacs</option>
        </select>
        <label htmlFor="set-minimap">Minimap</label>
        <input
          id="set-minimap"
          type="checkbox"
          checked={settings.minimap}
          onChange={(e) => setSettings({ minimap: e.target.checked })}
        />
      </div>
    </Modal>
  );
}
